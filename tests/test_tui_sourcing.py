"""The Sourcing screen (issue 17, `f`): the RFQs with where their invitations stand, the RFQ's requirement,
invitations, offers judged line by line and the award's three scenarios with the market included, at every
size; Enter opens an offer; a name is shown as typed, never as markup."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from quotetui.services.database import open_database
from quotetui.services.rfq import decline, new_rfq, send_rfq
from quotetui.tui.screens.offer_detail import OfferDetailScreen
from quotetui.tui.screens.sourcing import NO_RFQ, SourcingScreen
from quotetui.tui.widgets.virtual_table import VirtualTable
from tests.test_tui import TODAY, RecordingApp, plain, settle, text_of

README_RFQ = {  # the README's "H100 256" (see tests/test_rfq.py, tests/test_award_cli.py)
    "name": "H100 256",
    "gpu_models": "H100 SXM5,H800 SXM5",
    "gpus": "256",
    "months": "12",
    "start": "2027-01-01",
    "min_availability": "99.5",
    "inter_fabric": "infiniband_ndr",
    "job_gpus": "64",
    "respond_by": "2026-12-20",
}
CHEAPEST = "39,168,000.00 CNY"  # 32 nodes of #2 at 1,224,000 CNY a node for the year


def _rfq(db_path: Path, tmp: Path, send: tuple[str, ...] = ("一万网络", "天下数据"), **changes: str) -> None:
    opened = open_database(str(db_path))
    try:
        made = new_rfq(opened.db, README_RFQ | changes)
        if send:
            send_rfq(opened.db, made.requirement.name, send, tmp / made.requirement.name.replace("/", "_"))
    finally:
        opened.db.dispose()


async def _sourcing(app: RecordingApp, pilot) -> SourcingScreen:  # type: ignore[no-untyped-def]
    await settle(pilot)
    await pilot.press("f")
    await settle(pilot)
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, SourcingScreen)
    return screen


def _rows(app: RecordingApp, table: str) -> list[list[str]]:
    return [list(r.cells) for r in app.screen.query_one(f"#{table}", VirtualTable).rows]


async def test_an_rfq_its_invitations_compliant_offers_and_award(demo_db_path: Path, tmp_path: Path) -> None:
    _rfq(demo_db_path, tmp_path)
    app = RecordingApp(str(demo_db_path))  # today: 2026-11-30, before the answers are due
    async with app.run_test(size=(160, 50)) as pilot:
        await _sourcing(app, pilot)
        [listed] = _rows(app, "rfqs")
        assert listed == ["H100 256", "2 sent", "2026-12-20", "256 × H100 SXM5 or H800 SXM5"]
        invites = text_of(app, "#rfq-invites")
        assert "一万网络" in invites and "天下数据" in invites and "sent" in invites
        requirement = text_of(app, "#rfq-requirement")
        assert "infiniband ndr or better" in requirement and "99.5" in requirement and "64 GPUs" in requirement
        offers = _rows(app, "rfq-offers")
        compliant = [int(r[0]) for r in offers if r[4] == "yes"]
        assert compliant == [2, 9] and [int(r[0]) for r in offers][:2] == [2, 9]  # compliant first
        assert [r[5] for r in offers[:3]] == ["1?", "2?", "—"] and " CNY" in offers[0][6]  # ranked, costed
        one = next(r for r in offers if r[0] == "1")
        assert "✗ infiniband hdr is below it" in one and one[3] == "on record"
        assert "2 of" in text_of(app, "#rfq-offers-title")
        matrix = text_of(app, "#rfq-matrix")  # a column per answer or offer: #2 then #9, their figures by hand
        assert "Comparison: 0 answers" in matrix and matrix.index("#2 一万网络") < matrix.index("#9 天下数据")
        total = next(line for line in matrix.splitlines() if line.startswith("whole need, whole term"))
        assert "39,168,000.00" in total  # 32 nodes × 102,000 a node-month × 12
        assert f"{32 * 250_000 * 12:,}.00" in total  # #9: 250,000 a node-month, the high end of its range
        award = " ".join(text_of(app, "#rfq-award").split())
        # neither offer states its stock or an SLA: no confirmed award; the same if confirmed, and what to ask
        assert "No award yet: every candidate has a line of the requirement not confirmed (?)" in award
        assert "If confirmed" in award and CHEAPEST in award and "at least 2 providers" in award
        assert "Ask before awarding: #2 一万网络" in award and "GPUs: 256? stock not stated" in award
        assert "include-market" in text_of(app, "#rfq-award-title")
        summary = " ".join(text_of(app, "#rfq-summary").split())
        assert "compliant: #2, #9 (lines to confirm: #2, #9)" in summary
        assert f"no confirmed award; if confirmed {CHEAPEST}" in summary

        table = app.screen.query_one("#rfq-offers", VirtualTable)
        table.focus()
        table.move_to(9)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, OfferDetailScreen) and app.screen.offer_id == 9


async def test_overdue_and_declined_invitations_and_an_infeasible_scenario(demo_db_path: Path, tmp_path: Path) -> None:
    _rfq(demo_db_path, tmp_path)
    _rfq(demo_db_path, tmp_path, ("一万网络", "天下数据", "华为云"), name="late", respond_by="2026-11-15",
         job_gpus="256")  # fmt: skip
    opened = open_database(str(demo_db_path))
    decline(opened.db, "late", "华为云", "no H100 stock")
    opened.db.dispose()
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(160, 50)) as pilot:
        await _sourcing(app, pilot)
        late = _rows(app, "rfqs")[1]
        assert late[0] == "late" and late[1] == "2 overdue, 1 declined"
        await pilot.press("down")  # the list has the focus
        await settle(pilot)
        invites = text_of(app, "#rfq-invites")
        assert "overdue" in invites and "declined" in invites
        assert "2 overdue, 1 declined" in text_of(app, "#rfq-summary")
        award = text_of(app, "#rfq-award")
        assert "infeasible" in award, award


async def test_no_rfq_says_what_to_do(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await _sourcing(app, pilot)
        assert _rows(app, "rfqs") == []
        assert "quotetui rfq new NAME" in text_of(app, "#rfq-hint")
        assert " ".join(text_of(app, "#rfq-summary").split()) == " ".join(NO_RFQ.split())


async def test_a_name_with_markup_is_shown_as_typed_and_f5_reads_again(demo_db_path: Path, tmp_path: Path) -> None:
    _rfq(demo_db_path, tmp_path, (), name="[bold]x[/]")
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await _sourcing(app, pilot)
        assert _rows(app, "rfqs")[0][0] == "[bold]x[/]" and _rows(app, "rfqs")[0][1] == "not sent"
        assert "[bold]x[/]" in text_of(app, "#rfq-summary")
        assert "rfq send '[bold]x[/]'" in text_of(app, "#rfq-invites")
        _rfq(demo_db_path, tmp_path, name="second")
        await pilot.press("f5")
        await settle(pilot)
        await settle(pilot)
        assert [r[0] for r in _rows(app, "rfqs")] == ["[bold]x[/]", "second"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_every_size_keeps_the_key_facts(demo_db_path: Path, tmp_path: Path, size: tuple[int, int]) -> None:
    _rfq(demo_db_path, tmp_path)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=size) as pilot:
        screen = await _sourcing(app, pilot)
        assert screen.has_class("-narrow") is (size[0] < 140)
        rfqs = screen.query_one("#rfqs", VirtualTable)
        assert rfqs.size.height >= 2 and rfqs.region.width >= 38  # the header and the RFQ, its name in view
        summary = screen.query_one("#rfq-summary", Static)
        assert summary.region.height >= 2 and summary.region.y < size[1] - 2  # on screen, above the footer
        assert CHEAPEST in text_of(app, "#rfq-summary") and "compliant: #2, #9" in text_of(app, "#rfq-summary")
        offers = screen.query_one("#rfq-offers", VirtualTable)
        assert offers.size.height >= 3  # a header and the two compliant offers at least
        matrix = screen.query_one("#rfq-matrix", Static)
        shown = plain(matrix.content, matrix.region.width)  # as wide as it is on screen: no figure cut
        assert "#2 一万网络" in shown and "39,168,000.00" in shown and "✓ H100 SXM5" in shown
        rfqs.focus()
        await pilot.press("enter")  # the RFQ's offers take the focus; Enter there opens one
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, OfferDetailScreen) and app.screen.offer_id == 2


async def test_an_answer_read_in_is_counted_and_listed_first(demo_db_path: Path, tmp_path: Path) -> None:
    import json

    from tests.conftest import run_cli
    from tests.test_rfq_answers import NEED, _filled

    db = str(demo_db_path)
    assert run_cli("--db", db, "rfq", "new", "H100 64", *NEED, "--respond-by", "2026-11-20").code == 0
    sent = run_cli("--db", db, "rfq", "send", "H100 64", "-p", "阿里云", "-p", "腾讯云", "-p", "华为云", "--out",
                   str(tmp_path), "--json")  # fmt: skip
    assert sent.code == 0, sent.err
    assert "offers" not in json.loads(sent.out)["rfq"]  # not read by a send: left out, never an empty list
    book = Path(json.loads(sent.out)["sent"][0]["workbook"])  # 阿里云's
    assert (
        run_cli("--db", db, "import", str(_filled(book, tmp_path / "answer.xlsx")), "--as-of", "2026-11-29").code == 0
    )
    app = RecordingApp(db)
    async with app.run_test(size=(200, 60)) as pilot:
        await _sourcing(app, pilot)
        [listed] = _rows(app, "rfqs")
        assert listed[1] == "1 answered, 2 overdue"
        first = _rows(app, "rfq-offers")[0]
        assert (first[1], first[2], first[3], first[4]) == ("阿里云", "HGX H100 集群", "answer", "yes")
        matrix = text_of(app, "#rfq-matrix").splitlines()
        assert "Comparison: 1 answer," in matrix[0] and matrix[1].split()[:2] == [f"#{first[0]}", "阿里云"]
        assert next(line for line in matrix if line.startswith("from / 来源")).split()[3] == "answer"  # its column
        invites = text_of(app, "#rfq-invites")
        assert "answered" in invites and "overdue" in invites
        assert "cheapest award" in text_of(app, "#rfq-summary")


async def test_the_comparison_fits_its_columns_to_the_width_after_a_resize(demo_db_path: Path, tmp_path: Path) -> None:
    _rfq(demo_db_path, tmp_path)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await _sourcing(app, pilot)
        matrix = screen.query_one("#rfq-matrix", Static)

        def columns() -> list[str]:
            header = plain(matrix.content, matrix.region.width).splitlines()
            return [word for line in header[:4] for word in line.split() if word.startswith("#")]

        wide = columns()
        assert wide[:2] == ["#2", "#9"] and len(wide) >= 4  # 200 columns: the detail holds 4 or more
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert columns() == ["#2", "#9"]  # (76 - 24) // 20: the two ranked, nothing cut
        assert "(2 of 8 here;" in " ".join(plain(matrix.content, matrix.region.width).split())


async def test_the_award_constraints_are_set_on_the_screen_and_kept(demo_db_path: Path, tmp_path: Path) -> None:
    """`a`: the award's constraints in a form (the same fields as `quotetui award`'s flags); a bad value is
    refused in the form and changes nothing; the award shown is then computed with them, and F5 keeps them."""
    from textual.widgets import Input

    from quotetui.tui.dialogs.form_screen import FormScreen

    _rfq(demo_db_path, tmp_path)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await _sourcing(app, pilot)
        assert "at most 60 % per provider" in text_of(app, "#rfq-award")
        await pilot.press("a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen) and form.query_one("#f-max_share", Input).value == "60"
        form.query_one("#f-max_share", Input).value = "0"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form and "shown" in form.query_one("#e-max_share", Static).classes
        form.query_one("#f-max_share", Input).value = "75"
        form.query_one("#f-min_providers", Input).value = "3"
        form.query_one("#f-budget", Input).value = "100000000"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await settle(pilot)
        assert app.screen is screen
        award = text_of(app, "#rfq-award")
        # 75 % of 256 GPUs is 192, three 64-GPU jobs: 24 nodes of #2 at 1,224,000 CNY a node for the year and
        # one job on #9, 8 nodes at 3,000,000: 29,376,000 + 24,000,000
        assert "at most 75 % per provider" in award and "53,376,000.00 CNY" in award
        assert "14,208,000.00 CNY" in award  # its premium over the cheapest, 39,168,000
        assert "at least 3 providers" in award and "infeasible" in award  # two providers have compliant offers
        assert "within a budget of 100,000,000.00 CNY" in " ".join(text_of(app, "#rfq-award-title").split())
        told = next(m for m, _ in app.told if m.startswith("Award for H100 256"))
        assert "at most 75 % per provider 53,376,000.00 CNY" in told and "at least 3 providers: infeasible" in told
        await pilot.press("f5")
        await settle(pilot)
        await settle(pilot)
        assert "at most 75 % per provider" in text_of(app, "#rfq-award")  # kept for the next reads


async def test_the_award_can_minimise_the_cost_per_delivered_pflop_hour(demo_db_path: Path, tmp_path: Path) -> None:
    """The constraints form's "Minimise" (`award --minimise`): the award shown is then the least per delivered
    PFLOP-hour, its premiums per PFLOP-hour."""
    from textual.widgets import Select

    from quotetui.tui.dialogs.form_screen import FormScreen

    _rfq(demo_db_path, tmp_path)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(160, 50)) as pilot:
        await _sourcing(app, pilot)
        await pilot.press("a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen) and form.query_one("#f-minimise", Select).value == "cost"
        form.query_one("#f-minimise", Select).value = "pflop_hour"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await settle(pilot)
        award = " ".join(text_of(app, "#rfq-award").split())
        assert "least per PFLOP-hour" in award and "Risk premium /PFLOP-h" in award, award


async def test_an_rfq_is_written_and_edited_on_the_screen(demo_db_path: Path, tmp_path: Path) -> None:
    """`n`: the requirement's form (the same fields and checks as `rfq new`); a bad value saves nothing; saved,
    it is listed and highlighted. `e`: the highlighted one's form, filled as stored; a change is revision 2."""
    import json

    from textual.widgets import Input, Select

    from quotetui.tui.dialogs.form_screen import FormScreen
    from tests.conftest import run_cli

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _sourcing(app, pilot)
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        fabrics = form.query_one("#f-intra_fabric", Select)
        assert "unknown" not in {v for _, v in fabrics._options} and "nvswitch" in {v for _, v in fabrics._options}
        for name, value in {"name": "A100 64", "gpu_models": "a100 80g, H100", "gpus": "0", "months": "6",
                            "start": "2027-02-01", "min_availability": "99.5"}.items():  # fmt: skip
            form.query_one(f"#f-{name}", Input).value = value
        form.query_one("#f-inter_fabric", Select).value = "roce_v2"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form and "shown" in form.query_one("#e-gpus", Static).classes  # 0 GPUs: refused
        assert run_cli("--db", str(demo_db_path), "rfq", "list", "--json").out.strip() == "[]"  # nothing saved
        form.query_one("#f-gpus", Input).value = "64"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await settle(pilot)
        assert app.screen is screen
        assert [r[0] for r in _rows(app, "rfqs")] == ["A100 64"]
        assert "A100 64 (#1, revision 1): 64 × A100 80GB SXM4 or H100 SXM5" in text_of(app, "#rfq-summary")
        await pilot.press("e")
        await settle(pilot)
        edit = app.screen
        assert isinstance(edit, FormScreen)
        assert edit.query_one("#f-gpu_models", Input).value == "A100 80GB SXM4, H100 SXM5"
        assert edit.query_one("#f-min_availability", Input).value == "99.5"  # as stored, 0.995, in percent
        edit.query_one("#f-gpus", Input).value = "128"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await settle(pilot)
        assert "A100 64 (#1, revision 2): 128 × A100 80GB SXM4 or H100 SXM5" in text_of(app, "#rfq-summary")
    shown = json.loads(run_cli("--db", str(demo_db_path), "rfq", "show", "A100 64", "--json").out)
    assert (shown["gpus"], shown["revision"], shown["min_availability"], shown["inter_fabric"]) == (
        128, 2, "0.995", "roce_v2"
    )  # fmt: skip


