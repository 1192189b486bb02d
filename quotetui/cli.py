"""The ``quotetui`` command line: scripting front end (``--json`` everywhere) and TUI launcher.

Exit status: 0 success; 2 bad input or an unusable database (one line on stderr, no traceback);
1 an internal error (a bug: set ``QUOTETUI_DEBUG=1`` for the traceback).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Annotated, Any

import typer
from typer import _click
from typer.core import TyperGroup

from quotetui import __version__
from quotetui.commands.output import say
from quotetui.exits import ReaderGone, guarded
from quotetui.language import N_
from quotetui.store.origin import set_front_end

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
    "rfq": "rfq",
    "award": "award",
    "brief": "brief",
    "history": "history",
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

    def format_commands(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        """The command list as Click writes it, from ``commands/help_index.py`` (each command's own first
        paragraph, generated): ``--help`` imports no command module."""
        from quotetui.commands.help_index import FIRST_PARAGRAPHS
        from quotetui.commands.help_words import short_help

        names = [n for n in self.list_commands(ctx) if n in FIRST_PARAGRAPHS or not self.commands[n].hidden]
        if not names:
            return
        limit = formatter.width - 6 - max(map(len, names))
        rows = [
            (n, short_help(FIRST_PARAGRAPHS[n], limit))
            if n in FIRST_PARAGRAPHS
            else (n, self.commands[n].get_short_help_str(limit))
            for n in names
        ]
        with formatter.section(N_("Commands")):
            formatter.write_dl(rows)

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

    @staticmethod
    def tui_preferences() -> ModuleType:
        """The TUI's knowledge of its keys and themes (``tui/preferences.py``), for ``quotetui config``: the
        command line composes both front ends, so that no command imports the TUI itself."""
        from quotetui.tui import preferences

        return preferences


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
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="en|zh-CN",
            help="The language to speak (default: $QUOTETUI_LANG, else the config file's language, else the "
            "system locale, else English). Taken anywhere on the command line.",
        ),
    ] = None,
) -> None:
    ctx.obj = Context(db)
    set_front_end(_command_path)
    if ctx.invoked_subcommand is None:
        from quotetui.tui.app import run_tui

        run_tui(db)


def _command_path() -> str:
    """``cli: quotetui offer edit``: the command running, as the audit trail names where a change came from."""
    current = _click.globals.get_current_context(silent=True)
    return f"cli: {current.command_path}" if current is not None else "cli"


def _register() -> None:
    """``--help`` as people read it and flags parsed without pydantic, for every command
    (:func:`quotetui.commands.common.readable_help`, :func:`~quotetui.commands.common.direct_parsing`)."""
    from quotetui.commands import help_words
    from quotetui.commands.common import direct_parsing, readable_help

    readable_help()
    direct_parsing()
    help_words.install()


_register()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: runs the command line inside the one error boundary (``quotetui/exits.py``),
    in the language the run asks for (``--lang`` anywhere on the line: ``quotetui/language/choice.py``)."""
    from quotetui.language.choice import take_flag

    given, args = take_flag(sys.argv[1:] if argv is None else argv)

    def run() -> None:
        from quotetui.io.speaking import speak

        speak(given)
        app(args=args, prog_name="quotetui")

    guarded(run, argv)
