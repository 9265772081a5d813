"""The account of a report page: the lines of its accounts section, as text."""

from __future__ import annotations

import re


def accounts(content: str, board: str = "") -> str:
    """The account sections of a report page (of `board` only, a slug), nothing else of
    it."""
    where = f'id="account-{board}' if board else "data-account"
    found = re.findall(rf"<section [^>]*{where}.*?</section>", content, flags=re.S)
    return "\n".join(found)