async def test_an_rfq_is_sent_from_the_screen_and_files_are_replaced_only_when_asked(
    demo_db_path: Path, tmp_path: Path
) -> None:
    """`p`: the providers ticked, the folder, then the same service as `rfq send`: a workbook and a cover text
    each, the invitations recorded; again into the same folder is refused (nothing recorded) until
    "Replace" is ticked."""
    from textual.widgets import Checkbox, Input, SelectionList

    from quotetui.tui.dialogs.rfq_send import SendRfqDialog

    _rfq(demo_db_path, tmp_path, send=())
    out = tmp_path / "out folder"
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _sourcing(app, pilot)
        assert _rows(app, "rfqs")[0][1] == "not sent"
        assert "Not sent yet: p sends it here (or `quotetui rfq send 'H100 256' --provider" in text_of(
            app, "#rfq-invites"
        ).replace("\n", " ")

        async def send(*, replace: bool) -> SendRfqDialog:
            await pilot.press("p")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, SendRfqDialog)
            ticks = dialog.query_one("#providers", SelectionList)
            ticks.select("阿里云")
            ticks.select("一万网络")
            dialog.query_one("#folder", Input).value = str(out)
            dialog.query_one("#force", Checkbox).value = replace
            await pilot.press("ctrl+s")
            await settle(pilot)
            await settle(pilot)
            return dialog

        await send(replace=False)
        assert app.screen is screen
        names = [f"rfq-H100_256-{p}.{kind}" for p in ("一万网络", "阿里云") for kind in ("md", "xlsx")]
        assert sorted(p.name for p in out.iterdir()) == names
        assert _rows(app, "rfqs")[0][1] == "2 sent"
        refused = await send(replace=False)
        assert app.screen is refused and "Nothing was sent" in text_of(app, "#status")
        said = text_of(app, "#status")  # in the dialog's words, not the command line's
        assert "exists" in said and "Replace files already there" in said and "--force" not in said
        await pilot.press("escape")
        await settle(pilot)
        await send(replace=True)
        assert app.screen is screen and _rows(app, "rfqs")[0][1] == "2 sent"


