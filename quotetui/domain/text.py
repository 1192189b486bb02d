"""Text is data: the rules for every string a user gives (form, flag, cell, file) and every one we print.

* Control characters (C0 but tab and line breaks, DEL, C1) are refused on input: ESC, BEL and OSC 52
  payloads would drive the terminal of whoever later looks at the value. A one-line field refuses line
  breaks and tabs too.
* Bidirectional controls are refused everywhere: they reorder what is shown (``evil‮gpj.exe``).
* Names (providers, offers, scenarios …) refuse zero-width characters and keep one space between words;
  they are stored as typed (``（包月）`` keeps its full-width brackets) and compared by :func:`name_key`, their
  NFKC, case-folded form, so a look-alike (full-width letters, another case) never becomes a second provider.
* :func:`visible` makes the same characters visible for output, for text that came from elsewhere (a file
  name, a raw log, a database written by an older version).
"""

from __future__ import annotations

import re
import shlex
import unicodedata

from quotetui.domain.errors import BadInput, noun
from quotetui.language import N_, _
from quotetui.language.lists import filled

_CONTROL = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_ZERO_WIDTH = (  # Unicode's default-ignorable characters and the blank look-alikes of a space: shown as nothing
    "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d\u2060-\u2064\u2800\u3164"
    "\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e0fff"
)
CONTROL = re.compile(f"[{_CONTROL}]")
BIDI = re.compile(f"[{_BIDI}]")
ZERO_WIDTH = re.compile(f"[{_ZERO_WIDTH}]")
_BREAKS = re.compile(r"[\t\n\r\u2028\u2029\x85]")
_SPACES = re.compile(r"\s+")
_UNSAFE_OUT = re.compile(f"[{_CONTROL}\r{_BIDI}{_ZERO_WIDTH}\u2028\u2029]")


_CONTROL_NAMES = {
    0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x09: "TAB", 0x0A: "LINE FEED", 0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE", 0x7F: "DELETE", 0x9B: "CONTROL SEQUENCE INTRODUCER", 0x9D: "OPERATING SYSTEM COMMAND",
}  # fmt: skip


def _name_of(ch: str) -> str:
    """``ESCAPE, U+001B``: a character's name (where it has one) and its code."""
    name = _CONTROL_NAMES.get(ord(ch)) or unicodedata.name(ch, "")
    return f"{name}, U+{ord(ch):04X}" if name else f"U+{ord(ch):04X}"


def check_text(value: str, *, what: str = N_("text"), multiline: bool = False, max_length: int | None = None) -> str:
    """``value`` stripped, or :class:`BadInput` naming the first character that is not allowed (``what`` names
    the value, marked ``N_`` where it is given)."""
    text = value.strip()
    found = CONTROL.search(text) or BIDI.search(text) or (None if multiline else _BREAKS.search(text))
    if found is not None:
        ch = found.group()
        if BIDI.match(ch):
            message = _("{what} contains a bidirectional-text control ({character}) at position {position}")
        elif _BREAKS.match(ch):
            message = _("{what} contains a line break or tab ({character}) at position {position}")
        else:
            message = _("{what} contains a control character ({character}) at position {position}")
        raise BadInput(filled(message, what=noun(what), character=_name_of(ch), position=found.start() + 1))
    if max_length is not None and len(text) > max_length:
        raise BadInput(_too_long(what, len(text), max_length))
    return text


def _too_long(what: str, length: int, most: int) -> str:
    return filled(
        _("{what} has {count} characters (at most {most})"), what=noun(what), count=f"{length:,}", most=f"{most:,}"
    )


def clean_name(value: str, *, what: str = N_("name"), max_length: int | None = None) -> str:
    """A name as it is stored: one space between words, no invisible or control characters."""
    text = check_text(value, what=what, multiline=False)
    hidden = ZERO_WIDTH.search(text)
    if hidden is not None:
        ch = hidden.group()
        raise BadInput(
            filled(
                _(
                    "{what} contains an invisible character ({character}) at position {position}; a name that looks "
                    "like another must not become a second one"
                ),
                what=noun(what),
                character=_name_of(ch),
                position=hidden.start() + 1,
            )
        )
    text = _SPACES.sub(" ", text).strip()
    if max_length is not None and len(text) > max_length:
        raise BadInput(_too_long(what, len(text), max_length))
    return text


def name_key(name: str) -> str:
    """What two names must share to be the same name: NFKC (full-width letters and brackets are their
    ASCII selves), case-folded, one space between words."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip()


def visible(text: str) -> str:
    """``text`` with every control, bidirectional and invisible character shown as a visible mark (``␛``,
    ``␇``, ``<U+202E>``); line breaks and tabs stay."""
    return _UNSAFE_OUT.sub(_mark, text)


def _mark(found: re.Match[str]) -> str:
    code = ord(found.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␛ for ESC, ␇ for BEL, ␍ for CR
    if code == 0x7F:
        return "␡"
    return f"<U+{code:04X}>"


def one_line(text: object) -> str:
    """A value that must stay on its line (a file name, a waiver's reason) with its line breaks shown (``␤``)."""
    return str(text).replace("\r\n", "␤").replace("\n", "␤").replace("\r", "␍")


_MARKDOWN = re.compile(r"([\\`*_{}\[\]<>#|~!])")
_LEADING = re.compile(r"^(\s*)([-+]|\d+[.)])(?=\s|$)")  # a list marker where a line's text begins


def markdown_text(text: object) -> str:
    """Database text for a Markdown line: on one line, control characters shown as marks, every character
    that could make structure (``#``, ``|``, ``*``, ``[``, a leading ``-`` or ``1.``) escaped."""
    shown = _MARKDOWN.sub(r"\\\1", visible(one_line(text)))
    return _LEADING.sub(lambda m: m.group(1) + m.group(2)[:-1] + "\\" + m.group(2)[-1], shown)


def file_word(text: str, fallback: str, *, length: int = 40) -> str:
    """A name as part of a proposed file or folder name: letters (CJK too), digits, ``-`` and ``_`` kept,
    anything else a ``-``, at most ``length`` characters; ``fallback`` when nothing is left."""
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in text).strip("-")
    return safe[:length] or fallback


def shell_word(text: str) -> str:
    """``text`` as one word of a command to copy into a shell: quoted when it has spaces or a shell's
    characters (``'H100 256'``), as it is otherwise."""
    return shlex.quote(text)


def on_database(command: str, given_db: str | None) -> str:
    """``command`` (``quotetui …``) as the user runs it on the database they named: ``--db`` as they gave it (a
    password in it starred: a command is shown, and copied into notes and tickets), nothing when they named none
    (the default database is the one checked)."""
    from quotetui.domain.redact import redact_url

    if not given_db:
        return command
    return command.replace("quotetui", f"quotetui --db {shell_word(redact_url(given_db))}", 1)
