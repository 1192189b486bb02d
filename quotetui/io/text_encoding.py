"""Which encoding a CSV file's bytes are in: one deterministic decision, refusing what it cannot tell.

In this order:

1. a byte-order mark says it: UTF-8, UTF-16 LE or BE (Excel's "Unicode text"), GB18030;
2. no mark but NUL bytes: UTF-16 without a BOM if (nearly) all the NULs are on one side of the code units
   (the high byte of the ASCII characters every CSV holds) and the text reads cleanly; else not a text file;
3. strict UTF-8 (what quotetui writes, Excel's "CSV UTF-8", any plain ASCII file);
4. a file whose lines are partly UTF-8 and partly not mixes two encodings: refused;
5. else GB18030 (a superset of GBK and GB2312: Chinese Excel's default "CSV"), only if what it reads is
   Chinese text. GB18030 decodes almost any byte string: Windows-1252 ``Müller``, ``créée``, ``Öl`` come out
   as ``M黮ler``, ``cr殚e``, ``謑``. So the reading is refused where a character is not of East-Asian text
   (ideographs, kana, hangul, CJK and full-width punctuation, and what else GBK holds: × · — “” …, Greek,
   pinyin), and where a line shows an accented letter misread (:data:`_SUSPECT`: a character made of a byte
   and a Latin letter; an ideograph alone between Latin letters; ``é`` + ``é`` right after a Latin letter)
   without anything of Chinese text (two Chinese characters in a row, CJK punctuation). A line of real
   Chinese is not refused for ``昇腾910B``, ``token数`` or ``NVLink与InfiniBand：多卡互联``; a line holding
   nothing but ``NVLink与InfiniBand`` is, with the advice to save the file as CSV UTF-8.

   Before that, Japanese: Shift_JIS (cp932, Japanese Excel's "CSV") kana bytes are valid GB18030 too, and
   read as ideographs (``さくらインターネット`` becomes ``偝偔傜僀儞僞乕僱僢僩``), so the check above passes
   them. The file is refused as Japanese where its bytes also decode strictly as cp932 and that reading
   holds hiragana or katakana and no half-width katakana. Chinese GBK text cannot pass that test: the
   bytes 0xB0-0xDF, which lead nearly every common GBK character (啊 is B0 A1, 中 D6 D0), are half-width
   katakana in cp932, and the rest seldom make kana at all; none of the Chinese lines of the demo market
   and the test fixtures, encoded as GBK, is refused (``tests/test_csv_encodings.py`` checks that). A
   Shift_JIS file with half-width katakana, or without any kana, is not caught by this rule.

A statistical detector (charset-normalizer) was tried and not used: on short CSVs it called GBK ``big5`` and
``cp949`` and Windows-1252 ``mac_latin2``. These rules say why they refuse, and where.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass

from quotetui.domain.text import visible
from quotetui.language import N_, _
from quotetui.language.lists import quoted

REMEDY = N_("save the file as CSV UTF-8")
"""What every refusal advises (the last words of its message, translated with it)."""

# code points of East-Asian text: ideographs (with extensions and compatibility forms), radicals, kana,
# bopomofo, hangul, CJK and full-width punctuation; the yen/yuan sign ¥ (GB18030 has it, as 81 30 84 36: two
# of those bytes are digits, no misread Latin text makes it); and what else GBK encodes that Chinese text uses (· × ÷
# ° ± §, dashes, curly quotes, …, ‰, ※, ℃, №, Roman numerals, arrows, maths, ①, box drawing, ■ ★, Greek and
# Cyrillic letters, the pinyin letters ā á ǎ à … ü)
_EAST_ASIAN_LETTER = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"
_EAST_ASIAN = (
    "\u00a4\u00a5\u00a7\u00a8\u00b0\u00b1\u00b7\u00d7\u00f7\u0391-\u03a9\u03b1-\u03c9\u0401\u0410-\u044f\u0451"
    "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜüêɑńňǹɡ\u1e3f"
    "\u2010-\u2027\u2030-\u203b\u2100-\u2122\u2160-\u217f\u2190-\u2199\u2200-\u22ff\u2312\u2460-\u24ff"
    "\u2500-\u257f\u25a0-\u25ff\u2605\u2606\u2609\u2640\u2642\u2e80-\u2fdf\u2ff0-\u303f\u3040-\u9fff"
    "\u1100-\u11ff\uac00-\ud7af\uf900-\ufaff\ufe10-\ufe1f\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003134f"
)
_NOT_EAST_ASIAN = re.compile(f"[^\\x00-\\x7f{_EAST_ASIAN}]")


def _ideographs(leads: range, trails: list[int]) -> str:
    """The letters GB18030 makes of these lead and trail bytes, escaped for a character class."""
    pairs = b"".join(bytes((lead, trail)) for lead in leads for trail in trails)
    return re.escape("".join(sorted(c for c in set(pairs.decode("gb18030")) if unicodedata.category(c) == "Lo")))


_LETTERS = [*range(0x41, 0x5B), *range(0x61, 0x7B)]
_ACCENTED = [b for b in range(0xE0, 0xFF) if b != 0xF7]  # Windows-1252 à … þ
_TRAILED = _ideographs(range(0x81, 0xFF), _LETTERS)  # "ü" + "l" read as one character (黮)
_TWO_ACCENTS = _ideographs(range(0xE0, 0xFF), _ACCENTED)  # "é" + "é" read as one character (殚)
# the shapes of an accented Latin letter read as (half of) a Chinese character: Latin-trailed ("M黮ler"), an
# ideograph alone between two Latin letters ("cr殚e"), two accented letters right after a small one ("cr殚")
_SUSPECT = re.compile(f"[{_TRAILED}]|(?<=[A-Za-z])[{_EAST_ASIAN_LETTER}](?=[A-Za-z])|(?<=[a-z])[{_TWO_ACCENTS}]")
# what a line of Chinese text has and a misread Latin line has not: two Chinese characters in a row (not
# both Latin-trailed), or CJK or full-width punctuation
_CHINESE = re.compile(f"(?![{_TRAILED}]{{2}})[{_EAST_ASIAN_LETTER}]{{2}}|[\u3000-\u303f\uff01-\uff65]")
_KANA = re.compile("[\u3041-\u309f\u30a1-\u30fa\u30fd-\u30ff]")  # hiragana, katakana (not ー or ・)
_HALF_WIDTH_KANA = re.compile("[\uff61-\uff9f]")
_UTF16_CHECKED = 4096  # characters of a BOM-less UTF-16 candidate checked for plausibility
_BOMS = (
    (codecs.BOM_UTF8, "utf-8", "UTF-8 (BOM)"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 LE (BOM)"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 BE (BOM)"),
    (b"\x84\x31\x95\x33", "gb18030", "GB18030 (BOM)"),
)


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str
    encoding: str  # as the user is told it: "UTF-8", "UTF-16 LE (BOM)", "GB18030" …


class NotText(Exception):
    """The bytes are not text in an encoding quotetui reads; ``reason`` says why, ``line`` where (if known)."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def decode_text(raw: bytes) -> Decoded:
    """The text of a CSV file's bytes and the encoding it was read in, or :class:`NotText`."""
    for bom, codec, name in _BOMS:
        if raw.startswith(bom):
            return _strict(raw[len(bom) :], codec, name)
    if b"\x00" in raw:
        utf16 = _utf16_without_bom(raw)
        if utf16 is None:
            raise NotText(_("contains NUL bytes: not a text CSV file"))
        return Decoded(raw.decode(utf16), ("UTF-16 LE" if utf16.endswith("le") else "UTF-16 BE") + " (no BOM)")
    try:
        return Decoded(raw.decode("utf-8"), "UTF-8")
    except UnicodeDecodeError as exc:
        not_utf8 = raw[: exc.start].count(b"\n") + 1
    return _gb18030(raw, not_utf8)