async def test_an_rfq_with_no_offer_of_its_models_says_so(demo_db_path: Path, tmp_path: Path) -> None:
    """No offer on record of an acceptable model (the demo has no GB200): said, never a crash (it was an
    IndexError on the verdict columns)."""
    _rfq(demo_db_path, tmp_path, send=(), name="GB200 64", gpu_models="GB200", gpus="64", job_gpus="")
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await _sourcing(app, pilot)
        assert "No offer on record of GB200" in text_of(app, "#rfq-offers-title")
        assert _rows(app, "rfq-offers") == [] and text_of(app, "#rfq-matrix").strip() == ""
        assert "neither an answer nor an offer on record meets every line" in text_of(app, "#rfq-award")
        from quotetui.tui.dialogs.error import ErrorDialog

        assert not isinstance(app.screen, ErrorDialog)


async def test_a_compliant_offer_that_cannot_be_costed_is_counted_as_such(demo_db_path: Path, tmp_path: Path) -> None:
    """An offer in USD with no USD rate on record meets every line but has no figures: the title says so
    instead of counting it among the ranked ones."""
    from tests.conftest import run_cli

    _rfq(demo_db_path, tmp_path, send=(), min_availability="", inter_fabric="", job_gpus="")
    added = run_cli("--db", str(demo_db_path), "offer", "add", "--provider", "阿里云", "--name", "usd", "--gpu",
                    "H100 SXM5", "--amount", "20000", "--unit", "node_month", "--currency", "USD", "--term-months",
                    "12")  # fmt: skip
    assert added.code == 0, added.err
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(160, 50)) as pilot:
        await _sourcing(app, pilot)
        assert "(1 not costed: no rank)" in text_of(app, "#rfq-offers-title")
        usd = next(r for r in _rows(app, "rfq-offers") if r[2] == "usd")
        assert (usd[4], usd[5]) == ("yes", "—")  # compliant, no rank


