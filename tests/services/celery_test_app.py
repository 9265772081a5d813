"""The project's Celery app for a worker started by a test (test_turn_job_worker.py).

Its default queue is TEST_CELERY_QUEUE, a name unique to that test run, so the worker takes
only the messages the test sends, and the tasks those tasks queue (process_turn.delay) land
in the same queue: a developer's worker on the same Redis never sees them, and this worker
never takes theirs. Everything else is illumineaucracy/celery.py and the settings.

    TEST_CELERY_QUEUE=q celery -A tests.services.celery_test_app worker --pool=solo
"""

import os

from illumineaucracy.celery import app

app.conf.task_default_queue = os.environ["TEST_CELERY_QUEUE"]

__all__ = ["app"]
