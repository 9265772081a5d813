"""Fixtures for the order tests: the demo campaign (tests/web/conftest.py) and clients."""

from tests.web.conftest import client_for, demo  # noqa: F401