async def test_a_decline_is_recorded_on_the_screen_with_its_note(demo_db_path: Path, tmp_path: Path) -> None:
    """`x`: one of the providers the RFQ was sent to, and why; a note with a control character is refused in
    the form and nothing is recorded."""
    import json

    from textual.widgets import Input, Select

    from quotetui.tui.dialogs.form_screen import FormScreen
    from tests.conftest import run_cli

    _rfq(demo_db_path, tmp_path)  # sent to 一万网络 and 天下数据
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _sourcing(app, pilot)
        await pilot.press("x")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        picker = form.query_one("#f-provider", Select)
        assert {value for _, value in picker._options if value is not Select.NULL} == {"一万网络", "天下数据"}
        picker.value = "天下数据"
        form.query_one("#f-note", Input).value = "no\x07stock"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form and "shown" in form.query_one("#e-note", Static).classes
        form.query_one("#f-note", Input).value = "no H100 stock"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await settle(pilot)
        assert app.screen is screen and "declined: no H100 stock" in text_of(app, "#rfq-invites")
    # judged on the app's day (TODAY, before the answers are due), not the real one, which passes the due day
    on = TODAY.isoformat()
    shown = json.loads(run_cli("--db", str(demo_db_path), "rfq", "status", "H100 256", "--on", on, "--json").out)
    assert {i["provider"]: (i["state"], i["note"]) for i in shown["invites"]} == {
        "一万网络": ("sent", None), "天下数据": ("declined", "no H100 stock")
    }  # fmt: skip