def _strict(data: bytes, codec: str, name: str) -> Decoded:
    try:
        return Decoded(data.decode(codec), name)
    except UnicodeDecodeError as exc:
        line = _line_at(data, exc.start, codec)
        label = name.removesuffix(" (BOM)")
        said = _("starts with a {encoding} BOM but is not {encoding} text (line {line}); {remedy}")
        raise NotText(said.format(encoding=label, line=line, remedy=_(REMEDY)), line) from None


def _line_at(data: bytes, offset: int, codec: str) -> int:
    if codec.startswith("utf-16"):
        return data[: offset - offset % 2].decode(codec, "replace").count("\n") + 1
    return data[:offset].count(b"\n") + 1


def _utf16_without_bom(raw: bytes) -> str | None:
    """``utf-16-le``/``-be`` when BOM-less bytes are surely UTF-16: an even length, the NUL bytes (nearly)
    all on the side of the high byte, and text that reads strictly, holds a delimiter or a line break and no
    control, unassigned or private-use character; else None."""
    if len(raw) % 2:
        return None
    even, odd = raw[0::2].count(0), raw[1::2].count(0)
    codec = "utf-16-le" if odd > even else "utf-16-be"
    if max(even, odd) < 9 * min(even, odd):  # NULs on both sides: binary, not text
        return None
    try:
        text = raw.decode(codec)
    except UnicodeDecodeError:
        return None
    head = text[:_UTF16_CHECKED]
    if not any(c in head for c in "\n\t,"):
        return None
    for c in head:
        if c not in "\t\r\n" and unicodedata.category(c) in ("Cc", "Cn", "Co", "Cs"):
            return None
    return codec


