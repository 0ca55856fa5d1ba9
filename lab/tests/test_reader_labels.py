"""The reader-labelling job's bookkeeping, with a scripted reader: stable ids, the weighted order,
appending and resuming without reading a pair twice, a cut-short line, a failing pair."""

from __future__ import annotations

import json

from rt4chart_lab.distill import reader_labels as rl
from rt4chart_lab.distill.label_shards import LabelShards
from rt4chart_lab.distill.gate_proxy import aligned_difference, gate_score
from rt4chart_plugins.judges.llama.premise_read import PairReading


def _cands(n: int) -> list[rl.Candidate]:
    out = []
    for i in range(n):
        claim, premise = f"Claim number {i} about the bridge.", f"The bridge opened in year {i}."
        out.append(rl.Candidate(id=rl.pair_id(claim, premise), claim=claim, premise=premise, source="test",
                                group=f"g{i}", gold="ENT", gate=i % 3))
    return out


class Scripted:
    def __init__(self, fail_on: set[str] = frozenset()):
        self.calls: list[str] = []
        self.fail_on = fail_on

    def __call__(self, claim: str, premise: str) -> PairReading:
        self.calls.append(claim)
        if claim in self.fail_on:
            raise RuntimeError("scripted failure")
        return PairReading(p_support=0.8, p_compatible=0.25)


def _lines(folder):
    return [json.loads(x) for p in sorted(folder.glob("labels-*.jsonl")) for x in p.read_text().splitlines()]


def test_pair_id_is_stable_and_depends_on_both_texts():
    assert rl.pair_id("a", "b") == rl.pair_id("a", "b")
    assert rl.pair_id("a", "b") != rl.pair_id("b", "a")
    assert rl.pair_id("ab", "") != rl.pair_id("a", "b")


def test_order_is_deterministic_deduplicated_and_favours_the_gate():
    cands = _cands(300)
    first = [c.id for c in rl.ordered(cands)]
    assert first == [c.id for c in rl.ordered(list(reversed(cands)) + cands[:10])]
    assert len(first) == 300
    gates = {c.id: c.gate for c in cands}
    top = [gates[i] for i in first[:100]]
    assert sum(g == 2 for g in top) > sum(g == 0 for g in top)


def test_labels_are_appended_in_shards_and_a_rerun_resumes(tmp_path):
    cands = rl.ordered(_cands(7))
    reader = Scripted()
    shards = LabelShards(tmp_path, shard_size=3)
    assert rl.label(cands, shards, reader, model="scripted", limit=4, log=lambda m: None) == 4
    assert [p.name for p in shards.shards()] == ["labels-000.jsonl", "labels-001.jsonl"]
    rows = _lines(tmp_path)
    assert [r["id"] for r in rows] == [c.id for c in cands[:4]]
    assert rows[0]["probs"] == [0.8, 0.15, 0.05] and rows[0]["p_compatible"] == 0.25
    assert rows[0]["model"] == "scripted" and rows[0]["premise"] == cands[0].premise

    again = Scripted()
    assert rl.label(cands, LabelShards(tmp_path, shard_size=3), again, model="scripted",
                    log=lambda m: None) == 3
    assert again.calls == [c.claim for c in cands[4:]]  # nothing read twice
    rows = _lines(tmp_path)
    assert sorted(r["id"] for r in rows) == sorted(c.id for c in cands)
    assert [len(p.read_text().splitlines()) for p in sorted(tmp_path.glob("*.jsonl"))] == [3, 3, 1]


def test_a_line_cut_short_is_read_again_and_the_file_stays_valid(tmp_path):
    cands = rl.ordered(_cands(3))
    rl.label(cands, LabelShards(tmp_path), Scripted(), model="s", limit=1, log=lambda m: None)
    shard = tmp_path / "labels-000.jsonl"
    shard.write_text(shard.read_text() + '{"id": "' + cands[1].id + '", "claim": "cut')  # killed mid-write
    reader = Scripted()
    rl.label(cands, LabelShards(tmp_path), reader, model="s", log=lambda m: None)
    assert reader.calls == [cands[1].claim, cands[2].claim]
    assert sorted(r["id"] for r in _lines_valid(shard)) == sorted(c.id for c in cands)


def _lines_valid(path):
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def test_a_failing_pair_is_reported_and_skipped(tmp_path):
    cands = rl.ordered(_cands(3))
    messages: list[str] = []
    reader = Scripted(fail_on={cands[1].claim})
    assert rl.label(cands, LabelShards(tmp_path), reader, model="s", log=messages.append) == 2
    assert any("scripted failure" in m for m in messages)
    assert cands[1].id not in {r["id"] for r in _lines(tmp_path)}


def test_gate_proxy_signals():
    premise = "Cyclists are not allowed to ride across the bridge. The bridge reopened in March."
    assert aligned_difference("Cyclists are allowed to ride across the bridge.", premise)
    assert not aligned_difference("Cyclists are not allowed to ride across the bridge.", premise)
    assert gate_score("The bridge reopened in March.", premise) == 0
    assert gate_score("The bridge reopened in 2019 after Smith Corp repaired it.", premise) >= 3


def test_unknown_source_is_refused(capsys):
    import pytest

    with pytest.raises(SystemExit):
        rl.main(["--sources", "ragtruth,test", "--dry-run"])
    assert "unknown source 'test'" in capsys.readouterr().err


def test_pairs_read_scores_answers_by_their_worst_sentence():
    from rt4chart_lab.distill import pairs_read

    rows = [
        {"id": "a", "gold": "ENT", "seconds": 1.0, "sentences": [{"p_support": 0.9, "p_compatible": 0.9}]},
        {"id": "b", "gold": "CON", "seconds": 2.0,
         "sentences": [{"p_support": 0.9, "p_compatible": 0.9}, {"p_support": 0.1, "p_compatible": 0.1}]},
        {"id": "c", "gold": "NIC", "seconds": 3.0, "sentences": [{"p_support": 0.2, "p_compatible": 0.1}]},
    ]
    m = pairs_read.score(rows)
    assert m["label_accuracy"] == 2 / 3 and m["binary_accuracy"] == 1.0
    assert pairs_read.auc([0.9, 0.1, 0.8], [True, False, True]) == 1.0
    assert pairs_read.auc([0.5, 0.5], [True, False]) == 0.5
    assert pairs_read.auc([0.5], [True]) is None
    text = pairs_read.report(rows)
    assert "label accuracy 0.667, hallucinated vs faithful 1.000" in text and "median 2.0 wall" in text
    assert pairs_read.report([]) == "no rows"


def test_a_shard_replaced_under_the_job_keeps_every_later_line(tmp_path):
    """What a git checkout does to the shard while the job runs: the file is replaced by a new one
    with the same lines, between two pairs."""
    cands = rl.ordered(_cands(3))
    shard = tmp_path / "labels-000.jsonl"

    class Replacing(Scripted):
        def __call__(self, claim, premise):
            if len(self.calls) == 1:
                text = shard.read_text()
                shard.unlink()
                shard.write_text(text)
            return super().__call__(claim, premise)

    rl.label(cands, LabelShards(tmp_path), Replacing(), model="s", log=lambda m: None)
    assert sorted(r["id"] for r in _lines(tmp_path)) == sorted(c.id for c in cands)
