"""Requests no page can read, refused with a 400 before anything reads them.

A POST declaring a charset other than UTF-8 (or one Python does not know), a body whose
percent-escapes are not UTF-8, and a URL path holding a NUL byte. Without this, Django
answered the first with BadRequest from inside the CSRF check, and its 400 view runs that
check again, which reads the body again: four chained tracebacks and a 500. Django decodes
undecodable bytes as U+FFFD and carries on, so a login or a sign-up went ahead with a
mangled name; PostgreSQL refuses NUL in text, so a NUL reaching a lookup (`/join/%00/`) was
a 500. settings.MIDDLEWARE puts this before the CSRF check and axes, which read the POST.
"""

from __future__ import annotations

import codecs
import logging
from collections.abc import Callable
from urllib.parse import parse_qsl

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render

logger = logging.getLogger(__name__)

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"
# What Django's multipart parser puts where bytes did not decode (it never refuses them).
REPLACEMENT = "\ufffd"


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's 400 page (also settings' handler400). Django's own 400 view runs the CSRF
    check, which reads the POST that could not be read: a 500 again. Before the
    authentication middleware ran the reader is shown as a visitor."""
    if not hasattr(request, "user"):
        request.user = AnonymousUser()
    return render(request, "400.html", status=400)


def unreadable(request: HttpRequest) -> str:
    """Why the request cannot be read ("" if it can): for the log, not for the reader."""
    if "\x00" in request.path_info:
        return "NUL in the path"
    if request.method != "POST":
        return ""  # Django reads a body into request.POST only for a POST
    charset = request.content_params.get("charset")
    if charset is not None:
        try:
            name = codecs.lookup(charset).name
        except LookupError:
            return f"unknown charset {charset!r}"
        if name != "utf-8":
            return f"charset {charset!r}, not UTF-8"
    try:
        if request.content_type == FORM:
            return undecodable_form(request.body)
        if request.content_type == MULTIPART:
            return undecodable_multipart(request)
    except (BadRequest, SuspiciousOperation, MultiPartParserError, UnreadablePostError) as error:
        return str(error)  # too big, too many fields, a broken multipart body, a lost client
    return ""


def undecodable_form(body: bytes) -> str:
    try:
        parse_qsl(
            body.decode("utf-8"),
            keep_blank_values=True,
            errors="strict",
            max_num_fields=settings.DATA_UPLOAD_MAX_NUMBER_FIELDS,
        )
    except UnicodeDecodeError:
        return "a form body that is not UTF-8"
    except ValueError:
        return "too many fields"
    return ""


def undecodable_multipart(request: HttpRequest) -> str:
    """Django decodes every field and file name of a multipart body itself, replacing what
    does not decode; a U+FFFD in them is such a replacement (or one pasted on purpose,
    which no name or order of this site needs)."""
    texts = [*request.POST, *request.FILES]
    texts += [value for values in request.POST.lists() for value in values[1]]
    texts += [upload.name or "" for upload in request.FILES.values()]
    return "a multipart body that is not UTF-8" if any(REPLACEMENT in t for t in texts) else ""


class BadRequestMiddleware:
    """Answers an unreadable request with the 400 page; nothing after it runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        reason = unreadable(request)
        if not reason:
            return self.get_response(request)
        # One line, no traceback: the reader's mistake, not the site's.
        logger.warning("Bad request %s %r: %s", request.method, request.path, reason)
        return bad_request(request)
