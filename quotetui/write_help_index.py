"""``python -m quotetui.write_help_index``: writes ``commands/help_index.py`` again from the commands' own
docstrings (after a command's docstring changes; ``tests/test_cli_startup.py`` fails while it is stale). It
imports every command module, which ``--help`` itself never does."""

from __future__ import annotations

from pathlib import Path

from quotetui.cli import COMMANDS, _loaded
from quotetui.commands import help_index
from quotetui.commands.help_index import first_paragraph


def current() -> dict[str, str]:
    """The index as the commands declare it now (imports every command module)."""
    out = {}
    for name, module in COMMANDS.items():
        command = _loaded(module)[name]
        assert not command.short_help and not command.hidden and not command.deprecated, name  # not indexed
        out[name] = first_paragraph(command.help)
    return out


def write() -> None:
    path = Path(help_index.__file__)
    text = path.read_text(encoding="utf-8")
    begin, end = "    # generated: begin\n", "    # generated: end\n"
    head, rest = text.split(begin)
    _, tail = rest.split(end)
    body = "".join(f"    {name!r}: {words!r},\n" for name, words in current().items())
    path.write_text(head + begin + body + end + tail, encoding="utf-8")


if __name__ == "__main__":
    write()
