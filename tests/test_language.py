"""The language a run speaks (issue 35): chosen as programs choose, the command line's every word in it, and
catalogs that are complete and current. Chinese expected here is the catalog's own entry, read from the .po,
and the pseudo-locale (tests/pseudo_locale.py) shows any English that did not pass through gettext."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from quotetui import language
from quotetui.language import LOCALE_DIR, normalise
from quotetui.language.choice import choose, take_flag
from tests.conftest import run_cli
from tests.pseudo_locale import Pseudo, english_words, message_keys

ROOT = Path(__file__).resolve().parent.parent
PO = Path(LOCALE_DIR) / "zh_CN" / "LC_MESSAGES" / "quotetui.po"
MO = PO.with_suffix(".mo")


def zh(message: str) -> str:
    """The catalog's Chinese for ``message`` (the .po, not the code under test)."""
    with open(PO, "rb") as handle:
        catalog = read_po(handle)
    entry = catalog.get(message)
    assert entry is not None and entry.string, f"no translation of {message!r}"
    return entry.string


# -- choosing ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "tag"),
    [
        ("zh-CN", "zh-CN"),
        ("zh_CN.UTF-8", "zh-CN"),
        ("zh_CN.utf8@pinyin", "zh-CN"),
        ("ZH-cn", "zh-CN"),
        ("zh", "zh-CN"),
        ("zh_Hans_CN", "zh-CN"),
        ("zh-SG", "zh-CN"),
        ("en", "en"),
        ("en_GB.UTF-8", "en"),
        ("C", "en"),
        ("C.UTF-8", "en"),
        ("POSIX", "en"),
        ("zh_TW.UTF-8", None),  # Traditional Chinese is not what the catalog holds
        ("zh_HK", None),
        ("fr_FR.UTF-8", None),
        ("", None),
        ("   ", None),
        ("zh-CN\x1b[31m", None),
    ],
)
def test_a_language_is_known_however_it_is_written(written: str, tag: str | None) -> None:
    assert normalise(written) == tag


def test_the_flag_comes_first_then_the_variable_the_file_and_the_locale() -> None:
    env = {"QUOTETUI_LANG": "en", "LANG": "zh_CN.UTF-8"}
    file = {"value": "zh-CN"}
    read: list[str] = []

    def configured() -> str | None:
        read.append("file")
        return file["value"]

    assert choose("zh-CN", env, configured) == choose("zh-CN", {}, configured)
    assert choose("zh-CN", env, configured).tag == "zh-CN"
    assert choose(None, env, configured).tag == "en"
    assert read == [], "the config file is not read when the flag or the variable decides"
    assert choose(None, {"LANG": "en_US.UTF-8"}, configured).tag == "zh-CN"
    assert choose(None, {"LANG": "en_US.UTF-8"}, configured).source == "the config file"
    file["value"] = None
    assert choose(None, {"LANG": "zh_CN.UTF-8"}, configured).tag == "zh-CN"
    assert choose(None, {}, configured).tag == "en"


