"""Bounded reads: no input can make an import hang or fill the memory — devices and pipes are cut off at the
size limit, a pipe nobody writes to is given up on, and a sheet's XML is scanned in chunks, never held whole."""

from __future__ import annotations

import io
import os
import subprocess
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from quotetui.io import bounded, xlsx_read
from tests.conftest import Cli, dump, python


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("command", [("import",), ("bench", "import", "--offer", "2")])
def test_a_device_is_read_up_to_the_limit_and_refused_quickly(
    cli: Cli, demo_db_path: Path, device: str, command: tuple[str, ...]
) -> None:
    before = dump(demo_db_path)
    start = time.monotonic()
    result = (
        cli("--db", str(demo_db_path), *command[:1], device, *command[1:])
        if command == ("import",)
        else cli("--db", str(demo_db_path), "bench", "import", device, "--offer", "2")
    )
    assert result.code == 2 and "not ended (a device or a pipe without end?)" in result.err
    assert time.monotonic() - start < 15
    assert dump(demo_db_path) == before


def test_a_pipe_is_imported_like_a_file(demo_db_path: Path, tmp_path: Path) -> None:
    script = f"{python()} -m quotetui --db {demo_db_path} import <(printf 'name,kind\\nPiped Co,lessor\\n') --json"
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert '"added": 1' in result.stdout


def test_a_fifo_nobody_writes_to_is_given_up_on(
    cli: Cli, demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bounded, "IDLE_SECONDS", 1.0)
    fifo = tmp_path / "offers.csv"
    os.mkfifo(fifo)
    result = cli("--db", str(demo_db_path), "import", str(fifo))
    assert result.code == 2 and "nothing arrived" in result.err


def test_a_fifo_whose_writer_comes_late_is_read(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "providers.csv"
    os.mkfifo(fifo)

    def write() -> None:
        time.sleep(0.5)
        with fifo.open("w", encoding="utf-8") as handle:
            handle.write("name,kind\nLate Co,lessor\n")

    writer = threading.Thread(target=write)
    writer.start()
    result = cli("--db", str(demo_db_path), "import", str(fifo), "--dry-run")
    writer.join()
    assert result.code == 0 and "providers: 1 added" in result.out, result.err


def test_a_folder_is_named_as_a_folder(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    result = cli("--db", str(demo_db_path), "import", str(tmp_path))
    assert result.code == 2 and "is a folder, not a file" in result.err


class SheetXml(io.RawIOBase):
    """A 200 MB worksheet made on the fly: rows of cells, a formula without a value near the end, merged
    ranges after the data, as Excel writes them."""

    def __init__(self, rows: int) -> None:
        self.parts = self._parts(rows)
        self.pending = b""

    @staticmethod
    def _parts(rows: int):  # type: ignore[no-untyped-def]
        yield b"<worksheet><sheetData>"
        for r in range(1, rows + 1):
            cells = b"".join(
                b'<c r="%s%d" t="inlineStr"><is><t>%s</t></is></c>' % (c, r, b"x" * 60)
                for c in (b"A", b"B", b"C", b"D")
            )
            yield b'<row r="%d">%s</row>' % (r, cells)
        yield b'<row r="%d"><c r="B%d"><f>SUM(A1:A2)</f></c></row>' % (rows + 1, rows + 1)
        yield b'</sheetData><mergeCells count="1"><mergeCell ref="A2:C4"/></mergeCells></worksheet>'

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        while len(self.pending) < len(buffer):
            try:
                self.pending += next(self.parts)
            except StopIteration:
                break
        n = min(len(buffer), len(self.pending))
        buffer[:n] = self.pending[:n]
        self.pending = self.pending[n:]
        return n


def test_a_huge_sheet_is_scanned_in_bounded_memory() -> None:
    rows = 500_000  # about 200 MB of XML
    tracemalloc.start()
    scan = xlsx_read.scan_sheet(io.BufferedReader(SheetXml(rows), buffer_size=1 << 16))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert scan.merges == [(2, 0, 4, 2)]
    assert scan.formulas == {(rows + 1, 1)}
    assert peak < 40 * 2**20, f"{peak / 2**20:.0f} MiB"


@pytest.mark.parametrize("chunk", [7, 13, 64])
def test_cells_and_merges_cut_at_any_chunk_boundary_are_still_found(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(xlsx_read, "CHUNK", chunk)
    xml = (
        b'<x:sheetData><x:row r="2"><x:c r="B2"><x:f>1+1</x:f></x:c><x:c r="C2"><x:f>2</x:f><x:v>2</x:v></x:c>'
        b'<x:c r="D2" s="1"/><x:c r="AA2"><x:f t="shared" si="0"/><x:v/></x:c></x:row></x:sheetData>'
        b'<x:mergeCells><x:mergeCell ref="A10:B12"/><x:mergeCell ref="C1:C3"/></x:mergeCells>'
    )
    scan = xlsx_read.scan_sheet(io.BytesIO(xml))
    assert scan.formulas == {(2, 1), (2, 26)}
    assert scan.merges == [(10, 0, 12, 1), (1, 2, 3, 2)]
