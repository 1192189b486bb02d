"""The language this run speaks, chosen before anything is shown (``quotetui/language/choice.py``), with the
config file read only when neither ``--lang`` nor ``$QUOTETUI_LANG`` decides, and how it writes amounts of
money (the config file's ``money_style``, read when the first amount is written): this module is imported by
every command, the preferences' reader (~50 ms of imports) only when it is needed."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from quotetui.domain.economics.display import decide_money_style_by
from quotetui.language import use
from quotetui.language.choice import choose

if TYPE_CHECKING:
    from quotetui.io.preferences import Preferences


def _preferences(environ: Mapping[str, str]) -> Callable[[], Preferences]:
    """The config file, read at most once however many settings ask for it (the language, the money style)."""
    read: list[Preferences] = []

    def preferences() -> Preferences:
        if not read:
            from quotetui.io.preferences import load

            read.append(load(environ))
        return read[0]

    return preferences


def speak(given: str | None, environ: Mapping[str, str] | None = None) -> None:
    """Speak the language this run asks for (``--lang``'s value ``given``, the variable, the config file's
    ``language``, the system locale), saying in one line on stderr when a language asked for is not one
    quotetui speaks."""
    env = os.environ if environ is None else environ
    preferences = _preferences(env)
    choice = choose(given, env, lambda: preferences().language)
    use(choice.tag, choice.source)
    decide_money_style_by(lambda: preferences().money_style)
    if choice.warning:
        sys.stderr.write(choice.warning + "\n")
