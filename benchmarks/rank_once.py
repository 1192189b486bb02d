"""Rank every offer of a database once, cold, in this fresh process; print the seconds and the peak MiB.

    python -m benchmarks.rank_once DB

Used by ``benchmarks/run.py``. Cold: no evaluation cached by an earlier run counts (a fresh process, and
the on-disk cache, where this quotetui has one, pointed at an empty folder).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

from benchmarks.memory import peak_mib


def main() -> None:
    with tempfile.TemporaryDirectory() as empty:
        os.environ["XDG_CACHE_HOME"] = empty  # where a persistent evaluation cache would live
        from quotetui.services.database import open_database
        from quotetui.services.economics import rank_offers

        opened = open_database(sys.argv[1])
        started = time.perf_counter()
        ranking = rank_offers(opened.db, history=False)
        seconds = time.perf_counter() - started
        print(json.dumps({"seconds": seconds, "mib": round(peak_mib(), 1), "offers": len(ranking.offers)}))


if __name__ == "__main__":
    main()
