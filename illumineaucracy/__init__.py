# Load the Celery app whenever Django starts, so that @shared_task binds to it and a task
# sent from a web request goes to the configured broker.
from illumineaucracy.celery import app as celery_app

__all__ = ["celery_app"]
