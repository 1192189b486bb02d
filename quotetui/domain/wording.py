"""How counts read in English sentences: ``plural(1, "offer")`` is "1 offer", ``plural(2, "offer")`` "2 offers",
``plural(1200, "GPU")`` "1,200 GPUs"; one place, so every message agrees.

English only: a message shown in the language in use says its count with ``language.ngettext`` and the whole
phrase (``ngettext("{n} offer", "{n} offers", n).format(n=f"{n:,}")``), not with these helpers."""

from __future__ import annotations

IRREGULAR = {"is": "are", "was": "were", "has": "have", "this": "these", "day": "days"}


def plural_of(noun: str) -> str:
    """The plural of a noun phrase (its last word): "open offer" → "open offers", "entry" → "entries"."""
    head, _, last = noun.rpartition(" ")
    if last in IRREGULAR:
        word = IRREGULAR[last]
    elif last.endswith("y") and last[-2:-1] not in tuple("aeiou"):
        word = last[:-1] + "ies"
    elif last.endswith(("s", "x", "ch", "sh")):
        word = last + "es"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` with its noun, singular for exactly one (``nouns`` when the plural is not the usual one)."""
    return f"{n:,} {noun if n == 1 else nouns or plural_of(noun)}"


def with_article(noun: str) -> str:
    """``noun`` after its indefinite article: "an AllGather", "a Broadcast", "an H100 SXM5" (letters said as
    letters: an H, an M, an S…), "a GB200"."""
    word = noun.strip()
    first = word[:1]
    spelt = first in "FHLMNRSX" and (len(word) == 1 or not word[1].islower())
    return f"{'an' if first.lower() in 'aeiou' or spelt else 'a'} {noun}"
