"""The dashboard: the state of the negotiation week at a glance, for the active scenario."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, Static

from quotetui.domain.economics.display import money_number
from quotetui.domain.economics.exact import pct, q
from quotetui.domain.enums import OfferStatus, Severity, Tone
from quotetui.language import N_, NP_, _, ngettext
from quotetui.language.lists import labelled
from quotetui.language.numbers import percent
from quotetui.tui.safe import Table, Text
from quotetui.tui.screens.base import MarketScreen
from quotetui.tui.tones import STYLE
from quotetui.tui.widgets.footer import KeysFooter

if TYPE_CHECKING:
    from quotetui.services.market_view import MarketView


def _table(title: str, *columns: str, wide: str = "") -> Table:
    """Columns fit their content; only ``wide`` (the long text) gives way, with an ellipsis. ``columns``: the
    headers in English (message ids, marked ``N_``), shown in the language in use; ``title``: shown as given."""
    table = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False, expand=True)
    for name in columns:
        right = name.startswith(("#", "/", "days"))
        words = name.rstrip()  # "offer ": a second column of offers, its header told apart by a space
        header = name if not words else _(name) if words == name else _(words) + name[len(words) :]
        table.add_column(
            header,  # _(name) itself where it can: a name declared NP_ carries its context
            justify="right" if right else "left",
            overflow="ellipsis",
            no_wrap=True,
            ratio=1 if name == wide else None,
        )
    return table


class DashboardScreen(MarketScreen):
    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="dashboard"):
            yield Static(id="scenario-line")
            with Horizontal(id="dash-top"):
                yield Static(id="by-status", classes="card")
                yield Static(id="expiring", classes="card")
            yield Static(id="best", classes="card")
            yield Static(id="flags", classes="card")
            yield Static(id="findings", classes="card")
            yield Static(id="deadlines", classes="card")
        yield KeysFooter()

    def set_loading(self, loading: bool) -> None:
        self.query_one("#dashboard").loading = loading

    def show_market(self, m: MarketView) -> None:
        s = m.scenario
        self.query_one("#scenario-line", Static).update(
            Text.assemble(
                (_("Scenario") + " ", STYLE[Tone.MUTED]),
                (s.name, "bold"),
                (
                    "  "
                    + _(
                        "{gpus} GPUs × {months} months at {use} use, amounts in {currency}; press {key} to switch"
                    ).format(
                        gpus=s.gpu_count,
                        months=s.months,
                        use=percent(str(pct(q(s.utilisation), 0))),
                        currency=s.home_currency,
                        key=self.key("scenario", "s"),
                    ),
                    STYLE[Tone.MUTED],
                ),
            )
        )
        status = _table(_("Offers by status"), N_("status"), "#")
        for name, count in m.status_counts:
            status.add_row(OfferStatus(name).word, str(count))
        not_compared = sum(1 for r in m.rows if r.evaluation is None)
        if not_compared:
            status.add_row(Text(_("not comparable (FX)"), style=STYLE[Tone.WARNING]), str(not_compared))
        if not m.rows:
            status.add_row(Text(_("no offers yet (o, then n)"), style=STYLE[Tone.MUTED]), "")
        self.query_one("#by-status", Static).update(status)

        expiring = _table(
            _("Quotes lapsed or expiring within 14 days"), N_("offer"), N_("valid until"), N_("days"), wide="offer"
        )
        for x in m.expiring[:8]:
            left = _("lapsed") if x.days_left < 0 else str(x.days_left)
            expiring.add_row(
                f"#{x.offer.id} {x.offer.provider} {x.offer.name}",
                x.valid_until.isoformat(),
                Text(left, style=STYLE[Tone.ERROR] if x.days_left <= 3 else ""),
            )
        if not m.expiring:
            expiring.add_row(Text(_("none"), style=STYLE[Tone.MUTED]), "", "")
        elif len(m.expiring) > 8:
            expiring.add_row(Text(_more(len(m.expiring) - 8), style=STYLE[Tone.MUTED]), "", "")
        self.query_one("#expiring", Static).update(expiring)

        cur = s.home_currency
        market = any(b.market_median is not None for b in m.best_by_gpu)  # only once price lists are imported
        headers = [N_("GPU"), N_("/GPU-h"), N_("offer"), N_("/PFLOP-h"), "offer "]
        headers += [N_("/GPU-h cloud median")] if market else []
        from quotetui.domain.economics.caveats import figure_text  # with the market: not before the first frame

        best = _table(_("Best per GPU model (open, feasible offers; {currency})").format(currency=cur), *headers)
        for b in m.best_by_gpu:
            h, c = b.cheapest_hour, b.cheapest_compute
            price = m.caveats(h.offer.id).of_price
            cells = [
                b.gpu,
                figure_text(h.price_per_gpu_hour, price, money=True),
                f"#{h.offer.id} {h.offer.provider}",
                figure_text(c.cost_per_pflop_hour, m.caveats(c.offer.id), money=True),
                f"#{c.offer.id} {c.offer.provider}",
            ]
            if market:
                cells.append(money_number(b.market_median, 2) if b.market_median is not None else "–")
            best.add_row(*cells)
        if m.why_no_best:
            why = m.why_no_best
            sentence = _("{sentence}.").format(sentence=f"{why[:1].upper()}{why[1:]}")
            best.caption, best.caption_justify = Text(sentence, style=STYLE[Tone.WARNING]), "left"
        self.query_one("#best", Static).update(best)

        if not m.cards_ready:  # the offers are ranked; claims, findings and contracts are still being computed
            self._cards_waiting(m)
            return
        flags = _table(
            _("Red flags: implausible claims ({n})").format(n=len(m.red_flags)),
            N_("verdict"),
            NP_("who claims", "who"),
            N_("claim"),
            wide="claim",
        )
        for a in m.red_flags[:10]:
            who = a.claim.provider or _("market-wide")
            flags.add_row(Text(a.verdict.word, style=STYLE[a.verdict.tone]), who, a.explanation)
        if not m.red_flags:
            flags.add_row(
                Text(_("none"), style=STYLE[Tone.MUTED]),
                "",
                Text(_("no claim on record is impossible or optimistic"), style=STYLE[Tone.MUTED]),
            )
        if len(m.red_flags) > 10:
            flags.add_row("", "", Text(_more_in_benchmarks(len(m.red_flags) - 10), style=STYLE[Tone.MUTED]))
        self.query_one("#flags", Static).update(flags)

        self.query_one("#findings", Static).update(_findings(m))

        deadlines = self.query_one("#deadlines", Static)
        deadlines.display = m.has_contracts
        if m.has_contracts:
            deadlines.update(_key_dates(m))

    def _cards_waiting(self, m: MarketView) -> None:
        """The claims, findings and contracts cards while they are computed, or when they could not be."""
        if m.cards_failed is None:
            line = Text(_("checking claims and findings…"), style=STYLE[Tone.MUTED])
        else:
            refresh = self.key("refresh", "f5")
            line = Text(
                _("could not be checked ({key} tries again): {reason}").format(key=refresh, reason=m.cards_failed),
                style=STYLE[Tone.ERROR],
            )
        for card, title in (("#flags", _("Red flags: implausible claims")), ("#findings", _("Verification findings"))):
            table = _table(title, N_("status"), wide="status")
            table.add_row(line)
            self.query_one(card, Static).update(table)
        self.query_one("#deadlines", Static).display = False


GROUP_TITLES = {"overdue": N_("overdue"), "within_30_days": N_("within 30 days")}
"""The key dates' groups as the card names them (English message ids; any other group: :data:`LATER`)."""
LATER = N_("within 31–90 days")  # declared apart: extraction does not see an N_() inside a _() call


