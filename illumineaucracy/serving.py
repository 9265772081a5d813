"""The one check made before the site is served (wsgi.py, and gunicorn.conf.py before it forks
any worker)."""

import sys

NO_KEY = (
    "error: refusing to serve the site without SECRET_KEY (set SECRET_KEY, or DEBUG=true "
    "for development only)"
)


def refuse_without_secret_key() -> None:
    """Without SECRET_KEY the settings make up a key per process (so tools run unconfigured),
    but every gunicorn worker would then sign sessions the others refuse. Serving the site
    that way is never right outside development: stop with one line. Exit status 4 is
    gunicorn's "App failed to load": it stops at once instead of restarting workers."""
    from django.conf import settings

    if not settings.DEBUG and not settings.SECRET_KEY_FROM_ENV:
        print(NO_KEY, file=sys.stderr, flush=True)
        sys.exit(4)
