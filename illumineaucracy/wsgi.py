"""WSGI entry point for production servers: `gunicorn illumineaucracy.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

from illumineaucracy.serving import refuse_without_secret_key, warm_up

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "illumineaucracy.settings")
refuse_without_secret_key()

application = get_wsgi_application()
warm_up()
