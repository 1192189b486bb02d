"""Market commands: providers, offers (ranked for a scenario), explain, gpus, demo."""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Annotated

import typer

from quotetui.commands.common import JsonFlag, ScenarioOpt, id_arg, lines, open_db, print_json, table
from quotetui.commands.output import percent, say, say_json_array
from quotetui.domain.wording import plural

if TYPE_CHECKING:
    from quotetui.domain.economics.inputs import PriceOption


def providers(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List providers."""
    from quotetui.services.market import list_providers

    items = list_providers(open_db(ctx))
    if as_json:
        print_json([p.to_json() for p in items])
        return
    table(
        ["id", "provider", "kind", "parent", "offers", "certifications"],
        [[str(p.id), p.name, p.kind, p.parent or "", str(p.offers), ", ".join(p.certifications)] for p in items],
        right=frozenset({"id", "offers"}),
    )


def offers(
    ctx: typer.Context,
    scenario: ScenarioOpt = None,
    gpu: Annotated[str | None, typer.Option("--gpu", metavar="MODEL", help="Only offers of this GPU model.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Offers ranked for a scenario by cost per delivered PFLOP-hour (feasible ones first)."""
    from quotetui.domain.economics.exact import dec, pct
    from quotetui.domain.economics.explain import LOWER_BOUND, cost_text
    from quotetui.services.economics import evaluation_json, rank_offers

    ranking = rank_offers(open_db(ctx), scenario, gpu, history=False)  # a listing shows no past rounds
    if as_json:
        name = ranking.scenario.name
        ranked = (evaluation_json(e, i) | {"scenario": name} for i, e in ranking.ranked)
        skipped = (
            {
                "rank": None,
                "id": o.id,
                "provider": o.provider,
                "name": o.name,
                "gpu_model": o.gpu.name,
                "scenario": name,
                "not_compared": why,
            }
            for o, why in ranking.skipped
        )
        say_json_array(chain(ranked, skipped))
        return
    s = ranking.scenario
    cur = s.home_currency
    rows, blocked = [], []
    for i, e in ranking.ranked:
        if i is None:
            blocked.append(f"✗ #{e.offer.id}: {'; '.join(e.feasibility.blocking)}")
        rows.append(
            [
                str(i) if i is not None else "✗",
                str(e.offer.id),
                f"{e.offer.provider} {e.offer.name}",
                e.offer.gpu.name,
                f"{dec(e.price_per_gpu_hour, 2):,}",
                cost_text(e, e.annualised_tco, 2),
                cost_text(e, e.cost_per_pflop_hour, 2),
                f"{pct(e.effective_mfu, 1)}{e.mfu.source[0]}",
                "+".join(_short(c.option) for c in (e.best.segments or (e.best,))),
            ]
        )
    say(
        f"Scenario {s.name!r}: {plural(s.gpu_count, 'GPU')} × {plural(s.months, 'month')} "
        f"at {percent(s.utilisation, 1)} use; "
        f"amounts in {cur}, best first by cost per delivered PFLOP-hour"
    )
    table(
        ["#", "id", "offer", "GPU", "/GPU-h", "TCO/yr", "/PFLOP-h", "MFU%", "term"],
        rows,
        right=frozenset({"#", "id", "/GPU-h", "TCO/yr", "/PFLOP-h", "MFU%"}),
        widths={"offer": 30, "GPU": 14},
    )
    say("MFU source: v verified, c claimed, d default · term: od on demand, 1m monthly, 12m annual, p prepaid")
    bounded = [e for e in ranking.evaluations if e.lower_bound]
    if bounded:
        say(
            f"{LOWER_BOUND}: at least this much; {plural(len(bounded), 'offer')} "
            f"{'does' if len(bounded) == 1 else 'do'} not price a cost of the scenario "
            "(egress, storage, a fee on request: `explain ID` names it), so they may rank higher than they should"
        )
    for line in blocked:
        say(line)
    from quotetui.domain.economics.inputs import lapsed

    for e in ranking.evaluations:
        if lapsed(e.offer, ranking.on):
            assert e.offer.valid_until is not None
            say(f"! #{e.offer.id}: quote lapsed {e.offer.valid_until.isoformat()} (valid until): ask for a new one")
    for o, why in ranking.skipped:
        say(f"not compared: #{o.id} {o.provider} {o.name}: {why}", err=True)


TERM_SHORT = {0: "od", 1: "1m", 3: "3m", 6: "6m", 12: "12m", 24: "24m", 36: "36m"}


def _short(o: PriceOption) -> str:
    """A way to buy in a table cell: ``12mp`` (annual prepaid), ``12m+1m`` for mixed terms."""
    return TERM_SHORT.get(o.term_months, f"{o.term_months}m") + ("p" if o.prepay else "")


def explain(
    ctx: typer.Context,
    offer_id: Annotated[int, id_arg("OFFER_ID", "The offer's id (see `quotetui offers`).")],
    scenario: ScenarioOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Every figure of one offer for a scenario: value, formula, inputs, and the negotiation position."""
    from quotetui.domain.economics.explain import explain as explain_figures
    from quotetui.services.economics import evaluation_json
    from quotetui.services.negotiation import negotiation

    n = negotiation(open_db(ctx), offer_id, scenario)
    e = n.evaluation
    figures = explain_figures(e)
    if as_json:
        print_json(
            evaluation_json(e)
            | {"scenario": e.scenario.name, "figures": [f.to_json() for f in figures], "negotiation": n.to_json()}
        )
        return
    say(f"#{e.offer.id} {e.offer.provider} — {e.offer.name} ({e.offer.gpu.name}) for scenario {e.scenario.name!r}")
    say(f"assumptions: {e.assumptions.words()}")
    for f in figures:
        value = "" if f.value is None else f" = {f.display()}"
        say(f"\n{f.label}{value}")
        say(f"  how: {f.formula}")
        for item in f.inputs:
            say(f"  · {item}")
    say("")
    lines("Negotiation", n.lines())


def gpus(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """The GPU catalog: dense datasheet peaks and the names each model appears under."""
    from quotetui.services.market import gpu_to_json, list_gpus

    items = list_gpus(open_db(ctx))
    if as_json:
        print_json([gpu_to_json(g) for g in items])
        return
    rows = []
    for g in items:
        j = gpu_to_json(g)
        nvlink = str(g.nvlink_gbs or "–") + (f" {g.nvlink_note}" if g.nvlink_note else "")
        rows.append(
            [
                g.name,
                g.form_factor.value.upper(),
                f"{g.memory_gb} GB {g.memory_type}",
                j["memory_bw_tbs"],
                j["bf16_tflops"],
                j["fp8_tflops"] or "–",
                j["fp64_tflops"] or "–",
                nvlink,
                str(g.tdp_w),
                g.topo_signature or "–",
            ]
        )
    table(
        ["GPU", "form", "memory", "TB/s", "BF16", "FP8", "FP64", "NVLink GB/s", "TDP W", "topo"],
        rows,
        right=frozenset({"TB/s", "BF16", "FP8", "FP64", "TDP W"}),
    )


def demo(
    ctx: typer.Context,
    reset: Annotated[bool, typer.Option("--reset", help="Remove the demo market first, then load it again.")] = False,
) -> None:
    """Load the demo market built from the seed articles (imports/demo)."""
    from quotetui.services.demo import load_demo

    summary = load_demo(open_db(ctx, load_demo_if_new=False), reset=reset)
    say(f"{'Reloaded' if reset else 'Loaded'} the demo market: {summary}.")


def register(app: typer.Typer) -> None:
    for command in (providers, offers, explain, gpus, demo):
        app.command()(command)
