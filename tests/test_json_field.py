"""campaigns/models/fields.py: the models' JSON columns are read with orjson, and read back
exactly what Django's own JSONField reads, whatever the value; migrations see no change."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import models
from hypothesis import given

from campaigns.models import AuditEntry, Campaign
from campaigns.models.fields import JSONField
from tests.support.json_documents import documents

DJANGO = models.JSONField()
OURS = JSONField()


def typed(value: Any) -> Any:
    """`value` with each leaf's type beside it (so 1 and 1.0 differ) and its objects' keys
    sorted (jsonb does not keep their order)."""
    if isinstance(value, dict):
        return sorted((key, typed(item)) for key, item in value.items())
    if isinstance(value, list):
        return [typed(item) for item in value]
    return (type(value).__name__, repr(value))


def same(a: Any, b: Any) -> bool:
    return typed(a) == typed(b)


@given(documents)
def test_a_stored_value_reads_back_as_djangos_jsonfield_reads_it(value: Any) -> None:
    text = json.dumps(value)
    assert same(OURS.from_db_value(text, None, None), DJANGO.from_db_value(text, None, None))


@pytest.mark.parametrize("text", ["not json", "{", "", "NaN", "Infinity", "[1e400]", "9" * 30])
def test_odd_text_reads_as_django_reads_it(text: str) -> None:
    assert same(OURS.from_db_value(text, None, None), DJANGO.from_db_value(text, None, None))


def test_migrations_see_djangos_jsonfield() -> None:
    assert OURS.deconstruct()[1] == "django.db.models.JSONField"


@pytest.mark.django_db
def test_a_row_round_trips_through_the_database(demo: Campaign) -> None:
    value = {"big": 2**70, "tenth": 0.1, "text": "é\u2028\x7f", "list": [1, None, True]}
    entry = AuditEntry.objects.create(campaign=demo, action="setup", target="x", before=value)
    assert same(AuditEntry.objects.get(pk=entry.pk).before, value)
    assert same(AuditEntry.objects.values_list("before", flat=True).get(pk=entry.pk), value)
    assert AuditEntry.objects.values_list("before__big", flat=True).get(pk=entry.pk) == 2**70
    assert AuditEntry.objects.values_list("before__list", flat=True).get(pk=entry.pk) == [
        1, None, True,
    ]  # fmt: skip


def test_the_text_is_decoded_by_jsoncodec(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    monkeypatch.setattr("campaigns.models.fields.jsoncodec.loads", lambda t: read.append(t) or 1)
    assert OURS.from_db_value('{"a": 1}', None, None) == 1 and read == ['{"a": 1}']
