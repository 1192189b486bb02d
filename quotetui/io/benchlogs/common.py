"""What real pastes of tool output carry besides the output: terminal codes and shell prompts."""

from __future__ import annotations

import re

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]|\[[0-9;]{0,12}m")
"""Terminal colour and cursor codes (``ESC[4m``, a ``grep --color`` paste's ``ESC[01;31m``), and the same
codes that lost their ESC byte when pasted (``[4mGPU0``): removed once, before any parser reads a log."""

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


def clean(text: str) -> str:
    """A pasted log as its tool printed it: terminal codes and mpirun's tags removed (once, before any parser)."""
    return MPI_TAG.sub("", strip_ansi(text))


def is_prompt(line: str) -> bool:
    return bool(SHELL_PROMPT.match(line))
