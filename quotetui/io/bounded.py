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
        raise BadInput(f"{path.name}: file not found") from None
    except PermissionError:
        raise BadInput(f"{path}: no permission to look at it (read permission on its folder)") from None
    except OSError as exc:
        raise BadInput(f"{path.name}: cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise BadInput(f"{path} is a folder, not a file")
    if stat.S_ISREG(info.st_mode):
        if info.st_size > limit:
            raise BadInput(f"{path.name}: file of {info.st_size:,} bytes is over the {limit:,}-byte limit")
        if not os.access(path, os.R_OK):
            raise BadInput(f"{path}: no permission to read it")
        return Opened(path, True, info.st_size)
    data = _read_stream(path, limit, fifo=stat.S_ISFIFO(info.st_mode))
    return Opened(path, False, len(data), data)


def read_bounded(path: Path, limit: int) -> bytes:
    """The whole content of ``path``, which must be at most ``limit`` bytes."""
    opened = open_input(path, limit)
    if opened.data is not None:
        return opened.data
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)  # the file may have grown since it was measured
    except PermissionError:
        raise BadInput(f"{path}: no permission to read it") from None
    if len(data) > limit:
        raise BadInput(f"{path.name}: more than {limit:,} bytes")
    return data


def _read_stream(path: Path, limit: int, *, fifo: bool = False) -> bytes:
    try:  # non-blocking open: a FIFO nobody writes to must not block the open itself
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except PermissionError:
        raise BadInput(f"{path}: no permission to read it") from None
    except OSError as exc:
        raise BadInput(f"{path.name}: cannot be read ({exc.strerror or exc})") from None
    chunks: list[bytes] = []
    total = 0
    try:
        last = time.monotonic()
        while True:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                if time.monotonic() - last > IDLE_SECONDS:
                    raise BadInput(f"{path.name}: nothing arrived for {IDLE_SECONDS:.0f} s (a pipe nobody writes to?)")
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
                raise BadInput(
                    f"{path.name}: more than {limit:,} bytes and not ended (a device or a pipe without end?)"
                )
    finally:
        os.close(fd)
    return b"".join(chunks)
