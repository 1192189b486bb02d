"""The same behaviour on a real PostgreSQL server (what a team shares): the schema migrates, money stays
exact in NUMERIC(38,6), and the main flows give the same figures as SQLite, to the cent.

Runs when ``QUOTETUI_TEST_PG`` names a server (``postgresql+psycopg://user@127.0.0.1:PORT/postgres``);
``.ci/run`` starts a throw-away one (initdb + pg_ctl on a temporary folder, loopback only) and sets it.
Each test gets its own fresh database on that server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.conftest import Cli

SERVER = os.environ.get("QUOTETUI_TEST_PG")
pytestmark = pytest.mark.skipif(not SERVER, reason="QUOTETUI_TEST_PG names no PostgreSQL server")
SAMPLES = Path(__file__).parent.parent / "imports" / "samples"


@pytest.fixture
def pg_url() -> Iterator[str]:
    assert SERVER is not None
    name = f"qt_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(SERVER, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = sa.engine.make_url(SERVER).set(database=name).render_as_string(hide_password=False)
    yield url
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
    admin.dispose()


def _json(cli: Cli, *args: str) -> object:
    result = cli(*args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_schema_money_columns_are_numeric_and_exact(cli: Cli, pg_url: str) -> None:
    assert cli("--db", pg_url, "demo").code == 0
    check = _json(cli, "--db", pg_url, "db", "check", "--json")
    assert isinstance(check, dict) and check["ok"] is True
    engine = sa.create_engine(pg_url)
    with engine.connect() as conn:
        kind = conn.exec_driver_sql(
            "SELECT data_type, numeric_precision, numeric_scale FROM information_schema.columns "
            "WHERE table_name = 'revision_price' AND column_name = 'amount'"
        ).one()
        assert tuple(kind) == ("numeric", 38, 6)
        amounts = [r[0] for r in conn.exec_driver_sql("SELECT amount FROM revision_price ORDER BY id")]
    engine.dispose()
    assert all(isinstance(a, Decimal) for a in amounts) and Decimal("88000") in amounts


def test_the_same_figures_as_sqlite_to_the_cent(cli: Cli, pg_url: str, tmp_path: Path) -> None:
    lite = str(tmp_path / "lite.db")
    for db in (lite, pg_url):
        assert cli("--db", db, "demo").code == 0
    for args in (("offers", "--json"), ("explain", "2", "--json"), ("claims", "--json"), ("market", "--json")):
        assert _json(cli, "--db", pg_url, *args) == _json(cli, "--db", lite, *args), args


def test_excel_round_trip_into_postgresql(cli: Cli, pg_url: str, tmp_path: Path) -> None:
    lite = str(tmp_path / "lite.db")
    assert cli("--db", lite, "demo").code == 0
    board = tmp_path / "board.xlsx"
    assert cli("--db", lite, "export", str(board)).code == 0
    result = cli("--db", pg_url, "import", str(board), "--json")
    assert result.code == 0, result.out
    again = _json(cli, "--db", pg_url, "import", str(board), "--dry-run", "--json")
    assert isinstance(again, dict) and all(c["added"] == 0 and c["changed"] == 0 for c in again["counts"].values())
    # scenarios are not imported: compare under the default scenario every database has
    default = ("offers", "--scenario", "8 GPUs for 12 months", "--json")
    assert _json(cli, "--db", pg_url, *default) == _json(cli, "--db", lite, *default)


def test_evidence_contracts_and_a_restore_refusal(cli: Cli, pg_url: str, tmp_path: Path) -> None:
    assert cli("--db", pg_url, "demo").code == 0
    logs = [str(p) for p in sorted((SAMPLES / "pcie-as-sxm").iterdir())]
    assert cli("--db", pg_url, "bench", "import", *logs, "--offer", "18").code == 0
    again = _json(cli, "--db", pg_url, "bench", "import", *logs, "--offer", "18", "--json")
    assert isinstance(again, dict) and again["added"] == 0
    check = _json(cli, "--db", pg_url, "bench", "check", "--offer", "18", "--json")
    assert isinstance(check, dict)
    assert {f["code"] for f in check["findings"]} == {"pcie-topology", "model-mismatch", "allreduce-low"}
    _json(cli, "--db", pg_url, "contracts", "add", "--offer", "2", "--start", "2026-01-31", "--term-months", "12",
          "--notice-days", "30", "--gpus", "16", "--json")  # fmt: skip
    invoice = _json(cli, "--db", pg_url, "contracts", "invoice", "add", "1", "--from", "2026-01-31",
                    "--to", "2026-02-27", "--amount", "204000.01", "--currency", "CNY", "--json")  # fmt: skip
    assert isinstance(invoice, dict) and invoice["variance"] == "0.01" and invoice["off"] is True
    bad = cli("--db", pg_url, "contracts", "add", "--offer", "2", "--start", "2026-02-30", "--term-months", "1")
    assert bad.code == 2
    refused = cli("--db", pg_url, "db", "restore", str(tmp_path / "x.db"), "--yes")
    assert refused.code == 2


WRITER = """
import sys
from quotetui.services.database import open_database
from quotetui.services.editing import save_revision
db = open_database(sys.argv[1]).db
for i in range(200):
    save_revision(db, 1, {"mover": "provider", "quoted_at": "2026-11-30", "amount": str(1000 + i),
                          "unit": "node_month", "currency": "CNY", "term_months": "1", "round_note": sys.argv[2]})
