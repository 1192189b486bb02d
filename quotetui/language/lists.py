"""How shown text is joined in the language in use, decided once: words or names listed (``a, b`` in English,
``a、b`` in Chinese), clauses one after another (``a; b``, ``a；b``), a label before its text (``label: text``,
``label：text``) and an aside after a text (``text (note)``, ``text（note）``). Each asks the language in use when
it is called (the TUI switches language while it runs).

Only for text that is shown in a sentence or a table's cell. Text that is stored, parsed back, written to JSON,
CSV or a log, or typed back by a user (a value list a form parses) keeps its English join: the parser reads that.
"""

from __future__ import annotations

from collections.abc import Iterable

from quotetui.language import _, current

_LISTED = {"en": ", ", "zh-CN": "、"}
_CLAUSES = {"en": "; ", "zh-CN": "；"}


def listed(items: Iterable[str]) -> str:
    """Words, names or short phrases listed: ``H100, A100`` in English, ``H100、A100`` in Chinese (the 顿号)."""
    return _LISTED.get(current(), ", ").join(items)


def clauses(items: Iterable[str]) -> str:
    """Clauses or reasons one after another: ``no IB; too small`` in English, ``没有 IB；规模太小`` in Chinese."""
    return _CLAUSES.get(current(), "; ").join(items)


def labelled(label: str, text: str) -> str:
    """``text`` after its label: ``payment: contract #1`` in English, ``付款：合同 #1`` in Chinese."""
    return _("{label}: {text}").format(label=label, text=text)


def aside(text: str, note: str) -> str:
    """``text`` with a note in brackets after it: ``contract #1 (H100 node)``, ``合同 #1（H100 整机）``."""
    return _("{text} ({note})").format(text=text, note=note)
