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
_CHUNK = re.compile(rf"\s+|\[[^\[\]\n]{{1,40}}\]|[{WIDE}]|[^\s{WIDE}]+")  # a [tag] is not broken
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
