"""The one batch reader and writer (``rt4chart_plugins/runs/``) without Ray: resume by id and
fingerprint, the id rule, one wording of a bad row in every path, one meaning of an empty context
in every path. The Ray job's sink is a thin caller of the same code; its own tests are marked
``ray``."""

from __future__ import annotations

import asyncio
import json

import pytest
from scripted_judge import ScriptedJudge

from rt4chart_plugins import InvalidInput, Verifier
from rt4chart_plugins.adapters.common.rows import Fields, averify_row
from rt4chart_plugins.audit.diff import RowChange, diff_reports
from rt4chart_plugins.batch import run_batch
from rt4chart_plugins.detector import describe_error
from rt4chart_plugins.distributed.rows import score_records
from rt4chart_plugins.types import BatchRow, Report

RULES = {"14 days": ("14 days", None), "all users": (None, "Only verified")}
CONTEXT = ["The trial lasts 14 days.", "Only verified users are eligible."]
ENT, CON = "The trial lasts 14 days.", "It applies to all users."


def verifier(**options) -> Verifier:
    return Verifier(ScriptedJudge(RULES), decomposition="sentence", **options)


def write(path, rows) -> None:
    path.write_bytes(b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n" for r in rows))


def written(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# --- defect 2: resume keyed on id and fingerprint -------------------------------------------------


def test_a_changed_row_is_scored_again_and_rows_gone_from_the_input_are_not_this_runs(tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write(inp, [{"id": f"r{i}", "context": CONTEXT, "answer": ENT} for i in range(1, 5)])
    assert run_batch(verifier(), inp, out, progress=False).ok == 4
    write(inp, [{"id": f"r{i}", "context": CONTEXT, "answer": CON} for i in (1, 2)])
    summary = run_batch(verifier(), inp, out, progress=False)
    assert (summary.total, summary.skipped, summary.ok, summary.failed) == (2, 0, 2, 0)
    assert (summary.replaced, summary.dropped) == (2, 2)
    rows = written(out)
    assert [r["id"] for r in rows] == ["r1", "r2"]
    assert [r["report"]["label"] for r in rows] == ["CON", "CON"]
    assert "2 rows: 0 already done, 2 scored, 0 failed" in summary.report_lines("out.jsonl")[0]
    # the same input again: nothing to do
    again = run_batch(verifier(), inp, out, progress=False)
    assert (again.skipped, again.ok, again.replaced, again.dropped) == (2, 0, 0, 0)
    # other detector settings: scored again
    other = run_batch(verifier(global_verification=False), inp, out, progress=False)
    assert (other.skipped, other.ok, other.replaced) == (0, 2, 2)


def test_resume_keeps_only_the_lines_that_still_hold(tmp_path):
    from rt4chart_plugins.runs.rows_in import InputRow
    from rt4chart_plugins.runs.rows_out import resume

    rows = [InputRow("a", InvalidInput("x"), "fa"), InputRow("b", InvalidInput("x"), "fb"),
            InputRow("c", InvalidInput("x"), "fc")]
    out = tmp_path / "out.jsonl"
    report = Report(label=None, hallucinated=False, score=1.0, state="no_claims")
    lines = [BatchRow(id="a", ok=True, report=report, fingerprint="fa").model_dump_json(),  # kept
             BatchRow(id="b", ok=True, report=report, fingerprint="old").model_dump_json(),  # input changed
             BatchRow(id="c", ok=False, error="e", fingerprint="fc").model_dump_json(),  # failed: retried
             BatchRow(id="gone", ok=True, fingerprint="fg").model_dump_json(),  # not in the input
             BatchRow(id="a", ok=True, report=report, fingerprint="fa").model_dump_json(),  # a second line for a
             '{"id": "c", "ok": tr']  # cut by a kill
    out.write_text("\n".join(lines) + "\n")
    earlier = resume([out], rows)
    assert list(earlier.lines) == ["a"] and (earlier.replaced, earlier.dropped) == (1, 1)
    assert out.read_text().splitlines() == [lines[0]]


# --- defect 4: one rule for ids -------------------------------------------------------------------


def test_ids_follow_one_rule(tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    row = {"context": CONTEXT, "answer": ENT}
    write(inp, [
        {"id": "line-3", **row},  # an explicit id that an id-less row would be named
        b"\xef\xbb\xbf" + json.dumps({"id": "b", **row}).encode(),  # a BOM in the middle of the file
        row,  # line 3, no id
        {"id": 1.5, **row},
        {"id": True, **row},
        {"id": 7, **row},
        {"id": "  ", **row},  # blank: no id
    ])
    summary = run_batch(verifier(), inp, out, progress=False)
    rows = written(out)
    assert [r["id"] for r in rows] == ["line-3", "b", "line-3.1", "line-4", "line-5", "7", "line-7"]
    assert [r["ok"] for r in rows] == [True, True, True, False, False, True, True]
    assert rows[3]["error"] == "InvalidInput: id must be a string or an integer, got a float (1.5)"
    assert rows[4]["error"] == "InvalidInput: id must be a string or an integer, got a boolean (true)"
    assert (summary.ok, summary.failed, summary.failed_ids) == (5, 2, ["line-4", "line-5"])


def test_the_ray_job_names_the_rows_of_all_its_files_by_the_same_rule(tmp_path):
    from rt4chart_plugins.runs.rows_in import read_inputs

    row = {"context": CONTEXT, "answer": ENT}
    write(tmp_path / "a.jsonl", [row, {"id": "x", **row}])
    write(tmp_path / "b.jsonl", [row, {"id": "x", **row}, {"id": "line-2", **row}])
    rows = read_inputs([tmp_path / "a.jsonl", tmp_path / "b.jsonl"], "")
    assert [r.id for r in rows] == ["line-1", "x", "line-1.1", f"x@{tmp_path / 'b.jsonl'}", "line-2"]
    assert "duplicate id 'x': also in" in str(rows[3].row)


# --- one wording of a bad row ---------------------------------------------------------------------

BAD = [
    {"context": 5, "answer": "x"},
    {"context": ["ok"]},
    {"context": [1, None], "answer": "x"},
    {"context": None, "answer": "x"},
    {"context": "ok", "answer": 42},
]


def test_a_bad_row_reads_the_same_in_every_path(tmp_path):
    v = verifier()
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write(inp, [{"id": str(i), **r} for i, r in enumerate(BAD)])
    run_batch(v, inp, out, progress=False)
    batch = [r["error"] for r in written(out)]
    raised = []
    for r in BAD:
        with pytest.raises(InvalidInput) as caught:
            v.verify(context=r.get("context"), answer=r.get("answer"))
        raised.append(describe_error(caught.value))
    many = [rep.error for rep in v.verify_many(BAD)]
    ray = score_records(v, [{"id": str(i), **r} for i, r in enumerate(BAD)])["error"]
    fields = Fields(context="context", answer="answer")
    adapters = [asyncio.run(averify_row(v, r.get("context"), r.get("answer"), None, fields)).error for r in BAD]
    assert batch == raised == many == ray == adapters
    assert batch[0] == "InvalidInput: context must be a string or a list of strings, got int"
    assert batch[1] == "InvalidInput: answer is missing: there is no answer to verify"
    assert batch[2] == "InvalidInput: context must hold strings: item 0 is int, item 1 is None"


# --- one meaning of an empty context --------------------------------------------------------------


@pytest.mark.parametrize("context", ["", [], ["", "  "]])
def test_an_empty_context_means_nic_in_every_path(tmp_path, context):
    v = verifier()
    core = v.verify(context=context, answer=ENT)
    assert (core.state, core.label.value, core.score, core.hallucinated) == ("verified", "NIC", 0.0, True)
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write(inp, [{"id": "e", "context": context, "answer": ENT}])
    run_batch(v, inp, out, progress=False)
    [line] = written(out)
    assert line["ok"] and line["report"]["label"] == "NIC"
    ray = score_records(v, [{"id": "e", "context": context, "answer": ENT}])
    assert ray["ok"] == [True] and json.loads(ray["report"][0])["label"] == "NIC"
    fields = Fields(context="retrieved_contexts", answer="response")
    adapter = asyncio.run(averify_row(v, context, ENT, None, fields))
    assert (adapter.state, adapter.label.value, adapter.score) == ("verified", "NIC", 0.0)
    # an answer that makes no claim over nothing is right to abstain
    assert v.verify(context=context, answer="I don't know.").state == "no_claims"
    # the diff: newly hallucinated, and the row says why
    before = v.verify(context=CONTEXT, answer=ENT)
    diff = diff_reports([("e", before)], [("e", core)])
    [row] = diff.rows
    assert row.change == RowChange.NEWLY_HALLUCINATED and "the context is empty after" in row.warnings


def test_the_langchain_runnable_scores_an_empty_context():
    pytest.importorskip("langchain_core")
    from rt4chart_plugins.adapters.langchain import RT4ChartVerifier

    report = RT4ChartVerifier(judge=ScriptedJudge(RULES)).invoke({"context": [], "answer": ENT})
    assert (report.state, report.score, report.claims[0].label.value) == ("verified", 0.0, "NIC")


def test_read_jsonl_drops_a_bom_at_any_line_start(tmp_path):
    from rt4chart_plugins.runs.rows_in import read_jsonl

    path = tmp_path / "in.jsonl"
    write(path, [b"\xef\xbb\xbf" + json.dumps({"id": "a", "context": "c", "answer": "a"}).encode()] * 2)
    assert [r.id for r in read_jsonl(path)] == ["a", "a"]
