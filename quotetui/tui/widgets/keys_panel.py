"""Textual's keys panel ("Keys" in the command palette: the focused widget's and the screen's keys beside the
screen) in the language in use. Textual writes each binding's description, its tooltip and a group's title
("Input") as they are declared: in English, Textual's own words included (``app_keys.TEXTUAL_WORDS``). These
subclasses show them through the catalog, and draw again when the bindings change (a language switch refreshes
every screen's bindings)."""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from operator import itemgetter

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import HelpPanel, KeyPanel, Markdown
from textual.widgets._key_panel import BindingsTable

from quotetui.language import _
from quotetui.tui.widgets.footer import said


class SaidBindingsTable(BindingsTable):
    def render_bindings_table(self) -> Table:
        """Textual's table (``BindingsTable.render_bindings_table`` of Textual 8.2), its words translated."""
        key_style = self.get_component_rich_style("bindings-table--key")
        description_style = self.get_component_rich_style("bindings-table--description")
        header_style = self.get_component_rich_style("bindings-table--header")
        transparent = self.get_component_styles("bindings-table--divider").color.a == 0
        table = Table(
            padding=(0, 0),
            show_header=False,
            box=box.SIMPLE if transparent else box.HORIZONTALS,
            border_style=self.get_component_rich_style("bindings-table--divider"),
        )
        table.add_column("", justify="right")
        previous: object = None
        for namespace, active in groupby(self.screen.active_bindings.values(), key=itemgetter(0)):
            bindings = list(active)
            if not bindings:
                continue
            if namespace.BINDING_GROUP_TITLE:
                table.add_row("", Text(_(namespace.BINDING_GROUP_TITLE), style=header_style, end=""))
            by_action: defaultdict[str, list[Binding]] = defaultdict(list)
            for _namespace, binding, _enabled, _tooltip in bindings:
                if not binding.system:
                    by_action[binding.action].append(binding)
            for same in by_action.values():
                keys = " ".join(dict.fromkeys(self.app.get_key_display(b) for b in same))
                table.add_row(Text(keys, style=key_style), self._description(same[0], description_style))
            if namespace != previous:
                table.add_section()
            previous = namespace
        return table

    @staticmethod
    def _description(binding: Binding, style: object) -> Text:
        """The binding's description, then its tooltip dimmed, as Textual writes them (as plain text: a
        translation's brackets are not markup)."""
        text = Text(said(binding.description), end="", style=style)  # type: ignore[arg-type]
        if binding.tooltip:
            if binding.description:
                text.append(" ")
            text.append(said(binding.tooltip), "dim")
        return text


class SaidKeyPanel(KeyPanel, can_focus=False):
    def compose(self) -> ComposeResult:
        yield SaidBindingsTable(shrink=True, expand=False)


class KeysHelpPanel(HelpPanel):
    """Textual's help panel with :class:`SaidKeyPanel` for its keys (``QuotetuiApp.action_show_help_panel``)."""

    def compose(self) -> ComposeResult:
        yield Markdown(id="widget-help")
        yield SaidKeyPanel(id="keys-help")
