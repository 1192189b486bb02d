"""The ``quotetui`` command line: scripting front end (``--json`` everywhere) and TUI launcher.

Exit status: 0 success; 2 bad input or an unusable database (one line on stderr, no traceback);
1 an internal error (a bug: set ``QUOTETUI_DEBUG=1`` for the traceback).
"""

from __future__ import annotations

import io
import os
import sys
import traceback
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from importlib import import_module
from typing import Annotated, Any, NoReturn

import typer
from typer import _click
from typer.core import TyperGroup

from quotetui import __version__
from quotetui.commands.output import say
from quotetui.domain.errors import QuotetuiError


class ReaderGone(Exception):
    """Standard output's reader stopped reading (a ``BrokenPipeError``), carried past Click, which would end
    with status 1, to :func:`main`."""


COMMANDS: dict[str, str] = {
    **dict.fromkeys(("providers", "offers", "explain", "gpus", "demo"), "market"),
    "claims": "claims",
    **dict.fromkeys(("import", "template", "export", "market"), "transfer"),
    "probe": "bench",
    "config": "config",
    **dict.fromkeys(("provider", "offer", "round", "discount", "extra", "sla"), "edit"),
    "bench": "bench",
    "contracts": "contracts",
    "acceptance": "acceptance",
    **{group: group for group in ("scenario", "calc", "fx", "settings", "db")},
}
"""Every command (or command group) by name, in the order ``--help`` lists them, and the module of
``quotetui.commands`` that declares it: a module is imported only when one of its commands runs (or ``--help``
lists them), so a command pays only for what it uses. A module registers its commands with ``register(app)``;
a group module without one is its ``app``."""


def _loaded(module_name: str) -> dict[str, _click.Command]:
    """The Click commands a command module declares, built as the root application would build them."""
    if module_name not in _LOADED:
        module = import_module(f"quotetui.commands.{module_name}")
        holder = typer.Typer(rich_markup_mode=None, add_completion=False, pretty_exceptions_enable=False)
        if hasattr(module, "register"):
            module.register(holder)
        else:
            holder.add_typer(module.app, name=module_name)
        _LOADED[module_name] = dict(typer.main.get_group(holder).commands)
    return _LOADED[module_name]


_LOADED: dict[str, dict[str, _click.Command]] = {}


class _Commands(MutableMapping[str, _click.Command]):
    """The root's commands, each built on first use (see :data:`COMMANDS`)."""

    def __init__(self) -> None:
        self._added: dict[str, _click.Command] = {}

    def __getitem__(self, name: str) -> _click.Command:
        if name in self._added:
            return self._added[name]
        if name not in COMMANDS:
            raise KeyError(name)
        return _loaded(COMMANDS[name])[name]

    def __setitem__(self, name: str, command: _click.Command) -> None:
        self._added[name] = command

    def __delitem__(self, name: str) -> None:
        del self._added[name]

    def __iter__(self) -> Iterator[str]:
        yield from COMMANDS
        yield from (name for name in self._added if name not in COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS.keys() | self._added.keys())


class _Root(TyperGroup):
    """The root command: its commands are loaded lazily (:data:`COMMANDS`); a broken pipe while parsing
    (``quotetui --help | head -1``) or running a command leaves as :class:`ReaderGone`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _Commands()

    def list_commands(self, ctx: _click.Context) -> list[str]:
        return list(self.commands)

    def make_context(self, *args: Any, **kwargs: Any) -> typer.Context:
        try:
            return super().make_context(*args, **kwargs)
        except BrokenPipeError:
            raise ReaderGone from None

    def invoke(self, ctx: typer.Context) -> object:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise ReaderGone from None


app = typer.Typer(
    cls=_Root,
    name="quotetui",
    help="A terminal workbench for buying GPU capacity. Run without a command to open the TUI.",
    invoke_without_command=True,
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@dataclass(slots=True)
class Context:
    db: str | None


def _version(value: bool) -> None:
    if value:
        say(f"quotetui {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="PATH|URL",
            help="SQLite file or SQLAlchemy URL (default: $QUOTETUI_DB, else the config file's database, else "
            "the user data folder).",
        ),
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    ctx.obj = Context(db)
    if ctx.invoked_subcommand is None:
        from quotetui.tui.app import run_tui

        run_tui(db)


class _ClosedOutput(io.TextIOBase):
    """Standard output started closed (``quotetui offers >&-``): a command that prints says so (status 2),
    one that only writes files still works."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not text:
            return 0
        from quotetui.domain.errors import BadInput

        raise BadInput("standard output is closed: there is nowhere to print; give it a file or a pipe")


def _stand_in_for_closed_streams() -> None:
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:  # nowhere to say what went wrong: the exit status still says it
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115  (for the rest of the process)


