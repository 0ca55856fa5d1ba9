"""The batch runner and the CLI, with a scripted judge injected through make_judge."""

import json

import pytest

import rt4chart_plugins.cli as cli
import rt4chart_plugins.verifier as verifier_module
from rt4chart_plugins.batch import run_batch
from rt4chart_plugins import Verifier
from scripted_judge import ScriptedJudge

RULES = {"14 days": ("14 days", None), "all users": (None, "Only verified")}
CONTEXT = ["The trial lasts 14 days.", "Only verified users are eligible."]


def write_jsonl(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))


def test_batch_scores_good_rows_reports_bad_ones_and_resumes(tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(inp, [
        {"id": "a", "context": CONTEXT, "answer": "The trial lasts 14 days."},
        "{not json",
        {"id": "c", "context": CONTEXT},  # no answer
        {"id": "d", "context": CONTEXT, "answer": "It applies to all users."},
    ])
    judge = ScriptedJudge(RULES)
    summary = run_batch(Verifier(judge, decomposition="sentence"), inp, out, progress=False)
    assert (summary.total, summary.ok, summary.failed, summary.skipped) == (4, 2, 2, 0)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    by_id = {r["id"]: r for r in rows}
    assert by_id["a"]["report"]["label"] == "ENT" and by_id["d"]["report"]["label"] == "CON"
    assert not by_id["line-2"]["ok"] and "JSON" in by_id["line-2"]["error"]
    assert not by_id["c"]["ok"] and "answer" in by_id["c"]["error"]

    calls = len(judge.requests)
    summary = run_batch(Verifier(judge, decomposition="sentence"), inp, out, progress=False)
    assert summary.skipped == 2 and summary.failed == 2 and len(judge.requests) == calls
    lines = out.read_text().splitlines()
    assert len(lines) == 4  # failed rows replaced, not duplicated


@pytest.fixture
def scripted_cli(monkeypatch):
    judge = ScriptedJudge(RULES)
    monkeypatch.setattr(verifier_module, "make_judge", lambda *a, **k: judge)
    return judge


def test_cli_single_json_output_matches_the_schema(tmp_path, capsys, scripted_cli):
    ctx = tmp_path / "ctx.txt"
    ctx.write_text(" ".join(CONTEXT))
    code = cli.main(["verify", "--context", str(ctx), "--answer", "It applies to all users.", "--format", "json",
                     "--decomposition", "sentence"])
    out = capsys.readouterr().out
    assert code == 0
    from rt4chart_plugins import Report

    report = Report.model_validate_json(out)
    assert report.label.value == "CON" and report.claims[0].evidence[0].sentence_id == 1
    cli.main(["schema"])
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "Report" and "claims" in schema["properties"]


def test_cli_terminal_view_marks_spans_and_quotes_evidence(tmp_path, capsys, scripted_cli):
    ctx = tmp_path / "ctx.txt"
    ctx.write_text(" ".join(CONTEXT))
    assert cli.main(["verify", "--context", str(ctx), "--answer", "The trial lasts 14 days. It applies to all users.",
                     "--decomposition", "sentence"]) == 0
    out = capsys.readouterr().out
    assert "Verdict: CON" in out
    assert "[[It applies to all users.]]{CON}" in out
    assert "[1] “Only verified" in out  # the quoted evidence sentence, with its id


def test_cli_batch_exit_status_says_whether_rows_failed(tmp_path, scripted_cli):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(inp, [{"id": "a", "context": CONTEXT, "answer": "The trial lasts 14 days."}])
    assert cli.main(["verify", str(inp), "-o", str(out), "-q"]) == 0
    write_jsonl(inp, [{"id": "a", "context": CONTEXT, "answer": "x"}, {"id": "b", "context": 5, "answer": "x"}])
    assert cli.main(["verify", str(inp), "-o", str(out), "-q"]) == 1


def test_cli_usage_errors(tmp_path, capsys):
    assert cli.main(["verify"]) == 2
    assert cli.main(["verify", "--context", str(tmp_path / "missing.txt"), "--answer", "x"]) == 2
    assert "missing.txt" in capsys.readouterr().err
