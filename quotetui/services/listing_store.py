"""Offer listings kept on disk between launches, so that a second ``quotetui offers`` (or ``offers --json``)
with nothing changed reads no offer and computes nothing: it prints what the first one printed.

An entry is kept under everything the in-process ranking cache keys on (``services/ranking_cache.py``: the
database, its file stamp or server transaction id, ``setting.data_version``, the scenario's content, the day,
the GPU filter, ``history``), the kind of listing, and a fingerprint of quotetui's own code (a new version
never reads figures an older one computed). The key is hashed (SHA-256) into the file's name; the database
target is hashed without its password and nothing of the key is written in clear, so the file holds no secret.

A file is gzip-compressed JSON lines: a header (format, entry name, kind), one item a line, then a trailer
(how many items and the SHA-256 of their lines). It is written through ``system/atomic.py: replacing`` (whole or
not at all), and read only after a first pass has checked it all: the format, the name, every line's JSON and
shape, the count and the digest, within size bounds. A damaged, truncated, foreign or hostile file is
ignored (and replaced by the next listing), never trusted and never a crash. Nothing but JSON is ever read
back (never pickle). At most :data:`MAX_ENTRIES` files and :data:`MAX_TOTAL_BYTES` are kept, the least
recently used removed first.

The folder is ``$QUOTETUI_CACHE_DIR`` when set (``off``: keep nothing), else the user cache folder
(``platformdirs``). The cache is only ever a shortcut: when it cannot be written or read, the listing is
computed as if it were not there.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import re
import stat
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from quotetui.language import N_, _

FORMAT = "quotetui-listing/1"
ENV = "QUOTETUI_CACHE_DIR"
SUFFIX = ".jsonl.gz"
MAX_ENTRY_BYTES = 64 << 20  # one file, compressed (a 100,000-offer `offers --json` is about 20 MiB)
MAX_TEXT_BYTES = 1 << 30  # one file, uncompressed (a gzip bomb stops here)
MAX_LINE_BYTES = 1 << 20  # one item
MAX_ENTRIES = 16
MAX_TOTAL_BYTES = 256 << 20

Check = Callable[[Any], bool]
"""Whether a decoded item has the shape its listing needs (a caller's rule, per kind)."""


def cache_dir() -> Path | None:
    """Where listings are kept; None: nowhere (``QUOTETUI_CACHE_DIR=off``, or no user cache folder)."""
    given = os.environ.get(ENV)
    if given is not None:
        return None if given.strip() in ("", "off") else Path(given).expanduser()
    try:
        import platformdirs

        return platformdirs.user_cache_path("quotetui", appauthor=False) / "listings"
    except Exception:  # no home folder to find: keep nothing
        return None


_FINGERPRINT: list[str] = []


def code_fingerprint() -> str:
    """SHA-256 of quotetui's version, every module's source and every compiled catalog: any change to the code
    that computes or formats the figures, or to a translation (or to anything else), is a new fingerprint, so
    its listings are new entries."""
    if not _FINGERPRINT:
        import quotetui

        root = Path(quotetui.__file__).parent
        digest = hashlib.sha256(quotetui.__version__.encode())
        for path in sorted([*root.rglob("*.py"), *root.rglob("*.mo")]):
            digest.update(str(path.relative_to(root)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
        _FINGERPRINT.append(digest.hexdigest())
    return _FINGERPRINT[0]


def entry_name(key: Hashable, kind: str) -> str:
    """The entry's name: a hash of the format, the code, the language and money style in use (a listing is printed
    words and amounts: ``display.style_key``), the kind and the key (``key`` holds no secret:
    ``ranking_cache.disk_key``)."""
    from quotetui.domain.economics.display import style_key

    text = repr((FORMAT, code_fingerprint(), style_key(), kind, key))
    return hashlib.sha256(text.encode("utf-8", "backslashreplace")).hexdigest()


def _line(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _lines(handle: IO[bytes]) -> Iterator[bytes]:
    """The file's lines, each at most :data:`MAX_LINE_BYTES`, all together at most :data:`MAX_TEXT_BYTES`
    uncompressed (ValueError past either)."""
    from quotetui.domain.cancel import EVERY, check_cancelled

    total = count = 0
    with gzip.GzipFile(fileobj=handle, mode="rb") as text:
        while True:
            line = text.readline(MAX_LINE_BYTES + 1)
            if not line:
                return
            total += len(line)
            if len(line) > MAX_LINE_BYTES or total > MAX_TEXT_BYTES or not line.endswith(b"\n") or line == b"\n":
                raise ValueError("a line too long, too much text, an empty line or a cut last line")
            count += 1
            if not count % EVERY:
                check_cancelled()  # the app was quit, or a newer load began: a long file is not read to its end
            yield line


def _open_entry(path: Path) -> IO[bytes] | None:
    """The entry's file, opened for reading: only a plain file (no link, no device), within its bound."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode) and st.st_size <= MAX_ENTRY_BYTES:
            return os.fdopen(fd, "rb")
    except OSError:
        pass
    os.close(fd)
    return None


def _verified(handle: IO[bytes], name: str, kind: str, take: Callable[[bytes], bool]) -> bool:
    """The whole file read once: its header, then each item's line given to ``take`` (False: the file is not
    trusted), then the trailer's count and digest (any fault: False)."""
    try:
        lines = _lines(handle)
        head = json.loads(next(lines))
        if head != {"format": FORMAT, "name": name, "kind": kind}:
            return False
        digest, count, held = hashlib.sha256(), 0, None
        for line in lines:  # each line is held back one step: the last one is the trailer
            if held is not None:
                if not take(held):
                    return False
                digest.update(held)
                count += 1
            held = line
        return held is not None and json.loads(held) == {"end": count, "sha256": digest.hexdigest()}
    except (OSError, EOFError, ValueError, RecursionError, StopIteration, zlib.error):  # zlib.error: damage
        return False  # inside the deflate stream (gzip.BadGzipFile is an OSError)


def item_of(line: bytes, check: Check) -> Any:
    """The item one line of an entry holds, when it is of the shape ``check`` wants (ValueError if not)."""
    item = json.loads(line)
    if not isinstance(item, dict) or set(item) != {"item"} or not check(item["item"]):
        raise ValueError("an item of the wrong shape")
    return item["item"]


def _checked(check: Check, into: list[Any] | None, convert: Callable[[Any], Any] | None) -> Callable[[bytes], bool]:
    def take(line: bytes) -> bool:
        item = item_of(line, check)
        if into is not None:
            into.append(item if convert is None else convert(item))
        return True

    return take


def _entry(key: Hashable, kind: str) -> tuple[Path, str, IO[bytes]] | None:
    folder = cache_dir()
    if folder is None:
        return None
    name = entry_name(key, kind)
    path = folder / (name + SUFFIX)
    handle = _open_entry(path)
    return None if handle is None else (path, name, handle)


def _used(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: pruned last


def cached(
    key: Hashable, kind: str, check: Check, *, whole: bool = False, convert: Callable[[Any], Any] | None = None
) -> Iterator[Any] | None:
    """The items kept for ``key`` and ``kind``, checked whole before the first one is given; None when there
    is no such entry or it cannot be trusted. Read twice (checked, then given one at a time: a long listing
    is never held), or with ``whole`` once, all the items held from the start (each through ``convert`` as it
    is read, if given: only what the caller keeps of each is held)."""
    entry = _entry(key, kind)
    if entry is None:
        return None
    path, name, handle = entry
    items: list[Any] | None = [] if whole else None
    if not _verified(handle, name, kind, _checked(check, items, convert)):
        handle.close()
        return None
    _used(path)
    if items is not None:
        handle.close()
        return iter(items)
    return _items(handle)


def kept_lines(key: Hashable, kind: str, most: int | None = None) -> list[bytes] | None:
    """The lines of the items kept for ``key`` and ``kind``, the file's format, name, count and digest checked
    but no item decoded yet (None: no such entry, or one that cannot be trusted, or one of more than ``most``
    items: it is not read past them): a caller that shows the first items at once decodes them first, each
    through :func:`item_of`, which checks its shape."""
    entry = _entry(key, kind)
    if entry is None:
        return None
    path, name, handle = entry
    lines: list[bytes] = []

    def take(line: bytes) -> bool:
        if most is not None and len(lines) >= most:
            return False
        lines.append(line)
        return True

    with handle:
        if not _verified(handle, name, kind, take):
            return None
    _used(path)
    return lines


def _items(handle: IO[bytes]) -> Iterator[Any]:
    """The checked file read again from the same open file (a rename since then does not change it; a file
    rewritten in place since it was checked ends the listing with an error, never cut short in silence)."""
    with handle:
        try:
            handle.seek(0)
            lines = _lines(handle)
            next(lines)
            for line in lines:
                item = json.loads(line)
                if "end" in item:
                    return
                yield item["item"]
        except (OSError, EOFError, ValueError, RecursionError, StopIteration, zlib.error, KeyError) as exc:
            from quotetui.domain.errors import BadInput

            raise BadInput(_(_CHANGED).format(name=handle.name)) from exc
        raise BadInput(_(_CHANGED).format(name=handle.name))


_CHANGED = N_("the kept listing {name} changed while it was read; run the command again")


def keeping(key: Hashable, kind: str, items: Iterable[Any]) -> Iterator[Any]:
    """``items``, each given as it comes, and written to the cache as well: the entry is kept only once the
    last item is through (a listing stopped half-way, a full disk, an item past the bounds: nothing is
    kept). ``items`` must be JSON values that decode to themselves (strings, integers, lists, dicts…)."""
    folder = cache_dir()
    writer = _Writer.start(folder, entry_name(key, kind), kind) if folder is not None else None
    if writer is None:
        yield from items
        return
    try:
        for item in items:
            writer.add(item)
            yield item
    except BaseException:
        writer.abandon()
        raise
    writer.finish()


class _Writer:
    def __init__(self, folder: Path, name: str, context: Any, tmp: Path) -> None:
        self.folder, self.name, self.context, self.tmp = folder, name, context, tmp
        self.raw = open(tmp, "wb")  # noqa: SIM115 - closed by finish or abandon
        self.out = gzip.GzipFile(fileobj=self.raw, mode="wb", compresslevel=1, mtime=0)
        self.digest, self.count, self.failed = hashlib.sha256(), 0, False

    @classmethod
    def start(cls, folder: Path, name: str, kind: str) -> _Writer | None:
        from quotetui.system.atomic import replacing

        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            context = replacing(folder / (name + SUFFIX))
            tmp = context.__enter__()
        except Exception:  # a folder that cannot be made or written: keep nothing
            return None
        try:
            writer = cls(folder, name, context, tmp)
            writer.out.write(_line({"format": FORMAT, "name": name, "kind": kind}))
        except Exception as exc:
            context.__exit__(type(exc), exc, exc.__traceback__)
            return None
        return writer

    def add(self, item: Any) -> None:
        if self.failed:
            return
        try:
            line = _line({"item": item})
            if len(line) > MAX_LINE_BYTES or self.raw.tell() > MAX_ENTRY_BYTES:
                raise ValueError("past the cache's bounds")
            self.out.write(line)
            self.digest.update(line)
            self.count += 1
        except (OSError, ValueError, TypeError):
            self.failed = True

    def abandon(self) -> None:
        self._close()
        exc = RuntimeError("abandoned")
        with contextlib.suppress(RuntimeError):
            self.context.__exit__(RuntimeError, exc, None)  # removes the temporary file

    def finish(self) -> None:
        if self.failed:
            self.abandon()
            return
        try:
            self.out.write(_line({"end": self.count, "sha256": self.digest.hexdigest()}))
            self._close()
            if self.tmp.stat().st_size > MAX_ENTRY_BYTES:
                raise ValueError("past the cache's bounds")
        except (OSError, ValueError):
            self.abandon()
            return
        try:
            self.context.__exit__(None, None, None)  # fsync, then renamed into place
        except Exception:
            return
        prune(self.folder)

    def _close(self) -> None:
        try:
            self.out.close()
        finally:
            self.raw.close()


ENTRY = re.compile(r"[0-9a-f]{64}" + re.escape(SUFFIX))
"""An entry's file name (:func:`entry_name` and the suffix): nothing else in the folder is ever removed."""


def prune(folder: Path, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_TOTAL_BYTES) -> None:
    """Remove the least recently used entries past ``max_entries`` or ``max_bytes`` in all (only quotetui's
    own entries: ``QUOTETUI_CACHE_DIR`` may name a folder that holds other files)."""
    try:
        found = []
        for path in folder.glob("*" + SUFFIX):
            st = path.lstat()
            if ENTRY.fullmatch(path.name) and stat.S_ISREG(st.st_mode):  # never a file quotetui did not name
                found.append((st.st_mtime_ns, st.st_size, path))
    except OSError:
        return
    found.sort(reverse=True)
    total = 0
    for n, (_used, size, path) in enumerate(found):
        total += size
        if n >= max_entries or total > max_bytes:
            path.unlink(missing_ok=True)


__all__ = ["ENV", "cache_dir", "cached", "code_fingerprint", "entry_name", "keeping", "prune"]
