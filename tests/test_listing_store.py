"""Offer listings kept on disk between launches (services/listing_store.py, services/offer_listing.py).

A second `offers` / `offers --json` with nothing changed prints, byte for byte, what a cold one prints, without
ranking; any change the figures depend on (a write through quotetui or around it, another scenario, another
day, another version of the code) is a new entry; a damaged, foreign or hostile file is ignored and replaced,
never a crash; the files hold no secret and are bounded."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sqlite3
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from conftest import Cli

from quotetui.domain.errors import BadInput
from quotetui.services import economics, listing_store
from quotetui.services.database import open_database
from quotetui.services.offer_listing import JSON, TABLE, offer_listing
from quotetui.services.ranking_cache import RANKINGS, disk_key

pytestmark = pytest.mark.sqlite_only  # a warm launch on a shared server misses whenever any database there writes


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(listing_store.ENV, str(folder))
    RANKINGS.clear()
    return folder


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*" + listing_store.SUFFIX))


def _cold(cli: Cli, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[str, str]:
    """What a launch with no cache at all prints."""
    with monkeypatch.context() as patch:
        patch.setenv(listing_store.ENV, "off")
        RANKINGS.clear()
        result = cli(*args)
    assert result.code == 0, result.err
    return result.out, result.err


@pytest.mark.parametrize("json_flag", [(), ("--json",)], ids=["table", "json"])
def test_a_second_launch_prints_the_same_bytes_without_ranking(
    cli: Cli, demo_db_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, json_flag: tuple[str, ...]
) -> None:
    args = ("--db", str(demo_db_path), "offers", *json_flag)
    cold = _cold(cli, monkeypatch, *args)
    first = cli(*args)
    assert (first.code, first.out, first.err) == (0, *cold)
    assert len(_entries(cache)) == 1
    with monkeypatch.context() as patch:
        patch.setattr(economics, "rank_offers", lambda *a, **k: pytest.fail("ranked although the listing was kept"))
        RANKINGS.clear()
        warm = cli(*args)
    assert (warm.code, warm.out, warm.err) == (0, *cold)
    if json_flag:
        assert json.loads(warm.out)[0]["rank"] == 1


def test_a_write_through_quotetui_or_around_it_is_a_new_listing(
    cli: Cli, demo_db_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ("--db", str(demo_db_path), "offers", "--json")
    before = cli(*args).out
    offer = json.loads(before)[0]["id"]
    assert cli("--db", str(demo_db_path), "offer", "edit", str(offer), "--status", "rejected").code == 0
    after_cli = cli(*args).out
    assert after_cli == _cold(cli, monkeypatch, *args)[0]
    assert next(o for o in json.loads(after_cli) if o["id"] == offer)["status"] == "rejected"

    conn = sqlite3.connect(demo_db_path)  # the sqlite3 shell: no data version bumped, the file's stamp moves
    with conn:
        conn.execute("UPDATE offer SET status = 'negotiating' WHERE id = ?", (offer,))
    conn.close()
    after_shell = cli(*args).out
    assert after_shell == _cold(cli, monkeypatch, *args)[0]
    assert next(o for o in json.loads(after_shell) if o["id"] == offer)["status"] == "negotiating"
    assert len(_entries(cache)) == 3


def test_another_scenario_another_day_or_another_code_is_another_listing(
    demo_db_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = open_database(str(demo_db_path)).db
    try:
        day, other_day = date(2026, 11, 20), date(2026, 11, 21)
        names = [row[0] for row in sqlite3.connect(demo_db_path).execute("SELECT name FROM scenario ORDER BY id")]
        assert len(names) >= 2
        first = list(offer_listing(db, TABLE, names[0], on=day))
        assert list(offer_listing(db, TABLE, names[1], on=day)) != first  # its own title at least
        list(offer_listing(db, TABLE, names[0], on=other_day))
        list(offer_listing(db, JSON, names[0], on=day))
        assert len(_entries(cache)) == 4
        monkeypatch.setattr(listing_store, "_FINGERPRINT", ["another version of quotetui"])
        assert list(offer_listing(db, TABLE, names[0], on=day)) == first
        assert len(_entries(cache)) == 5
    finally:
        db.dispose()


def _write_entry(path: Path, lines: list[object]) -> None:
    with gzip.open(path, "wb") as out:
        out.writelines(json.dumps(line).encode() + b"\n" for line in lines)


def _hostile(path: Path, name: str, kind: str, items: list[object]) -> None:
    """A file in the right format, with a correct trailer, holding ``items``."""
    body = [json.dumps({"item": item}).encode() + b"\n" for item in items]
    digest = hashlib.sha256(b"".join(body)).hexdigest()
    with gzip.open(path, "wb") as out:
        out.write(json.dumps({"format": listing_store.FORMAT, "name": name, "kind": kind}).encode() + b"\n")
        out.writelines(body)
        out.write(json.dumps({"end": len(items), "sha256": digest}).encode() + b"\n")


def _flipped_at(at: int) -> Callable[[Path, str], None]:
    def flip(path: Path, name: str) -> None:
        data = bytearray(path.read_bytes())
        data[min(at, len(data) - 1)] ^= 0xAA
        path.write_bytes(bytes(data))

    return flip


DAMAGE = {
    "truncated": lambda p, name: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
    "a byte flipped": lambda p, name: p.write_bytes(
        (lambda b: b[:60] + bytes([b[60] ^ 0xFF]) + b[61:])(bytearray(p.read_bytes()))
    ),
    # inside the deflate stream: zlib's own error, neither an OSError nor a ValueError
    **{f"a byte flipped at {at}": _flipped_at(at) for at in (100, 400, 1000)},
    "not gzip": lambda p, name: p.write_bytes(b"not a cache file at all\n"),
    "empty": lambda p, name: p.write_bytes(b""),
    "foreign format": lambda p, name: _write_entry(p, [{"format": "someone-else/9", "name": name}, {"end": 0}]),
    "a line cut short": lambda p, name: p.write_bytes(gzip.compress(b'{"format": "quotetui-listing/1"')),
    "an item of the wrong shape": lambda p, name: _hostile(p, name, TABLE, [["row", "1", "2"]]),
    "another entry's name": lambda p, name: _hostile(p, "0" * 64, TABLE, [["title", "forged"]]),
    "a wrong digest": lambda p, name: _write_entry(
        p,
        [
            {"format": listing_store.FORMAT, "name": name, "kind": TABLE},
            {"item": ["title", "forged"]},
            {"end": 1, "sha256": "0" * 64},
        ],
    ),
    "a gzip bomb": lambda p, name: p.write_bytes(gzip.compress(b"0" * (listing_store.MAX_LINE_BYTES + 10))),
    "a link to a device": lambda p, name: (p.unlink(), p.symlink_to("/dev/zero")),
    "a folder": lambda p, name: (p.unlink(), p.mkdir()),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_or_hostile_file_is_ignored_and_replaced(
    cli: Cli, demo_db_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    args = ("--db", str(demo_db_path), "offers")
    cold = _cold(cli, monkeypatch, *args)
    assert cli(*args).out == cold[0]
    (entry,) = _entries(cache)
    DAMAGE[damage](entry, entry.name.removesuffix(listing_store.SUFFIX))
    RANKINGS.clear()
    again = cli(*args)
    assert (again.code, again.out, again.err) == (0, *cold)
    if entry.is_file() and not entry.is_symlink():  # replaced by a whole entry: read back without ranking
        with monkeypatch.context() as patch:
            patch.setattr(economics, "rank_offers", lambda *a, **k: pytest.fail("ranked"))
            RANKINGS.clear()
            assert cli(*args).out == cold[0]


def test_a_listing_stopped_half_way_keeps_nothing(demo_db_path: Path, cache: Path) -> None:
    db = open_database(str(demo_db_path)).db
    try:
        items = offer_listing(db, JSON, on=date(2026, 11, 20))
        next(items)
        items.close()  # `offers --json | head`: the pipe closed
        assert not cache.exists() or not any(cache.iterdir())  # neither an entry nor a temporary file
    finally:
        db.dispose()


@pytest.mark.parametrize("where", ["off", "a file", "a folder without write permission"])
def test_no_usable_cache_folder_still_lists(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    args = ("--db", str(demo_db_path), "offers", "--json")
    cold = _cold(cli, monkeypatch, *args)
    if where == "off":
        monkeypatch.setenv(listing_store.ENV, "off")
    elif where == "a file":
        (tmp_path / "plain").write_text("x")
        monkeypatch.setenv(listing_store.ENV, str(tmp_path / "plain"))
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes anywhere")
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o500)
        monkeypatch.setenv(listing_store.ENV, str(folder))
    for _ in range(2):
        RANKINGS.clear()
        result = cli(*args)
        assert (result.code, result.out, result.err) == (0, *cold)


def test_the_files_hold_no_secret_and_are_private(cache: Path) -> None:
    key = ("postgresql://buyer:s3cret-pw@db.example/market?sslpassword=k3y", None, 7, 1234, "scenario")
    assert "s3cret-pw" not in repr(disk_key(key)) and "k3y" not in repr(disk_key(key))
    assert list(listing_store.keeping(disk_key(key), TABLE, [["title", "t"]])) == [["title", "t"]]
    (entry,) = _entries(cache)
    text = gzip.decompress(entry.read_bytes())
    assert b"s3cret" not in text and b"db.example" not in text and b"buyer" not in text
    assert cache.stat().st_mode & 0o077 == 0  # the folder is the user's alone
    found = listing_store.cached(disk_key(key), TABLE, lambda item: True)
    assert found is not None and list(found) == [["title", "t"]]


def test_pruning_removes_only_quotetuis_own_entries(cache: Path) -> None:
    """``QUOTETUI_CACHE_DIR`` may name a folder that holds other files (a mistake: ``~``): only files named
    as quotetui names its entries are ever removed, whatever their number, age or size."""
    cache.mkdir(parents=True)
    theirs = [cache / f"events-{n}.jsonl.gz" for n in range(20)] + [cache / ("F" * 64 + listing_store.SUFFIX)]
    for n, path in enumerate(theirs):
        path.write_bytes(gzip.compress(b'{"event": 1}\n'))
        os.utime(path, ns=(10**9 + n, 10**9 + n))  # older than any entry
    for n in range(3):
        list(listing_store.keeping(("key", n), TABLE, [["title", str(n)]]))
    listing_store.prune(cache, max_entries=1, max_bytes=1)
    assert all(path.exists() for path in theirs)
    assert len([p for p in _entries(cache) if listing_store.ENTRY.fullmatch(p.name)]) == 0


def test_the_cache_is_bounded(cache: Path) -> None:
    for n in range(5):
        list(listing_store.keeping(("key", n), TABLE, [["title", str(n)]]))
    assert len(_entries(cache)) == 5
    paths = {n: cache / (listing_store.entry_name(("key", n), TABLE) + listing_store.SUFFIX) for n in range(5)}
    for n, path in paths.items():
        os.utime(path, ns=(10**18 + n, 10**18 + n))  # 4 the most recently used
    listing_store.prune(cache, max_entries=3)
    assert sorted(p.name for p in _entries(cache)) == sorted(paths[n].name for n in (2, 3, 4))
    listing_store.prune(cache, max_bytes=paths[3].stat().st_size + paths[4].stat().st_size)
    assert sorted(p.name for p in _entries(cache)) == sorted(paths[n].name for n in (3, 4))
    big = [["title", "x" * 1000]]
    assert list(listing_store.keeping(("too big",), TABLE, big * 10)) == big * 10
    assert listing_store.cached(("too big",), TABLE, lambda item: True) is not None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(listing_store, "MAX_LINE_BYTES", 100)
        list(listing_store.keeping(("a line too long",), TABLE, big))
        assert listing_store.cached(("a line too long",), TABLE, lambda item: True) is None


@pytest.mark.parametrize(
    "text",
    [
        '{\n    "id": 1,\n    "name": "\x9b31m\u202eevil"\n  }',  # valid JSON: C1 CSI and a bidi override are
        '{\n    "id": 1,\n    "name": "\x1b]52;c;cm0gLXJmIH4=\x07"\n  }',  # legal in its strings, ESC is not
        "not json",
        '{"name": "no id"}',
        "[1, 2]",
    ],
    ids=["terminal control", "raw escape", "not JSON", "no id", "not an object"],
)
def test_kept_json_text_that_offers_could_not_have_written_is_ignored(
    cli: Cli, demo_db_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    args = ("--db", str(demo_db_path), "offers", "--json")
    cold = _cold(cli, monkeypatch, *args)
    assert cli(*args).out == cold[0]
    (entry,) = _entries(cache)
    name = entry.name.removesuffix(listing_store.SUFFIX)
    _hostile(entry, name, f"{JSON}:text:unicode", [text])
    RANKINGS.clear()
    again = cli(*args)
    assert (again.code, again.out, again.err) == (0, *cold)
    assert "\x1b" not in again.out and "\x9b" not in again.out and "\u202e" not in again.out


def test_a_listing_rewritten_in_place_while_it_is_read_ends_with_an_error_not_cut_short(cache: Path) -> None:
    items = [["title", str(n) * 200] for n in range(200)]
    list(listing_store.keeping(("in place",), TABLE, items))
    (entry,) = _entries(cache)
    found = listing_store.cached(("in place",), TABLE, lambda item: True)
    assert found is not None  # checked whole; its items are read again from the same open file
    with open(entry, "r+b") as same_file:  # another program writes into it meanwhile
        same_file.seek(len(entry.read_bytes()) // 2)
        same_file.write(b"\x00" * 64)
    with pytest.raises(BadInput, match="changed while it was read; run the command again"):
        list(found)


KEPT = [["title", "kept"], *(["row", n, "x" * (n % 7)] for n in range(300))]
"""A kept listing long enough that its entry is several deflate blocks (every damage lands in the items)."""


def _kept(cache: Path) -> Path:
    for _ in listing_store.keeping(("kept lines", 1), TABLE, KEPT):
        pass
    (entry,) = _entries(cache)
    return entry


def test_kept_lines_give_every_item_undecoded_in_order(cache: Path) -> None:
    lines = listing_store.kept_lines(("kept lines", 1), TABLE)
    assert lines is None  # nothing kept yet
    _kept(cache)
    lines = listing_store.kept_lines(("kept lines", 1), TABLE)
    assert lines is not None and all(isinstance(line, bytes) for line in lines)
    assert [listing_store.item_of(line, lambda item: True) for line in lines] == KEPT
    assert listing_store.kept_lines(("kept lines", 2), TABLE) is None  # another key
    with pytest.raises(ValueError, match="wrong shape"):  # the caller's shape rule, line by line
        listing_store.item_of(lines[1], lambda item: item[0] == "title")


@pytest.mark.parametrize("damage", DAMAGE)
def test_kept_lines_of_a_damaged_or_hostile_file_are_none(cache: Path, damage: str) -> None:
    entry = _kept(cache)
    DAMAGE[damage](entry, entry.name.removesuffix(listing_store.SUFFIX))
    lines = listing_store.kept_lines(("kept lines", 1), TABLE)
    if damage == "an item of the wrong shape":  # the count and digest hold: the shape is the caller's to check
        assert lines is not None
        with pytest.raises(ValueError):
            listing_store.item_of(lines[0], lambda item: isinstance(item[1], int) and len(item) == 3)
        return
    # never other items: refused, or (a byte of the gzip header's file name flipped) the very items kept
    assert lines is None or [listing_store.item_of(line, lambda item: True) for line in lines] == KEPT
