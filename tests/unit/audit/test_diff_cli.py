"""``rt4chart diff BEFORE AFTER`` end to end: two ``rt4chart verify`` batches of the same samples,
the table, the files, the gate's exit status and its JUnit XML."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest

import rt4chart_plugins.cli as cli
from audit_samples import CON_CONTEXT

ANSWERS = {  # id: (task, answer before, answer after)
    "q1": ("QA", "The free trial lasts 14 days.", "The free trial lasts 30 days."),
    "q2": ("QA", "The free trial lasts 30 days.", "The free trial lasts 14 days."),
    "q3": ("Summary", "Only verified users are eligible.", "Only verified users are eligible."),
}


@pytest.fixture(scope="module")
def batches(tmp_path_factory):
    """What a user has after two runs: ``rt4chart verify`` outputs of the same samples."""
    tmp = tmp_path_factory.mktemp("diff")
    out = []
    for k, name in ((1, "before"), (2, "after")):
        samples = tmp / f"{name}-samples.jsonl"
        samples.write_text("".join(json.dumps({"id": i, "task": v[0], "context": CON_CONTEXT, "question": "Q?",
                                               "answer": v[k]}) + "\n" for i, v in ANSWERS.items()))
        results = tmp / f"{name}.jsonl"
        assert cli.main(["verify", str(samples), "-o", str(results), "--judge", "trained", "-q"]) == 0
        out.append(results)
    return tmp, *out


def test_the_table_names_what_broke_and_the_exit_status_follows_the_gate(batches, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    tmp, before, after = batches
    assert cli.main(["diff", str(before), str(after)]) == 0  # no gate: a report, never a failure
    out = capsys.readouterr().out
    assert "before.jsonl → after.jsonl: 3 answers, 3 in both" in out
    assert "answers: 1 newly hallucinated, 1 fixed, 1 still faithful" in out
    assert "new unfaithful claim 0 [ENT → CON]" in out and "q1" in out and "q2" in out
    assert cli.main(["diff", str(before), str(after), "--fail-on", "new-hallucinations"]) == 1
    err = capsys.readouterr().err
    assert "1 new-hallucinations" in err and '"The free trial lasts 30 days."' in err
    assert cli.main(["diff", str(after), str(before), "--fail-on", "new-hallucinations,missing-rows"]) == 1
    assert cli.main(["diff", str(before), str(before), "--fail-on", "new-hallucinations",
                     "--max-score-drop", "0.05"]) == 0
    assert "gate passed: new-hallucinations, max-score-drop 0.05" in capsys.readouterr().err


def test_the_files_the_junit_and_stdout_formats(batches, capsys):
    tmp, before, after = batches
    page, lines, table, junit = (tmp / n for n in ("diff.html", "diff.jsonl", "diff.csv", "junit.xml"))
    code = cli.main(["diff", str(before), str(after), "-o", str(page), "-o", str(lines), "-o", str(table),
                     "--junit", str(junit), "--fail-on", "new-unfaithful-claims", "--input",
                     str(tmp / "after-samples.jsonl")])
    assert code == 1 and capsys.readouterr().out == ""  # files asked for: nothing on stdout
    html = page.read_text(encoding="utf-8")
    assert html.count('<article class="row diff') == 3 and "before.jsonl → after.jsonl" in html
    rows = [json.loads(x) for x in lines.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["q1", "q2", "q3"] and rows[0]["meta"] == {"task": "QA"}
    claims = list(csv.DictReader(table.open()))
    assert [(c["row_id"], c["claim_change"]) for c in claims] == [("q1", "new_unfaithful"), ("q2", "fixed"),
                                                                  ("q3", "unchanged")]
    assert claims[0]["evidence_after"] == "[0] The free trial lasts 14 days." and claims[0]["task"] == "QA"
    suite = ET.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures")) == ("3", "1")
    assert cli.main(["diff", str(before), str(after), "--format", "csv"]) == 0
    assert list(csv.DictReader(io.StringIO(capsys.readouterr().out)))[0]["change"] == "newly_hallucinated"


@pytest.mark.parametrize("args, says", [
    (["--fail-on", "new-halucinations"], "unknown rule(s) new-halucinations"),
    (["--max-score-drop", "5"], "--max-score-drop is a share of the score"),
    (["-o", "diff.xlsx"], "a diff is written as .html, .jsonl or .csv"),
])
def test_bad_options_exit_2_and_say_why(batches, capsys, args, says):
    tmp, before, after = batches
    assert cli.main(["diff", str(before), str(after), *args]) == 2
    assert says in capsys.readouterr().err


def test_a_missing_file_exits_2(batches, capsys):
    tmp, before, _ = batches
    assert cli.main(["diff", str(before), str(tmp / "nope.jsonl")]) == 2
    assert "no such results file" in capsys.readouterr().err


def test_report_shows_a_run_against_its_baseline(batches, capsys):
    tmp, before, after = batches
    page = tmp / "after.html"
    assert cli.main(["report", str(after), "-o", str(page), "--baseline", str(before), "--input",
                     str(tmp / "after-samples.jsonl"), "--by", "task", "--plain"]) == 0
    html = page.read_text(encoding="utf-8")
    assert html.count('<article class="row"') == 3 and '<option value="change">' in html
    assert '<span class="chg newly_hallucinated">newly hallucinated</span>' in html and "was 1.00 (-1.00)" in html
    assert "<td>task = QA</td><td>2</td>" in html and "<td>task = Summary</td><td>1</td>" in html