def _more(n: int) -> str:
    """The line under a card's rows for those left out: ``… and 3 more``."""
    return _("… and {n} more").format(n=n)


def _more_in_benchmarks(n: int) -> str:
    return _("… {n} more in the offers' Benchmarks tab").format(n=n)


def _key_dates(m: MarketView) -> Table:
    """Contract and quote dates by urgency: overdue, within 30 days, within 31-90 days (r: contracts)."""
    table = _table(_("Key dates (r: contracts)"), N_("when"), N_("date"), N_("days"), N_("what"), wide="what")
    for name, items in m.due.items():
        style = STYLE[Tone.ERROR] if name == "overdue" else STYLE[Tone.WARNING] if name == "within_30_days" else ""
        for k in items[:6]:
            left = k.days_left(m.on)
            table.add_row(
                Text(_(GROUP_TITLES.get(name, LATER)), style=style),
                k.day.isoformat(),
                Text(str(left), style=style),
                k.told(k.said),  # as the contracts screen says it
            )
        if len(items) > 6:
            table.add_row("", "", "", Text(_more(len(items) - 6), style=STYLE[Tone.MUTED]))
    if not any(m.due.values()):
        table.add_row(Text(_("nothing due in 90 days"), style=STYLE[Tone.MUTED]), "", "", "")
    return table


def _findings(m: MarketView) -> Table:
    """What the evidence and prices say against offers (claims have their own card above)."""
    from quotetui.domain.verification.findings import FindingCode

    shown = [
        (o, f) for o, f in m.findings if f.code is not FindingCode.IMPLAUSIBLE_CLAIM and f.severity is not Severity.INFO
    ]
    critical = sum(1 for _offer, f in shown if f.severity is Severity.CRITICAL)
    warnings = len(shown) - critical
    title = ngettext(
        "Verification findings ({critical} critical, {n} warning)",
        "Verification findings ({critical} critical, {n} warnings)",
        warnings,
    ).format(critical=critical, n=f"{warnings:,}")
    table = _table(title, N_("severity"), N_("offer"), N_("finding"), wide="finding")
    for o, f in shown[:10]:
        table.add_row(
            Text(f.severity.word, style=STYLE[f.severity.tone]),
            f"#{o.id} {o.provider} {o.name}",
            labelled(f.code.word, f.title),
        )
    if not shown:
        table.add_row(
            Text(_("none"), style=STYLE[Tone.MUTED]),
            "",
            Text(_("import trial-machine logs with `quotetui bench import`"), style=STYLE[Tone.MUTED]),
        )
    elif len(shown) > 10:
        table.add_row("", "", Text(_more_in_benchmarks(len(shown) - 10), style=STYLE[Tone.MUTED]))
    return table
