"""How shown text is joined in the language in use, decided once: words or names listed (``a, b`` in English,
``a、b`` in Chinese), clauses one after another (``a; b``, ``a；b``), a label before its text (``label: text``,
``label：text``) and an aside after a text (``text (note)``, ``text（note）``). Each asks the language in use when
it is called (the TUI switches language while it runs).

Only for text that is shown in a sentence or a table's cell. Text that is stored, parsed back, written to JSON,
CSV or a log, or typed back by a user (a value list a form parses) keeps its English join: the parser reads that.
"""

from __future__ import annotations

from collections.abc import Iterable
from string import Formatter

from quotetui.language import _, current
from quotetui.language.cells import is_cjk

_LISTED = {"en": ", ", "zh-CN": "、"}
_CLAUSES = {"en": "; ", "zh-CN": "；"}
_DETAIL = {"en": ", ", "zh-CN": "，"}
_FORMATTER = Formatter()
_QUOTES = {"zh-CN": ("\u201c", "\u201d")}


def quoted(value: object, tag: str | None = None) -> str:
    """A name or a value as typed, quoted inside a sentence: Python's ``repr`` in English (``'8×H100 training'``,
    as ever), full-width quotes in Chinese (``“8×H100 一年训练”``, a number ``“0.1”``). Text that is not plain (a
    control character, a full-width quote of its own) keeps ``repr`` in both: its escapes show it. The catalog
    writes no space beside a quoted value in Chinese (``场景{name}：``). ``tag``: the language of a message that
    is always in one (English, before a language is chosen), else the language in use."""
    marks = _QUOTES.get(tag or current())
    text = value if isinstance(value, str) else str(value)
    if marks is None or not text.isprintable() or any(m in text for m in marks):
        return repr(value)
    return marks[0] + text + marks[1]


def listed(items: Iterable[str]) -> str:
    """Words, names or short phrases listed: ``H100, A100`` in English, ``H100、A100`` in Chinese (the 顿号)."""
    return _LISTED.get(current(), ", ").join(items)


def clauses(items: Iterable[str]) -> str:
    """Clauses or reasons one after another: ``no IB; too small`` in English, ``没有 IB；规模太小`` in Chinese."""
    return _CLAUSES.get(current(), "; ").join(items)


def detail(text: str, more: str) -> str:
    """A name and a detail of it, not two items of a list: ``80 GB HBM3, 3.35 TB/s`` in English, ``80 GB
    HBM3，3.35 TB/s`` in Chinese (a comma, where :func:`listed`'s 、 would list them as alike)."""
    return _DETAIL.get(current(), ", ").join((text, more))


def _hugs(char: str) -> bool:
    """Whether ``char`` takes no space beside CJK: CJK itself, or a quote mark :func:`quoted` writes in Chinese."""
    return is_cjk(char) or char in ("\u201c", "\u201d")


def _close(before: str, after: str) -> bool:
    """Whether a space between ``before`` and ``after`` goes: CJK on both sides, or CJK beside a “ or ”."""
    return _hugs(before) and _hugs(after) and (is_cjk(before) or is_cjk(after))


def _seam(left: str, right: str) -> str:
    """``left`` and ``right`` joined, the one space between them dropped when CJK (or a Chinese quote mark beside
    CJK) stands on both sides of it."""
    if left.endswith(" ") and len(left) > 1 and _close(left[-2], right[:1]):
        return left[:-1] + right
    if right.startswith(" ") and _close(left[-1:], right[1:2]):
        return left + right[1:]
    return left + right


def filled(template: str, /, **values: object) -> str:
    """``template.format(**values)``, where a value that may be a word of either language (a field's title, a
    name as typed, a source) sits between spaces: the template writes a space on each side, as the catalog
    does beside Latin and digits, and a space with CJK on both sides is dropped (a quoted name's “ or ” beside CJK
    counts as CJK: ``名称为“一万网络”``). ``没有 {subject} 的变更记录``
    reads ``没有设置的变更记录`` and ``没有 offer #3 的变更记录``; spaces inside a value are kept."""
    out = ""
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        out = _seam(out, literal) if literal else out
        if field is not None:
            value, _key = _FORMATTER.get_field(field, (), values)
            value = _FORMATTER.convert_field(value, conversion)
            out = _seam(out, _FORMATTER.format_field(value, _FORMATTER.vformat(spec or "", (), values)))
    return out


def labelled(label: str, text: str) -> str:
    """``text`` after its label: ``payment: contract #1`` in English, ``付款：合同 #1`` in Chinese."""
    return _("{label}: {text}").format(label=label, text=text)


def aside(text: str, note: str) -> str:
    """``text`` with a note in brackets after it: ``contract #1 (H100 node)``, ``合同 #1（H100 整机）``."""
    return _("{text} ({note})").format(text=text, note=note)
