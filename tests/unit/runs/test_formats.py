"""The output views are sinks fed the row itself: a CSV or text view of a fresh run never parses a
row's JSON line back; only the rows an earlier run left on disk are read, once."""

from __future__ import annotations

import csv
import json

import pytest
from scripted_judge import ScriptedJudge

from rt4chart_plugins import InvalidInput, Verifier
from rt4chart_plugins.batch import run_batch
from rt4chart_plugins.guard.options import GuardOptions
from rt4chart_plugins.runs.actions import Guard
from rt4chart_plugins.runs.local import run_file
from rt4chart_plugins.types import BatchRow

RULES = {"14 days": ("14 days", None), "all users": (None, "Only verified")}
CONTEXT = ["The trial lasts 14 days.", "Only verified users are eligible."]
ANSWERS = ["The trial lasts 14 days.", "It applies to all users."]


@pytest.fixture
def parsed(monkeypatch) -> list[str]:
    """Every BatchRow parsed from JSON during the test."""
    calls: list[str] = []
    parse = BatchRow.model_validate_json

    def counting(data, *args, **kwargs):
        calls.append(data)
        return parse(data, *args, **kwargs)

    monkeypatch.setattr(BatchRow, "model_validate_json", counting)
    return calls


def rows(path, n: int) -> None:
    path.write_text("".join(json.dumps({"id": f"r{i}", "context": CONTEXT, "answer": ANSWERS[i % 2]}) + "\n"
                            for i in range(n)))


@pytest.mark.parametrize("name", ["out.csv", "out.txt"])
def test_a_view_is_rendered_from_the_row_not_from_its_json(tmp_path, parsed, name):
    inp, out = tmp_path / "in.jsonl", tmp_path / name
    rows(inp, 4)
    summary = run_batch(Verifier(ScriptedJudge(RULES), decomposition="sentence"), inp, out, progress=False)
    assert summary.ok == 4 and parsed == []
    if name.endswith(".csv"):
        table = list(csv.DictReader(open(out, encoding="utf-8")))
        assert [(r["id"], r["label"]) for r in table] == [("r0", "ENT"), ("r1", "CON"), ("r2", "ENT"), ("r3", "CON")]
    else:
        assert "== r3 ==" in out.read_text(encoding="utf-8")
    assert not (tmp_path / f"{name}.partial.jsonl").exists()


def test_guard_writes_jsonl_to_stdout_in_input_order_and_refuses_a_view(tmp_path, capsys):
    inp = tmp_path / "in.jsonl"
    rows(inp, 3)
    action = Guard(Verifier(ScriptedJudge(RULES), decomposition="sentence"), GuardOptions(policy="flag"))
    summary = run_file(action, inp, "-", progress=False)
    assert summary.ok == 3
    got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [g["id"] for g in got] == ["r0", "r1", "r2"] and "[contradicted]" in got[1]["text"]
    with pytest.raises(InvalidInput, match="guard writes jsonl"):
        run_file(action, inp, tmp_path / "out.csv", progress=False)
