"""What real pastes of tool output carry besides the output: terminal codes and shell prompts."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

from quotetui.domain.errors import BadInput
from quotetui.domain.numbers import parse_number
from quotetui.domain.verification.logs import LogError
from quotetui.language import _
from quotetui.language.lists import quoted

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]|\[[0-9][0-9;]{0,11}m|\[m(?![A-Za-z0-9_])")
"""Terminal colour and cursor codes (``ESC[4m``, a ``grep --color`` paste's ``ESC[01;31m``), and the same
codes that lost their ESC byte when pasted (``[4mGPU0``, a bare reset ``[m``, but not the ``[m`` of a prompt
``[mike@gpu01 ~]$``): removed once, before any parser reads a log."""

SHELL_PROMPT = re.compile(
    r"^\s*(?:\[[^\]\n]{1,80}\]|[\w.-]{1,64}@[\w.-]{1,64}(?::\S{0,200})?|sh-\d+(?:\.\d+)*|bash-\d+(?:\.\d+)*)?"
    r"\s?[$#%>]\s*(?:\S.*)?$"
)
"""A shell prompt a paste ends with (``root@node1:~# ``, ``[user@host ~]$``, ``sh-5.1#``, ``$``), maybe with the
next command typed after it."""


MPI_TAG = re.compile(r"^\[\d{1,7},\d{1,7}\]<(?:stdout|stderr)>:[ \t]?", re.M)
"""The prefix ``mpirun --tag-output`` puts on every line (``[1,0]<stdout>:``): job and rank, then the stream."""


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text)


def content_digest(raw: str, host: str | None = None) -> str:
    """A run's identity, whatever the copy: the sha256 of its output as the tool printed it — line ends made
    ``\n``, terminal codes, ``mpirun --tag-output`` tags, a byte-order mark, blanks around lines, the shell prompts
    (and the command) a paste starts or ends with and blank lines around it removed (a CRLF copy, a colour paste,
    a re-paste with its prompt and a re-export of one log are one piece of evidence) — and of the machine it ran
    on when that is known (two identical nodes print the same topology: two pieces of evidence, one per node)."""
    import hashlib

    text = clean(raw.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n"))
    lines = [line.strip() for line in text.split("\n")]  # indentation is layout (a tag may have taken a blank)
    while lines and (not lines[0] or PASTED_PROMPT.match(lines[0])):
        lines.pop(0)
    body = "\n".join(lines).strip("\n")
    return hashlib.sha256((f"host {host}\n{body}" if host else body).encode("utf-8")).hexdigest()


PASTED_PROMPT = re.compile(
    r"^\s*(?:(?:\[[^\]\n]{1,80}\]|[\w.-]{1,64}@[\w.-]{1,64}(?::\S{0,200})?|sh-\d+(?:\.\d+)*|bash-\d+(?:\.\d+)*)"
    r"\s?[$#%>](?:\s.*)?|[$%>](?:\s.*)?|#)\s*$"
)
"""A prompt line that cannot be tool output: one naming the user and host (``root@node1:~# nvidia-smi``,
``[user@host ~]$``, ``sh-5.1#``), a bare ``$``/``%``/``>`` maybe followed by a command, or a lone ``#``. A bare
``# text`` is not one: nccl-tests prints its header and summary as ``#`` lines."""


def _trim_prompts(text: str) -> str:
    lines = text.split("\n")
    end = len(lines)
    while end > 0 and (not lines[end - 1].strip() or PASTED_PROMPT.match(lines[end - 1])):
        end -= 1
    if end == len(lines) or all(not line.strip() for line in lines[end:]):
        return text  # nothing but blank lines after the output: it stays as it was (a missing last newline shows)
    return "\n".join(lines[:end]) + "\n"  # the prompt came after the output's last line end


def clean(text: str) -> str:
    """A pasted log as its tool printed it: terminal codes and mpirun's tags removed, and the shell prompts a
    paste ends with dropped: once, before any parser. A prompt it starts with stays: it holds the command (dcgmi's
    ``--run 3``); parsers that read from the first line skip it (``output_lines``). A file with no ``\n`` at all
    and ``\r`` line ends (an old Mac editor's) has its lines ended with ``\n``; a ``\r`` beside ``\n`` is
    gpu-burn's progress repaint and stays."""
    if "\n" not in text and "\r" in text.rstrip("\r"):
        text = text.replace("\r", "\n")
    return _trim_prompts(MPI_TAG.sub("", strip_ansi(text)))


def output_lines(text: str) -> list[tuple[int, str]]:
    """The non-blank lines as (line number, text), without the prompt and command a paste starts with."""
    rows = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    while rows and PASTED_PROMPT.match(rows[0][1]):
        rows.pop(0)
    return rows


def is_prompt(line: str) -> bool:
    return bool(SHELL_PROMPT.match(line))


def physical_lines(text: str) -> list[int]:
    """The line number, as an editor counts it (by ``\\n``), of each line ``str.splitlines`` yields: gpu-burn
    repaints its progress with ``\\r``, which ``splitlines`` counts as a line end too."""
    numbers, line = [], 1
    for piece in text.splitlines(keepends=True):
        numbers.append(line)
        if piece.endswith("\n"):
            line += 1
    return numbers


def physical(numbers: list[int], line: int | None) -> int | None:
    """``line`` (1-based, as ``splitlines`` counts) as an editor's line number."""
    if line is None or not numbers:
        return line
    return numbers[min(max(line, 1), len(numbers)) - 1]


def shown(token: str) -> str:
    """A token as an error message quotes it: in full when short, else its start and its length."""
    if len(token) <= 40:
        return repr(token)
    return _("{start}… ({n} characters)").format(start=quoted(token[:40]), n=f"{len(token):,}")


def log_number(token: str, what: str, line: int) -> Decimal:
    """A figure a tool printed, exact, finite and not negative: else a ``LogError`` naming it and its line (the
    one number parser, so a figure no machine prints, 9e9999999, is refused, not computed with). ``what``: the
    column as the log prints it (``busbw``), or words the caller has said in the language in use."""
    try:
        value = parse_number(token, what=what)
    except BadInput:
        raise LogError(_("{what} is {value}, not a number").format(what=what, value=shown(token)), line) from None
    if not value.is_finite() or value < 0:
        raise LogError(
            _("{what} is {value}: a negative figure is a broken measurement").format(what=what, value=shown(token)),
            line,
        )
    return value


def load_json(text: str, what: str = "", source: str = "", exact: bool = True) -> Any:
    """``text`` as JSON, its fractions as ``Decimal`` (``exact``) never through a float; a file no machine wrote
    (cut short, an integer of thousands of digits, nesting thousands deep) is a ``LogError`` naming ``what`` (the
    file's kind, in the language in use: "probe bundle"), or the problem alone."""
    try:
        return json.loads(text, parse_float=Decimal) if exact else json.loads(text)
    except json.JSONDecodeError as exc:  # json's own words say where it broke
        said = (
            _("{what} is not valid JSON: {error} (cut short?)").format(what=what, error=exc.msg)
            if what
            else _("not valid JSON: {error} (cut short?)").format(error=exc.msg)
        )
        raise LogError(said, exc.lineno, source) from exc
    except ValueError as exc:  # an integer of thousands of digits
        error = str(exc).split(";")[0]
        said = (
            _("{what} is not a log a machine wrote: {error}").format(what=what, error=error)
            if what
            else _("not a log a machine wrote: {error}").format(error=error)
        )
        raise LogError(said, source=source) from None
    except RecursionError:  # [[[[… a hundred thousand deep
        said = (
            _("{what} is nested thousands deep: not a log a machine wrote").format(what=what)
            if what
            else _("nested thousands deep: not a log a machine wrote")
        )
        raise LogError(said, source=source) from None
