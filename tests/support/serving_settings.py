"""The site's settings for a test that runs it under gunicorn (tests/test_benchmarks.py):
production's own (illumineaucracy/settings.py), with static files by their plain names, so
the test needs no collectstatic (the manifest of hashed names exists only after it)."""

from illumineaucracy.settings import *  # noqa: F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
