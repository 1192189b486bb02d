"""Errors that a user can act on. Front ends turn them into one clear line (CLI exit status 2), or, for a
list of problems (``listed``), a line and then one line per problem."""

from typing import ClassVar

from quotetui.language import N_, _
from quotetui.language.lists import clauses, labelled, listed, quoted

VALUE = N_("value")
"""The word a value's problem starts with where no place is named yet (``value 'abc' is not a number``):
:func:`unnamed` takes it off where the caller names the place (a flag, a column, a form field)."""


def noun(what: str) -> str:
    """The words naming a value in a message (a ``what=`` argument, marked ``N_`` where it is given), in the
    language in use; a name the catalog lacks (a log's column) stays as it is."""
    return _(what) if what else what


def unnamed(message: str) -> str:
    """A value's problem without the word :data:`VALUE` it starts with, in the language in use: the caller
    names the place instead (``--gpus: 'abc' is not a number``)."""
    if message.startswith(VALUE + " "):
        return message.removeprefix(VALUE + " ")
    word = noun(VALUE)
    if word != VALUE and message.startswith(word):
        return message.removeprefix(word).lstrip()
    return message


class QuotetuiError(Exception):
    """Base class for errors caused by input or environment, not by a bug."""

    listed: ClassVar[bool] = False  # the message is a head line and a list, one item a line: keep its lines


class BadInput(QuotetuiError):
    """A value given by the user (flag, form field, file) is invalid. Nothing was changed."""


class PrecisionError(BadInput):
    """An amount has more decimal places than the store keeps exactly."""


class UnknownGpu(BadInput):
    """A GPU name matches no catalog entry or alias."""

    def __init__(self, name: str, suggestions: list[str]) -> None:
        self.name = name
        self.suggestions = suggestions
        if suggestions:
            message = _("unknown GPU model {name}; closest matches: {matches}").format(
                name=quoted(name), matches=listed(suggestions)
            )
        else:
            message = _("unknown GPU model {name}").format(name=quoted(name))
        super().__init__(message)


class DatabaseProblem(QuotetuiError):
    """The database cannot be opened or used: not a database, corrupt, too new, unreachable."""


class FieldErrors(BadInput):
    """Several fields are invalid; ``errors`` maps each field name to its message."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__(clauses(labelled(name, message) for name, message in errors.items()))


class Conflict(BadInput):
    """The row was changed by someone else since it was read (a form opened before another save)."""


class NeedsConfirmation(QuotetuiError):
    """A write that must be confirmed before it is made (nothing was written): the TUI asks ``question``, with
    ``detail``; saying yes repeats it confirmed. The CLI confirms and warns instead. ``yes`` is the button's
    word as declared (``N_``): the dialog that shows it translates it."""

    def __init__(self, question: str, detail: str = "", yes: str = N_("Yes")) -> None:
        self.question, self.detail, self.yes = question, detail, yes
        super().__init__(f"{question} {detail}".strip())
