"""``rt4chart guard FILE -o OUT`` runs through the one batch loop (``rt4chart_plugins/runs/``): the
rows, their ids, the wording of a bad row, resume and the summary line are ``verify``'s."""

from __future__ import annotations

import json

import pytest
from scripted_judge import ScriptedJudge

import rt4chart_plugins.factory as factory
from rt4chart_plugins import Verifier
from rt4chart_plugins.cli import main
from rt4chart_plugins.errors import JudgeUnavailable
from rt4chart_plugins.runs.actions import Guard
from rt4chart_plugins.runs.local import run_file
from rt4chart_plugins.guard.options import GuardOptions

RULES = {"14 days": ("14 days", None), "all users": (None, "Only verified")}
CONTEXT = ["The trial lasts 14 days.", "Only verified users are eligible."]
ENT, CON = "The trial lasts 14 days.", "It applies to all users."


@pytest.fixture
def judge(monkeypatch):
    judge = ScriptedJudge(RULES)
    monkeypatch.setattr(factory, "Verifier", lambda *_a, judge_kwargs=None, **options: Verifier(judge, **options))
    return judge


def five_rows(path) -> None:
    """The issue's file: a row whose answer holds U+2028 (JSON writes it unescaped), an id given
    twice, a row without an id and a line that is not JSON."""
    rows = [
        json.dumps({"id": "a", "context": CONTEXT, "answer": ENT}),
        json.dumps({"id": "b", "context": CONTEXT, "answer": ENT + "\u2028" + CON}, ensure_ascii=False),
        json.dumps({"id": "a", "context": CONTEXT, "answer": CON}),
        json.dumps({"context": CONTEXT, "answer": CON}),
        "not json",
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().decode("utf-8").split("\n") if line]


def test_guard_writes_one_line_per_row_with_verifys_ids_wording_and_summary(tmp_path, capsys, judge):
    inp = tmp_path / "in.jsonl"
    five_rows(inp)
    flags = ["-q", "--decomposition", "sentence"]
    assert main(["verify", str(inp), "-o", str(tmp_path / "v.jsonl"), *flags]) == 1
    verify_err = capsys.readouterr().err
    assert main(["guard", str(inp), "-o", str(tmp_path / "g.jsonl"), *flags]) == 1
    guard_err = capsys.readouterr().err
    verified, guarded = lines(tmp_path / "v.jsonl"), lines(tmp_path / "g.jsonl")
    assert len(guarded) == 5
    assert [g["id"] for g in guarded] == [v["id"] for v in verified] == ["a", "b", "a@line-3", "line-4", "line-5"]
    # the U+2028 row is one row, guarded, not two broken JSON lines
    assert guarded[1]["status"] != "failed" and guarded[1]["report"]["answer"] == ENT + "\u2028" + CON
    for v, g in zip(verified, guarded):
        assert (g["status"] != "failed") == v["ok"]
        if not v["ok"]:  # a bad row reads as verify words it, not in pydantic's words
            assert g["report"]["error"] == v["error"] and "validation error" not in v["error"]
    assert "duplicate id 'a'" in guarded[2]["report"]["error"]
    summary = "5 rows: 0 already done, 3 scored, 2 failed"
    assert summary in verify_err and summary in guard_err and "6 rows" not in guard_err


def test_guard_resumes_like_verify(tmp_path, capsys, judge):
    inp, out = tmp_path / "in.jsonl", tmp_path / "g.jsonl"
    inp.write_text("".join(json.dumps({"id": f"r{i}", "context": CONTEXT, "answer": ENT}) + "\n" for i in range(3)))
    flags = ["-q", "--decomposition", "sentence", "--policy", "flag"]
    assert main(["guard", str(inp), "-o", str(out), *flags]) == 0
    calls = len(judge.requests)
    assert main(["guard", str(inp), "-o", str(out), *flags]) == 0
    assert len(judge.requests) == calls  # every row already done
    assert "3 rows: 3 already done, 0 scored, 0 failed" in capsys.readouterr().err
    assert [g["id"] for g in lines(out)] == ["r0", "r1", "r2"]
    # other guard options change what a row's line says: the rows are guarded again
    assert main(["guard", str(inp), "-o", str(out), *flags[:-1], "drop"]) == 0
    assert "3 rows: 0 already done, 3 scored, 0 failed" in capsys.readouterr().err
    assert len(lines(out)) == 3 and all(g["policy"] == "drop" for g in lines(out))


class RefusedJudge(ScriptedJudge):
    """An endpoint that refuses the credentials: no row can be served."""

    async def verify(self, request, *, cost):
        raise JudgeUnavailable("401: the endpoint refused the key")


def test_an_endpoint_that_serves_no_row_stops_the_guard_as_it_stops_verify(tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "g.jsonl"
    inp.write_text("".join(json.dumps({"id": f"r{i}", "context": CONTEXT, "answer": ENT}) + "\n" for i in range(4)))
    detector = Verifier(RefusedJudge(RULES), decomposition="sentence")
    summary = run_file(Guard(detector, GuardOptions(), concurrency=1), inp, out, progress=False)
    assert summary.stopped and "401" in summary.stopped and summary.left >= 3
    assert summary.ok == 0 and len(lines(out)) == summary.failed  # nothing guarded as if it were checked
