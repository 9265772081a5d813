"""A page's text in tests: the response's HTML with the tags left out, entities unescaped and
spaces collapsed, so a test can look for words as a reader sees them."""

from __future__ import annotations

import html
import re
from typing import Any


def text_of(response: Any) -> str:
    """The page's text, tags left out, spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", response.content.decode())))
