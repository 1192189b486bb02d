"""The command line's own words in the language in use: ``--help`` (usage, sections, every command's and
option's help, Typer's ``[default: …]`` and ``[required]``) and the parser's messages (``Error:``, ``No such
option``, ``Missing argument``), laid out by terminal cells so that Chinese lines are as wide as English ones.

A command's help is its docstring and an option's its ``help=``: English, as declared. They are translated as
they are written out, a paragraph at a time (a paragraph's words with their spaces collapsed is its message
id; ``quotetui/extract_messages.py`` collects every one for the catalog), so the declarations stay the one
place that says what a command does."""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence
from typing import Any

from quotetui.language import N_, _
from quotetui.language.cells import width, wrap
from quotetui.language.lists import clauses

WORDS = (
    N_("Usage: "),
    N_("Options"),
    N_("Arguments"),
    N_("Commands"),
    N_("{heading}:"),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
    N_("Show this message and exit."),
    N_("Error: {message}"),
    N_("Try '{command}' for help."),
    N_("Aborted!"),
)
"""Typer's and Click's words that reach a buyer, as they write them (the message ids of their translations)."""


def paragraphs(text: str) -> list[str]:
    """A help text's paragraphs as message ids: blank lines part them, a paragraph's spaces and line breaks
    collapse to one space (the text is re-wrapped anyway), and a ``\\b`` paragraph (kept as written) stays
    as it is. Click's ``\\f`` ends the help."""
    text = inspect.cleandoc(text).partition("\f")[0]
    out = []
    for block in re.split(r"\n\s*\n", text):
        if block.strip():
            out.append(block if block.lstrip().startswith("\b") else " ".join(block.split()))
    return out


def translated(text: str) -> list[str]:
    """Each paragraph of ``text`` in the language in use."""
    return [_(paragraph) for paragraph in paragraphs(text)]


def short_help(text: str, cells: int) -> str:
    """A command's line in a list of commands: its first sentence, translated, within ``cells`` cells."""
    first = translated(text)[:1]
    if not first:
        return ""
    line = first[0]
    sentence = re.match(r"(.+?(?:[。！？]|[.!?])[)\]'\"’”⟧]*)(?=\s|$)", line)
    if sentence:
        line = sentence.group(1)
    if width(line) <= cells:
        return line
    cut = wrap(line, max(cells - 1, 1))[0].rstrip(" ,，、;；:：")
    return cut + "…"


def _install_formatter() -> None:
    from typer._click import core, formatting

    class HelpWords(formatting.HelpFormatter):
        """Click's formatter, translating and measuring by cells."""

        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            prefix = _("Usage: ") if prefix is None else prefix
            head = f"{prefix:>{self.current_indent}}{prog} "
            room = self.width - self.current_indent
            if room >= width(head) + 20:
                lines = wrap(args, room, head, " " * width(head))
            else:
                indent = " " * (max(self.current_indent, width(prefix)) + 4)
                lines = [head, *wrap(args, room, indent, indent)]
            self.write("\n".join(lines) + "\n")

        def write_heading(self, heading: str) -> None:
            self.write(f"{'':>{self.current_indent}}" + _("{heading}:").format(heading=_(heading)) + "\n")

        def write_text(self, text: str) -> None:
            indent = " " * self.current_indent
            blocks = []
            for paragraph in translated(text):
                if paragraph.lstrip().startswith("\b"):
                    blocks.append("\n".join(indent + line for line in paragraph.splitlines()[1:]))
                else:
                    blocks.append("\n".join(wrap(paragraph, self.width, indent, indent)))
            self.write("\n\n".join(blocks) + "\n")

        def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
            rows = [(first, _definition(second)) for first, second in rows]
            first_col = min(max((width(first) for first, _second in rows), default=0), col_max) + col_spacing
            pad = " " * (first_col + self.current_indent)
            for first, second in rows:
                self.write(f"{'':>{self.current_indent}}{first}")
                if not second:
                    self.write("\n")
                    continue
                if width(first) <= first_col - col_spacing:
                    self.write(" " * (first_col - width(first)))
                else:
                    self.write("\n" + pad)
                lines = wrap(second, max(self.width - first_col - 2, 10))
                self.write(lines[0] + "\n" + "".join(f"{pad}{line}\n" for line in lines[1:]))

    core.Context.formatter_class = HelpWords


_EXTRA = re.compile(r"^(.*?)(?:\s{2}\[([^\[\]]*)\])?$", re.S)


def _definition(text: str) -> str:
    """An option's help, translated, a choice's list filled with what a user may type in the language in use
    (``enums.fill_choices``: the codes; in Chinese each with its word, ``lessor（出租方）``); Typer's
    ``  [default: …; required]`` after it is already in the language in use (Typer asks gettext for those
    words: :func:`install`), its parts joined as the language joins clauses (``[默认：1；1<=x<=100000]``)."""
    match = _EXTRA.match(text)
    if not match:
        return text
    extra = f"  [{clauses(match.group(2).split('; '))}]" if match.group(2) else ""
    if not match.group(1):
        return extra.lstrip()
    from quotetui.domain.enums import fill_choices

    return fill_choices(" ".join(translated(match.group(1)))) + extra


def install() -> None:
    """Every help page and parser message of the command line through the language in use."""
    import typer.core
    from typer._click import core, exceptions

    _install_formatter()
    typer.core._ = _  # type: ignore[attr-defined]  ("default: {default}", "required", "env var: {var}")

    def get_short_help_str(self: Any, limit: int = 45) -> str:
        text = self.short_help or self.help or ""
        return short_help(text, limit)

    core.Command.get_short_help_str = get_short_help_str  # type: ignore[method-assign]
    _install_suggestions(typer.core.TyperGroup, exceptions)
    _install_errors(exceptions)


def _install_suggestions(group: Any, exceptions: Any) -> None:
    """A mistyped command's close matches kept on the error, for ``parser_words.message`` to say in the language
    in use, instead of Typer's English ``. Did you mean …?`` glued to the message (``命令 'x' 不存在。. Did you
    mean …``)."""
    typer_resolve = group.resolve_command

    def resolve_command(self: Any, ctx: Any, args: list[str]) -> Any:
        asked, self.suggest_commands = self.suggest_commands, False
        try:
            return typer_resolve(self, ctx, args)
        except exceptions.UsageError as exc:
            if args:
                from difflib import get_close_matches

                from quotetui.commands.parser_words import mistyped, suggest  # only on a mistake: a start imports none

                mistyped(exc, args[0])
                if asked:
                    suggest(exc, get_close_matches(args[0], list(self.commands)))
            raise
        finally:
            self.suggest_commands = asked

    group.resolve_command = resolve_command


def _install_errors(exceptions: Any) -> None:
    def show(self: Any, file: Any = None) -> None:
        from typer._click.utils import echo, get_text_stream

        from quotetui.commands.parser_words import message

        stream = get_text_stream("stderr") if file is None else file
        ctx = getattr(self, "ctx", None)
        if ctx is not None:
            echo(ctx.get_usage(), file=stream)
            if ctx.command.get_help_option(ctx) is not None:
                command = f"{ctx.command_path} {ctx.help_option_names[0]}"
                echo(_("Try '{command}' for help.").format(command=command), file=stream)
            echo("", file=stream)
        echo(_("Error: {message}").format(message=message(self)), file=stream)

    exceptions.ClickException.show = show
    exceptions.UsageError.show = show
