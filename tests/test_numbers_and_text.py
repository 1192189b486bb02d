"""The one number parser and the text rules, and that every front end uses them: a form field, a CLI flag,
a CSV cell and a TOML value read ``1,234.5`` as 1234.5 and refuse ``1.234,5`` with the same reason."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotetui.domain import entities as E
from quotetui.domain.errors import BadInput
from quotetui.domain.numbers import parse_number
from quotetui.domain.text import check_text, clean_name, name_key, visible
from quotetui.services import scenarios
from quotetui.store.engine import Database
from tests.conftest import Cli

READ = [
    ("1234.5", "1234.5"),
    ("1,234.5", "1234.5"),
    ("12,345,678", "12345678"),
    ("-1,000", "-1000"),
    (".5", "0.5"),
    ("3.14e23", "3.14E+23"),
    ("１２３４．５", "1234.5"),  # full-width, as a CJK input method types it
    ("  42 ", "42"),
    ("−3", "-3"),  # the minus sign
]
REFUSED = [
    ("1.234,5", "decimal comma"),
    ("1,2", "do not separate thousands"),
    ("1,,2", "do not separate thousands"),
    ("12,34", "do not separate thousands"),
    ("1234,567", "do not separate thousands"),
    ("1，5", "full-width comma"),
    ("1 234", "space inside"),
    ("9e9999999", "out of range"),
    ("1e-99999", "out of range"),
    ("nan", "not a finite number"),
    ("Infinity", "not a finite number"),
    ("1" * 60, "more than 40 digits"),
    ("0x10", "is not a number"),
    ("8万", "is not a number"),
    ("١٢٣", "is not a number"),  # Arabic-Indic digits: Decimal() would read 123, a reader would not
    ("1٠0", "is not a number"),  # a look-alike digit inside an ASCII number
    ("𝟏𝟐", "is not a number"),  # mathematical bold digits
]


@pytest.mark.parametrize(("text", "value"), READ)
def test_numbers_are_read_exactly(text: str, value: str) -> None:
    assert parse_number(text) == Decimal(value)


@pytest.mark.parametrize(("text", "why"), REFUSED)
def test_ambiguous_or_absurd_numbers_are_refused_never_guessed(text: str, why: str) -> None:
    with pytest.raises(BadInput, match=why):
        parse_number(text)


def test_floats_and_booleans_are_not_numbers() -> None:
    for value in (0.1, True):
        with pytest.raises(BadInput):
            parse_number(value)


@given(st.decimals(min_value=-(10**12), max_value=10**12, places=6, allow_nan=False, allow_infinity=False))
def test_any_amount_written_with_thousands_separators_reads_back(value: Decimal) -> None:
    assert parse_number(f"{value:,}") == value
    assert parse_number(f"{value:f}") == value


@pytest.mark.parametrize(("text", "why"), [("1.234,5", "decimal comma"), ("1,2", "separate thousands")])
def test_every_front_end_refuses_the_same_number_the_same_way(
    cli: Cli, demo_db_path: Path, demo_db: Database, tmp_path: Path, text: str, why: str
) -> None:
    flag = cli("--db", str(demo_db_path), "scenario", "add", "x", "--gpus", "8", "--months", "1", "--egress-tb", text)
    assert flag.code == 2 and why in flag.err and "'--egress-tb'" in flag.err
    cell = tmp_path / "negotiation.csv"
    cell.write_text(
        "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
        f'一万网络,8×H100 SXM5 整机,9,provider,2026-11-01,"{text}",node_month,CNY,1\n',
        encoding="utf-8",
    )
    result = cli("--db", str(demo_db_path), "import", str(cell), "--json")
    [problem] = json.loads(result.out)["problems"]
    assert result.code == 2 and why in problem["reason"] and problem["column"] == "column 'price'"
    with pytest.raises(BadInput, match=why):
        scenarios.add_scenario(demo_db, scenarios.NewScenario("y", 8, 1, egress_tb_month=text))
    from pydantic import ValidationError

    from quotetui.io.demo_files import ScenarioEntry

    with pytest.raises(ValidationError, match=why):
        ScenarioEntry.model_validate(
            {"name": "z", "gpu_count": 8, "months": 1, "egress_tb_month": text, "home_currency": "CNY"}
        )


def test_overflowing_values_are_refused_with_their_field_everywhere(cli: Cli, demo_db_path: Path) -> None:
    db = ("--db", str(demo_db_path))
    cases = [
        (("scenario", "add", "x", "--gpus", "9" * 30, "--months", "1"), "'--gpus': must be at most 1,000,000"),
        (("explain", "9" * 30), "must be at most"),
        (("calc", "term", "--monthly", "9e9999999"), "out of range"),
        (("contracts", "add", "--offer", "2", "--start", "10000-01-01", "--term-months", "1"), "'--start'"),
        (("contracts", "due", "--within", "9" * 20), "'--within'"),
        (("scenario", "add", "x", "--gpus", "8", "--months", "1", "--utilization", "9e9999999%"), "--utilization"),
    ]
    for args, message in cases:
        result = cli(*db, *args)
        assert result.code == 2 and message in result.err, (args, result.err)
        assert "Traceback" not in result.err and "internal error" not in result.err


# -- text ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Evil\x1b[31mCo", "ESCAPE"),
        ("bell\x07", "BELL"),
        ("osc\x1b]52;c;ZXZpbA==\x07", "ESCAPE"),
        ("right\u202eleft", "bidirectional"),
        ("two\nlines", "line break"),
        ("c1\x9bcsi", "control character"),
    ],
)
def test_control_and_bidi_characters_are_refused_on_input(text: str, why: str) -> None:
    with pytest.raises(BadInput, match=why):
        check_text(text)


def test_names_keep_their_spelling_and_compare_by_their_nfkc_key() -> None:
    assert clean_name("  GN10X  8×A100（包月） ") == "GN10X 8×A100（包月）"
    assert name_key("ＬＡＭＢＤＡ  Labs") == name_key("lambda labs")
    assert name_key("GN10X（包月）") == name_key("GN10X(包月)")
    hidden_ones = ("a\u200bb", "a\u200db", "a\ufeffb", "a\u00adb", "a\u2063b", "a\u034fb", "a\ufe0fb")
    blank_ones = ("a\u3164b", "a\u2800b", "a\uffa0b", "a\U000e0041b", "a\u180bb")  # fillers, tags, blanks
    for hidden in (*hidden_ones, *blank_ones):
        with pytest.raises(BadInput, match="invisible character"):
            clean_name(hidden)


def test_what_is_printed_shows_control_characters_instead_of_obeying_them() -> None:
    assert visible("evil\x1b]52;c;ZXZpbA==\x07") == "evil␛]52;c;ZXZpbA==␇"
    assert visible("a\u202eb\rc\td\ne") == "a<U+202E>b␍c\td\ne"


def test_a_fraction_bound_names_percentages() -> None:
    from quotetui.domain.fields import parse_value

    with pytest.raises(BadInput, match="must be at most 100 %"):
        parse_value(E.SLA.field("availability"), "101", percent_input=True)
    assert parse_value(E.SLA.field("availability"), "99.95%") == Decimal("0.9995")


@pytest.mark.parametrize(
    ("typed", "day"),
    [
        ("2026-11-02", "2026-11-02"),
        ("2026/11/2", "2026-11-02"),
        ("2026年11月2日", "2026-11-02"),
        ("２０２６年１１月２日", "2026-11-02"),  # full-width, as a CJK input method types it
        ("２０２６－１１－０２", "2026-11-02"),
        ("２０２６／１１／０２", "2026-11-02"),
    ],
)
def test_dates_are_read_as_typed_in_either_width(typed: str, day: str) -> None:
    from quotetui.domain import entities as E
    from quotetui.domain.fields import parse_value

    a_day = next(f for f in E.CONTRACT.fields if f.kind == "date")
    assert parse_value(a_day, typed).isoformat() == day


@pytest.mark.parametrize("typed", ["٢٠٢٦-١١-٠٢", "2026-1١-02", "2026-11-02x", "11/02/2026"])
def test_dates_in_other_digits_or_orders_are_refused(typed: str) -> None:
    from quotetui.domain import entities as E
    from quotetui.domain.fields import parse_value

    a_day = next(f for f in E.CONTRACT.fields if f.kind == "date")
    with pytest.raises(BadInput, match="is not a date"):
        parse_value(a_day, typed)


@pytest.mark.parametrize(
    "typed",
    [
        "２０２６－１１－０２Ｔ０８：００＋０８：００",
        "２０２６－１１－０２T08:00+08:00",
        "2026-11-02T00:00Z",
        "2026-11-02T00:00Ｚ",
    ],
)
def test_date_times_are_read_as_typed_in_either_width(typed: str) -> None:
    from quotetui.domain import entities as E
    from quotetui.domain.fields import parse_value

    assert parse_value(E.QUOTED_AT, typed).isoformat() == "2026-11-02T00:00:00+00:00"


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        ("0.08", "0.08 would be 0.08 %: did you mean 8%? (type 0.08% for 0.08 %)"),
        ("0.125", "did you mean 12.5%?"),
    ],
)
def test_a_fraction_typed_by_habit_where_a_share_is_asked_says_what_was_meant(typed: str, hint: str) -> None:
    """One convention for shares (issue 30, point 8): people type percentages; a bare 0.08 is never 0.08 %."""
    from quotetui.domain import entities as E
    from quotetui.domain.fields import parse_value

    rate = E.RENT_BUY.field("discount_rate")
    with pytest.raises(BadInput, match=re.escape(hint)):
        parse_value(rate, typed)
    assert parse_value(rate, "8%") == parse_value(rate, "8") == Decimal("0.08")
    assert parse_value(rate, "0.08%") == Decimal("0.0008")  # asked for with its sign: kept
    assert parse_value(rate, "1") == Decimal("0.01")  # at most 50 %: a bare 1 can only be 1 %
    assert parse_value(rate, Decimal("0.08")) == Decimal("0.08")  # a value (a flag's parsed Decimal): a fraction
    with pytest.raises(BadInput, match=r"^must be at most 50 %$"):
        parse_value(rate, "800")  # beyond any percentage: no guess


def test_a_bare_1_where_all_of_it_is_allowed_is_refused_as_ambiguous() -> None:
    from quotetui.domain import entities as E
    from quotetui.domain.fields import parse_value, shown_value

    use = E.SCENARIO.field("utilisation")
    for typed in ("1", "1.0", " 1 "):
        with pytest.raises(BadInput, match=re.escape("is ambiguous: type 1% for one percent, or 100% for all of it")):
            parse_value(use, typed)
    assert parse_value(use, "100") == parse_value(use, "100%") == Decimal(1)
    assert parse_value(use, "1%") == Decimal("0.01")
    # a form shows a stored 1 % with its sign, so saving the form again keeps it
    assert shown_value(use, Decimal("0.01"), percent=True) == "1%"
    assert parse_value(use, shown_value(use, Decimal("0.01"), percent=True)) == Decimal("0.01")
    # text quotetui wrote itself (stored settings, the demo's TOML) is a fraction
    assert parse_value(use, "0.6", percent_input=False) == Decimal("0.6")


def test_the_money_limit_says_it_is_exclusive() -> None:
    from decimal import Decimal

    from quotetui.domain.errors import BadInput
    from quotetui.domain.money import MAX_MONEY, exact_money_amount

    assert exact_money_amount("999999999999.999999") == Decimal("999999999999.999999")
    with pytest.raises(BadInput, match=r"must be less than 1,000,000,000,000"):
        exact_money_amount(str(MAX_MONEY))  # a trillion itself is refused, and the message says so
