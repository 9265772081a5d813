"""Every page of the site, read from the URL configuration itself (django.urls.get_resolver),
so that tests which must cover every page find a new one without anyone listing it:
the hostile-input test (tests/web/test_hostile_input.py) and the fog-of-war crawl with its
authorization matrix (tests/web/test_crawl.py)."""

from __future__ import annotations

from typing import Any


def site_patterns() -> dict[str, dict[str, str]]:
    """name -> {path parameter: converter class name} for every named URL outside the
    admin (Django's own, for staff only; tests/web/test_fog_pages.py keeps players out)."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found: dict[str, dict[str, str]] = {}

    def walk(patterns: list[Any], inherited: dict[str, str]) -> None:
        for entry in patterns:
            own = {k: type(c).__name__ for k, c in entry.pattern.converters.items()}
            if isinstance(entry, URLResolver):
                if entry.namespace != "admin":
                    walk(entry.url_patterns, {**inherited, **own})
            elif isinstance(entry, URLPattern) and entry.name:
                found[entry.name] = {**inherited, **own}

    walk(get_resolver().url_patterns, {})
    return found


def site_url_names() -> set[str]:
    return set(site_patterns())
