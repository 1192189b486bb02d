"""The parser's messages (a flag that does not exist, an argument missing, a value refused) in the language in
use. Click builds them in English; each kind is written here once as a message id, with what the message
names (a flag, an argument, the reason) kept as it came."""

from __future__ import annotations

import re
from typing import Any

from quotetui.language import N_, _
from quotetui.language.lists import aside, listed, quoted

_PATTERNS = (
    (re.compile(r"Option '(?P<name>[^']*)' does not take a value\.$"), N_("Option {name} does not take a value.")),
    (re.compile(r"Option '(?P<name>[^']*)' requires an argument\.$"), N_("Option {name} requires an argument.")),
    (
        re.compile(r"Option '(?P<name>[^']*)' requires (?P<count>\d+) arguments\.$"),
        N_("Option {name} requires {count} arguments."),
    ),
    (
        re.compile(r"Got unexpected extra argument(?:s|\(s\))? \((?P<args>.*)\)$", re.S),
        N_("Unexpected extra arguments ({args})"),
    ),
)
_TYPER_NO_SUCH = N_("No such command {name!r}.")  # Typer asks gettext for these two (help_words.install)
N_("Missing command.")
_NO_SUCH = N_("No such command {name}.")
"""Typer's message said again with the name quoted in the language in use (Typer quotes it by ``repr``)."""
_SUGGESTED = N_("{message} Did you mean {names}?")
"""A mistyped command's message with the commands it is close to (Typer's suggestion, said here: Typer glues an
English ``. Did you mean …?`` to whatever the message was, even after a Chinese full stop)."""


def suggest(exc: Any, names: list[str]) -> None:
    """Remembers on ``exc`` (a Click usage error) the commands a mistyped one is close to: :func:`message` says
    them (``help_words.install`` has Typer's group ask for them instead of writing its own English)."""
    exc.suggestions = names


def mistyped(exc: Any, name: str) -> None:
    """Remembers on ``exc`` the command ``name`` that does not exist, when ``exc`` is Typer's message saying so:
    :func:`message` says it with the name quoted in the language in use."""
    if exc.message == _(_TYPER_NO_SUCH).format(name=name):
        exc.mistyped = name


def _param_hint(exc: Any) -> str | None:
    """The parameter a message names, quoted in the language in use (``'--within'``, ``“--within”``): Click and
    Typer quote it in English (``'OFFER_ID'``, ``'-s' / '--scenario'``). A hint written otherwise is kept."""
    hint = exc.param_hint if exc.param_hint is not None else (exc.param.get_error_hint() if exc.param else None)
    if hint is None:
        return None
    names = list(hint) if not isinstance(hint, str) else [p[1:-1] for p in hint.split(" / ")]
    if isinstance(hint, str) and not all(len(p) > 1 and p[0] == p[-1] == "'" for p in hint.split(" / ")):
        return hint
    return " / ".join(quoted(name) for name in names)


def message(exc: Any) -> str:
    """What ``exc`` (a Click exception) says, in the language in use, with the commands it suggests."""
    text = _said(exc)
    names = getattr(exc, "suggestions", None)
    if names:
        text = _(_SUGGESTED).format(message=text, names=listed(quoted(name) for name in names))
    return text


def _said(exc: Any) -> str:
    from typer._click import exceptions as ex

    name = getattr(exc, "mistyped", None)
    if name is not None:
        return _(_NO_SUCH).format(name=quoted(name))
    if isinstance(exc, ex.NoSuchOption):
        text = exc.message
        if exc.message == f"No such option: {ex._escape_control_characters(exc.option_name)}":
            text = _("No such option: {name}").format(name=ex._escape_control_characters(exc.option_name))
        if exc.possibilities:
            text = aside(text, _("Possible options: {options}").format(options=listed(sorted(exc.possibilities))))
        return text
    if isinstance(exc, ex.MissingParameter):
        hint = _param_hint(exc) or ""
        kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else "parameter")
        text = {
            "argument": _("Missing argument {name}."),
            "option": _("Missing option {name}."),
        }.get(kind, _("Missing parameter {name}.")).format(name=hint)
        extra = exc.param.get_missing_message(ctx=exc.ctx) if exc.param is not None else ""
        if extra and extra.startswith("Choose from:"):
            extra = _("Choose from:") + extra.removeprefix("Choose from:")
        said = f"{exc.message}. {extra}" if exc.message and extra else (exc.message or extra)
        return f"{text} {said}" if said else text
    if isinstance(exc, ex.BadParameter):
        hint = _param_hint(exc)
        if hint is None:
            return _("Invalid value: {reason}").format(reason=exc.message)
        return _("Invalid value for {name}: {reason}").format(name=hint, reason=exc.message)
    if isinstance(exc, ex.FileError):
        return _("Could not open file {name}: {reason}").format(name=quoted(exc.ui_filename), reason=exc.message)
    for pattern, template in _PATTERNS:
        match = pattern.match(exc.message)
        if match:
            found = match.groupdict()
            return _(template).format(**{k: quoted(v) if k == "name" else v for k, v in found.items()})
    return exc.format_message()
