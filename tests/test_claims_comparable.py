"""A claimed MFU never ranks an offer (issue 30): it is the "if the claims hold" figure, and only for a
comparable workload and scale: a claim on a model under a quarter of the planned one's parameters is not taken
(demo #1's 54.3 % on a 7B model for a 175B plan), and one measured on fewer nodes than the scenario spans is
extrapolated with the fabric's efficiency. Figures by hand."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Cli


def _offer(cli: Cli, db: Path, scenario: str, offer_id: int) -> dict:  # type: ignore[type-arg]
    result = cli("--db", str(db), "offers", "--json", "--scenario", scenario)
    assert result.code == 0, result.err
    return next(o for o in json.loads(result.out) if o["id"] == offer_id)


def _scenario(cli: Cli, db: Path, name: str, *more: str) -> None:
    result = cli("--db", str(db), "scenario", "add", name, "--months", "12", *more)
    assert result.code == 0, result.err


def test_a_claim_on_a_much_smaller_model_is_not_used(cli: Cli, demo_db_path: Path) -> None:
    one = _offer(cli, demo_db_path, "GPT-3 175B 预训练 (32×H100)", 1)
    assert one["mfu"] == "0.4" and one["mfu_source"] == "default"
    assert "54.3 %" in one["mfu_note"] and "not comparable with the 175B planned" in one["mfu_note"]
    assert one["mfu_if_claims_hold"] is None  # not even "if the claims hold"
    _scenario(cli, demo_db_path, "7B on one node", "--gpus", "8", "--params", "7e9", "--tokens", "1e12")
    seven = _offer(cli, demo_db_path, "7B on one node", 1)
    assert seven["mfu"] == "0.4" and seven["mfu_source"] == "default"  # ranked on the default
    assert seven["mfu_if_claims_hold"] == "0.543"  # comparable: the claim as stated, no longer capped at 50 %
    _scenario(cli, demo_db_path, "20B on one node", "--gpus", "8", "--params", "20e9", "--tokens", "1e12")
    assert _offer(cli, demo_db_path, "20B on one node", 1)["mfu_if_claims_hold"] == "0.543"  # 7B ≥ 20B ÷ 4
    _scenario(cli, demo_db_path, "30B on one node", "--gpus", "8", "--params", "30e9", "--tokens", "1e12")
    assert _offer(cli, demo_db_path, "30B on one node", 1)["mfu_if_claims_hold"] is None  # 7B < 30B ÷ 4


def test_a_claim_measured_on_one_node_is_extrapolated_to_the_scenarios_nodes(cli: Cli, demo_db_path: Path) -> None:
    _scenario(cli, demo_db_path, "32 H100 for a year", "--gpus", "32")
    four = _offer(cli, demo_db_path, "32 H100 for a year", 1)
    assert four["mfu"] == "0.4" and four["mfu_scaling"] == "1"  # the default is a whole-job figure
    # 54.3 % measured on 8 GPUs (one node), run on 4 nodes over InfiniBand HDR: × 0.93 = 50.499 %
    assert four["mfu_if_claims_hold"] == "0.50499"
    one = _offer(cli, demo_db_path, "8×H100 一年训练", 1)  # the default scenario: the measured node itself
    assert one["mfu_if_claims_hold"] == "0.543"
    shown = cli("--db", str(demo_db_path), "explain", "1", "--scenario", "32 H100 for a year").out
    assert "989 × 40 % × 99 %" in shown  # the ranking's figure: the default MFU and availability
    assert "989 × 50.499 % × 99.9 %" in shown  # if the claims hold: the scaled claim and the SLA's promise


def test_the_training_planner_never_plans_on_a_claim(cli: Cli, demo_db_path: Path) -> None:
    big = json.loads(cli("--db", str(demo_db_path), "calc", "train", "--params", "175e9", "--tokens", "3e11",
                         "--gpus", "32", "--offer", "1", "--json").out)  # fmt: skip
    # 6 × 175e9 × 3e11 = 3.15e23 FLOPs ÷ (32 × 989e12 × 0.40) = 24,883,089 s = 288.0 days at the default MFU
    assert big["mfu"] == "0.4" and big["wall_days"] == "288"  # 287.999… rounds to 288.00
    small = json.loads(cli("--db", str(demo_db_path), "calc", "train", "--params", "7e9", "--tokens", "1e12",
                           "--gpus", "32", "--offer", "1", "--json").out)  # fmt: skip
    # 4.2e22 ÷ (32 × 989e12 × 0.40) = 3,317,745 s = 38.40 days: the default, not the 7B claim
    assert small["mfu"] == "0.4" and small["wall_days"].startswith("38.4")
