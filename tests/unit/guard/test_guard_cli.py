"""``rt4chart guard``: one answer and a JSONL batch, on the shipped default judge."""

from __future__ import annotations

import json

from rt4chart_plugins.cli import main

CONTEXT = "examples/policy/context.txt"
ANSWER = "examples/policy/answer.txt"
KEPT = "The free trial lasts 14 days, and verified new users can extend it once by 7 days."


def test_one_answer_prints_its_guarded_text_and_sources(capsys):
    assert main(["guard", "--context", CONTEXT, "--answer-file", ANSWER]) == 0
    assert capsys.readouterr().out == KEPT + "\n"
    assert main(["guard", "--context", CONTEXT, "--answer-file", ANSWER, "--cite"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("7 days [2][3].") and lines[1] == "[1] The free trial lasts 14 days."
    assert main(["guard", "--context", CONTEXT, "--answer-file", ANSWER, "--policy", "refuse", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "refused" and data["report"]["label"] == "CON"


def test_a_batch_guards_every_row_and_reports_the_failed_one(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        json.dumps({"id": "a", "context": [open(CONTEXT).read()], "answer": open(ANSWER).read()}) + "\n"
        + "not json\n"
        + json.dumps({"context": ["The trial lasts 14 days."], "answer": "The trial lasts 14 days."}) + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    assert main(["guard", str(rows), "-o", str(out), "--policy", "flag"]) == 1
    got = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [g["id"] for g in got] == ["a", "line-2", "line-3"]  # verify's ids
    assert "[contradicted]" in got[0]["text"] and got[1]["status"] == "failed" and got[1]["text"] is None
    assert got[2]["text"] == "The trial lasts 14 days."
    assert "3 rows: 0 already done, 2 scored, 1 failed" in capsys.readouterr().err


def test_bad_usage_is_exit_2(capsys):
    assert main(["guard", "--answer", "x"]) == 2
    assert main(["guard", "rows.jsonl"]) == 2
