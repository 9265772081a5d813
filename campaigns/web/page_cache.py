"""Whole campaign pages cached per viewer, applied to a view in urls.py.

A page is stored under (viewer, path with query, language, time zone, release, version),
where the version (selectors/page_versions.py) moves with every write to anything the
campaign's pages show, and with the viewer's own profile and unread messages. It is read
before the view renders, so what is stored under a version is never older than it. Every
middleware still runs on a hit (session, log-in, language and zone, security headers); the
hit itself costs the version's one query.

Only GET answers of 200 with HTML, for a signed-in member of the campaign, with no message
waiting to be shown (a page that shows one is never stored, so a hit never swallows one).
The CSRF token in a stored page is replaced by a placeholder, and by a token of the reader's
own on the way out, so the forms of a cached page still post. PAGE_CACHE=false turns it off.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import _unmask_cipher_token, get_token
from django.utils import timezone, translation

from campaigns.selectors.page_versions import page_version

logger = logging.getLogger(__name__)
# A NUL never reaches a page from data (forms refuse it, PostgreSQL cannot store it).
PLACEHOLDER = b"\x00csrf-token\x00"
# A masked CSRF token: 64 letters and digits (Django's CSRF_TOKEN_LENGTH).
TOKEN = re.compile(rb"(?<![A-Za-z0-9])[A-Za-z0-9]{64}(?![A-Za-z0-9])")
# Weeks at most: a stale version's pages are never asked for again, this only frees memory.
TIMEOUT = 7 * 24 * 3600
FRESH_SECONDS = 300

type View = Callable[..., HttpResponse]


def cached_page(view: View) -> View:
    """The view, served from the page cache when it may be (see the module's docstring)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        key = _key(request, kwargs.get("slug"))
        if key is None:
            return view(request, *args, **kwargs)
        cache = caches["pages"]
        try:
            stored = cache.get(key)
        except Exception:  # the cache's server is down: serve the page as if uncached
            logger.warning("page cache unreachable", exc_info=True)
            return view(request, *args, **kwargs)
        if stored is not None:
            content_type, body = stored
            token = get_token(request).encode()
            response = HttpResponse(body.replace(PLACEHOLDER, token), content_type=content_type)
            response.page_cache_hit = True  # type: ignore[attr-defined]  # for the tests
            return response
        response = view(request, *args, **kwargs)
        body = _storable(request, response)
        if body is not None:
            try:
                cache.set(key, (response["Content-Type"], body), TIMEOUT)
            except Exception:  # as above: the page was served, only not kept
                logger.warning("page cache unreachable", exc_info=True)
        return response

    return wrapper


def _key(request: HttpRequest, slug: object) -> str | None:
    if not settings.PAGE_CACHE or request.method != "GET" or not isinstance(slug, str):
        return None
    if not request.user.is_authenticated or len(messages.get_messages(request)):
        return None
    version = page_version(user_id=request.user.pk, slug=slug)
    if version is None:
        return None
    parts = (
        str(request.user.pk),
        request.get_full_path(),
        translation.get_language() or "",
        timezone.get_current_timezone_name(),
        release(),
        version,
        # Pages also change with the clock alone (R46's last 24 hours before a deadline take
        # linking attempts off the orders page; a deadline passes): nothing older than
        # FRESH_SECONDS is served, whatever the versions say.
        str(int(time.time()) // FRESH_SECONDS),
    )
    return "page:" + hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _storable(request: HttpRequest, response: HttpResponse) -> bytes | None:
    """The page with its CSRF tokens replaced, or None if it must not be stored."""
    if response.status_code != 200 or response.streaming:
        return None
    if not response.get("Content-Type", "").startswith("text/html"):
        return None
    # A page that added a message (none was waiting: _key), changed the session or set a
    # cookie of its own is not the same page for the next request.
    storage = messages.get_messages(request)
    if getattr(storage, "added_new", False):
        return None
    if request.session.modified or response.cookies:
        return None
    secret = request.META.get("CSRF_COOKIE")
    body = response.content

    def placeholder(match: re.Match[bytes]) -> bytes:
        token = match.group(0).decode()
        if secret and _unmask_cipher_token(token) == secret:
            return PLACEHOLDER
        return match.group(0)

    return TOKEN.sub(placeholder, body)


@functools.cache
def release() -> str:
    """RELEASE if set, else a digest of the names, sizes and times of the code, templates
    and catalogues: a new release never serves the pages of the old one."""
    if settings.RELEASE:
        return str(settings.RELEASE)
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for folder in ("campaigns", "templates", "locale", "illumineaucracy"):
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in {".py", ".html", ".mo", ".txt", ".json"}:
                stat = path.stat()
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]
