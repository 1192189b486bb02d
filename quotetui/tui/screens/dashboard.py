"""The dashboard: the state of the negotiation week at a glance, for the active scenario."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, Static

from quotetui.domain.economics.display import grouped
from quotetui.domain.economics.exact import pct, q
from quotetui.domain.enums import Severity, Tone
from quotetui.domain.wording import plural
from quotetui.tui.safe import Table, Text
from quotetui.tui.screens.base import MarketScreen
from quotetui.tui.tones import STYLE
from quotetui.tui.widgets.footer import KeysFooter

if TYPE_CHECKING:
    from quotetui.services.market_view import MarketView


def _table(title: str, *columns: str, wide: str = "") -> Table:
    """Columns fit their content; only ``wide`` (the long text) gives way, with an ellipsis."""
    table = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False, expand=True)
    for name in columns:
        right = name.startswith(("#", "/", "days"))
        table.add_column(
            name,
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
                ("Scenario ", STYLE[Tone.MUTED]),
                (s.name, "bold"),
                (
                    f"  {s.gpu_count} GPUs × {s.months} months at {pct(q(s.utilisation), 0)} % use, "
                    f"amounts in {s.home_currency}; press {self.key('scenario', 's')} to switch",
                    STYLE[Tone.MUTED],
                ),
            )
        )
        status = _table("Offers by status", "status", "#")
        for name, count in m.status_counts:
            status.add_row(name, str(count))
        not_compared = sum(1 for r in m.rows if r.evaluation is None)
        if not_compared:
            status.add_row(Text("not comparable (FX)", style=STYLE[Tone.WARNING]), str(not_compared))
        if not m.rows:
            status.add_row(Text("no offers yet (o, then n)", style=STYLE[Tone.MUTED]), "")
        self.query_one("#by-status", Static).update(status)

        expiring = _table("Quotes lapsed or expiring within 14 days", "offer", "valid until", "days", wide="offer")
        for x in m.expiring[:8]:
            left = "lapsed" if x.days_left < 0 else str(x.days_left)
            expiring.add_row(
                f"#{x.offer.id} {x.offer.provider} {x.offer.name}",
                x.valid_until.isoformat(),
                Text(left, style=STYLE[Tone.ERROR] if x.days_left <= 3 else ""),
            )
        if not m.expiring:
            expiring.add_row(Text("none", style=STYLE[Tone.MUTED]), "", "")
        elif len(m.expiring) > 8:
            expiring.add_row(Text(f"… and {len(m.expiring) - 8} more", style=STYLE[Tone.MUTED]), "", "")
        self.query_one("#expiring", Static).update(expiring)

        cur = s.home_currency
        market = any(b.market_median is not None for b in m.best_by_gpu)  # only once price lists are imported
        headers = ["GPU", "/GPU-h", "offer", "/PFLOP-h", "offer "] + (["/GPU-h cloud median"] if market else [])
        from quotetui.domain.economics.caveats import figure_text  # with the market: not before the first frame

        best = _table(f"Best per GPU model (open, feasible offers; {cur})", *headers)
        for b in m.best_by_gpu:
            h, c = b.cheapest_hour, b.cheapest_compute
            price = m.caveats(h.offer.id).of_price
            cells = [
                b.gpu,
                figure_text(h.price_per_gpu_hour, price),
                f"#{h.offer.id} {h.offer.provider}",
                figure_text(c.cost_per_pflop_hour, m.caveats(c.offer.id)),
                f"#{c.offer.id} {c.offer.provider}",
            ]
            if market:
                cells.append(f"{grouped(b.market_median, 2)}" if b.market_median is not None else "–")
            best.add_row(*cells)
        if m.why_no_best:
            why = m.why_no_best
            best.caption, best.caption_justify = Text(f"{why[:1].upper()}{why[1:]}.", style=STYLE[Tone.WARNING]), "left"
        self.query_one("#best", Static).update(best)

        if not m.cards_ready:  # the offers are ranked; claims, findings and contracts are still being computed
            self._cards_waiting(m)
            return
        flags = _table(f"Red flags: implausible claims ({len(m.red_flags)})", "verdict", "who", "claim", wide="claim")
        for a in m.red_flags[:10]:
            who = a.claim.provider or "market-wide"
            flags.add_row(Text(a.verdict.value, style=STYLE[a.verdict.tone]), who, a.explanation)
        if not m.red_flags:
            flags.add_row(
                Text("none", style=STYLE[Tone.MUTED]),
                "",
                Text("no claim on record is impossible or optimistic", style=STYLE[Tone.MUTED]),
            )
        if len(m.red_flags) > 10:
            flags.add_row(
                "", "", Text(f"… {len(m.red_flags) - 10} more in the offers' Benchmarks tab", style=STYLE[Tone.MUTED])
            )
        self.query_one("#flags", Static).update(flags)

        self.query_one("#findings", Static).update(_findings(m))

        deadlines = self.query_one("#deadlines", Static)
        deadlines.display = m.has_contracts
        if m.has_contracts:
            deadlines.update(_key_dates(m))

    def _cards_waiting(self, m: MarketView) -> None:
        """The claims, findings and contracts cards while they are computed, or when they could not be."""
        if m.cards_failed is None:
            line = Text("checking claims and findings…", style=STYLE[Tone.MUTED])
        else:
            refresh = self.key("refresh", "f5")
            line = Text(f"could not be checked ({refresh} tries again): {m.cards_failed}", style=STYLE[Tone.ERROR])
        for card, title in (("#flags", "Red flags: implausible claims"), ("#findings", "Verification findings")):
            table = _table(title, "status", wide="status")
            table.add_row(line)
            self.query_one(card, Static).update(table)
        self.query_one("#deadlines", Static).display = False


GROUP_TITLES = {"overdue": "overdue", "within_30_days": "within 30 days"}


def _key_dates(m: MarketView) -> Table:
    """Contract and quote dates by urgency: overdue, within 30 days, within 31-90 days (r: contracts)."""
    table = _table("Key dates (r: contracts)", "when", "date", "days", "what", wide="what")
    for name, items in m.due.items():
        style = STYLE[Tone.ERROR] if name == "overdue" else STYLE[Tone.WARNING] if name == "within_30_days" else ""
        for k in items[:6]:
            left = k.days_left(m.on)
            table.add_row(
                Text(GROUP_TITLES.get(name, "within 31–90 days"), style=style),
                k.day.isoformat(),
                Text(str(left), style=style),
                f"{k.kind}: {k.subject}" + (f" — {k.detail}" if k.detail else ""),
            )
        if len(items) > 6:
            table.add_row("", "", "", Text(f"… and {len(items) - 6} more", style=STYLE[Tone.MUTED]))
    if not any(m.due.values()):
        table.add_row(Text("nothing due in 90 days", style=STYLE[Tone.MUTED]), "", "", "")
    return table


def _findings(m: MarketView) -> Table:
    """What the evidence and prices say against offers (claims have their own card above)."""
    from quotetui.domain.verification.findings import FindingCode

    shown = [
        (o, f) for o, f in m.findings if f.code is not FindingCode.IMPLAUSIBLE_CLAIM and f.severity is not Severity.INFO
    ]
    critical = sum(1 for _, f in shown if f.severity is Severity.CRITICAL)
    warnings = len(shown) - critical
    title = f"Verification findings ({critical} critical, {plural(warnings, 'warning')})"
    table = _table(title, "severity", "offer", "finding", wide="finding")
    for o, f in shown[:10]:
        table.add_row(
            Text(f.severity.value, style=STYLE[f.severity.tone]),
            f"#{o.id} {o.provider} {o.name}",
            f"{f.code}: {f.title}",
        )
    if not shown:
        table.add_row(
            Text("none", style=STYLE[Tone.MUTED]),
            "",
            Text("import trial-machine logs with `quotetui bench import`", style=STYLE[Tone.MUTED]),
        )
    elif len(shown) > 10:
        table.add_row("", "", Text(f"… {len(shown) - 10} more in the offers' Benchmarks tab", style=STYLE[Tone.MUTED]))
    return table
