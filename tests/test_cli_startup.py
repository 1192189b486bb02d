"""A read command imports only what it needs (issue 16): no Textual, openpyxl or Alembic, and no pydantic
where no database is opened; and what it prints is what it printed when every table went through Rich's
layout engine and every JSON listing was built whole."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from quotetui.commands import common
from quotetui.commands.output import json_text, say_json_array

NEVER = ("textual", "openpyxl", "alembic")
"""Imported by no read command (Textual only by the TUI and by `config` for a keymap)."""

NO_DATABASE = ("pydantic", "sqlalchemy", "sqlmodel")
"""Imported by no command that leaves the database closed (help, version, a refused flag, fixed text)."""

THROUGH_THE_STORE = ("sqlalchemy", "sqlmodel", "pydantic")
"""What a read command still imports through the store (`store/engine.py`, the services' ORM reads), until a
read path that skips SQLAlchemy on SQLite lands: then move each command that no longer needs them to
:data:`READS_WITHOUT_ORM`, and its check here starts failing if one comes back."""

READS_WITHOUT_ORM: tuple[tuple[str, ...], ...] = (
    ("offers",),
    ("offers", "--json"),
    ("config",),
    ("explain", "1"),
    ("providers",),
    ("gpus",),
    ("market",),
    ("scenario", "list"),
    ("fx", "list"),
    ("claims",),
    ("contracts",),
    ("contracts", "due"),
    ("bench", "check", "--offer", "1"),
    ("rfq", "list"),
)
"""Read commands that open the database without SQLAlchemy, SQLModel or pydantic (see above)."""

READS = [
    ("offers",),
    ("offers", "--json"),
    ("explain", "1"),
    ("providers",),
    ("gpus",),
    ("claims",),
    ("market",),
    ("contracts",),
    ("contracts", "due"),
    ("scenario", "list"),
    ("fx", "list"),
    ("bench", "check", "--offer", "1"),
    ("config",),
    ("rfq", "list"),
]
CLOSED = [("--help",), ("--version",), ("offers", "--help"), ("bench", "codes"), ("explain", "abc"), ("explain", "0")]

PROBE = """
import io, sys
from contextlib import redirect_stdout
sys.argv = ["quotetui", *sys.argv[1:]]
from quotetui.launch import main
out = io.StringIO()
try:
    with redirect_stdout(out):
        main()
except SystemExit:
    pass
sys.stderr.write("\\nMODULES " + " ".join(sorted({m.split(".")[0] for m in sys.modules})) + "\\n")
"""


def _imported(*args: str, env: dict[str, str] | None = None) -> set[str]:
    """The top-level packages in ``sys.modules`` after ``quotetui ARGS`` ran in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("MODULES "), done.stderr
    return set(last.removeprefix("MODULES ").split())


@pytest.fixture
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config.toml"
    path.write_text('theme = "nord"\n', encoding="utf-8")
    monkeypatch.setenv("QUOTETUI_CONFIG", str(path))
    return path


@pytest.mark.sqlite_only
@pytest.mark.parametrize("args", READS, ids=" ".join)
def test_a_read_command_imports_no_front_end_or_file_format_it_does_not_use(
    args: tuple[str, ...], demo_db_path: Path, config_file: Path
) -> None:
    imported = _imported("--db", str(demo_db_path), *args)
    assert not imported & set(NEVER)
    if args in READS_WITHOUT_ORM:
        assert not imported & set(THROUGH_THE_STORE)


@pytest.mark.parametrize("args", CLOSED, ids=" ".join)
def test_a_command_that_opens_no_database_imports_no_orm_and_no_pydantic(args: tuple[str, ...]) -> None:
    imported = _imported(*args)
    assert not imported & {*NEVER, *NO_DATABASE}
    assert "typer" in imported  # the probe ran the real command line


def test_the_offers_listing_imports_only_its_own_command_module(demo_db_path: Path, config_file: Path) -> None:
    probe = PROBE.replace(
        '"\\nMODULES " + " ".join(sorted({m.split(".")[0] for m in sys.modules}))',
        ('"\\nMODULES " + " ".join(sorted(m for m in sys.modules if m.startswith("quotetui.commands.")))'),
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "--db", str(demo_db_path), "offers"], capture_output=True, text=True, check=False
    )
    loaded = set(done.stderr.strip().splitlines()[-1].removeprefix("MODULES ").split())
    assert loaded == {
        "quotetui.commands.common",
        "quotetui.commands.market",
        "quotetui.commands.output",
        "quotetui.commands.help_words",  # the command line's own words in the language in use
    }


