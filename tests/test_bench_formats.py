"""mamf-finder has printed its result three ways (2024, 2025, 2026): each is read, the judged figure is the
sustained one, and a log without a figure is refused with what it does hold (not a guess)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from quotetui.domain.verification.logs import GemmSweep, LogError
from quotetui.io.benchlogs.detect import parse_log

HEADER = """
Benchmark started on 2026-03-02 11:02:41

** Command line:
/usr/bin/python3 mamf-finder.py --dtype bfloat16

** Dtype: torch.bfloat16

** Platform/Device info:
- Linux node7 6.8.0-45-generic #45-Ubuntu SMP x86_64 x86_64
- _CudaDeviceProperties(name='NVIDIA H100 80GB HBM3', major=9, minor=0, total_memory=81008MB, multi_processor_count=132)

** Critical software versions:
- torch=2.6.0+cu124
- cuda=12.4

--------------------------------------------------------------------------------
"""

Y2024 = (
    HEADER + "\nThe best outcome was 715.5TFLOPS @ 6144x17920x2816 (MxNxK) (tried 3 shapes)\nElapsed time: 0:00:05\n"
)

Y2025 = (
    HEADER
    + """
** Results:

Tried 79 shapes => the best outcomes were:
mean:   781.6 TFLOPS @ 19200x4096x4096 (MxNxK)
median: 782.7 TFLOPS @ 19200x4096x4096 (MxNxK)
max:    792.6 TFLOPS @ 18176x4096x4096 (MxNxK)

Across 79 shapes in range: m=[0, 20480, 256] | n=[4096] | k=[4096] in this run:
arithmetic mean: 721.4 TFLOPS
geometric mean:  719.0 TFLOPS
"""
)

Y2026 = (
    HEADER
    + """
** Results:

Tried 412 shapes => the best outcomes were:
MAMF (max achievable,  boost burst): 755 TFLOPS @ 1536x2816x20480 (MxNxK)  700W 1980MHz 65C
MSMF (max sustainable, saturated):   690 TFLOPS @ 2816x1536x16384 (MxNxK)  699W 1755MHz 71C

Across 412 shapes in range: auto in this run:
arithmetic mean: 650.1 TFLOPS
geometric mean:  641.9 TFLOPS

