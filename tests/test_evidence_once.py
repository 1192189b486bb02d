"""Issue 31, point 3: one run is one piece of evidence. A CRLF copy, a colour paste, trailing blanks or a BOM of a
log already on record is recognised, reported as "already on record as evidence #N (file)" and not stored again."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Cli, sql

SAMPLES = Path(__file__).parent.parent / "imports" / "samples"


def test_copies_of_one_run_are_one_piece_of_evidence(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    db = str(demo_db_path)
    log = SAMPLES / "h100-clean" / "gemm.txt"
    if not log.exists():
        log = sorted((SAMPLES / "h100-clean").iterdir())[0]
    text = log.read_text(encoding="utf-8")
    first = cli("--db", db, "bench", "import", str(log), "--offer", "9", "--json")
    assert first.code == 0, first.err
    [(count,)] = sql(demo_db_path, "SELECT COUNT(*) FROM evidence WHERE offer_id = 9")
    lines = text.split("\n")
    copies = {
        "crlf.txt": text.replace("\n", "\r\n"),
        "colour.txt": "\n".join(
            f"\x1b[32m{line}\x1b[0m" if i % 3 == 0 and line else line for i, line in enumerate(lines)
        ),
        "blanks.txt": "\n\n" + "\n".join(line + "   " for line in lines) + "\n\n\n",
        "bom.txt": "\ufeff" + text,
        "prompts.txt": f"[root@gpu01 ~]# cat {log.name}\n" + text + "\n[root@gpu01 ~]# ",
        "tagged.txt": "\n".join(f"[1,0]<stdout>: {line}" if line else line for line in lines),
        "tagged-tight.txt": "\n".join(f"[1,0]<stdout>:{line}" for line in lines),  # as Open MPI writes it
    }
    for name, body in copies.items():
        (tmp_path / name).write_bytes(body.encode("utf-8"))
    again = cli("--db", db, "bench", "import", *(str(tmp_path / n) for n in copies), "--offer", "9", "--json")
    assert again.code == 0, again.err
    report = json.loads(again.out)
    assert report["duplicates"] == len(copies) and report["added"] == 0
    assert {entry["same_as"] for entry in report["logs"]} == {log.name}
    assert sql(demo_db_path, "SELECT COUNT(*) FROM evidence WHERE offer_id = 9") == [(count,)]
    shown = cli("--db", db, "bench", "import", str(tmp_path / "crlf.txt"), "--offer", "9").out
    assert "already on record as evidence #" in shown and f"({log.name})" in shown
    other = tmp_path / "other.txt"
    other.write_text(text + "\nextra line that changes the run\n", encoding="utf-8")
    changed = json.loads(cli("--db", db, "bench", "import", str(other), "--offer", "9", "--json").out)
    assert changed["added"] == 1  # a different text is a different piece of evidence
