"""Market commands: providers, offers (ranked for a scenario), explain, gpus, demo."""

from __future__ import annotations

from typing import Annotated

import typer

from quotetui.commands.common import JsonFlag, ScenarioOpt, id_arg, lines, open_db, print_json, table
from quotetui.commands.output import json_item_kind, json_item_text, say, say_json_items
from quotetui.language import N_, NP_, _
from quotetui.language.lists import listed, quoted


def providers(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List providers."""
    from quotetui.services.market import list_providers

    items = list_providers(open_db(ctx))
    if as_json:
        print_json([p.to_json() for p in items])
        return
    from quotetui.domain.enums import ProviderKind

    table(
        [N_("id"), N_("provider"), N_("kind"), N_("parent"), NP_("count", "offers"), N_("certifications")],
        [
            [str(p.id), p.name, ProviderKind(p.kind).word, p.parent or "", str(p.offers), listed(p.certifications)]
            for p in items
        ],
        right=frozenset({"id", "offers"}),
    )


def offers(
    ctx: typer.Context,
    scenario: ScenarioOpt = None,
    gpu: Annotated[str | None, typer.Option("--gpu", metavar="MODEL", help="Only offers of this GPU model.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Offers ranked for a scenario by cost per delivered PFLOP-hour (feasible ones first)."""
    from quotetui.services.offer_listing import HEADERS, JSON, RIGHT, TABLE, OfferLine, Rendering, offer_listing

    if as_json:
        rendering = Rendering(json_item_text, json_item_kind(), _json_item_read_back)
        say_json_items(offer_listing(open_db(ctx), JSON, scenario, gpu, rendering=rendering))
        return
    items = list(offer_listing(open_db(ctx), TABLE, scenario, gpu))
    for tag, *text in items:
        if tag == "title":
            say(text[0])
    lines = [OfferLine(*cells) for tag, *cells in items if tag == "row"]
    table(
        list(HEADERS),
        [list(line) for line in lines],
        right=frozenset(getattr(HEADERS, name) for name in RIGHT),
        widths={HEADERS.offer: 30, HEADERS.gpu: 14},
    )
    say(_("MFU source: v verified, c claimed, d default · term: od on demand, 1m monthly, 12m annual, p prepaid"))
    for tag, *text in items:
        if tag in ("say", "err"):
            say(text[0], err=tag == "err")


def _json_item_read_back(text: str) -> bool:
    """A kept ``offers --json`` item: one this command could have written (an offer's object, no terminal
    control)."""
    import json

    from quotetui.domain.text import visible

    try:
        item = json.loads(text)
    except ValueError:
        return False
    return isinstance(item, dict) and isinstance(item.get("id"), int) and visible(text) == text


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
            evaluation_json(e, n.rank)
            | {
                "scenario": e.scenario.name,
                "caveats": n.caveats.to_json(),
                "figures": [f.to_json() for f in figures],
                "negotiation": n.to_json(),
            }
        )
        return
    say(
        _("#{id} {provider} — {offer} ({gpu}) for scenario {scenario}").format(
            id=e.offer.id,
            provider=e.offer.provider,
            offer=e.offer.name,
            gpu=e.offer.gpu.name,
            scenario=quoted(e.scenario.name),
        )
    )
    say(_("assumptions: {assumptions}").format(assumptions=e.assumptions.words()))
    if n.caveats:
        lines(_("What qualifies these figures"), n.caveats.words(e.offer.id))
    for f in figures:
        value = "" if f.value is None else f" = {f.display()}"
        say(f"\n{_(f.label)}{value}")
        say("  " + _("how: {formula}").format(formula=f.formula))
        for item in f.inputs:
            say(f"  · {item}")
    say("")
    lines(_("Negotiation"), n.lines())


def gpus(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """The GPU catalog: dense datasheet peaks and the names each model appears under."""
    from quotetui.domain.gpu_table import nvlink_note_word
    from quotetui.services.market import gpu_to_json, list_gpus

    items = list_gpus(open_db(ctx))
    if as_json:
        print_json([gpu_to_json(g) for g in items])
        return
    rows = []
    for g in items:
        j = gpu_to_json(g)
        nvlink = str(g.nvlink_gbs or "–") + (f" {nvlink_note_word(g.nvlink_note)}" if g.nvlink_note else "")
        rows.append(
            [
                g.name,
                g.form_factor.shown,
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
        [
            N_("GPU"),
            N_("form"),
            N_("memory"),
            "TB/s",
            "BF16",
            "FP8",
            "FP64",
            N_("NVLink GB/s"),
            N_("TDP W"),
            N_("topo"),
        ],
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
    done = _("Reloaded the demo market: {summary}.") if reset else _("Loaded the demo market: {summary}.")
    say(done.format(summary=summary))


def register(app: typer.Typer) -> None:
    for command in (providers, offers, explain, gpus, demo):
        app.command()(command)
