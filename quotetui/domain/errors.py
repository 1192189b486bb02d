"""Errors that a user can act on. Front ends turn them into one clear line (CLI exit status 2), or, for a
list of problems (``listed``), a line and then one line per problem."""

from typing import ClassVar


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
        hint = f"; closest matches: {', '.join(suggestions)}" if suggestions else ""
        super().__init__(f"unknown GPU model {name!r}{hint}")


class DatabaseProblem(QuotetuiError):
    """The database cannot be opened or used: not a database, corrupt, too new, unreachable."""


class FieldErrors(BadInput):
    """Several fields are invalid; ``errors`` maps each field name to its message."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{name}: {message}" for name, message in errors.items()))


class Conflict(BadInput):
    """The row was changed by someone else since it was read (a form opened before another save)."""


class NeedsConfirmation(QuotetuiError):
    """A write that must be confirmed before it is made (nothing was written): the TUI asks ``question``, with
    ``detail``; saying yes repeats it confirmed. The CLI confirms and warns instead."""

    def __init__(self, question: str, detail: str = "", yes: str = "Yes") -> None:
        self.question, self.detail, self.yes = question, detail, yes
        super().__init__(f"{question} {detail}".strip())
