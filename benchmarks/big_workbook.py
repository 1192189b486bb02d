"""Peak memory of checking a large workbook (a benchmark script, not a timed test).

    python -m benchmarks.big_workbook [--rows 240000]

Writes an Offers sheet of ``--rows`` rows (about 55 MB at 240,000 rows, 175 MB of sheet XML) with
openpyxl's write-only mode, then runs ``quotetui import --dry-run`` on it in a child process and reports
its wall time and peak resident memory (``VmHWM``), beside the same for a child that only loads quotetui and
opens the database (the floor of any command).
"""

from __future__ import annotations

import argparse
import json
import random
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from openpyxl import Workbook

CHILD = """
import sys
from pathlib import Path
from quotetui.services.database import open_database
from quotetui.io.problems import ImportProblems
from quotetui.services.importing import import_files
db = open_database(sys.argv[1], load_demo_if_new=False).db
if len(sys.argv) > 2:
    try:
        import_files(db, [Path(sys.argv[2])], dry_run=True)
    except ImportProblems as exc:
        print(len(exc.problems), "problems", file=sys.stderr)
for line in open("/proc/self/status"):
    if line.startswith("VmHWM"):
        print(int(line.split()[1]) // 1024)
"""


def write_workbook(path: Path, rows: int) -> None:
    rnd = random.Random(1)

    def junk(n: int) -> str:
        return "".join(rnd.choice(string.ascii_letters) for _ in range(n))

    book = Workbook(write_only=True)
    sheet = book.create_sheet("Offers")
    sheet.append(["provider", "offer", "gpu", "gpus_per_node", "billing", "region", "notes", "cpu", "stock_note"])
    for i in range(rows):
        sheet.append(
            ["一万网络", f"offer {i} {junk(20)}", "H100", 8, "monthly", junk(30), junk(120), junk(40), junk(40)]
        )
    book.save(path)


def child(db: Path, *args: str) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", CHILD, str(db), *args], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, int(proc.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=240_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        book, db = Path(folder) / "big.xlsx", Path(folder) / "big.db"
        write_workbook(book, args.rows)
        floor_s, floor_mib = child(db)
        check_s, check_mib = child(db, str(book))
        print(
            json.dumps(
                {
                    "rows": args.rows,
                    "workbook_mib": round(book.stat().st_size / 2**20, 1),
                    "dry_run_s": round(check_s, 2),
                    "dry_run_peak_mib": check_mib,
                    "open_only_peak_mib": floor_mib,
                    "open_only_s": round(floor_s, 2),
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
