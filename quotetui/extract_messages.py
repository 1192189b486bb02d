"""Babel's extractor for the command line's help (``babel.cfg`` names it for ``quotetui/cli.py``): besides the
``_()``/``N_()`` strings of that file, every command's and option's help as the parser shows it, a paragraph
at a time (``commands/help_words.py: paragraphs``), with the command it belongs to as the translator's
comment. The help is declared once, in docstrings and ``help=``; this reads it from the built command tree, so
the catalog holds exactly what ``--help`` shows. See docs/LANGUAGE.md."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

Message = tuple[int, str | None, str | tuple[str, ...], list[str]]


def _walk(command: Any, path: str) -> Iterator[tuple[str, str]]:
    if command.help:
        yield path, command.help
    for param in command.params:
        if getattr(param, "help", None):
            yield f"{path} {param.opts[0] if param.opts else param.name}", param.help
    for name in getattr(command, "commands", {}):
        yield from _walk(command.commands[name], f"{path} {name}")


def cli_help(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: dict[str, Any]
) -> Iterator[Message]:
    """What ``--help`` shows, for ``pybabel extract``."""
    from babel.messages.extract import extract_python
    from typer.main import get_command

    from quotetui.cli import app
    from quotetui.commands.help_words import paragraphs

    yield from extract_python(fileobj, keywords, comment_tags, options)
    seen: set[str] = set()
    for where, text in _walk(get_command(app), "quotetui"):
        for paragraph in paragraphs(text):
            if paragraph not in seen:
                seen.add(paragraph)
                yield 0, None, paragraph, [f"help of: {where}"]