def test_the_system_locale_is_read_as_gettext_reads_it() -> None:
    """The first of $LANGUAGE, $LC_ALL, $LC_MESSAGES, $LANG that is set decides; $LANGUAGE is a list."""
    assert choose(None, {"LANGUAGE": "fr:zh_CN:en", "LANG": "en_US.UTF-8"}).tag == "zh-CN"
    assert choose(None, {"LANGUAGE": "fr:de", "LANG": "zh_CN.UTF-8"}).tag == "en"
    assert choose(None, {"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}).tag == "zh-CN"
    assert choose(None, {"LC_ALL": "C", "LC_MESSAGES": "zh_CN.UTF-8"}).tag == "en"
    assert choose(None, {"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "C"}).tag == "zh-CN"
    assert choose(None, {"LANGUAGE": "", "LANG": "zh_CN.UTF-8"}).source == "$LANG"
    chosen = choose(None, {"LANG": "fr_FR.UTF-8"})
    assert (chosen.tag, chosen.warning) == ("en", None), "a system locale quotetui does not speak is silent"


@pytest.mark.parametrize("where", ["flag", "variable", "file"])
def test_a_language_asked_for_that_is_not_spoken_is_english_with_one_line(where: str) -> None:
    chosen = choose(
        "klingon" if where == "flag" else None,
        {"QUOTETUI_LANG": "klingon"} if where == "variable" else {"LANG": "zh_CN.UTF-8"},
        lambda: "klingon",
    )
    assert chosen.tag == "en"
    assert chosen.warning is not None and "'klingon'" in chosen.warning and "en, zh-CN" in chosen.warning
    assert "\n" not in chosen.warning


def test_the_flag_is_taken_wherever_it_is_and_only_before_a_double_dash() -> None:
    assert take_flag(["offers", "--lang", "zh-CN", "--json"]) == ("zh-CN", ["offers", "--json"])
    assert take_flag(["--lang=zh-CN", "offers"]) == ("zh-CN", ["offers"])
    assert take_flag(["--lang", "en", "offers", "--lang", "zh-CN"]) == ("zh-CN", ["offers"])
    assert take_flag(["offer", "add", "--", "--lang", "zh-CN"]) == (None, ["offer", "add", "--", "--lang", "zh-CN"])
    assert take_flag(["offers", "--lang"]) == (None, ["offers", "--lang"]), "left for the parser to refuse"


# -- the command line in Chinese -----------------------------------------------------------------------------


def test_help_is_chinese_with_the_flag_before_or_after_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    for args in (("--lang", "zh-CN", "offers", "--help"), ("offers", "--help", "--lang", "zh-CN")):
        done = run_cli(*args)
        assert done.code == 0, done.err
        assert done.out.startswith(zh("Usage: ") + "quotetui offers"), done.out
        assert zh("Show this message and exit.") in done.out
        assert "Usage" not in done.out and "Options" not in done.out
        flat = "".join(done.out.split())
        assert (
            "".join(zh("Offers ranked for a scenario by cost per delivered PFLOP-hour (feasible ones first).").split())
            in flat
        )


@pytest.mark.parametrize(
    "how",
    ["QUOTETUI_LANG=zh-CN", "LANG=zh_CN.UTF-8", "LC_ALL=zh_CN.UTF-8", "LANGUAGE=zh_CN", "config"],
)
def test_help_follows_the_variable_the_locale_and_the_config_file(
    how: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("QUOTETUI_LANG")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    if how == "config":
        (tmp_path / "config.toml").write_text('language = "zh-CN"\n', encoding="utf-8")
        monkeypatch.setenv("QUOTETUI_CONFIG", str(tmp_path / "config.toml"))
    else:
        name, value = how.split("=")
        monkeypatch.setenv(name, value)
    done = run_cli("--help")
    assert done.code == 0 and done.out.startswith(zh("Usage: ")), done.out
    shown = run_cli("config", "--json")
    assert '"language": {' in shown.out and '"value": "zh-CN"' in shown.out, shown.out


def test_an_unknown_language_says_so_once_and_runs_in_english() -> None:
    done = run_cli("--lang", "fr", "--help")
    assert done.code == 0
    assert done.out.startswith("Usage: quotetui")
    assert done.err.count("\n") == 1 and "'fr'" in done.err and "English is used" in done.err


def test_the_parsers_messages_are_chinese() -> None:
    done = run_cli("--lang", "zh-CN", "offers", "--bogus")
    assert done.code == 2
    assert zh("Error: {message}").split("{")[0] in done.err
    assert zh("No such option: {name}").format(name="--bogus") in done.err
    assert zh("Try '{command}' for help.").format(command="quotetui offers --help") in done.err
    missing = run_cli("--lang", "zh-CN", "explain")
    assert "错误：缺少参数“OFFER_ID”。" in missing.err  # the parameter quoted as Chinese quotes a name
    refused = run_cli("--lang", "zh-CN", "contracts", "due", "--within", "x")
    assert "错误：“--within”的值无效：值“x”不是数字" in refused.err
    no_value = run_cli("--lang", "zh-CN", "offers", "--scenario")
    assert "错误：选项“--scenario”需要一个参数。" in no_value.err
    assert "Error: Missing argument 'OFFER_ID'." in run_cli("explain").err  # English quotes it as ever
    unknown = run_cli("--lang", "zh-CN", "nosuch")
    assert "命令“nosuch”不存在。" in unknown.err
    assert "Error" not in done.err + missing.err + unknown.err


def test_chinese_help_lines_fit_the_width_in_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    from quotetui.language.cells import width

    monkeypatch.setenv("COLUMNS", "80")
    done = run_cli("--lang", "zh-CN", "rfq", "new", "--help")
    assert done.code == 0
    assert max(width(line) for line in done.out.splitlines()) <= 80
    assert sum(1 for line in done.out.splitlines() if re.search(r"[\u4e00-\u9fff]", line)) > 5


# -- nothing left in English: every --help page through the pseudo-locale ------------------------------------


def _command_paths() -> list[list[str]]:
    from typer.main import get_command

    from quotetui.cli import app

    paths: list[list[str]] = []

    def walk(command: object, path: list[str]) -> None:
        paths.append(path)
        for name in getattr(command, "commands", {}):
            walk(command.commands[name], [*path, name])  # type: ignore[attr-defined]

    walk(get_command(app), [])
    return paths


def _command(path: list[str]) -> object:
    from typer.main import get_command

    from quotetui.cli import app

    command = get_command(app)
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]
    return command


def _choice_code_words() -> set[str]:
    """The words of every code a ``Choice`` declares (``half_yearly``: half, yearly): what a user types."""
    from quotetui.domain.enums import Choice

    words, todo = set(), list(Choice.__subclasses__())
    while todo:
        kind = todo.pop()
        todo += kind.__subclasses__()
        words |= {word for member in kind for word in member.value.split("_")}
    return words


def test_every_help_page_passes_through_the_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer._click import formatting

    import quotetui.io.speaking as speaking

    monkeypatch.setattr(speaking, "speak", lambda given, environ=None: language.install(Pseudo(), "qps"))
    monkeypatch.setattr(formatting, "FORCED_WIDTH", 1000)  # no line of help cut short
    paths = _command_paths()
    codes = {str(getattr(p.default, "value", p.default)) for path in paths for p in _command(path).params}
    names = {word for path in paths for name in path for word in name.split("-")} | {"quotetui"} | codes
    names |= _choice_code_words()  # an enum flag's help lists the codes it takes, each with its word
    assert len(paths) > 60
    leaks = {}
    for path in paths:
        done = run_cli(*path, "--help")
        assert done.code == 0, (path, done.err)
        words = english_words(done.out, names)
        if words:
            leaks[" ".join(path) or "quotetui"] = words[:8]
    assert not leaks, leaks


# -- the catalogs ----------------------------------------------------------------------------------------------


def _extracted() -> set[tuple[str | None, str]]:
    """Each message the code has, with its context (``pgettext``, ``NP_``: babel.cfg declares their keywords)."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=DEFAULT_KEYWORDS
    ):
        found.add((context, message if isinstance(message, str) else message[0]))
    return found


def test_the_catalog_holds_every_message_and_no_other() -> None:
    """``pybabel extract`` then ``update`` leaves nothing to do: docs/LANGUAGE.md. A message marked with its
    context (``NP_("offer status", "quoted")``) is its own entry, apart from the same words without one."""
    extracted = _extracted()
    held = set(message_keys())
    assert ("offer status", "quoted") in extracted
    assert not extracted - held, f"not in the zh-CN catalog (pybabel extract + update): {sorted(extracted - held)[:10]}"
    assert not held - extracted, f"no longer in the code (obsolete): {sorted(held - extracted)[:10]}"


def test_every_chinese_entry_is_translated_not_fuzzy_and_keeps_its_placeholders() -> None:
    with open(PO, "rb") as handle:
        catalog = read_po(handle)
    problems = []
    for entry in catalog:
        if not entry.id:
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        if entry.fuzzy or not all(strings):
            problems.append(("untranslated or fuzzy", ids[0]))
            continue
        wanted = sorted(re.findall(r"\{[^{}]*\}", ids[0]))
        if any(sorted(re.findall(r"\{[^{}]*\}", s)) != wanted for s in strings):
            problems.append(("placeholders differ", ids[0]))
    assert not problems, problems[:10]


def test_compiling_the_catalog_reports_no_error() -> None:
    """``pybabel compile`` checks each entry as this does: a message id with ``%`` before a letter (``{share} %
    of peak``) reads to it as an old-style placeholder (``% o``) its translation lacks. A percentage is a value,
    written by ``language.numbers.percent`` (``40 %``, ``40%`` in Chinese), never a sign in the message."""
    from babel.messages.catalog import PYTHON_FORMAT

    with open(PO, "rb") as handle:
        catalog = read_po(handle)
    errors = [(entry.id, [str(e) for e in found]) for entry, found in catalog.check() if found]
    assert not errors, errors[:5]
    ids = [i for entry in catalog if entry.id for i in (entry.id if isinstance(entry.id, tuple) else (entry.id,))]
    assert not [i for i in ids if "} %" in i], "a share's sign belongs to its value: numbers.percent"
    assert not [i for i in ids if PYTHON_FORMAT.search(i)]


def test_the_compiled_catalog_is_the_po_compiled() -> None:
    """The .mo shipped in the wheel is what ``pybabel compile`` makes of the .po (run it after an edit)."""
    with open(PO, "rb") as handle:
        catalog = read_po(handle)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    assert MO.read_bytes() == compiled.getvalue(), "run: pybabel compile -d quotetui/locale -D quotetui"


def test_no_function_hides_the_translation_function() -> None:
    """A function that binds ``_`` itself (``first, _, rest = …``, a parameter named ``_``, ``for _ in …``) and
    calls ``_()`` would call its own value, not gettext: that is a crash the English tests cannot see in every
    branch. Comprehensions are their own scope, so a ``_`` bound in one hides nothing outside it."""
    import ast

    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp)
    scopes += (ast.GeneratorExp, ast.ClassDef)

    def own(scope: ast.AST):  # the nodes of ``scope``, not of the scopes inside it
        stack = list(ast.iter_child_nodes(scope))
        while stack:
            node = stack.pop()
            yield node
            if not isinstance(node, scopes):
                stack.extend(ast.iter_child_nodes(node))

    hidden = []
    for path in sorted((ROOT / "quotetui").rglob("*.py")):
        for scope in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(scope, scopes) or isinstance(scope, ast.ClassDef):
                continue
            if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                a = scope.args
                binds = any(
                    x is not None and x.arg == "_" for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)
                )
                binds |= any(
                    isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) for n in own(scope)
                )
            else:
                binds = any(
                    isinstance(n, ast.Name) and n.id == "_" for g in scope.generators for n in ast.walk(g.target)
                )
            calls = any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_" for n in own(scope)
            )
            if binds and calls:
                hidden.append(f"{path.relative_to(ROOT)}:{scope.lineno}")
    assert hidden == []
