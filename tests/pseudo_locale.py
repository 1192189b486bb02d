"""The pseudo-locale of the tests: every message the catalog knows comes back wrapped, ``⟦…⟧``, so that a
screen or a page printed through it shows at once any English that did not pass through gettext."""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from quotetui.language import LOCALE_DIR

OPEN, CLOSE = "⟦", "⟧"
_WRAPPED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")


@cache
def message_keys() -> frozenset[tuple[str | None, str]]:
    """Each message of the catalog with its context (None for most: ``pgettext`` gives one)."""
    with open(Path(LOCALE_DIR) / "zh_CN" / "LC_MESSAGES" / "quotetui.po", "rb") as handle:
        return frozenset((m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(handle) if m.id)


@cache
def message_ids() -> frozenset[str]:
    return frozenset(message for context, message in message_keys() if context is None)


_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


def wrap(message: str) -> str:
    """Each run of words between placeholders wrapped, the placeholders left bare: what a placeholder is
    filled with must be in the language in use by itself (``⟦Error: ⟧{message}``)."""
    return "".join(
        p if _PLACEHOLDER.fullmatch(p) or not p else f"{OPEN}{p}{CLOSE}" for p in _PLACEHOLDER.split(message)
    )


class Pseudo(gettext.NullTranslations):
    """Wraps every message the catalog holds; a message it does not hold comes back bare (as English would)."""

    def gettext(self, message: str) -> str:
        return wrap(message) if message in message_ids() else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        chosen = singular if n == 1 else plural
        return wrap(chosen) if singular in message_ids() else chosen

    def pgettext(self, context: str, message: str) -> str:
        return wrap(message) if (context, message) in message_keys() else message


_CUT = re.compile(f"{OPEN}[^{CLOSE}\n]*$", re.M)


def unwrapped(text: str) -> str:
    """``text`` without what went through the catalog (wrapped messages, nested ones included, and a message
    cut short on its line, as a command's first sentence is in a list of commands)."""
    while True:
        stripped = _WRAPPED.sub(" ", text)
        if stripped == text:
            return _CUT.sub(" ", text)
        text = stripped


_NOT_WORDS = re.compile(
    r"--?[A-Za-z][\w-]*"  # flags
    r"|\$\w+"  # variables
    r"|\b[A-Z][A-Z0-9_]+(?:\.\w+)?\b"  # metavars and units: OFFER_ID, PATH, GPU, FILE.xlsx
    r"|[\w.-]+\|[\w.|-]+"  # choices: en|zh-CN, json|text
    r"|`[^`]*`"  # code
)


def english_words(text: str, allowed: set[str]) -> list[str]:
    """English words left in ``text`` once the catalog's messages, flags, metavars, code and ``allowed``
    (command names, data as typed) are taken out."""
    rest = _NOT_WORDS.sub(" ", unwrapped(text))
    return [word for word in re.findall(r"[A-Za-z][A-Za-z']+", rest) if word not in allowed]


def data_words(value: object, keys: frozenset[str] | set[str], into: set[str], keep: bool = False) -> None:
    """Add to ``into`` the words of ``value``'s data: the strings under the JSON ``keys`` whose values a buyer typed
    or a source wrote (a name, a note, a quote), at any depth."""
    if isinstance(value, str):
        if keep:
            into.update(re.findall(r"[A-Za-z][A-Za-z']+", value))
    elif isinstance(value, dict):
        for key, item in value.items():
            data_words(item, keys, into, keep or key in keys)
    elif isinstance(value, list):
        for item in value:
            data_words(item, keys, into, keep)
