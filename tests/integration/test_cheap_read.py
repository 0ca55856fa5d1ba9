"""The cheap read with the real embedded model: it tells a supported claim from a contradicted
one on the same premise, and the second question re-reads only its own tokens."""

import pytest

from rt4chart_plugins.judges.llama.premise_read import PremiseReader
from rt4chart_plugins.types import Cost

pytestmark = pytest.mark.model

PREMISE = "The Harlow Creek footbridge reopened in March. Cyclists may walk their bikes across it."


@pytest.fixture(scope="module")
def reader(embedded_model_path):
    return PremiseReader(embedded_model_path, n_threads=2)


def test_supported_and_contradicted_claims_are_told_apart(reader):
    good = reader.read("The Harlow Creek footbridge reopened in March.", PREMISE)
    bad = reader.read("The Harlow Creek footbridge reopened in October.", PREMISE)
    assert good.p_support > bad.p_support
    assert good.probs()[0] > 0.5 and bad.probs()[0] < 0.5
    assert 0.0 <= bad.p_compatible <= 1.0


def test_the_premise_and_claim_are_read_once(reader):
    premise = (
        "The Oakridge library lends up to twelve books. Loans last three weeks and can be renewed twice. "
        "Overdue books cost ten cents a day, up to the price of the book. The reading room is open from "
        "nine to five on weekdays and from ten to two on Saturdays. Members may reserve a study room for "
        "two hours a day at the front desk, and children under eight must be accompanied by an adult."
    )
    claim = "Loans from the Oakridge library last three weeks."
    cost = Cost()
    reader.read(claim, premise, cost)  # a premise no earlier read had: read in full once
    first = cost.prompt_tokens
    again = Cost()
    reader.read(claim, premise, again)  # only the questions are read again
    assert again.prompt_tokens < first / 2, (first, again.prompt_tokens)
