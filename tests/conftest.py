"""Fixtures shared by every test package. pytest-django provides db, client, live_server, ..."""

# The `browser` fixture (Debian's chromium through Playwright) for every browser test.
from tests.browser import browser  # noqa: E402, F401
