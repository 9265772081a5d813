"""Logging filters used by LOGGING in settings.py."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied


class PermissionDeniedInOneLine(logging.Filter):
    """Django logs every PermissionDenied on django.request with its full traceback, as if
    it were a crash. A 403 is an ordinary answer (a player opening a GM page): keep the line
    and the reason, drop the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, PermissionDenied):
            record.exc_info = None
            record.exc_text = None
            reason = " ".join(str(error).split())  # one line, whatever the message holds
            if reason and isinstance(record.args, tuple):
                record.msg = f"{record.msg} (%s)"
                record.args = (*record.args, reason)
        return True