def test_help_lists_every_command_in_its_order(cli) -> None:  # type: ignore[no-untyped-def]
    from quotetui.cli import COMMANDS

    out = cli("--help").out
    listed = [line.split()[0] for line in out.split("Commands:\n", 1)[1].splitlines() if line.startswith("  ")]
    assert listed == list(COMMANDS)
    assert listed[:5] == ["providers", "offers", "explain", "gpus", "demo"] and listed[-1] == "db"


def test_help_imports_no_command_module() -> None:
    """``--help`` lists the commands from ``commands/help_index.py``: no command module is imported (each one
    pulls in its services), so it starts like a small script (issue 33: within 15× of ``python -c pass``)."""
    probe = PROBE.replace(
        '"\\nMODULES " + " ".join(sorted({m.split(".")[0] for m in sys.modules}))',
        ('"\\nMODULES " + " ".join(sorted(m for m in sys.modules if m.startswith("quotetui.commands.")))'),
    )
    done = subprocess.run([sys.executable, "-c", probe, "--help"], capture_output=True, text=True, check=False)
    loaded = set(done.stderr.strip().splitlines()[-1].removeprefix("MODULES ").split())
    assert loaded == {
        "quotetui.commands.common",
        "quotetui.commands.output",
        "quotetui.commands.help_index",
        "quotetui.commands.help_words",
    }


def test_the_help_index_is_what_the_commands_say() -> None:
    """Generated from each command's docstring: stale after a docstring changes until
    ``python -m quotetui.write_help_index`` writes it again."""
    from quotetui.commands.help_index import FIRST_PARAGRAPHS
    from quotetui.write_help_index import current

    assert current() == FIRST_PARAGRAPHS


