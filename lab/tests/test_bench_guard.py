"""bench-guard's counts on the policy example: the gold spans are the two contradicted clauses
and the baseless sentence, which the default judge flags, so the guard removes all of them and
keeps every other word character."""

from __future__ import annotations

from pathlib import Path

from rt4chart_lab.bench.guard import kept_mask, pairs_scores, ragtruth_scores
from rt4chart_lab.data.datasets import GoldSpan, RagTruthRow
from rt4chart_lab.data.pairs import PairRow
from rt4chart_plugins import Verifier

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "policy"
CONTEXT = (EXAMPLES / "context.txt").read_text(encoding="utf-8")
ANSWER = (EXAMPLES / "answer.txt").read_text(encoding="utf-8")


def _gold(text: str) -> GoldSpan:
    at = ANSWER.index(text)
    return GoldSpan(at, at + len(text), "Evident Conflict")


def test_the_flagged_gold_spans_are_removed_and_the_rest_kept():
    report = Verifier().verify(CONTEXT, ANSWER)
    spans = (_gold("The trial policy applies to all users, and no verification is needed."),
             _gold("The trial also includes priority email support."))
    row = RagTruthRow("r1", "QA", "test", CONTEXT, ANSWER, None, True, spans)
    scores = ragtruth_scores([row], [report])
    assert scores["hallucinated_removed"] == 1.0 and scores["faithful_kept"] == 1.0
    assert kept_mask(report, "refused") == [False] * len(ANSWER)

    faithful = "The free trial lasts 14 days."
    ok = PairRow("p1a", "x", CONTEXT, None, faithful, "ENT", "p1")
    bad = PairRow("p1b", "x", CONTEXT, None, ANSWER, "CON", "p1")
    pairs = pairs_scores([ok, bad], [Verifier().verify(CONTEXT, faithful), report])
    assert pairs == {"rows": 2, "hallucinated_changed": 1.0, "faithful_intact": 1.0}
