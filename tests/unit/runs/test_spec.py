"""Flags become a detector one way (``runs/spec.py``), and a row's fingerprint takes the detector's
part from one place: a local run and a Ray run of the same flags give a row the same fingerprint."""

from __future__ import annotations

import json

import pytest

from rt4chart_plugins.cli import build_parser, main
from rt4chart_plugins.cli_options import detector_from_args
from rt4chart_plugins.runs.rows_in import read_inputs
from rt4chart_plugins.runs.spec import detector_settings, spec_from_args, spec_settings

ROW = {"id": "a", "context": "The trial lasts 14 days.", "answer": "The trial lasts 14 days."}


def args(*flags: str):
    return build_parser().parse_args(["verify", "in.jsonl", "-o", "out.jsonl", *flags])


@pytest.mark.parametrize("flags", [(), ("--decomposition", "sentence", "--no-global"), ("--window-size", "17")])
def test_local_and_ray_read_the_same_settings_from_the_same_flags(flags):
    assert detector_settings(detector_from_args(args(*flags))) == spec_settings(spec_from_args(args(*flags)))


def test_what_a_result_depends_on_is_in_the_settings_and_nothing_else():
    base = spec_settings(spec_from_args(args()))
    assert spec_settings(spec_from_args(args("--window-overlap", "10"))) == base  # the default, spelt out
    assert spec_settings(spec_from_args(args("--concurrency", "7"))) == base  # rows in flight: not the result
    assert spec_settings(spec_from_args(args("--no-global"))) != base
    assert spec_settings(spec_from_args(args("--decomposition", "sentence"))) != base


def test_a_row_gets_the_same_fingerprint_locally_and_on_the_ray_driver(tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inp.write_text(json.dumps(ROW) + "\n")
    flags = ("--decomposition", "sentence")
    assert main(["verify", str(inp), "-o", str(out), "-q", *flags]) == 0
    local = json.loads(out.read_text())["fingerprint"]
    (ray,) = read_inputs([inp], spec_settings(spec_from_args(args(*flags))))
    assert local is not None and ray.fingerprint == local


GASP = ("--method", "gasp")


@pytest.mark.parametrize("flags", [("--chunks", "3"), ("--threshold", "0.5"), ("--chunks", "7", "--threshold", "-1")])
def test_a_changed_gasp_setting_changes_the_settings_locally_and_on_ray(flags):
    """GASP's ``chunks`` and ``threshold`` change its report, so a row scored under others is
    scored again on resume; the driver reads them as the local run does (and loads no scorer)."""
    base = spec_settings(spec_from_args(args(*GASP)))
    changed = spec_settings(spec_from_args(args(*GASP, *flags)))
    assert changed != base
    assert detector_settings(detector_from_args(args(*GASP, *flags))) == changed
    assert spec_settings(spec_from_args(args(*GASP, *flags, "--concurrency", "3"))) == changed


def test_a_gasp_row_is_fingerprinted_again_when_its_chunks_change(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps(ROW) + "\n")
    (five,) = read_inputs([inp], spec_settings(spec_from_args(args(*GASP, "--chunks", "5"))))
    (three,) = read_inputs([inp], spec_settings(spec_from_args(args(*GASP, "--chunks", "3"))))
    assert five.fingerprint is not None and five.fingerprint != three.fingerprint


def test_a_bad_gasp_setting_is_refused_in_one_line_when_built():
    from rt4chart_plugins.errors import InvalidInput
    from rt4chart_plugins.runs.spec import DetectorSpec

    with pytest.raises(InvalidInput, match="threshold"):
        DetectorSpec.create(method="gasp", options={"threshold": "high"})
