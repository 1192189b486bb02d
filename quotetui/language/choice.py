"""Which language a run speaks, chosen as programs choose: ``--lang`` (anywhere on the command line), then
``$QUOTETUI_LANG``, then the config file's ``language``, then the system locale (``$LANGUAGE``, ``$LC_ALL``,
``$LC_MESSAGES``, ``$LANG``: the first one set decides, as gettext reads them), else English.

A language named on purpose (the flag, the variable, the file) that quotetui does not speak falls back to
English with one line saying so; a system locale quotetui does not speak (``fr_FR.UTF-8``) falls back silently,
as every gettext program does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from quotetui.language import ENGLISH, LANGUAGES, normalise
from quotetui.language.lists import quoted

FLAG = "--lang"
ENV_VAR = "QUOTETUI_LANG"
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@dataclass(frozen=True, slots=True)
class Choice:
    tag: str  # a key of LANGUAGES
    source: str  # what chose it, in words: "--lang", "$QUOTETUI_LANG", "the config file", "$LANG", "default"
    warning: str | None = None  # the one line for a language asked for that quotetui does not speak


def take_flag(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` or ``--lang=X`` wherever it is (before a ``--``), and the arguments without it: the
    language is chosen before the command line is parsed, so that every word of it (``--help`` too) is in
    that language. The last one given wins; a ``--lang`` with no value is left for the parser to refuse."""
    given: str | None = None
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        if arg == FLAG and i + 1 < len(argv):
            given = argv[i + 1]
            i += 2
            continue
        if arg.startswith(FLAG + "="):
            given = arg.removeprefix(FLAG + "=")
            i += 1
            continue
        rest.append(arg)
        i += 1
    return given, rest


def _unknown(value: str, source: str) -> str:
    """The line for a language asked for that quotetui does not speak: in English, the language it falls back to
    (no language is in use yet), the value quoted as English quotes it (escapes shown, cut at 40 characters)."""
    shown = quoted(value if len(value) <= 40 else value[:40] + "…", ENGLISH)
    return (
        f"quotetui: {source} asks for the language {shown}, which quotetui does not speak; English is used "
        f"(languages: {', '.join(LANGUAGES)})"
    )


def choose(
    given: str | None, environ: Mapping[str, str], configured: Callable[[], str | None] = lambda: None
) -> Choice:
    """The language to speak: ``given`` is ``--lang``'s value; ``configured`` reads the config file's
    ``language`` (called only when neither the flag nor the variable decides)."""
    for value, source in ((given, FLAG), (environ.get(ENV_VAR), f"${ENV_VAR}")):
        if value:
            tag = normalise(value)
            return Choice(tag, source) if tag else Choice(ENGLISH, "default", _unknown(value, source))
    value = configured()
    if value:
        tag = normalise(value)
        return Choice(tag, "the config file") if tag else Choice(ENGLISH, "default", _unknown(value, "the config file"))
    for var in LOCALE_VARS:
        value = environ.get(var, "")
        if value:
            for entry in value.split(":") if var == "LANGUAGE" else [value]:
                tag = normalise(entry) if entry else None
                if tag:
                    return Choice(tag, f"${var}")
            return Choice(ENGLISH, "default")
    return Choice(ENGLISH, "default")
