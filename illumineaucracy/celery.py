"""The Celery app: `celery -A illumineaucracy worker -B` runs the worker and the beat clock.

All configuration lives in Django settings under the CELERY_ prefix (illumineaucracy/settings.py).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "illumineaucracy.settings")

app = Celery("illumineaucracy")
# Lazy: settings are read when the app is first used, not when this module is imported.
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds tasks.py in every installed app (campaigns.tasks).
app.autodiscover_tasks()
