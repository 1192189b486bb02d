"""What ``quotetui --help`` lists for each command, so that listing them imports none of their modules.

Each command's words are its own docstring (or its group's ``help``): this file is generated from them and
never edited by hand. ``python -m quotetui.write_help_index`` writes it again after a command's docstring
changes; ``tests/test_cli_startup.py`` fails while it is stale.
"""

from __future__ import annotations

FIRST_PARAGRAPHS: dict[str, str] = {
    # generated: begin
    "providers": "List providers.",
    "offers": "Offers ranked for a scenario by cost per delivered PFLOP-hour (feasible ones first).",
    "explain": "Every figure of one offer for a scenario: value, formula, inputs, and the negotiation position.",
    "gpus": "The GPU catalog: dense datasheet peaks and the names each model appears under.",
    "demo": "Load the demo market built from the seed articles (imports/demo).",
    "claims": "Every claimed benchmark and training time: what it implies and whether it can be true.",
    "import": "Import spreadsheets, all or nothing: every problem is listed and nothing is written until all are fixed.",
    "template": "Write the import template: a sheet per entity, notes on headers, drop-down lists.",
    "export": "Export the comparison workbook for a scenario (live TCO formulas, charts), or the offers as CSV.",
    "market": "Market reference prices from imported catalogs: median per GPU-hour of each model.",
    "probe": "Write the portable GPU probe: one Python 3.8+ script (standard library only) to copy to a trial machine.",
    "config": "Show the preferences file (theme, keymap, default database, language, money style): where it is, whether it\nexists, each value in effect and where it comes from. Exit status 2 when the file has a problem.",
    "provider": "Add or edit a provider (`quotetui providers` lists them).",
    "offer": "Add or edit an offer (`quotetui offers` ranks them).",
    "round": "Negotiation rounds of an offer: a new price, or a recorded one corrected.",
    "discount": "Discounts of an offer.",
    "extra": "Extra costs of an offer (egress, storage, fees, deposits).",
    "sla": "The SLA of an offer.",
    "bench": "Verify claims: import raw benchmark logs as evidence and check an offer against them.",
    "contracts": "Contracts: key dates and notice deadlines, SLA incidents and credits, invoices.",
    "acceptance": "Acceptance: the checklist the logs on record pass or fail, waivers, and accepting a contract.",
    "rfq": "Requests for quotation: one requirement, sent to several providers.",
    "award": "The cheapest split of the need, and the split with each risk constraint, with what each costs.",
    "brief": "What to take into a negotiation: their offer, our BATNA and targets, concessions, the market median,\nunknown costs, claims and findings to push on, SLA gaps (bilingual Markdown).",
    "history": "The audit trail: every change to an offer (its rounds, prices, terms, evidence and contracts), a contract\n(amendments, incidents, invoices, waivers) or the settings — who, when, from which front end or file, and\neach value before and after.",
    "scenario": "Workload scenarios: every comparison is made for one.",
    "calc": "Calculators: training run, rent vs buy, term choice.",
    "fx": "Dated exchange rates used for conversions (never a silent 1.0).",
    "settings": "The assumptions every figure rests on (hours a month, default MFU and availability, time zone, discount rate, VAT).",
    "db": "Database maintenance: upgrade, backup, restore, check.",
    # generated: end
}
"""Each command's help up to its first blank line: all that ``--help``'s command list shows of it."""


def first_paragraph(text: str | None) -> str:
    if not text:
        return ""
    end = text.find("\n\n")
    return text if end == -1 else text[:end]
