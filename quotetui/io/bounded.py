"""Reading an input file without trusting it to end: a regular file is checked by its size first; a device,
a FIFO or a pipe (``/dev/zero``, ``/dev/urandom``, ``<(cat offers.csv)``) is read up to one byte past the
limit and refused there, and a pipe that sends nothing for a while is given up on, so no input can make an
import or a log import hang or fill the memory."""

from __future__ import annotations

import os
import select
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from quotetui.domain.errors import BadInput
from quotetui.language import N_, _

IDLE_SECONDS = 5.0
"""A pipe or device that sends nothing for this long is refused ("nothing arrived")."""


@dataclass(frozen=True, slots=True)
class Opened:
    """What a file is: a regular file (read from disk as needed) or the bytes a stream gave."""

    path: Path
    regular: bool
    size: int
    data: bytes | None = None  # a stream's bytes (None for a regular file)


def open_input(path: Path, limit: int) -> Opened:
    """Check ``path`` can be read and is at most ``limit`` bytes; a stream is read here (at most ``limit``
    bytes). :class:`BadInput` names the file and says why not."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise BadInput(f"{path.name}: " + _("file not found")) from None
    except PermissionError:
        raise BadInput(f"{path}: " + _("no permission to look at it (read permission on its folder)")) from None
    except OSError as exc:
        raise BadInput(f"{path.name}: " + _unreadable(exc)) from None
    if stat.S_ISDIR(info.st_mode):
        raise BadInput(_("{path} is a folder, not a file").format(path=path))
    if stat.S_ISREG(info.st_mode):
        if info.st_size > limit:
            reason = _("file of {size} bytes is over the {limit}-byte limit")
            raise BadInput(f"{path.name}: " + reason.format(size=f"{info.st_size:,}", limit=f"{limit:,}"))
        if not os.access(path, os.R_OK):
            raise BadInput(f"{path}: " + _(NO_PERMISSION))
        return Opened(path, True, info.st_size)
    data = _read_stream(path, limit, fifo=stat.S_ISFIFO(info.st_mode))
    return Opened(path, False, len(data), data)


NO_PERMISSION = N_("no permission to read it")


def _unreadable(exc: OSError) -> str:
    return _("cannot be read ({reason})").format(reason=exc.strerror or exc)


def read_bounded(path: Path, limit: int) -> bytes:
    """The whole content of ``path``, which must be at most ``limit`` bytes."""
    opened = open_input(path, limit)
    if opened.data is not None:
        return opened.data
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)  # the file may have grown since it was measured
    except PermissionError:
        raise BadInput(f"{path}: " + _(NO_PERMISSION)) from None
    if len(data) > limit:
        raise BadInput(f"{path.name}: " + _("more than {limit} bytes").format(limit=f"{limit:,}"))
    return data


def _read_stream(path: Path, limit: int, *, fifo: bool = False) -> bytes:
    try:  # non-blocking open: a FIFO nobody writes to must not block the open itself
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except PermissionError:
        raise BadInput(f"{path}: " + _(NO_PERMISSION)) from None
    except OSError as exc:
        raise BadInput(f"{path.name}: " + _unreadable(exc)) from None
    chunks: list[bytes] = []
    total = 0
    try:
        last = time.monotonic()
        while True:
            ready, _writable, _failed = select.select([fd], [], [], 0.5)
            if not ready:
                if time.monotonic() - last > IDLE_SECONDS:
                    idle = _("nothing arrived for {seconds} s (a pipe nobody writes to?)")
                    raise BadInput(f"{path.name}: " + idle.format(seconds=f"{IDLE_SECONDS:.0f}"))
                continue
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            except BlockingIOError:
                continue
            if not chunk:
                if fifo and not total and time.monotonic() - last <= IDLE_SECONDS:
                    time.sleep(0.05)  # a named FIFO reads as ended until its writer opens it
                    continue
                break
            chunks.append(chunk)
            total += len(chunk)
            last = time.monotonic()
            if total > limit:
                endless = _("more than {limit} bytes and not ended (a device or a pipe without end?)")
                raise BadInput(f"{path.name}: " + endless.format(limit=f"{limit:,}"))
    finally:
        os.close(fd)
    return b"".join(chunks)