async def test_an_edit_form_never_overwrites_a_change_made_elsewhere_and_a_save_is_no_stranger(
    demo_db_path: Path, tmp_path: Path
) -> None:
    """The form was filled at revision 1; the CLI made revision 2 meanwhile: the save is refused (offered to
    fill the form again), nothing overwritten. A save from this screen is then not reported as "changed by
    another program" by the poll (the market is read again after it, as after any edit)."""
    import asyncio
    import json

    from textual.widgets import Input

    from quotetui.tui.dialogs.confirm import ConfirmDialog
    from quotetui.tui.dialogs.form_screen import FormScreen
    from tests.conftest import run_cli

    _rfq(demo_db_path, tmp_path, send=())
    db = str(demo_db_path)
    app = RecordingApp(db)
    app.POLL_SECONDS = 0.2  # type: ignore[misc]
    async with app.run_test(size=(120, 40)) as pilot:
        await _sourcing(app, pilot)
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FormScreen)
        assert run_cli("--db", db, "rfq", "edit", "H100 256", "--gpus", "512", "--region", "上海").code == 0
        form.query_one("#f-months", Input).value = "6"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)  # "Reload the form with the current values?"
        assert any("changed elsewhere since this form was filled" in m for m, _ in app.told)
        await pilot.press("escape")  # not now
        await pilot.press("escape")  # the form: nothing saved
        await settle(pilot)
        shown = json.loads(run_cli("--db", db, "rfq", "show", "H100 256", "--json").out)
        assert (shown["gpus"], shown["region"], shown["months"], shown["revision"]) == (512, "上海", 12, 2)
        for _ in range(100):  # the CLI's write: the poll says so, rightly (within 10 s on a loaded machine)
            await asyncio.sleep(0.1)
            await settle(pilot)
            if any("changed by another program" in m for m, _ in app.told):
                break
        assert any("changed by another program" in m for m, _ in app.told), app.told
        app.told.clear()
        await pilot.press("e")
        await settle(pilot)
        app.screen.query_one("#f-months", Input).value = "6"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await settle(pilot)
        await asyncio.sleep(0.8)  # four polls
        await settle(pilot)
        assert "(#1, revision 3)" in text_of(app, "#rfq-summary")
        assert not any("changed by another program" in m for m, _ in app.told), app.told


