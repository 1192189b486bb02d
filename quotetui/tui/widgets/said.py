"""Words a screen composes once (a title, a field's label), kept as their message id so that a language switch
shows them again in the new language: the app calls :meth:`Said.say_again` on every one of every screen
(``QuotetuiApp.speak_again``)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Label

from quotetui.language import _
from quotetui.tui.safe import plain


class Said(Label):
    """A label of words declared in English (a message id, marked ``N_`` where it is declared), shown in the
    language in use, as plain text; ``after``: what follows the words untranslated (a required field's " *")."""

    def __init__(self, words: str, *, after: str = "", **kwargs: Any) -> None:
        self.words, self.after = words, after
        super().__init__(self._shown(), **kwargs)

    def _shown(self) -> object:
        return plain(_(self.words) + self.after)

    def say_again(self) -> None:
        """The words in the language in use now."""
        self.update(self._shown())  # type: ignore[arg-type]
