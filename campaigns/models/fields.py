"""The JSON column the models use: Django's JSONField, read with orjson (campaigns.jsoncodec).

Django reads a JSON column as text and decodes it with the standard library. On the pages
and in the turn job that is most of the work of reading a big board (four JSON values per
department) or a turn's history records (megabytes each), and orjson does it several times
faster. Anything orjson refuses goes to the standard library, as jsoncodec.loads
does, so a value reads back exactly as Django would read it.

To migrations it is a plain models.JSONField (deconstruct): the column, its type and the
migrations do not change."""

from __future__ import annotations

import json
from typing import Any

from django.db import models

from campaigns import jsoncodec


class JSONField(models.JSONField):  # type: ignore[type-arg]
    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if type(value) is not str or self.decoder is not None:
            return super().from_db_value(value, expression, connection)
        try:
            return jsoncodec.loads(value)
        except json.JSONDecodeError:
            return value  # as Django does: text that is not JSON is given back as it is

    def deconstruct(self) -> Any:
        name, _, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs
