"""README.zh-CN.md stays true (issue 35): each of its ```console blocks is a terminal session a reader can repeat.

The ``$`` lines run in order, as from the repository's root (a scratch folder that sees its ``imports/`` and
``tests/``), through the real entry point; the lines after a command are what it prints, stdout and stderr as a
terminal shows them. ``…`` alone on a line stands for lines left out, ``…`` inside a line for text left out (a
wide table's right-hand columns, a path that is each reader's own); every other line must be printed exactly,
in that order, with nothing else between. A ```toml block whose first line is a comment naming ``config.toml``
is the reader's config file from then on. ``export NAME=VALUE`` sets a variable for the commands after it;
``cat FILE`` prints a file a command wrote. The walk runs on a buyer's machine in China on the page's day
(``TZ=Asia/Shanghai``, the clock at ``TODAY``), so its dates and "in N days" are the page's whatever day the
test runs.

When an output changes on purpose, ``python -m tests.test_readme_zh`` prints what each command prints now (in
scratch folders of its own, each command the page no longer matches marked ``# ≠``), to paste back into the page.
"""

from __future__ import annotations

import glob
import io
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.zh-CN.md"
GAP = "…"
TODAY = datetime(2026, 12, 7, 2, 0, tzinfo=UTC)
"""The page's day: it starts at 10:00 in Beijing on 2026-12-07 (README.zh-CN.md says so); a command takes a minute."""
_now = [TODAY]


class _Clock(datetime):
    """``datetime`` whose ``now`` is the walk's: ``domain/timeutil.py`` asks it, and every module asks that."""

    @classmethod
    def now(cls, tz=None):  # type: ignore[override]
        _now[0] += timedelta(milliseconds=1)  # time passes: two records are never made at the same instant
        return _now[0].astimezone(tz) if tz else _now[0].astimezone().replace(tzinfo=None)


_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass
class Step:
    """One thing the reader does: a command and what the README shows it print, or a config file written."""

    command: str
    shown: list[str] = field(default_factory=list)
    config: str | None = None


def steps(text: str) -> list[Step]:
    """The console sessions and config files of a README, in reading order."""
    found: list[Step] = []
    for kind, body in _BLOCK.findall(text):
        lines = body.splitlines()
        if kind == "toml" and lines and lines[0].startswith("#") and "config.toml" in lines[0]:
            found.append(Step(command="", config=body))
        if kind != "console":
            continue
        lines = iter(lines)
        for line in lines:
            if line.startswith("$ "):
                command = line[2:]
                while command.endswith("\\"):
                    command = command[:-1] + next(lines)
                found.append(Step(command=command))
            elif found and not found[-1].config:
                found[-1].shown.append(line)
            else:
                raise AssertionError(f"a console block starts with output, not a command: {line!r}")
    return found


def _line(shown: str) -> re.Pattern[str]:
    return re.compile(".*?".join(re.escape(part) for part in shown.rstrip().split(GAP)))


def _trimmed(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def printed_as_shown(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``shown`` with its gaps filled: line for line, in order, nothing else between."""
    shown, printed = _trimmed(shown), _trimmed(printed)
    patterns = [None if line == GAP else _line(line) for line in shown]

    @cache
    def at(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(printed)
        pattern = patterns[i]
        if pattern is None:
            return at(i + 1, j) or (j < len(printed) and at(i, j + 1))
        return j < len(printed) and bool(pattern.fullmatch(printed[j])) and at(i + 1, j + 1)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * (len(shown) + len(printed)) + 100))
    return at(0, 0)


def run(command: str, setenv: Callable[[str, str], None]) -> tuple[int, str]:
    """Run one command line as a shell would in the current folder: its exit status and what it printed."""
    words = shlex.split(command, comments=True)
    if words[0] == "export":
        for assignment in words[1:]:
            name, _, value = assignment.partition("=")
            setenv(name, value)
        return 0, ""
    if words[0] == "cat":
        return 0, "".join(Path(name).read_text(encoding="utf-8") for name in words[1:])
    assert words[0] == "quotetui", f"the README runs only quotetui, export and cat: {command}"
    args = [expanded for word in words[1:] for expanded in (sorted(glob.glob(word)) if "*" in word else [word])]
    from quotetui.cli import main

    out = io.StringIO()
    code = 0
    with redirect_stdout(out), redirect_stderr(out):
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return code, out.getvalue()


def walk(text: str, setenv: Callable[[str, str], None], config: Path) -> Iterator[tuple[Step, int, str]]:
    """Each step of the README done in the current folder: the step, the exit status, what it printed."""
    for minute, step in enumerate(steps(text), start=1):
        _now[0] = TODAY + timedelta(minutes=minute)
        if step.config is not None:
            config.parent.mkdir(parents=True, exist_ok=True)
            config.write_text(step.config, encoding="utf-8")
            continue
        yield (step, *run(step.command, setenv))


def _scratch(folder: Path) -> None:
    """A folder where the README's paths (``imports/…``, ``tests/fixtures/…``) read the repository's files."""
    for name in ("imports", "tests"):
        (folder / name).symlink_to(ROOT / name, target_is_directory=True)


_LOCALE = ("QUOTETUI_LANG", "QUOTETUI_CONFIG", "QUOTETUI_DB", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def test_the_chinese_readme_walk_prints_what_it_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command of README.zh-CN.md succeeds and prints what the page shows (a changed message, a new
    column or a figure that moved fails here: paste the new output, ``python -m tests.test_readme_zh``)."""
    from quotetui.domain import timeutil
    from quotetui.io.preferences import config_path
    from quotetui.services.engine_inputs import system_zone

    for name in _LOCALE:
        monkeypatch.delenv(name, raising=False)  # the page's own --lang, export and config file decide
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    system_zone.cache_clear()  # read once a process: a test before this one (pytest-xdist's worker) read UTC
    monkeypatch.setattr(timeutil, "datetime", _Clock)
    _scratch(tmp_path)
    monkeypatch.chdir(tmp_path)
    text = README.read_text(encoding="utf-8")
    try:
        done = list(walk(text, monkeypatch.setenv, config_path()[0]))
    finally:
        system_zone.cache_clear()  # the next test reads its own TZ
    assert len(done) >= 30, "the walk is the whole buyer's day"
    for step, code, printed in done:
        assert code == 0, f"$ {step.command}\n{printed}"
        if step.shown:
            assert printed_as_shown(step.shown, printed.splitlines()), (
                f"$ {step.command}\n--- the README shows:\n" + "\n".join(step.shown) + "\n--- it prints:\n" + printed
            )


def test_the_walk_speaks_chinese_and_its_json_english() -> None:
    """The page is the Chinese one, linked from the top of README.md: what it shows is Chinese, but for
    ``--json``, which stays English."""
    text = README.read_text(encoding="utf-8")
    shown = {step.command: "\n".join(step.shown) for step in steps(text)}
    assert "已加载演示市场数据" in shown["quotetui --lang zh-CN --db demo.db demo"]
    assert "README.zh-CN.md" in "\n".join((ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:5])
    json_steps = [command for command in shown if "--json" in command]
    assert json_steps and all('"provider":' in shown[c] and "供应商" not in shown[c] for c in json_steps)


@pytest.mark.parametrize(
    ("shown", "printed", "expected"),
    [
        (["a", "b"], ["a", "b", ""], True),
        (["a", "b"], ["a", "x", "b"], False),  # a line printed but not shown needs a gap
        (["a", GAP, "b"], ["a", "x", "y", "b"], True),
        (["a", GAP], ["a", "x"], True),
        (["a"], ["a", "x"], False),
        (["a  12.00 …"], ["a  12.00  wide column  "], True),
        (["a  12.00 …"], ["a  13.00  wide column"], False),
        (["a", GAP, "c"], ["a", "b"], False),
    ],
)
def test_shown_lines_and_gaps(shown: list[str], printed: list[str], expected: bool) -> None:
    assert printed_as_shown(shown, printed) is expected


def test_steps_read_commands_continuations_output_and_config() -> None:
    text = (
        "```bash\nquotetui never-run\n```\n"
        "```console\n$ quotetui a \\\n    --b 1   # note\nout 1\n…\n$ export X=1\n```\n"
        '```toml\n# ~/.config/quotetui/config.toml\nmoney_style = "wan"\n```\n'
    )
    found = steps(text)
    assert [s.command for s in found] == ["quotetui a     --b 1   # note", "export X=1", ""]
    assert found[0].shown == ["out 1", GAP] and found[2].config is not None and "wan" in found[2].config
    assert shlex.split(found[0].command, comments=True) == ["quotetui", "a", "--b", "1"]


def main() -> None:
    """Print what each command of README.zh-CN.md prints now, run as the test runs it, marking the stale ones."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        home = folder / "home"
        for name in _LOCALE:
            os.environ.pop(name, None)
        os.environ.update(
            HOME=str(home),
            XDG_DATA_HOME=str(home / ".local/share"),
            XDG_CONFIG_HOME=str(home / ".config"),
            QUOTETUI_CACHE_DIR=str(home / ".cache/quotetui"),
            COLUMNS="120",
            TZ="Asia/Shanghai",
        )
        work = folder / "work"
        work.mkdir()
        _scratch(work)
        os.chdir(work)
        from quotetui.domain import timeutil
        from quotetui.io.preferences import config_path

        timeutil.datetime = _Clock  # type: ignore[misc]

        def setenv(name: str, value: str) -> None:
            os.environ[name] = value

        for step, code, printed in walk(README.read_text(encoding="utf-8"), setenv, config_path()[0]):
            stale = code != 0 or (step.shown and not printed_as_shown(step.shown, printed.splitlines()))
            flag = f"  # ≠ README.zh-CN.md (exit status {code})" if stale else ""
            print(f"$ {step.command}{flag}" + (f"\n{printed.rstrip()}\n" if printed.strip() else ""))


if __name__ == "__main__":
    main()