@pytest.mark.parametrize("width", ["40", "80", "200"])
def test_help_lists_the_commands_as_click_would_from_the_commands_themselves(
    width: str,
    cli,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    from quotetui.commands import help_index

    monkeypatch.setenv("COLUMNS", width)
    indexed = cli("--help").out
    monkeypatch.setattr(help_index, "FIRST_PARAGRAPHS", {})  # every command built and asked, as Click does
    built = cli("--help").out
    assert indexed == built and "Commands:" in built


# -- the same output ------------------------------------------------------------------------------------
def _piped(command: tuple[str, ...], db: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "quotetui", "--db", str(db), *command], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.sqlite_only
@pytest.mark.parametrize("command", [("offers",), ("providers",), ("gpus",), ("scenario", "list"), ("fx", "list")])
def test_a_piped_table_is_the_one_richs_layout_engine_wrote(
    command: tuple[str, ...],
    demo_db_path: Path,
    cli,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    added = cli(
        "--db", str(demo_db_path), "fx", "add", "USD", "CNY", "7.1234", "--date", "2026-01-02", "--source", "bank"
    )
    assert added.code == 0, added.err
    piped = _piped(command, demo_db_path)
    monkeypatch.setattr(common, "_plain", lambda columns, rows: False)  # every table through Rich, as before
    assert cli("--db", str(demo_db_path), *command).out == piped
    assert piped.count("\n") >= 2


def _through(plain: bool, columns: list[str], rows: list[list[str]], **options: object) -> str:
    out = io.StringIO()
    original = common._plain
    common._plain = original if plain else (lambda columns, rows: False)  # type: ignore[assignment]
    try:
        with redirect_stdout(out):
            common.table(columns, rows, **options)  # type: ignore[arg-type]
    finally:
        common._plain = original  # type: ignore[assignment]
    return out.getvalue()


CASES = [
    (["id", "provider", "offers"], [["1", "阿里云", "12"], ["10", "Lambda Labs", "3"]], {"right": frozenset({"id"})}),
    (["GPU", "form"], [["H100 SXM5", "SXM"], ["L40S", "PCIe"]], {}),
    (
        ["offer", "GPU", "TCO/yr"],
        [["一万网络 8×H100（官网价）", "H100 SXM5", "≥ 268,800.00"]],
        {"right": frozenset({"TCO/yr"})},
    ),
    (["setting", "value"], [["theme", "Evil[/]Co ␛[31m"], ["database", "/tmp/a b/quotes.db"]], {}),
    (["a", "b"], [], {}),
]


@pytest.mark.parametrize(("columns", "rows", "options"), CASES)
def test_the_plain_writer_lays_a_table_out_as_rich_did(
    columns: list[str], rows: list[list[str]], options: dict[str, object]
) -> None:
    assert _through(True, columns, rows, **options) == _through(False, columns, rows, **options)


def test_a_piped_table_keeps_every_cell_whole_beside_a_narrow_text_column() -> None:
    """Rich gave a capped text column narrower than 8 (``GPU``: ``L4``) 8 cells, overflowed the table's
    width and cut the other columns (``12`` came out as ``1``)."""
    out = _through(
        True,
        ["offer", "GPU", "id"],
        [["Lambda 8×H100 SXM5 on demand", "L4", "12"]],
        right=frozenset({"id"}),
        widths={"offer": 30, "GPU": 14},
    )
    assert out == "offer                         GPU  id\nLambda 8×H100 SXM5 on demand  L4   12\n"


ITEMS = [
    [],
    [{"id": 1, "name": "阿里云 8×H100", "tags": [], "nested": {"a": [1, {"b": None}], "e": {}}}],
    [{"name": "Evil\x1b]52;c;AAAA\x07Co", "bidi": "\u202eabc", "line": "a\u2028b"}, 2, "x", None],
]


@pytest.mark.parametrize("items", ITEMS)
def test_a_json_array_streams_the_bytes_it_printed_whole(
    items: list[object], capsys: pytest.CaptureFixture[str]
) -> None:
    say_json_array(iter(items))
    streamed = capsys.readouterr().out
    assert streamed == json_text(items) + "\n"
    assert json.loads(streamed) == json.loads(json.dumps(items))


@pytest.mark.sqlite_only
def test_offers_json_is_one_whole_json_document(demo_db_path: Path) -> None:
    out = _piped(("offers", "--json"), demo_db_path)
    offers = json.loads(out)
    ranks = [o["rank"] for o in offers if o["rank"] is not None]
    assert len(offers) == 20 and ranks == list(range(1, len(ranks) + 1)) and len(ranks) > 10
    assert out == json.dumps(offers, indent=2, ensure_ascii=False) + "\n"


def test_flags_keep_typers_words_without_pydantic(cli) -> None:  # type: ignore[no-untyped-def]
    assert "'abc' is not a number" in cli("explain", "abc").err
    assert "must be at least 1" in cli("explain", "0").err
    bad = cli("acceptance", "show", "--offer", "x1")
    assert bad.code == 2 and "Input should be a valid integer" in bad.err  # Typer's own coercion, as before


def test_the_written_out_themes_are_textuals() -> None:
    from textual.theme import BUILTIN_THEMES

    from quotetui.commands.config import THEMES

    assert frozenset(BUILTIN_THEMES) == THEMES


@pytest.mark.parametrize(
    ("argv", "db"),
    [
        ([], None),
        (["--db", "market.db"], "market.db"),
        (["--db=market.db"], "market.db"),
        (["--db", "postgresql://u:p@h/q"], "postgresql://u:p@h/q"),
        (["--db", "--version"], False),  # the parser's to read (and refuse or answer)
        (["--db"], False),
        (["--db", ""], False),
        (["--db="], False),
        (["--db", "a.db", "offers"], False),
        (["offers"], False),
        (["--help"], False),
        (["--version"], False),
        (["--db", "a.db", "--db", "b.db"], False),
    ],
)
def test_only_a_bare_launch_skips_the_command_line_parser(argv: list[str], db: str | bool | None) -> None:
    from quotetui.launch import tui_only

    assert tui_only(argv) == db


TUI_PROBE = """
import sys
import quotetui.tui.app as app
from quotetui.domain.errors import BadInput
def run_tui(db):
    sys.stderr.write(f"TUI {db!r}\\n")
    sys.stderr.write("MODULES " + " ".join(sorted({m.split(".")[0] for m in sys.modules})) + "\\n")
    raise BadInput("the database at " + str(db) + " cannot be opened")
app.run_tui = run_tui
sys.argv = ["quotetui", *sys.argv[1:]]
from quotetui.launch import main
main()
"""


@pytest.mark.parametrize("argv", [(), ("--db", "x.db"), ("--db=x.db",)], ids=["none", "--db PATH", "--db=PATH"])
def test_a_bare_launch_starts_the_tui_without_typer_inside_the_same_error_boundary(argv: tuple[str, ...]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", TUI_PROBE, *argv], capture_output=True, text=True, timeout=120, check=False
    )
    lines, db = done.stderr.splitlines(), "x.db" if argv else None
    assert lines[0] == f"TUI {db!r}"
    assert "typer" not in lines[1].split() and "click" not in lines[1].split()
    # an error out of the TUI ends as every command's does: one line, status 2
    assert (done.returncode, lines[2:]) == (
        2,
        [f"quotetui: the database at {'x.db' if argv else None} cannot be opened"],
    )
