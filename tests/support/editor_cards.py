"""The department editor in tests: a department card as the editor's form posts it, a department of
the City board, and the URL of an editor page."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns.models import Department

SLUG = "tourmaline"  # the demo campaign


def card(dept: Department | None = None, **changes: Any) -> dict[str, Any]:
    """The department form's post: `dept`'s values (or a blank card), with `changes`.
    `functions` is a dict name -> skill."""
    data: dict[str, Any] = {
        "name": "", "description": "", "effect": 0, "obstruct": 0, "impress": 0,
        "consumes_type": "", "consumes_amount": 0, "produces_type": "", "produces_amount": 0,
        "flaws": "", "money": 0, "people": 0, "authority": 0, "alignments": [],
        "controller": "", "home": False, "functions": {},
    }  # fmt: skip
    if dept is not None:
        data.update({k: getattr(dept, k) for k in data if hasattr(dept, k)})
        data["controller"] = str(dept.structure.player_id) if dept.structure_id else ""
        data["functions"] = dict(dept.functions)
    data.update(changes)
    functions = data.pop("functions")
    post = {k: str(v) for k, v in data.items() if k not in ("alignments", "home")}
    post["alignments"] = list(data["alignments"])
    if data["home"]:
        post["home"] = "on"
    post.update({
        "functions-TOTAL_FORMS": str(len(functions) + 1), "functions-INITIAL_FORMS": "0",
        "functions-MIN_NUM_FORMS": "0", "functions-MAX_NUM_FORMS": "1000",
    })  # fmt: skip
    for i, (name, skill) in enumerate(functions.items()):
        post[f"functions-{i}-name"], post[f"functions-{i}-skill"] = name, str(skill)
    return post


def dept_url(name: str, slug: str, board: str = "city", *extra: Any) -> str:
    return reverse(name, args=[SLUG, board, slug, *extra])


def city(slug: str) -> Department:
    return Department.objects.select_related("structure").get(board__slug="city", slug=slug)