async def test_the_poll_never_takes_this_apps_own_write_for_another_programs(demo_db_path: Path) -> None:
    """A poll that read the data version before this app's own write and compared after it (the write's reload
    not yet begun) said "changed by another program" (CI, 2026-12-05): the versions this app wrote are its own.
    Another program's write among them, read by the same poll, is still reported."""
    from quotetui.domain.enums import ProviderKind
    from quotetui.store.models import Provider
    from tests.conftest import run_cli

    app = RecordingApp(str(demo_db_path))
    app.POLL_SECONDS = 3600  # type: ignore[misc]  # only the polls this test starts
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.market is not None and app.database is not None
        seen, generation = app.market.data_version, app._generation
        with app.database.write() as session:  # this app's own write; its reload has not begun
            session.add(Provider(name="own write", kind=ProviderKind.LESSOR))
        app._check_version(seen, generation)
        await settle(pilot)
        assert not any("changed by another program" in m for m, _ in app.told), app.told
        with app.database.write() as session:  # two own writes in a row: still this app's own
            session.add(Provider(name="own write 2", kind=ProviderKind.LESSOR))
        app._check_version(seen, generation)
        await settle(pilot)
        assert not any("changed by another program" in m for m, _ in app.told), app.told
        # another program's write between two of this app's own, all before the poll: reported
        assert run_cli("--db", str(demo_db_path), "provider", "add", "--name", "elsewhere").code == 0
        with app.database.write() as session:
            session.add(Provider(name="own write 3", kind=ProviderKind.LESSOR))
        app._check_version(seen, generation)
        await settle(pilot)
        assert any("changed by another program" in m for m, _ in app.told), app.told


