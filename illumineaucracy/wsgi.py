"""WSGI entry point for production servers: `gunicorn illumineaucracy.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "illumineaucracy.settings")

application = get_wsgi_application()