def _gb18030(raw: bytes, not_utf8: int) -> Decoded:
    """GB18030, if the bytes are wholly in it and read as Chinese text (see the module's notes)."""
    lines = raw.split(b"\n")
    for number, chunk in enumerate(lines, start=1):
        if not chunk.isascii() and _is_utf8(chunk):
            said = _("line {line} is UTF-8 text but line {other} is not: the file mixes two encodings; {remedy}")
            raise NotText(said.format(line=number, other=not_utf8, remedy=_(REMEDY)), not_utf8)
    _refuse_japanese(raw)
    try:
        text = raw.decode("gb18030")
    except UnicodeDecodeError as exc:
        where = raw[: exc.start].count(b"\n") + 1
        said = _("not UTF-8 text, nor GB18030/GBK (line {line}); {remedy}")
        raise NotText(said.format(line=where, remedy=_(REMEDY)), where) from None
    other = _NOT_EAST_ASIAN.search(text)
    at = other.start() if other is not None else _latin_mark(text)
    if at is None:
        return Decoded(text, "GB18030")
    where = text.count("\n", 0, at) + 1
    word = _word_around(text, at)
    said = _(
        "not UTF-8 text (line {line}), and as GB18030/GBK it reads {text}, which is not Chinese: "
        "a file in another encoding (Windows-1252, Big5, Shift_JIS …)? {remedy}"
    )
    raise NotText(said.format(line=where, text=quoted(word), remedy=_(REMEDY)), where)


def _refuse_japanese(raw: bytes) -> None:
    """:class:`NotText` naming the first line with kana if the bytes read as Japanese Shift_JIS text (strict
    cp932, kana, no half-width katakana: see the module's notes); else nothing."""
    try:
        text = raw.decode("cp932")
    except UnicodeDecodeError:
        return
    kana = _KANA.search(text)
    if kana is None or _HALF_WIDTH_KANA.search(text) is not None:
        return
    where = text.count("\n", 0, kana.start()) + 1
    word = _word_around(text, kana.start())
    said = _("not UTF-8 text (line {line}): it reads as Japanese (Shift_JIS): {text}; {remedy}")
    raise NotText(said.format(line=where, text=quoted(word), remedy=_(REMEDY)), where)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _latin_mark(text: str) -> int | None:
    """Where a line that has nothing of Chinese text (:data:`_CHINESE`) has a character of a misread Latin
    word (:data:`_SUSPECT`); else None."""
    checked = -1  # the end of the last line found to be Chinese
    for found in _SUSPECT.finditer(text):
        at = found.start()
        if at < checked:
            continue
        start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
        end = len(text) if end < 0 else end
        if _CHINESE.search(text, start, end) is None:
            return at
        checked = end
    return None


def _word_around(text: str, at: int) -> str:
    """The cell-ish stretch of ``text`` around ``at`` (up to a delimiter or line break), shown safely."""
    start = max(text.rfind(c, 0, at) for c in ",\t\n") + 1
    ends = [i for i in (text.find(c, at) for c in ",\t\r\n") if i >= 0]
    end = min(ends, default=len(text))
    start, end = max(start, at - 20), min(end, at + 20)
    return visible(text[start:end])


__all__ = ["Decoded", "NotText", "decode_text"]