def _tolerate_narrow_terminals() -> None:
    """On a terminal that cannot show every character (an ASCII-only locale), print what it can and show
    the rest as escapes (``\\u4e00``) instead of failing with an encoding error."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding != "utf8" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _given_db(argv: list[str]) -> str | None:
    for i, arg in enumerate(argv):
        if arg == "--db" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--db="):
            return arg.removeprefix("--db=")
    if os.environ.get("QUOTETUI_DB"):
        return os.environ["QUOTETUI_DB"]
    try:  # the config file's database, whose password must not be printed either
        from quotetui.io.preferences import load

        return load().database
    except Exception:  # this runs while an error is reported: it must not raise another
        return None


DAMAGE = ("malformed", "could not decode", "not a database", "disk image", "database corrupt")
"""What SQLite says when a file's pages are damaged (in a place a quick check may not read)."""


def _database_error(detail: BaseException, argv: list[str] | None) -> str:
    """A database error in words: damage names the file and the way out, never the garbled bytes."""
    text = str(detail)
    if not any(sign in text.lower() for sign in DAMAGE):
        return f"database error: {text}"
    try:
        from quotetui.store.engine import resolve_target

        label = resolve_target(_given_db(sys.argv[1:] if argv is None else argv)).label
    except Exception:  # the message must come out whatever the target looks like
        label = "the database"
    if "could not decode" in text.lower():  # bytes changed inside a value: SQLite's checks cannot see it
        return (
            f"{label} is damaged: a stored text is not valid UTF-8 (damage inside a value, which "
            "`quotetui db check` cannot see); `quotetui db restore BACKUP` puts a backup back"
        )
    return (
        f"{label} is damaged ({text[:120]}): `quotetui db check` lists what is wrong, "
        "`quotetui db restore BACKUP` puts a backup back"
    )


def _fail(code: int, message: str, argv: list[str] | None = None, *, listed: bool = False) -> NoReturn:
    """One line on stderr, or for a list of problems (``listed``: an import's) its head line and then each
    problem on a line of its own, indented; no password of a database URL (given with --db or $QUOTETUI_DB)
    and no terminal control characters, whatever the message quotes."""
    from quotetui.domain.redact import scrub, url_secrets  # pure: safe even mid-interrupt

    given = _given_db(sys.argv[1:] if argv is None else argv)
    text = scrub(message, url_secrets(given)) if given else message
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if listed and lines:
        say("\n".join([f"quotetui: {lines[0]}", *(f"  {line}" for line in lines[1:])]), err=True)
    else:
        say("quotetui: " + " ".join(lines), err=True)
    sys.exit(code)


def _reader_gone() -> NoReturn:
    """The reader of standard output stopped reading (``quotetui offers | head -3``): what it wanted it has,
    so the command ends quietly with status 0. Standard output is pointed at the null device first, as the
    Python documentation advises, so the interpreter's own flush at exit cannot fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(0)


def _register() -> None:
    """``--help`` as people read it and flags parsed without pydantic, for every command
    (:func:`quotetui.commands.common.readable_help`, :func:`~quotetui.commands.common.direct_parsing`)."""
    from quotetui.commands.common import direct_parsing, readable_help

    readable_help()
    direct_parsing()


_register()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: runs the app and maps errors to exit statuses."""
    from quotetui.launch import interrupted

    try:
        from quotetui.io.atomic import install_sigterm_cleanup

        install_sigterm_cleanup()
        _stand_in_for_closed_streams()
        _tolerate_narrow_terminals()
        app(args=argv, prog_name="quotetui")
    except SystemExit as exc:
        if exc.code == 130:  # Typer turns Ctrl+C into a silent exit 130: say what happened, in one line
            _fail(130, "interrupted", argv)
        raise
    except KeyboardInterrupt:
        _fail(130, "interrupted", argv)
    except QuotetuiError as exc:
        _fail(2, str(exc), argv, listed=exc.listed)
    except (BrokenPipeError, ReaderGone):
        _reader_gone()
    except OSError as exc:  # a path the system refuses that no check above foresaw: its name and the reason
        where = f"{exc.filename}: " if exc.filename else ""
        _fail(2, f"{where}{exc.strerror or exc}", argv)
    except Exception as exc:
        if interrupted():  # e.g. a module that Ctrl+C left half-imported
            _fail(130, "interrupted", argv)
        if type(exc).__module__.startswith(("sqlalchemy", "sqlite3")):  # the ORM's, or the tuple reader's (stdlib)
            _fail(2, _database_error(getattr(exc, "orig", None) or exc, argv), argv)
        if os.environ.get("QUOTETUI_DEBUG"):
            traceback.print_exc()
        _fail(1, f"internal error: {type(exc).__name__}: {exc} (set QUOTETUI_DEBUG=1 for the traceback)", argv)
