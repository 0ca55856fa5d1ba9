"""Options given as keywords become one checked value the same way for the pipeline and the guard:
an unknown option named beside the nearest, a bad value one line in its check's words."""

from __future__ import annotations

import pytest

from rt4chart_plugins.config import PipelineConfig, options_model
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.guard.options import GuardOptions
from rt4chart_plugins.verifier import pipeline_config


def _said(build, **options) -> str:
    with pytest.raises(InvalidInput) as exc:
        build(**options)
    return str(exc.value)


def test_the_options_come_back_as_the_model_with_the_values_given():
    assert pipeline_config({"window_size": 12}) == PipelineConfig(window_size=12)
    assert options_model(GuardOptions, {"policy": "flag"}, "guard") == GuardOptions(policy="flag")
    assert GuardOptions.of(cite=True) == GuardOptions(cite=True)


@pytest.mark.parametrize(
    ("build", "group", "typo", "meant"),
    [
        (lambda **o: pipeline_config(o), "pipeline", "windowsize", "window_size"),
        (GuardOptions.of, "guard", "polcy", "policy"),
    ],
)
def test_an_unknown_option_names_the_one_meant(build, group, typo, meant):
    said = _said(build, **{typo: 1})
    assert said.startswith(f"the {group} takes no option {typo!r} (did you mean {meant!r}?); it takes ")


@pytest.mark.parametrize(
    ("build", "options", "words"),
    [
        # a check on the whole has no option to name
        (
            lambda **o: pipeline_config(o),
            {"window_size": 10, "window_overlap": 10},
            "invalid pipeline options: window_overlap (10) must be smaller than window_size (10); "
            "otherwise windows never advance",
        ),
        # pydantic's own words, after the option they concern
        (
            lambda **o: pipeline_config(o),
            {"window_size": 0},
            "invalid pipeline options: window_size: Input should be greater than or equal to 1",
        ),
        # a check's words that name the option already are not named twice
        (
            GuardOptions.of,
            {"policy": "hide"},
            "invalid guard options: unknown guard policy 'hide': use one of 'drop', 'flag', 'refuse'",
        ),
        (
            GuardOptions.of,
            {"on_error": "ignore"},
            "invalid guard options: unknown on_error 'ignore': use one of 'report', 'pass', 'raise'",
        ),
        (
            GuardOptions.of,
            {"min_support": 1.5},
            "invalid guard options: min_support must be a number from 0 to 1, got 1.5",
        ),
        (
            GuardOptions.of,
            {"min_support": "0.5"},
            "invalid guard options: min_support must be a number from 0 to 1, got '0.5'",
        ),
        (
            GuardOptions.of,
            {"message": ""},
            "invalid guard options: message (what a refused answer reads) must be a non-empty string",
        ),
        (GuardOptions.of, {"cite": "yes"}, "invalid guard options: cite: Input should be a valid boolean"),
    ],
)
def test_a_bad_value_is_one_line_in_its_checks_words(build, options, words):
    assert _said(build, **options) == words


def test_every_bad_value_is_named_on_the_one_line():
    said = _said(GuardOptions.of, policy="hide", min_support=2)
    assert "\n" not in said
    assert "unknown guard policy 'hide'" in said and "min_support must be a number from 0 to 1, got 2" in said


def test_the_values_each_check_lets_through():
    for policy in ("drop", "flag", "refuse"):
        assert GuardOptions.of(policy=policy).policy == policy
    assert GuardOptions.of(min_support=0).min_support == 0 and GuardOptions.of(min_support=1.0).min_support == 1.0
    assert GuardOptions.of(message="Ask support.").message == "Ask support."