async def test_the_poll_reports_a_restore_and_a_file_put_in_the_databases_place(demo_db_path: Path) -> None:
    """Version numbers start again after a restore: a number this app once wrote is another program's after it.
    A file deleted and made again, or another moved in its place, is reported even at the same version."""
    import shutil

    from quotetui.domain.enums import ProviderKind
    from quotetui.store.models import Provider
    from tests.conftest import execute, run_cli

    app = RecordingApp(str(demo_db_path))
    app.POLL_SECONDS = 3600  # type: ignore[misc]  # only the polls this test starts
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.market is not None and app.database is not None
        seen = app.market.data_version
        with app.database.write() as session:
            session.add(Provider(name="own write", kind=ProviderKind.LESSOR))
        execute(demo_db_path, "UPDATE setting SET value = :v WHERE key = 'data_version'", {"v": str(seen)})
        app._check_version(seen + 1, app._generation)  # the market read after the own write; then a restore
        await settle(pilot)
        assert any("changed by another program" in m for m, _ in app.told), app.told
        app.told.clear()
        assert run_cli("--db", str(demo_db_path), "provider", "add", "--name", "elsewhere").code == 0
        app._check_version(seen, app._generation)  # the number this app once wrote, written by another now
        await settle(pilot)
        assert any("changed by another program" in m for m, _ in app.told), app.told
        app.told.clear()
        assert app.market.data_version == seen + 1
        if app.database.target.path is None:
            return  # a server: no file to put in its place
        other = demo_db_path.with_name("other.db")
        shutil.copyfile(demo_db_path, other)
        other.replace(demo_db_path)  # another file in its place, at the very same version
        app._check_version(app.market.data_version, app._generation)
        await settle(pilot)
        assert any("changed by another program" in m for m, _ in app.told), app.told
        app.told.clear()
        app._check_version(app.market.data_version, app._generation)  # told once, not at every poll
        await settle(pilot)
        assert not app.told


def test_a_writes_version_is_known_as_its_own_before_its_commit_makes_it_visible(demo_db) -> None:  # type: ignore[no-untyped-def]
    """A poll between the commit and the bookkeeping took the app's own save for another program's."""
    import sqlalchemy as sa

    from quotetui.domain.enums import ProviderKind
    from quotetui.store.models import Provider

    seen_at_commit = []
    with demo_db.write() as session:
        session.add(Provider(name="own write", kind=ProviderKind.LESSOR))

        def before_commit(s) -> None:  # type: ignore[no-untyped-def]
            seen_at_commit.append(set(demo_db.written))

        sa.event.listen(session, "before_commit", before_commit)
    assert len(seen_at_commit) == 1 and demo_db.data_version() in seen_at_commit[0]
