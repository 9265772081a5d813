"""WSGI entry point for production servers: `gunicorn illumineaucracy.wsgi`."""

import os
import sys

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "illumineaucracy.settings")

# Without SECRET_KEY the settings make up a key per process (so tools run unconfigured),
# but every gunicorn worker would then sign sessions the others refuse. Serving the site
# that way is never right outside development: stop with one line. Exit status 4 is
# gunicorn's "App failed to load": it stops at once instead of restarting workers forever,
# and prints no traceback (an exception here would print one per worker).
if not settings.DEBUG and not settings.SECRET_KEY_FROM_ENV:
    print(
        "error: refusing to serve the site without SECRET_KEY (set SECRET_KEY, or DEBUG=true "
        "for development only)",
        file=sys.stderr,
        flush=True,
    )
    sys.exit(4)

application = get_wsgi_application()
