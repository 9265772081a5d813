"""What a form is bound to."""

from __future__ import annotations

from django.http import HttpRequest, QueryDict


def posted(request: HttpRequest) -> QueryDict | None:
    """The POST data of a POST, even an empty one, else None. (`request.POST or None` would
    leave a form posted with no fields unbound: shown again as new, without saying what is
    missing.)"""
    return request.POST if request.method == "POST" else None
