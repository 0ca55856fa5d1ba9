"""bench-guard's counts on the policy example: the gold spans are the two contradicted clauses
and the baseless sentence, which the default judge flags, so the guard removes all of them and
keeps every other word character."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from rt4chart_lab.bench.guard import judges_of, kept_mask, main, pairs_scores, ragtruth_scores
from rt4chart_lab.data.datasets import GoldSpan, RagTruthRow
from rt4chart_lab.data.pairs import PairRow
from rt4chart_plugins import Verifier

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "policy"
CONTEXT = (EXAMPLES / "context.txt").read_text(encoding="utf-8")
ANSWER = (EXAMPLES / "answer.txt").read_text(encoding="utf-8")
DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
needs_data = pytest.mark.skipif(not (DATA / "ragtruth" / "ragtruth.jsonl").is_file(), reason="no ../shared/data")


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


def _rows(out: str) -> list[list[str]]:
    lines = [line for line in out.splitlines() if line.startswith("| ") and not line.startswith("| judge")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_judges_are_read_once_each_and_a_bad_list_is_refused(capsys):
    args = argparse.Namespace(judges="trained, auto,trained,local", judge=None)
    assert judges_of(args) == ["trained", "auto", "local"]
    assert judges_of(argparse.Namespace(judges=None, judge="local")) == ["local"]
    for argv, says in ((["--judges", " , "], "names no judge"), (["--judges", "auto", "--judge", "local"], "not both")):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2 and says in capsys.readouterr().err


@needs_data
def test_one_table_row_per_judge_on_the_same_rows(capsys, embedded_model_path):
    """`auto` and `local` beside the trained judge, on a slice: one row each, every share a percentage."""
    assert main(["--judges", "trained,auto,local", "--limit", "2", "--pairs-limit", "2", "--data-dir", str(DATA)]) == 0
    out = capsys.readouterr().out
    assert "RAGTruth test-150 (2 rows), pairs (2 items)" in out
    rows = _rows(out)
    assert len(rows) == 3 and len({r[0] for r in rows}) == 3, out
    assert rows[0][0].startswith("trained") and "auto" in rows[1][0], out
    assert all(re.fullmatch(r"\d+\.\d%", cell) for row in rows for cell in row[1:7]), out
