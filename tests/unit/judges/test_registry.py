"""One registry names every judge: the façade, the CLI and the adapters read it, and it refuses
what it does not know instead of ignoring it."""

from __future__ import annotations

import pytest

from rt4chart_plugins import InvalidInput, Verifier, make_judge
from rt4chart_plugins.judges.registry import JUDGES, judge_options


def test_every_registered_judge_is_one_the_cli_and_the_adapters_offer():
    from rt4chart_plugins.adapters.common.verifier import JUDGE_NAMES
    from rt4chart_plugins.cli import build_parser

    verify = next(a for a in build_parser()._subparsers._group_actions[0].choices["verify"]._actions
                  if a.dest == "judge")
    assert set(verify.choices) == set(JUDGES) == set(JUDGE_NAMES) >= {"trained", "local", "openai", "auto"}


def test_an_unknown_judge_or_judge_option_is_refused_with_what_is_known():
    with pytest.raises(InvalidInput, match="unknown judge 'gpt'.*'trained'"):
        make_judge("gpt")
    with pytest.raises(InvalidInput, match="takes no option 'treshold'.*threshold"):
        make_judge("trained", treshold=0.5)
    assert "threshold" in judge_options("trained") and "base_url" in judge_options("openai")


def test_an_unknown_pipeline_option_is_refused():
    with pytest.raises(InvalidInput, match="decompositon"):
        Verifier(decompositon="sentence")


def test_the_environment_chooses_the_default_judge(monkeypatch):
    from rt4chart_plugins.judges.registry import judge_name

    monkeypatch.delenv("RT4CHART_JUDGE", raising=False)
    assert judge_name(None) == "trained"
    monkeypatch.setenv("RT4CHART_JUDGE", "openai")
    assert judge_name(None) == "openai" and judge_name("local") == "local"
