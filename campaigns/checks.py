"""System checks of our own, run by `manage.py check --deploy`."""

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def secret_key_is_configured(app_configs: Any, **kwargs: Any) -> list[Error]:
    """Without SECRET_KEY the settings fall back to a per-process random key (so the
    engine command works unconfigured); a deployment must never run like that."""
    if getattr(settings, "SECRET_KEY_FROM_ENV", False):
        return []
    return [
        Error(
            "SECRET_KEY is not set: sessions and password reset links would not survive a restart.",
            hint="Set the SECRET_KEY environment variable (docs/operations.md, Settings).",
            id="campaigns.E001",
        )
    ]
