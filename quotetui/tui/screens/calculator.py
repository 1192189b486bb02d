"""What the calculators share: number fields that let the app's keys through, Esc to leave a field, and a
recalculation that runs in a worker a moment after the last keystroke, the latest input winning.

Typing never waits for a calculation: each change restarts a short timer; when it fires, the inputs are read
on the UI thread and computed in a thread worker (exclusive in its group, so a newer run replaces an older
one); a result is shown only if no newer input came meanwhile.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.timer import Timer
from textual.widgets import Input
from textual.worker import get_current_worker

from quotetui.language import N_
from quotetui.tui.screens.base import MarketScreen
from quotetui.tui.workers import background

DEBOUNCE_S = 0.15
"""How long after the last keystroke a calculation starts: typing a number is one calculation, not one a key."""

NOT_IN_NUMBERS = frozenset("abcdfghijklmnopqrstuvwxyzABCDFGHIJKLMNOPQRSTUVWXYZ")
"""Letters no number has (``e`` is an exponent: 3.14e23): in a number field they may be the app's keys."""

KEPT_ACTIONS = frozenset({"quit", "app.quit"})
"""Keys a number field still types: a slip of the finger must not close the program."""


class NumberInput(Input):
    """An input for a number (or an id): a letter no number has that is one of the app's keys (``o`` for
    Offers …) runs that key instead of being typed; every other key types as in any field."""

    def _app_key(self, character: str | None) -> bool:
        if character is None or character not in NOT_IN_NUMBERS or not self.is_attached:
            return False
        for node in self.ancestors:
            for binding in node._bindings.key_to_bindings.get(character, ()):
                if binding.action not in KEPT_ACTIONS:
                    return True
        return False

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return not self._app_key(character) and super().check_consume_key(key, character)

    async def _on_key(self, event: events.Key) -> None:
        if self._app_key(event.character):
            event.prevent_default()  # not typed; the key goes on to the screen's and the app's bindings


class CalculatorScreen(MarketScreen):
    """A calculator: :meth:`inputs` reads the fields (UI thread), :meth:`compute` works them out (a thread;
    a :class:`QuotetuiError` is the message to show), :meth:`show` and :meth:`show_problem` draw."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave_field", N_("Leave field"))]
    GROUP: ClassVar[str] = "calc"
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-narrow"), (100, "-wide")]
    """Below 100 columns the inputs take less room, so that the results keep their columns (app.tcss)."""

    _timer: Timer | None = None
    _generation = 0

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_field":
            return isinstance(self.focused, Input)  # shown (and taken) only while a field has the focus
        return True

    def action_leave_field(self) -> None:
        """Esc: out of the field, so that the screen's and the app's keys work again."""
        self.set_focus(None)

    def schedule(self, *, now: bool = False) -> None:
        """Recalculate a moment after the last change (the timer restarts at each keystroke); ``now``: at
        once (new market data, a scenario switch: no keystrokes to wait for)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._generation += 1
        if now:
            self._start()
        else:
            self._timer = self.set_timer(DEBOUNCE_S, self._start)

    def _start(self) -> None:
        self._timer = None
        values = self.inputs()
        if values is not None:
            self._run(self._generation, values)

    @background(group="calc")
    def _run(self, generation: int, values: dict[str, Any]) -> None:
        from quotetui.domain.errors import QuotetuiError

        try:
            outcome: object = self.compute(values)
        except QuotetuiError as exc:
            outcome = exc
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._finish, generation, outcome)

    def _finish(self, generation: int, outcome: object) -> None:
        if generation != self._generation or not self.is_attached:
            return  # a newer input is on its way: this result is already out of date
        from quotetui.domain.errors import QuotetuiError

        if isinstance(outcome, QuotetuiError):
            self.show_problem(outcome)
        else:
            self.show(outcome)

    def inputs(self) -> dict[str, Any] | None:
        """The raw inputs (read on the UI thread); None when there is nothing to compute yet."""
        raise NotImplementedError

    def compute(self, values: dict[str, Any]) -> object:
        """The result for ``values``, in a worker thread (no widgets here)."""
        raise NotImplementedError

    def show(self, result: Any) -> None:
        raise NotImplementedError

    def show_problem(self, exc: Exception) -> None:
        raise NotImplementedError
