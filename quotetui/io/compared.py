"""The "compared offers" cell of a cheaper-than claim: ``provider / offer; provider / offer``.

A name holding a slash, a semicolon or a double quote (or starting or ending with a space) is written in
double quotes, with a quote inside doubled, so every name survives export and import unchanged:
``"Evil / Co" / 8×H100`` names the offer 8×H100 of the provider Evil / Co. Cells without quotes read as before.
"""

from __future__ import annotations

from quotetui.domain.errors import BadInput
from quotetui.domain.text import clean_name
from quotetui.language import N_, _
from quotetui.language.lists import quoted

_SPECIAL = ("/", ";", '"')


def _quoted(name: str) -> str:
    if any(ch in name for ch in _SPECIAL) or name != name.strip():
        return '"' + name.replace('"', '""') + '"'
    return name


def format_compared(pairs: list[tuple[str, str]]) -> str:
    return "; ".join(f"{_quoted(provider)} / {_quoted(offer)}" for provider, offer in pairs)


def parse_compared(text: str) -> list[tuple[str, str]]:
    """The (provider, offer) pairs of a cell, or :class:`BadInput` saying where it is malformed."""
    pairs: list[tuple[str, str]] = []
    i, n = 0, len(text)

    def name(stop: str) -> str:
        nonlocal i
        while i < n and text[i] == " ":
            i += 1
        if i < n and text[i] == '"':
            out, i = [], i + 1
            while True:
                if i >= n:
                    raise BadInput(_("a quoted name is not closed: {text}").format(text=quoted(text)))
                if text[i] == '"':
                    if i + 1 < n and text[i + 1] == '"':
                        out.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                out.append(text[i])
                i += 1
            while i < n and text[i] == " ":
                i += 1
            if i < n and text[i] != stop:
                raise BadInput(
                    _("expected {stop} after the quoted name {name}").format(
                        stop=quoted(stop), name=quoted("".join(out))
                    )
                )
            return "".join(out)
        start = i
        while i < n and text[i] != stop:
            i += 1
        return text[start:i].strip()

    while i < n:
        if not text[i:].strip(" ;"):
            break
        provider = name("/")
        if i >= n or text[i] != "/":
            raise BadInput(_("{name} needs the form 'provider / offer'").format(name=quoted(provider)))
        i += 1
        offer = name(";")
        i += 1  # past the ';'
        if not provider or not offer:
            raise BadInput(_("each compared offer needs the form 'provider / offer'"))
        pairs.append((clean_name(provider, what=N_("provider")), clean_name(offer, what=N_("offer"))))
    return pairs
