"""JSON in and out, fast (orjson), for the places that move whole boards: the engine's
command line and the database bridge. The pure engine never imports this (it is standard
library only); callers hand it dicts.

`dumps_engine` writes exactly the bytes ENGINE.md promises, those of
`json.dumps(value, sort_keys=True, indent=2)` (non-ASCII escaped as \\uXXXX), at several
times its speed. Anything orjson cannot write the same way (floats, whose text differs;
integers beyond 64 bits; non-string keys; lone surrogates) goes to the standard library, so
the output never depends on which codec wrote it. `loads` likewise falls back to `json` on
anything orjson refuses, so errors carry the standard library's messages.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

# What json.dumps escapes beyond orjson: everything outside printable ASCII (DEL included).
_NON_ASCII = re.compile(r"[^\x00-\x7e]")
# orjson reads an integer of more than 64 bits as a float; json keeps it whole. A text with
# a run of 19 digits (anywhere: the test is cheap, not exact) goes to json. Found by mapping
# every byte to "0" (an ASCII digit) or " " and looking for the run: in C, ten times quicker
# than the regular expression [0-9]{19}, which took longer than orjson's whole parse of a
# turn's history record. A digit byte is never part of a longer UTF-8 sequence.
_DIGITS_ONLY = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_LONG_RUN = b"0" * 19


def has_long_number(text: str) -> bool:
    """Does `text` hold 19 ASCII digits in a row?"""
    return _LONG_RUN in text.encode("utf-8", "surrogatepass").translate(_DIGITS_ONLY)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _has_float(value: Any) -> bool:
    """Is there a float anywhere in `value`? (orjson and json write floats differently.)"""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is float:
            return True
        if kind is dict:
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
    return False


def dumps_engine(value: Any, *, may_hold_floats: Any = None) -> str:
    """`json.dumps(value, sort_keys=True, indent=2)`, byte for byte. `may_hold_floats`: the
    part of `value` that can hold floats at all (what came from outside unparsed, such as a
    state's orders), searched instead of the whole `value`; None searches everything."""
    return dumps_engine_bytes(value, may_hold_floats=may_hold_floats).decode("ascii")


def dumps_engine_bytes(value: Any, *, may_hold_floats: Any = None) -> bytes:
    """`dumps_engine` as ASCII bytes, for the command line to write as they are (a whole
    board's output is some 24 MB: a text copy and its encoding again cost time)."""
    if _has_float(value if may_hold_floats is None else may_hold_floats):
        return json.dumps(value, sort_keys=True, indent=2).encode("ascii")
    try:
        text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)
    except TypeError:  # a key that is not a string, an integer beyond 64 bits, ...
        return json.dumps(value, sort_keys=True, indent=2).encode("ascii")
    if text.isascii() and b"\x7f" not in text:
        return text
    return _NON_ASCII.sub(_escape, text.decode("utf-8")).encode("ascii")


def dumps_compact(value: Any) -> str:
    """Compact JSON for the database (jsonb re-reads it; the spacing does not matter). An
    infinite float, which JSON cannot hold, is written as null."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def loads(text: str) -> Any:
    """json.loads, fast; on anything orjson refuses, json.loads itself decides (the same
    result or the same error as before)."""
    if not has_long_number(text):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def loads_utf8(data: bytes) -> Any:
    """`loads` of UTF-8 bytes as read from a file, without decoding them to a text first
    (orjson checks the UTF-8 itself). Bytes that are not UTF-8 raise UnicodeDecodeError, as
    decoding them would; anything else orjson refuses, json.loads decides, as in `loads`, on
    the text a file opened as text reads (universal newlines: an error's position is the
    same)."""
    if _LONG_RUN not in data.translate(_DIGITS_ONLY):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    text = data.decode("utf-8")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return json.loads(text)
