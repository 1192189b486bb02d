"""The console script's entry point: Ctrl+C at any moment, even while the program is still loading, ends it
with one line ("interrupted") and exit status 130, never a traceback."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable

from quotetui.system.interrupt import interrupted, on_interrupt


def tui_only(argv: list[str]) -> str | bool | None:
    """The database to open when the command line asks for the TUI and nothing else (no arguments, or only
    ``--db PATH``); False for anything else, which the command line's parser reads. The TUI then starts
    without importing that parser (Typer: ~40 ms of a launch), inside the same error boundary."""
    if not argv:
        return None
    if len(argv) == 2 and argv[0] == "--db" and argv[1] and not argv[1].startswith("-"):
        return argv[1]
    if len(argv) == 1 and argv[0].startswith("--db=") and len(argv[0]) > len("--db="):
        return argv[0].removeprefix("--db=")
    return False


def main() -> None:
    from quotetui.language.choice import take_flag

    signal.signal(signal.SIGINT, on_interrupt)
    given, argv = take_flag(sys.argv[1:])
    db = tui_only(argv)
    try:
        if db is False:
            from quotetui.cli import main as run
        else:
            from quotetui.exits import guarded
            from quotetui.tui.app import run_tui
    except BaseException:
        if not interrupted():
            raise
        sys.stderr.write("quotetui: interrupted\n")  # whatever the interrupted import left behind
        sys.exit(130)
    if db is False:
        run()  # chooses the language itself (--lang included), as for any caller of cli.main
    else:
        guarded(lambda: _speak_then(lambda: run_tui(db or None), given), sys.argv[1:])


def _speak_then(run: Callable[[], object], given: str | None) -> None:
    from quotetui.io.speaking import speak

    speak(given)
    run()
