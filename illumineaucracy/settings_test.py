"""Settings for the test suite (pytest): the real settings, adjusted for a test run.

pytest-django runs with DEBUG off, so the real settings would refuse to start without a
SECRET_KEY, redirect the test client to HTTPS and look for collectstatic's manifest.
"""

import os

# Must be set before the real settings are read, which refuse to start without it.
os.environ.setdefault("SECRET_KEY", "tests-only-not-a-secret")

from illumineaucracy.settings import *  # noqa: E402, F403

# The test client and the live server speak plain HTTP.
SECURE_SSL_REDIRECT = False
# No collectstatic in tests: serve static files straight from the apps, unhashed.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Hashing passwords the proper way is deliberately slow; tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Throttle counts live in this process only (the real default is a folder shared by every
# process, which would carry counts from one test run to the next).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # A LOCATION of its own: locmem caches of one LOCATION share their entries, and tests
    # clear the throttles' cache without meaning the pages.
    "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages"},
}
# Tasks queued by the code under test (the turn's mail after commit) run at once, in this
# process, with their errors raised. The tests that need a real worker and the real broker
# (tests/services/test_turn_job_worker.py) switch this off for their own calls.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
