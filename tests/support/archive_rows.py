"""What the archive tests compare: the rows of every table, and an archive without its slug."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model


def without_slug(archive: dict[str, Any]) -> dict[str, Any]:
    """The archive but for the slug, the checksum that covers it, and the open turn's
    commitment (its secret seed never leaves the site, R23: the import draws a new one)."""
    out = {k: v for k, v in archive.items() if k != "checksum"}
    out["campaign"] = {k: v for k, v in archive["campaign"].items() if k != "slug"}
    out["turns"] = [
        {**t, "commitment": None} if t["status"] == "open" else t for t in archive["turns"]
    ]
    return out


def row_counts() -> dict[str, int]:
    """Rows of every model of the site and of the users: what an import could leave behind."""
    models = [*apps.get_app_config("campaigns").get_models(), get_user_model()]
    return {model.__name__: model.objects.count() for model in models}
