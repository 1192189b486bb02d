"""Text laid out by terminal cells, not characters: a Chinese character takes two cells, so a line of help, a
table column or a footer is measured with :func:`width` and broken with :func:`wrap`, which breaks between
any two CJK characters (they have no spaces between words) and between words elsewhere, and never starts a
line with closing punctuation (，。、；：！？）」』】》) or ends one with opening punctuation; a short bracketed
tag (``[必填]``, ``[default: 90]``, as ``--help`` writes them) is never broken inside."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_CLOSING = set("，。、；：！？）」』】》〉…,.;:!?)]}%’”")
_OPENING = set("（「『【《〈([{‘“")
WIDE = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u3000-\u303f"
"""CJK characters and their full-width punctuation: text written without spaces between words."""
# a [tag] is not broken; nor is a no-break space ("-J\u00a0JSON", a flag and its value): it is part of its word
_CHUNK = re.compile(rf"[^\S\xa0]+|\[[^\[\]\n]{{1,40}}\]|[{WIDE}]|(?:[^\s{WIDE}]|\xa0)+")
_CJK = re.compile(rf"[{WIDE}]")


def is_cjk(char: str) -> bool:
    """Whether ``char`` is a CJK character or full-width punctuation (``名``, ``（``), written with no space beside
    another such; not a Latin letter, a digit or ASCII punctuation."""
    return bool(char) and _CJK.fullmatch(char[0]) is not None


@lru_cache(maxsize=4096)
def _char_width(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def width(text: str) -> int:
    """The cells ``text`` takes on a terminal (two for each wide character)."""
    if text.isascii():
        return len(text)
    return sum(_char_width(c) for c in text)


def _chunks(text: str) -> list[str]:
    """Pieces that may be put on a line of their own: a word, one CJK character, a short bracketed tag
    (``[必填]``, spaces and all), or a run of spaces; closing
    punctuation sticks to the piece before it, opening punctuation to the piece after it."""
    pieces = _CHUNK.findall(text)
    out: list[str] = []
    carry = ""
    for piece in pieces:
        if piece.isspace():
            if carry:
                out.append(carry)
                carry = ""
            out.append(piece)
            continue
        if out and not out[-1].isspace() and piece[0] in _CLOSING:
            out[-1] += piece
            continue
        if piece in _OPENING:
            carry += piece
            continue
        out.append(carry + piece)
        carry = ""
    if carry:
        out.append(carry)
    return out


def _cut(piece: str, room: int) -> tuple[str, str]:
    """The longest head of ``piece`` that fits ``room`` cells (at least one character), and the rest."""
    used = 0
    for i, char in enumerate(piece):
        used += _char_width(char)
        if used > room:
            return (piece[:i], piece[i:]) if i else (piece[:1], piece[1:])
    return piece, ""


def wrap(text: str, cells: int, initial_indent: str = "", subsequent_indent: str = "") -> list[str]:
    """``text`` broken into lines of at most ``cells`` cells (a word longer than a line is cut), spaces
    collapsed as a paragraph's are."""
    lines: list[str] = []
    line, used = initial_indent, width(initial_indent)
    fresh = True  # nothing but the indent on the line yet
    pending_space = False
    for piece in _chunks(" ".join(text.split())):
        if piece.isspace():
            pending_space = not fresh
            continue
        need = width(piece) + (1 if pending_space else 0)
        if not fresh and used + need > cells:
            lines.append(line)
            line, used, fresh, pending_space = subsequent_indent, width(subsequent_indent), True, False
            need = width(piece)
        if pending_space:
            line, used = line + " ", used + 1
            pending_space = False
        while width(piece) > cells - used and fresh and cells - used > 0:
            head, piece = _cut(piece, cells - used)
            lines.append(line + head)
            line, used = subsequent_indent, width(subsequent_indent)
        line, used, fresh = line + piece, used + width(piece), False
    if not fresh or not lines:
        lines.append(line)
    return lines


_CURRENCY = re.compile(r"[A-Z]{3}[，。、；：）,.;:)]*")
_DATE_SO_FAR = re.compile(r"\d[年月]$")
"""A Chinese date's head (``2026年``, ``2026年1月``): the number after it is the same date's."""
_MONTHS = re.compile(r"\d ?个$")
"""A count of months so far (``12 个``): its ``月`` is the same word (``12 个月``)."""


def _joined(before: str, piece: str) -> bool:
    """Whether ``piece`` is the same word as ``before``: a number's CJK word (``2027年``), the rest of a date
    (``2026年`` ``1``) or a count of months' ``月`` (``12 个`` ``月``)."""
    if before[-1:].isdigit() and is_cjk(piece):
        return True
    if _DATE_SO_FAR.search(before) and piece[:1].isdigit():
        return True
    return _MONTHS.search(before) is not None and piece[:1] == "月"


def _counted(pieces: list[str]) -> list[str]:
    """``pieces`` with a number joined to the CJK piece after it, a space between or not (``1 家``, ``2027年``),
    a Chinese date whole (``2026年1月1日``, ``1月15日``), a count of months whole (``12 个月``), and an amount to
    its currency (``39,168,000.00 CNY``)."""
    out: list[str] = []
    for piece in pieces:
        unit = is_cjk(piece) or _CURRENCY.fullmatch(piece) is not None
        if len(out) >= 2 and out[-1] == " " and out[-2][-1:].isdigit() and unit:
            out[-2:] = [out[-2] + " " + piece]
        elif out and _joined(out[-1], piece):
            out[-1] += piece
        else:
            out.append(piece)
    return out


def line_starts(text: str, cells: int) -> list[int]:
    """Where one paragraph breaks into lines of at most ``cells`` cells by :func:`wrap`'s rules (between two CJK
    characters, at a space, never inside a figure or before closing punctuation; a number keeps the CJK word
    after it, ``1 家``, ``12 个月``, ``2027年``, a date is whole, ``2026年1月1日``, an amount keeps its
    currency), for text whose spaces are its own (a screen's styled text, broken by the caller): the offset in
    ``text`` at which each line after the first starts. A line's trailing space is the caller's to drop."""
    starts: list[int] = []
    used, at = 0, 0
    for piece in _counted(_chunks(text)):  # together they are ``text``, in order
        start, at = at, at + len(piece)
        if piece.isspace():
            used += width(piece)
            continue
        if used and used + width(piece) > cells:
            starts.append(start)
            used = 0
        while width(piece) > cells - used and cells - used > 0 and len(piece) > 1:  # wider than a line: cut
            head, piece = _cut(piece, cells - used)
            start += len(head)
            starts.append(start)
            used = 0
        used += width(piece)
    return starts


def clipped(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` cells: whole, or its head and an ellipsis, cut where :func:`line_starts` would
    break a line (never inside a figure or a date, a number kept with its CJK word): ``…（包月）），12 个付款日…``,
    never ``…，1``."""
    if width(text) <= cells:
        return text
    starts = line_starts(text, max(cells - 1, 1))
    return (text[: starts[0]].rstrip() if starts else text) + "…"
