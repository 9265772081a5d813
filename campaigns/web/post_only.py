"""Actions (cancel an order, mark ready, log out...) change something, so they take only a
POST. A GET of one (a bookmarked or shared address, a link followed from a mail, a page
reloaded after the form was sent) is sent on to the page the action belongs to, instead of
a blank "405": that page says what there is to do, and checks who may see it.

The page is found from the action's own address alone (no query), so a GET changes
nothing and tells nobody whether the order, player or message the address names exists."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect

View = Callable[..., HttpResponse]


def post_only(page: str, *params: str) -> Callable[[View], View]:
    """An action view: POST runs it; GET and HEAD redirect to the URL named `page`, reversed
    with the action's path values named `params` (in the order `page` takes them); any
    other method is refused with 405."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def action(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return redirect(page, *(kwargs[name] for name in params))
            if request.method != "POST":
                return HttpResponseNotAllowed(["POST"])
            return view(request, *args, **kwargs)

        action.post_only_page = page  # type: ignore[attr-defined]  # for the tests
        return action

    return decorate