"""


def test_two_writers_on_the_server(cli: Cli, pg_url: str) -> None:
    assert cli("--db", pg_url, "demo").code == 0
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, pg_url, name], stderr=subprocess.PIPE, text=True)
        for name in ("a", "b")
    ]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    engine = sa.create_engine(pg_url)
    with engine.connect() as conn:
        seqs = [r[0] for r in conn.exec_driver_sql("SELECT seq FROM quote_revision WHERE offer_id = 1 ORDER BY seq")]
    engine.dispose()
    assert seqs == list(range(1, 402))  # the demo's round, then 400 without a gap or a duplicate


def test_sigkill_during_an_import_on_the_server(pg_url: str, tmp_path: Path) -> None:
    """Killed at random moments, an import into PostgreSQL leaves the data as before it or after it."""
    import random
    import signal
    import time

    from benchmarks.market import build
    from quotetui.services.database import open_database
    from quotetui.services.transfer import export_file
    from tests.conftest import WRITE_STAMPS, _pg_create, _pg_drop, dump

    source = open_database(str(tmp_path / "source.db"), load_demo_if_new=False)
    build(source.db, 300)
    workbook = export_file(source.db, tmp_path / "market.xlsx")
    source.db.dispose()
    stamps = WRITE_STAMPS  # the change log's times too: a kill after the commit (while the ranking is refreshed)

    def quotetui(*args: str) -> list[str]:  # in a process of its own: no connection stays open here
        return [sys.executable, "-c", "import sys; from quotetui.cli import main; main(sys.argv[1:])", *args]

    def importing(url: str) -> list[str]:
        return quotetui("--db", url, "import", str(workbook))

    subprocess.run(quotetui("--db", pg_url, "demo"), check=True, capture_output=True)  # a template for every try
    before = dump(pg_url, stamps)
    template = sa.engine.make_url(pg_url).database

    full = _pg_create(template)
    started = time.perf_counter()
    subprocess.run(importing(full), check=True, capture_output=True)
    duration = time.perf_counter() - started
    after = dump(full, stamps)
    _pg_drop(full)
    assert after != before
    rng, kills, tries = random.Random(7), 0, 0
    while kills < 5 and tries < 20:
        tries += 1
        url = _pg_create(template)
        proc = subprocess.Popen(importing(url), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, duration))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait(timeout=60)
        assert dump(url, stamps) in (before, after), f"try {tries} left a partial import"
        _pg_drop(url)
    assert kills >= 5
