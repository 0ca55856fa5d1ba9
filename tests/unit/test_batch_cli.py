"""The batch runner and the CLI, with a scripted judge injected through the factory."""

import json

import pytest
from scripted_judge import ScriptedJudge

import rt4chart_plugins.cli as cli
import rt4chart_plugins.factory as factory
from rt4chart_plugins import Verifier
from rt4chart_plugins.batch import run_batch

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
    monkeypatch.setattr(factory, "Verifier", lambda *_a, judge_kwargs=None, **options: Verifier(judge, **options))
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


def test_cli_says_its_version(capsys):
    from rt4chart_plugins.types import package_version

    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"rt4chart-plugins {package_version()}"
    assert package_version() != "unknown"  # the installed distribution's


def test_cli_usage_errors(tmp_path, capsys):
    assert cli.main(["verify"]) == 2
    assert cli.main(["verify", "--context", str(tmp_path / "missing.txt"), "--answer", "x"]) == 2
    assert "missing.txt" in capsys.readouterr().err


class SlowFirstJudge(ScriptedJudge):
    """Finishes the row whose answer says "slow" last, so completion order is not input order."""

    async def verify(self, request, *, cost):
        import asyncio

        if any("slow" in c.text for c in request.claims):
            await asyncio.sleep(0.3)
        return await super().verify(request, cost=cost)