Legend: TFLOPS = 10**12 FLOPS
Elapsed time: 0:14:03
"""
)


def _sweep(text: str) -> GemmSweep:
    parsed = parse_log(text, "mamf.txt")
    assert isinstance(parsed, GemmSweep)
    return parsed


def test_2024_best_outcome_is_read() -> None:
    g = _sweep(Y2024)
    assert (g.statistic, g.tflops, g.shape, g.format) == (
        "best",
        Decimal("715.5"),
        "6144x17920x2816",
        "mamf-finder 2024",
    )
    assert (g.device, g.dtype) == ("NVIDIA H100 80GB HBM3", "bfloat16")


def test_2025_median_is_judged_and_every_figure_kept() -> None:
    g = _sweep(Y2025)
    assert (g.statistic, g.tflops, g.shape) == ("median", Decimal("782.7"), "19200x4096x4096")
    assert (g.figure("mean"), g.figure("max")) == (Decimal("781.6"), Decimal("792.6"))
    # the means over every shape tried are not the best shape's figures
    assert g.figure("arithmetic mean") is None and len(g.figures) == 3


def test_2026_sustained_msmf_is_judged_not_the_boost_burst() -> None:
    g = _sweep(Y2026)
    assert (g.statistic, g.tflops, g.shape, g.format) == ("MSMF", Decimal("690"), "2816x1536x16384", "mamf-finder 2026")
    assert g.figure("MAMF") == Decimal("755")


def test_2026_with_only_mamf_measured() -> None:
    text = Y2026.replace("690 TFLOPS @ 2816x1536x16384 (MxNxK)  699W 1755MHz 71C", "n/a")
    g = _sweep(text)
    assert (g.statistic, g.tflops) == ("MAMF", Decimal("755"))


def _refused(text: str) -> LogError:
    with pytest.raises(LogError) as caught:
        parse_log(text, "mamf.txt")
    return caught.value


def test_both_figures_na_says_nothing_was_measured() -> None:
    text = Y2026.replace("755 TFLOPS @ 1536x2816x20480 (MxNxK)  700W 1980MHz 65C", "n/a").replace(
        "690 TFLOPS @ 2816x1536x16384 (MxNxK)  699W 1755MHz 71C", "n/a"
    )
    err = _refused(text)
    assert (
        "both n/a" in err.message
        and err.line == text.splitlines().index("MAMF (max achievable,  boost burst): n/a") + 1
    )


def test_a_run_cut_before_its_results_names_its_last_progress_line() -> None:
    progress = "     20 |   791.2(mean)   792.8(median)   800.1(max) @ 12288x4096x4096     | best:   791.2(mean) TFLOPS"
    text = HEADER + "\n" + progress + "\n" + progress.replace("20 |", "21 |") + "\n"
    err = _refused(text)
    last = len(text.splitlines())
    said = f"the sweep did not finish: its last progress line is line {last} and no results follow"
    assert err.message == said + " (cut short or killed)"
    assert err.line == last


def test_a_results_section_in_an_unknown_format_is_not_called_cut_short() -> None:
    text = HEADER + "\n** Results:\n\nTried 5 shapes => the best outcomes were:\nbest: 700 TFLOPS at 1x2x3\n"
    err = _refused(text)
    assert "has no figure line quotetui reads" in err.message and "cut short" not in err.message
    assert err.line == text.splitlines().index("** Results:") + 1


@pytest.mark.parametrize("bad", ["7l5.5TFLOPS", "-715.5TFLOPS", "0TFLOPS"])
def test_a_garbled_figure_is_refused_on_its_line(bad: str) -> None:
    text = Y2024.replace("715.5TFLOPS", bad)
    err = _refused(text)
    assert err.line == text.splitlines().index(next(x for x in text.splitlines() if "best outcome" in x)) + 1


# -- pastes: a prompt after the output, a command before it, a row cut at the end (nvidia-smi query) --

QUERY = "index, name, memory.total [MiB]\n0, NVIDIA H100 80GB HBM3, 81559 MiB\n1, NVIDIA H100 80GB HBM3, 81559 MiB\n"


def test_a_query_pasted_with_its_command_and_the_next_prompt_is_read() -> None:
    from quotetui.domain.verification.logs import SmiQuery

    text = "root@node1:~# nvidia-smi --query-gpu=index,name,memory.total --format=csv\n" + QUERY + "root@node1:~# "
    parsed = parse_log(text)
    assert isinstance(parsed, SmiQuery) and [g.memory_mib for g in parsed.gpus] == [81559, 81559]


@pytest.mark.parametrize("prompt", ["[ubuntu@gpu-7 ~]$ exit", "sh-5.1#", "$", "%", "#", "ubuntu@h100-01:/data$ "])
def test_every_parser_takes_a_trailing_prompt(prompt: str) -> None:
    assert isinstance(parse_log(Y2025 + prompt + "\n"), GemmSweep)
    assert parse_log(QUERY + prompt).gpu_names() == ("NVIDIA H100 80GB HBM3",) * 2


def test_a_comment_line_is_not_taken_for_a_prompt() -> None:
    from quotetui.io.benchlogs.common import PASTED_PROMPT

    assert not PASTED_PROMPT.match("# Avg bus bandwidth    : 95.1551")
    assert not PASTED_PROMPT.match("#  Rank  0 Group  0 Pid  12345 on node1 device  0 [0x18] NVIDIA H100 80GB HBM3")


def test_a_query_cut_in_its_last_value_is_refused() -> None:
    cut = QUERY.rstrip("\n")[:-6]  # "81559 MiB" -> "815"
    assert cut.endswith(", 815")
    err = _refused(cut)
    assert err.line == 3 and "cut mid-row" in err.message


def test_a_complete_last_row_without_a_line_end_is_read() -> None:
    assert len(parse_log(QUERY.rstrip("\n")).gpu_names()) == 2
    # the prompt after it shows the row was complete, even if its value is short
    assert len(parse_log(QUERY.rstrip("\n")[:-6] + "\nroot@n:~# ").gpu_names()) == 2
