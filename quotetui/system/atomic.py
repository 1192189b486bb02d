"""Files written whole or not at all: a temporary file in the same folder, renamed over the target only once
it is complete, so a failure, Ctrl+C or SIGTERM half-way never leaves a truncated file or destroys the previous
one. Temporary files still in flight are removed on SIGTERM or SIGHUP (:func:`install_sigterm_cleanup`)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from quotetui.domain.errors import BadInput
from quotetui.language import _

_IN_FLIGHT: set[Path] = set()
_LOCK = threading.Lock()


def check_target(path: Path, *, force: bool, suffixes: tuple[str, ...] = ()) -> Path:
    """``path`` (expanded) if a file may be written there: an existing file only with ``force``."""
    path = path.expanduser()
    if not path.name:  # ".", "..", "/"
        raise BadInput(_("{path} is a folder; give a file name").format(path=path))
    if len(os.fsencode(path.name)) > _name_max(path.parent):
        raise BadInput(
            _("{name}…: the file name is longer than this file system allows; nothing was written").format(
                name=path.name[:40]
            )
        )
    if path.is_dir():
        raise BadInput(_("{path} is a folder; give a file name").format(path=path))
    if path.exists() and not path.is_file():  # a device, a FIFO, a socket: never replaced by a plain file
        raise BadInput(
            _("{path} is not a plain file (a device, pipe or socket); give a file name; nothing was written").format(
                path=path
            )
        )
    if suffixes and path.suffix.lower() not in suffixes:
        raise BadInput(
            _("{name}: give a file ending in {suffixes}").format(name=path.name, suffixes=_(" or ").join(suffixes))
        )
    if not path.parent.is_dir():
        if path.parent.exists():
            raise BadInput(_("{folder} is a file, not a folder; nothing was written").format(folder=path.parent))
        raise BadInput(_("folder {folder} does not exist").format(folder=path.parent))
    if os.path.lexists(path) and not force:  # a link, even one to nothing, is there: replaced only when asked
        raise BadInput(_("{path} already exists; nothing was written (give --force to replace it)").format(path=path))
    if path.exists() and not os.access(path, os.W_OK):
        raise BadInput(_("{path} is read-only (no write permission); nothing was written").format(path=path))
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise BadInput(_("cannot write in folder {folder} (no write permission)").format(folder=path.parent))
    return path


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary path next to ``path`` to write to; renamed onto ``path`` when the block succeeds, removed
    when it fails (the previous file, if any, is untouched until the rename)."""
    remove_abandoned(path.parent)
    tmp = path.with_name(_temporary_name(path))
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as to any new file
    except OSError as exc:  # a folder that refuses files (/proc, /sys, a read-only mount) or a name too long
        raise BadInput(
            _("cannot write {path}: {problem}; nothing was written").format(path=path, problem=exc.strerror or exc)
        ) from None
    _hold(fd)  # held while the file is written: another run sees it is not abandoned
    with _LOCK:
        _IN_FLIGHT.add(tmp)
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:  # a full disk, a quota, an I/O error: the previous file, if any, is still whole
        tmp.unlink(missing_ok=True)
        raise BadInput(
            _("writing {path} failed: {problem}; nothing was written").format(path=path, problem=exc.strerror or exc)
        ) from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)
        with _LOCK:
            _IN_FLIGHT.discard(tmp)


_TEMPORARY = re.compile(r"^\..+\.[0-9a-f]{8}\.quotetui\.part$")
"""The name :func:`_temporary_name` gives (``.NAME.RANDOM.quotetui.part``): a user's own ``.x.part`` never
matches it."""


def _hold(fd: int) -> None:
    """An exclusive lock on the temporary file while it is being written (none where the platform has none)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: temporary files are then left for the user
        return
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def remove_abandoned(folder: Path) -> list[Path]:
    """Removes the temporary files a killed writer left in ``folder`` (SIGKILL runs no clean-up): those named as
    :func:`replacing` names them that no living writer holds locked. The removed files are returned."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no way to tell a live writer's file from a dead one's
        return []
    removed = []
    with _LOCK:
        ours = set(_IN_FLIGHT)  # this process's own, a nested writer's renamed over its lock included
    try:
        names = [p for p in folder.iterdir() if _TEMPORARY.match(p.name) and p not in ours]
    except OSError:
        return []
    for part in names:
        try:
            if not stat.S_ISREG(part.lstat().st_mode):  # a FIFO, a link, a folder: never ours to open or remove
                continue
            fd = os.open(part, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # a living writer holds it
        finally:
            os.close(fd)
        with contextlib.suppress(OSError):
            part.unlink()
            removed.append(part)
    return removed


_TAIL = len(".01234567.quotetui.part")


def _cut(name: str, folder: Path) -> str:
    """``name`` cut short where ``.NAME.RANDOM.part`` would pass the file system's longest name."""
    return os.fsdecode(os.fsencode(name)[: _name_max(folder) - 1 - _TAIL])


def _temporary_name(path: Path) -> str:
    """``.NAME.RANDOM.quotetui.part``, with NAME cut short where the whole would pass the file system's longest
    name (a 250-byte name the file system takes must still be writable)."""
    return f".{_cut(path.name, path.parent)}.{os.urandom(4).hex()}.quotetui.part"  # secrets.token_hex, no imports


def left_behind(path: Path) -> list[Path]:
    """The temporary files :func:`replacing` left beside ``path`` when its process was killed (SIGKILL runs no
    clean-up), those of a file written through :func:`replacing` into a temporary one of ``path`` included; the
    next writer of ``path`` removes them."""
    import glob

    outer = "." + _cut(path.name, path.parent)  # .NAME.RANDOM.part
    inner = "." + _cut(outer, path.parent)  # ..NAME.RANDOM.part.RANDOM.part
    return [p for prefix in dict.fromkeys((outer, inner)) for p in path.parent.glob(glob.escape(prefix) + "*.part")]


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):  # no such folder yet, or a platform without pathconf: the common limit
        return 255


def remove_in_flight() -> None:
    with _LOCK:
        pending = list(_IN_FLIGHT)
        _IN_FLIGHT.clear()
    for tmp in pending:
        tmp.unlink(missing_ok=True)


def install_sigterm_cleanup() -> None:
    """On SIGTERM (or SIGHUP, a closed terminal), remove the temporary files being written and exit with
    128 + the signal (in the main thread the exception also unwinds the writer, which removes its own file,
    and a dry run's scratch folder)."""

    def on_term(signum: int, frame: FrameType | None) -> None:
        remove_in_flight()
        raise SystemExit(128 + signum)

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, on_term)
        if hasattr(signal, "SIGHUP"):  # the terminal closed: the same clean exit (129)
            signal.signal(signal.SIGHUP, on_term)


__all__ = ["check_target", "install_sigterm_cleanup", "remove_in_flight", "replacing"]
