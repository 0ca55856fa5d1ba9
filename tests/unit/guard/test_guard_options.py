"""The guard's options are one checked value, with their defaults written once."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.guard.options import DEFAULT_MESSAGE, GuardOptions


def test_the_defaults_are_the_documented_ones():
    options = GuardOptions()
    assert (options.policy, options.cite, options.on_error) == ("drop", False, "report")
    assert (options.message, options.min_support, options.quote) == (DEFAULT_MESSAGE, 0.5, True)


def test_an_unknown_option_is_refused_naming_the_nearest():
    with pytest.raises(InvalidInput, match=r"'polcy' \(did you mean 'policy'\?\)"):
        GuardOptions.of(polcy="flag")
    with pytest.raises(ValidationError):
        GuardOptions(polcy="flag")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"policy": "hide"}, "unknown guard policy 'hide'"),
        ({"on_error": "ignore"}, "unknown on_error 'ignore'"),
        ({"min_support": 1.5}, "min_support must be a number from 0 to 1"),
        ({"min_support": True}, "min_support must be a number from 0 to 1"),
        ({"message": "  "}, "message .* must be a non-empty string"),
        ({"cite": "yes"}, "cite"),
    ],
)
def test_a_bad_value_is_one_line_in_the_checks_words(options, words):
    with pytest.raises(InvalidInput, match=words) as exc:
        GuardOptions.of(**options)
    assert "\n" not in str(exc.value)


def test_the_options_are_a_value_that_cannot_change():
    options = GuardOptions.of(policy="flag")
    with pytest.raises(ValidationError):
        options.policy = "drop"  # type: ignore[misc]
    assert options.but(quote=False) == GuardOptions(policy="flag", quote=False)
    assert options == GuardOptions.of(policy="flag")