def _ids(path):
    return [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").split("\n") if line]


def test_batch_rows_come_out_in_input_order(tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(inp, [{"id": f"r{i}", "context": CONTEXT, "answer": "slow: the trial lasts 14 days." if i == 0 else
                       "The trial lasts 14 days."} for i in range(5)])
    run_batch(Verifier(SlowFirstJudge(RULES), decomposition="sentence"), inp, out, progress=False, concurrency=4)
    assert _ids(out) == [f"r{i}" for i in range(5)]


def test_a_row_with_lone_surrogates_or_invalid_utf8_fails_alone(tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    good = json.dumps({"id": "ok", "context": CONTEXT, "answer": "The trial lasts 14 days."})
    surrogate = '{"id": "s\\ud800", "context": "The trial lasts 14 days \\ud800.", "answer": "It lasts \\udfff 14 days."}'
    inp.write_bytes(good.encode() + b"\n" + b'{"id": "bad", "answer": "caf\xe9"}\n' + surrogate.encode() + b"\n"
                    + b'{"id": "deep", "context": ' + b"[" * 5000 + b"]" * 5000 + b', "answer": "x"}\n')
    summary = run_batch(Verifier(ScriptedJudge(RULES), decomposition="sentence"), inp, out, progress=False)
    assert (summary.total, summary.ok, summary.failed) == (4, 2, 2)
    rows = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").split("\n")[:-1])}
    assert rows["ok"]["report"]["label"] == "ENT"
    assert not rows["line-2"]["ok"] and "not valid UTF-8" in rows["line-2"]["error"]
    assert rows["s\ufffd"]["ok"] and "\ufffd" in rows["s\ufffd"]["report"]["answer"]
    assert not rows["line-4"]["ok"] and rows["line-4"]["error"].startswith("InvalidInput")
    summary = run_batch(Verifier(ScriptedJudge(RULES), decomposition="sentence"), inp, out, progress=False)
    assert summary.skipped == 2  # the re-run does not crash either


def test_resume_keeps_rows_whose_text_holds_unicode_line_separators(tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(inp, [{"id": f"r{i}", "context": CONTEXT, "answer": f"The trial lasts 14 days.{sep} Really."}
                      for i, sep in enumerate(["\u2028", "\u2029", "\u0085", ""])])
    judge = ScriptedJudge(RULES)
    assert run_batch(Verifier(judge, decomposition="sentence"), inp, out, progress=False).ok == 4
    calls = len(judge.requests)
    summary = run_batch(Verifier(judge, decomposition="sentence"), inp, out, progress=False)
    assert summary.skipped == 4 and len(judge.requests) == calls
    assert _ids(out) == ["r0", "r1", "r2", "r3"]


def test_validation_errors_read_as_invalid_input(tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(inp, [{"id": "a", "context": 5, "answer": "x"}, {"id": "b", "context": ["ok"]}])
    run_batch(Verifier(ScriptedJudge(RULES)), inp, out, progress=False)
    errors = [json.loads(line)["error"] for line in out.read_text().splitlines()]
    assert errors == ["InvalidInput: context must be a string or a list of strings, got int",
                      "InvalidInput: answer is missing: there is no answer to verify"]
    assert not any("pydantic" in e or "\n" in e for e in errors)


@pytest.mark.parametrize("name,fmt,ok", [("r.csv", None, "csv"), ("r.txt", "text", "text"), ("r.jsonl", "csv", None),
                                         ("r.out", "csv", "csv"), ("r.csv", "jsonl", None)])
def test_batch_output_format_follows_the_extension_and_refuses_a_contradiction(tmp_path, name, fmt, ok):
    from rt4chart_plugins.batch import output_format
    from rt4chart_plugins.errors import InvalidInput

    if ok is None:
        with pytest.raises(InvalidInput, match="contradicts"):
            output_format(tmp_path / name, fmt)
    else:
        assert output_format(tmp_path / name, fmt) == ok


def test_cli_batch_csv_text_and_stdout(tmp_path, capsys, scripted_cli):
    import csv

    inp = tmp_path / "in.jsonl"
    write_jsonl(inp, [{"id": "a", "context": CONTEXT, "answer": "The trial lasts 14 days."},
                      {"id": "b", "context": CONTEXT, "answer": "It applies to all users."}, "{broken"])
    assert cli.main(["verify", str(inp), "-o", str(tmp_path / "r.csv"), "-q", "--decomposition", "sentence"]) == 1
    table = list(csv.DictReader(open(tmp_path / "r.csv", encoding="utf-8")))
    assert [(r["id"], r["label"], r["ok"]) for r in table] == [("a", "ENT", "True"), ("b", "CON", "True"),
                                                               ("line-3", "", "False")]
    assert not (tmp_path / "r.csv.partial.jsonl").exists()
    assert cli.main(["verify", str(inp), "-o", str(tmp_path / "r.txt"), "-q", "--decomposition", "sentence"]) == 1
    text = (tmp_path / "r.txt").read_text(encoding="utf-8")
    assert "== a ==" in text and "Verdict: CON" in text and "[[It applies to all users.]]{CON}" in text
    capsys.readouterr()
    assert cli.main(["verify", str(inp), "-o", "-", "-q", "--decomposition", "sentence"]) == 1
    out = capsys.readouterr().out
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["a", "b", "line-3"]
    assert cli.main(["verify", str(inp), "-o", str(tmp_path / "r.jsonl"), "--format", "csv", "-q"]) == 2
    assert "contradicts" in capsys.readouterr().err


@pytest.mark.parametrize("name,data,message", [
    ("ctx.txt", b"caf\xe9 au lait", "not valid UTF-8"),
    ("ctx.json", b'{"a": [1, 2', "not valid JSON"),
    ("ctx.json", b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
])
def test_cli_single_bad_context_file_exits_2_with_a_message(tmp_path, capsys, scripted_cli, name, data, message):
    ctx = tmp_path / name
    ctx.write_bytes(data)
    assert cli.main(["verify", "--context", str(ctx), "--answer", "x"]) == 2
    err = capsys.readouterr().err
    assert message in err and str(ctx) in err and "Traceback" not in err


def test_cli_single_context_from_stdin_and_one_line_formats(monkeypatch, capsys, scripted_cli):
    import io

    from rt4chart_plugins import Report

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(" ".join(CONTEXT).encode())))
    assert cli.main(["verify", "--context", "-", "--answer", "It applies to all users.", "--format", "jsonl",
                     "--decomposition", "sentence"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and Report.model_validate_json(out).label.value == "CON"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(" ".join(CONTEXT).encode())))
    assert cli.main(["verify", "--context", "-", "--answer", "It applies to all users.", "--format", "csv",
                     "--decomposition", "sentence"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("id,ok,state,label") and ",CON," in lines[1]


def test_cli_transport_flags_are_refused_for_a_judge_without_an_endpoint(tmp_path, capsys):
    ctx = tmp_path / "ctx.txt"
    ctx.write_text("x")
    assert cli.main(["verify", "--context", str(ctx), "--answer", "x", "--judge", "trained", "--timeout", "3"]) == 2
    assert "openai judge" in capsys.readouterr().err


def test_reports_and_the_schema_carry_the_schema_and_package_version(capsys, tmp_path, scripted_cli):
    from importlib.metadata import version

    from rt4chart_plugins.types import SCHEMA_VERSION

    assert cli.main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["schema_version"] == SCHEMA_VERSION and schema["package_version"] == version("rt4chart-plugins")
    ctx = tmp_path / "ctx.txt"
    ctx.write_text(" ".join(CONTEXT))
    assert cli.main(["verify", "--context", str(ctx), "--answer", "x y z.", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schema_version"] == SCHEMA_VERSION and report["version"] == version("rt4chart-plugins")
