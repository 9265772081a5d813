"""The offices' marks on a department's card (RULES R80): {{ dept.node|posts_in:page.posts }}
gives the posts (selectors/office_views.Post) of the department with that map key."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def posts_in(node: object, posts: Any) -> list[Any]:
    """The posts of one department (its node key) in a page's `posts`; none where the page
    has none (a card drawn on another page)."""
    if not isinstance(posts, dict):
        return []
    found: list[Any] = posts.get(str(node), [])
    return found
