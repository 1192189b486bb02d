"""The one error boundary of every front end started from the console script: the command line
(``cli.main``) and the TUI started on its own (``launch.main``: no command, at most ``--db``) map errors to exit
statuses the same way.

Exit status: 0 success; 2 bad input or an unusable database (one line on stderr, no traceback); 1 an internal
error (a bug: set ``QUOTETUI_DEBUG=1`` for the traceback); 130 interrupted. No Typer here: the TUI's launch
does not pay for the command line's parser.
"""

from __future__ import annotations

import io
import os
import sys
import traceback
from collections.abc import Callable
from typing import NoReturn

from quotetui.domain.errors import QuotetuiError
from quotetui.language import _


class ReaderGone(Exception):
    """Standard output's reader stopped reading (a ``BrokenPipeError``), carried past Click, which would end
    with status 1, to :func:`guarded`."""


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

        raise BadInput(_("standard output is closed: there is nowhere to print; give it a file or a pipe"))


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
        return _("database error: {detail}").format(detail=text)
    try:
        from quotetui.store.engine import resolve_target

        label = resolve_target(_given_db(sys.argv[1:] if argv is None else argv)).label
    except Exception:  # the message must come out whatever the target looks like
        label = _("the database")
    if "could not decode" in text.lower():  # bytes changed inside a value: SQLite's checks cannot see it
        return _(
            "{database} is damaged: a stored text is not valid UTF-8 (damage inside a value, which "
            "`quotetui db check` cannot see); `quotetui db restore BACKUP` puts a backup back"
        ).format(database=label)
    return _(
        "{database} is damaged ({detail}): `quotetui db check` lists what is wrong, "
        "`quotetui db restore BACKUP` puts a backup back"
    ).format(database=label, detail=text[:120])


def _say(text: str) -> None:
    """The message on standard error through its own encoding, control characters made visible (``domain/text.py:
    visible``): what ``commands/output.py: say`` does for the commands, here below every front end."""
    from quotetui.domain.text import visible

    sys.stderr.write(visible(text) + "\n")
    sys.stderr.flush()


def _fail(code: int, message: str, argv: list[str] | None = None, *, listed: bool = False) -> NoReturn:
    """One line on stderr, or for a list of problems (``listed``: an import's) its head line and then each
    problem on a line of its own, indented; no password of a database URL (given with --db or $QUOTETUI_DB)
    and no terminal control characters, whatever the message quotes."""
    from quotetui.domain.redact import scrub, url_secrets  # pure: safe even mid-interrupt

    given = _given_db(sys.argv[1:] if argv is None else argv)
    text = scrub(message, url_secrets(given)) if given else message
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if listed and lines:
        _say("\n".join([f"quotetui: {lines[0]}", *(f"  {line}" for line in lines[1:])]))
    else:
        _say("quotetui: " + " ".join(lines))
    sys.exit(code)


def _reader_gone() -> NoReturn:
    """The reader of standard output stopped reading (``quotetui offers | head -3``): what it wanted it has,
    so the command ends quietly with status 0. Standard output is pointed at the null device first, as the
    Python documentation advises, so the interpreter's own flush at exit cannot fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(0)


def guarded(run: Callable[[], object], argv: list[str] | None = None) -> None:
    """``run()`` with every way it can end mapped to an exit status and at most one line on stderr."""
    from quotetui.system.interrupt import interrupted

    try:
        from quotetui.system.atomic import install_sigterm_cleanup

        install_sigterm_cleanup()
        _stand_in_for_closed_streams()
        _tolerate_narrow_terminals()
        run()
    except SystemExit as exc:
        if exc.code == 130:  # Typer turns Ctrl+C into a silent exit 130: say what happened, in one line
            _fail(130, _("interrupted"), argv)
        raise
    except KeyboardInterrupt:
        _fail(130, _("interrupted"), argv)
    except QuotetuiError as exc:
        _fail(2, str(exc), argv, listed=exc.listed)
    except (BrokenPipeError, ReaderGone):
        _reader_gone()
    except OSError as exc:  # a path the system refuses that no check above foresaw: its name and the reason
        where = f"{exc.filename}: " if exc.filename else ""
        _fail(2, f"{where}{exc.strerror or exc}", argv)
    except Exception as exc:
        if interrupted():  # e.g. a module that Ctrl+C left half-imported
            _fail(130, _("interrupted"), argv)
        if type(exc).__module__.startswith(("sqlalchemy", "sqlite3")):  # the ORM's, or the tuple reader's (stdlib)
            _fail(2, _database_error(getattr(exc, "orig", None) or exc, argv), argv)
        if os.environ.get("QUOTETUI_DEBUG"):
            traceback.print_exc()
        _fail(1, f"internal error: {type(exc).__name__}: {exc} (set QUOTETUI_DEBUG=1 for the traceback)", argv)
