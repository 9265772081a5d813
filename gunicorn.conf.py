"""gunicorn reads this file from the working directory (`gunicorn illumineaucracy.wsgi`).

The check that refuses to serve without SECRET_KEY runs here, in the master, before any
worker is forked: when every worker fails on its own, gunicorn's master can trip over
their exits and print a traceback instead of our one line."""

import os


def on_starting(server: object) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "illumineaucracy.settings")
    from illumineaucracy.serving import refuse_without_secret_key

    refuse_without_secret_key()
