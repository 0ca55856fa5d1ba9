"""rt4chart bench: metrics on hand-computed cases, the loaders on the real data, the runner with a
scripted judge (resume, a failing row), and the CLI end to end. No model is loaded."""

import json
from pathlib import Path

import pytest
from scripted_judge import ScriptedJudge

from rt4chart_plugins import InvalidInput, Verifier, cli
from rt4chart_plugins.judges.entries import JudgeChoice
from rt4chart_lab import metrics
from rt4chart_lab.data.datasets import (
    GoldSpan,
    RagTruthRow,
    WiceRow,
    load_extra,
    load_ragtruth,
    load_wice,
    resolve_data_dir,
)
from rt4chart_lab.bench.main import run_benchmark
from rt4chart_lab.bench.runner import load_records, run_system
from rt4chart_lab.bench.systems import SYSTEMS, select

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
needs_data = pytest.mark.skipif(not (DATA / "ragtruth" / "ragtruth.jsonl").is_file(), reason="no ../shared/data")


# ---- metrics ------------------------------------------------------------------------------------

def test_prf_undefined_ratios_are_none_and_f1_is_zero_without_predictions():
    assert metrics.prf(0, 0, 0) == {"precision": None, "recall": None, "f1": None, "tp": 0, "fp": 0, "fn": 0}
    m = metrics.prf(0, 0, 5)  # positives, nothing predicted
    assert m["precision"] is None and m["recall"] == 0 and m["f1"] == 0
    m = metrics.prf(0, 3, 0)  # no positives, false alarms
    assert m["precision"] == 0 and m["recall"] is None and m["f1"] == 0
    m = metrics.prf(3, 1, 2)
    assert m["precision"] == 0.75 and m["recall"] == 0.6 and m["f1"] == pytest.approx(2 * .75 * .6 / 1.35)


def test_span_level_unions_per_sample_then_sums_micro():
    pairs = [
        ([(0, 10)], [(5, 15)]),  # TP 5, FP 5, FN 5
        ([(0, 4), (2, 6)], []),  # overlapping gold spans: union is 6 chars, all FN
        ([], [(0, 3), (1, 3)]),  # overlapping predictions: union 3 chars, all FP
        ([GoldSpan(0, 2, "Evident Conflict")], [[0, 2]]),  # objects and lists both accepted: TP 2
    ]
    assert metrics.span_counts(*pairs[1]) == (0, 0, 6)
    m = metrics.span_level(pairs)
    assert (m["tp"], m["fp"], m["fn"]) == (7, 8, 11)
    assert m["precision"] == pytest.approx(7 / 15) and m["recall"] == pytest.approx(7 / 18)
    assert m["f1"] == pytest.approx(14 / 33)
    assert metrics.span_level([])["f1"] is None


def test_auc_rank_based_with_ties_and_degenerate_cases():
    # pairs (pos, neg): (.9,.5)=1 (.9,.1)=1 (.5,.5)=½ (.5,.1)=1 → 3.5/4
    assert metrics.auc([0.9, 0.5, 0.5, 0.1], [True, True, False, False]) == 0.875
    assert metrics.auc([0.2, 0.2, 0.2], [True, False, True]) == 0.5  # all tied
    assert metrics.auc([0.1, 0.9], [True, False]) == 0.0
    assert metrics.auc([0.1, 0.9], [False, False]) is None  # no positives
    assert metrics.auc([0.1, 0.9], [True, True]) is None


def test_answer_level_and_cost_stats():
    m = metrics.answer_level([True, True, False, False], [True, False, True, False])
    assert (m["tp"], m["fp"], m["fn"], m["f1"]) == (1, 1, 1, 0.5)
    recs = [{"cost": {"seconds": s, "judge_calls": 2, "prompt_tokens": 10, "completion_tokens": 5}} for s in (1, 2, 3, 4, 10)]
    c = metrics.cost_stats(recs)
    assert c["seconds_median"] == 3 and c["seconds_p90"] == pytest.approx(7.6)  # 4 + 0.6 * (10 - 4)
    assert c["judge_calls_mean"] == 2 and c["tokens_mean"] == 15
    assert metrics.cost_stats([])["seconds_median"] is None


def _row(rid, answer, labels=(), task="QA"):
    return RagTruthRow(id=rid, task_type=task, split="train", context="c", answer=answer, question=None,
                       hallucinated=bool(labels), labels=tuple(labels))


def _pred(spans, claims, hallucinated=True, score=1.0, ok=True):
    return {"ok": ok, "hallucinated": hallucinated, "score": score, "claim_score": None, "spans": spans,
            "phrase_spans": spans, "claims": claims, "label": None, "cost": {"seconds": 1.0}}


def test_evaluate_ragtruth_scores_unjudged_rows_as_not_flagged_and_builds_the_confusion():
    rows = [
        _row("a", "x" * 20, [GoldSpan(0, 5, "Evident Conflict"), GoldSpan(10, 15, "Subtle Baseless Info")]),
        _row("b", "y" * 10, task="Summary"),
        _row("c", "z" * 10, [GoldSpan(0, 10, "Evident Baseless Info")], task="Summary"),
    ]
    preds = {
        "a": _pred([[0, 10]], [{"label": "CON", "span": [0, 8]}, {"label": "NIC", "span": [8, 10]},
                               {"label": "ENT", "span": [10, 20]}]),
        "b": _pred([], [{"label": "ENT", "span": [0, 10]}], hallucinated=False, score=0.0),
        "c": {"ok": False, "error": "judge gave up", "cost": {"seconds": 3.0}},  # unjudged
    }
    s = metrics.evaluate_ragtruth(rows, preds)
    o = s["overall"]
    assert o["n"] == 3 and o["positives"] == 2 and o["unjudged"] == 1
    assert (o["answer"]["tp"], o["answer"]["fp"], o["answer"]["fn"]) == (1, 0, 1)
    assert o["auc"] == 0.75  # positives a (score 1), c (0, unjudged); negative b (0): (1 + ½) / 2
    # a: gold {0..4, 10..14}, pred {0..9}: TP 5, FP 5, FN 5; c: FN 10
    assert (o["span"]["tp"], o["span"]["fp"], o["span"]["fn"]) == (5, 5, 15)
    assert s["by_task"]["Summary"]["n"] == 2 and s["by_task"]["QA"]["answer"]["recall"] == 1.0
    assert s["confusion"]["conflict"] == {"CON": 1, "NIC": 0, "ENT": 0, "none": 0}
    assert s["confusion"]["baseless"] == {"CON": 0, "NIC": 0, "ENT": 1, "none": 1}
    assert s["cost"]["n"] == 3


def test_bootstrap_intervals_bracket_the_value_and_shrink_to_a_point_for_a_perfect_system():
    from rt4chart_lab.intervals import con_nic_balanced

    rows = [_row(f"r{i}", "x" * 10, [GoldSpan(0, 5, "Evident Conflict" if i % 3 else "Subtle Baseless Info")] if i % 2 else [])
            for i in range(40)]
    perfect = {r.id: _pred([[0, 5]] if r.labels else [], [{"label": "CON" if r.labels[0].kind == "conflict" else "NIC",
                                                             "span": [0, 5]}] if r.labels else [],
                           hallucinated=bool(r.labels), score=1.0 if r.labels else 0.0) for r in rows}
    o = metrics.evaluate_ragtruth(rows, perfect)["overall"]
    assert o["intervals"]["f1"] == [1.0, 1.0] and o["intervals"]["auc"] == [1.0, 1.0]
    assert o["intervals"]["span_f1"] == [1.0, 1.0]
    assert o["con_nic_balanced"] == 1.0 and o["intervals"]["con_nic"] == [1.0, 1.0]

    # a noisy system: every third answer is missed, and every flagged span called CON
    noisy = {r.id: _pred([[0, 5]] if r.labels and i % 3 else [], [{"label": "CON", "span": [0, 5]}] if r.labels else [],
                         hallucinated=bool(r.labels) and bool(i % 3), score=(0.6 if r.labels else 0.4) if i % 3 else 0.5)
             for i, r in enumerate(rows)}
    o = metrics.evaluate_ragtruth(rows, noisy)["overall"]
    for key, value in (("f1", o["answer"]["f1"]), ("auc", o["auc"]), ("span_f1", o["span"]["f1"])):
        low, high = o["intervals"][key]
        assert low <= value <= high and low < high, key
    assert con_nic_balanced(5, 5, 0, 7) == 0.5  # always CON: chance, whatever the mix
    assert con_nic_balanced(3, 3, 0, 0) is None


def test_a_refusal_scores_zero_and_keeps_claim_and_sentence_auc_defined():
    from rt4chart_lab.bench.runner import record

    report = Verifier(ScriptedJudge(RULES), decomposition="sentence").verify(
        context="The trial lasts 14 days.", answer="I cannot answer this question based on the passages.")
    rec = record("x", report)
    assert report.state == "no_claims"
    assert rec["claim_score"] == 0.0 and rec["sentence_scores"] == [] and rec["score"] == 0.0


def test_sentence_auc_and_gasp_records():
    from rt4chart_lab.bench.runner import record
    from rt4chart_plugins.types import ClaimVerdict, Grounding, Label, Report, Span

    def verdict(i: int, start: int, end: int, r: float) -> ClaimVerdict:
        g = Grounding(gap=0.0, jsd_empty=0.0, drop=0.0, jsd_loo=0.0, risk=r, threshold=1.0)
        return ClaimVerdict(id=i, text="s", sentence_id=i, label=Label.NIC if r > 1 else Label.ENT,
                            answer_span=Span(start=start, end=end, text="s"), grounding=g)

    report = Report(label=Label.NIC, hallucinated=True, score=0.5, state="verified", method="gasp", risk=2.5,
                    claims=[verdict(0, 0, 10, -0.5), verdict(1, 11, 20, 2.5)], answer="x" * 20)
    rec = record("a", report)
    assert rec["score"] == 2.5 and rec["sentence_scores"] == [[0, 10, -0.5], [11, 20, 2.5]]
    assert rec["claims"][1]["grounding"]["risk"] == 2.5
    rows = [_row("a", "x" * 20, [GoldSpan(12, 15, "Evident Baseless Info")]), _row("b", "y" * 10)]
    preds = {"a": rec, "b": {**_pred([], [], hallucinated=False, score=0.0), "sentence_scores": [[0, 10, 1.0]]}}
    # sentences: a0 (-0.5, neg), a1 (2.5, pos), b0 (1.0, neg): the positive ranks first
    assert metrics.sentence_auc(rows, preds) == 1.0
    preds["b"]["sentence_scores"] = None  # a system without sentence scores has no sentence AUC
    assert metrics.sentence_auc(rows, preds) is None


def test_evaluate_wice_label_accuracy_and_evidence():
    rows = [WiceRow("w1", "c1", "supported", ("s0", "s1", "s2"), (0, 2)),
            WiceRow("w2", "c2", "not_supported", ("s0",), ()),
            WiceRow("w3", "c3", "partially_supported", ("s0",), (0,))]
    preds = {"w1": {"ok": True, "label": "ENT", "evidence": [0, 1]},
             "w2": {"ok": True, "label": "ENT", "evidence": [0]},
             "w3": {"ok": True, "label": "NIC", "evidence": []}}
    s = metrics.evaluate_wice(rows, preds)
    assert s["label_accuracy"] == 0.5 and s["label_accuracy_n"] == 2
    assert s["labels_by_gold"]["partially_supported"]["NIC"] == 1
    e = s["evidence"]  # supported claims only: gold {0, 2}, predicted {0, 1}
    assert (e["tp"], e["fp"], e["fn"]) == (1, 1, 1)


# ---- datasets -----------------------------------------------------------------------------------

@needs_data
def test_ragtruth_loader_reads_subsets_in_place():
    dev = load_ragtruth(DATA, "dev-60")
    assert len(dev) == 60 and {r.split for r in dev} == {"train"}
    assert sorted({r.task_type for r in dev}) == ["QA", "Summary"]
    test = load_ragtruth(DATA, "test-150")
    assert len(test) == 150 and {r.split for r in test} == {"test"}
    assert all(sum(r.task_type == t for r in test) == 50 for t in ("QA", "Summary", "Data2txt"))
    for r in dev + test:
        assert r.hallucinated == bool(r.labels)
        assert all(0 <= g.start < g.end <= len(r.answer) for g in r.labels)
    assert [r.id for r in load_ragtruth(DATA, "dev-60", split="train", limit=3)] == [r.id for r in dev[:3]]
    with pytest.raises(InvalidInput):
        load_ragtruth(DATA, "test-150", split="train")
    assert resolve_data_dir(DATA) == DATA.resolve()
    w = load_wice(DATA, limit=5)
    assert len(w) == 5 and all(max(r.evidence_sentence_ids, default=-1) < len(r.context_sentences) for r in w)
    every = load_wice(DATA)  # each claim once per chunk of its page: no line is dropped
    assert len(every) == sum(1 for line in open(DATA / "wice" / "dev.jsonl") if line.strip())
    assert len({r.id for r in every}) == len(every) and len({r.id.split("#")[0] for r in every}) < len(every)


@pytest.mark.skipif(not (DATA / "extra").is_dir(), reason="no ../shared/data/extra")
def test_extra_loader_samples_each_set_with_a_seed_and_names_the_task_by_its_set():
    rows = load_extra(DATA, limit=20)
    by_set = {name: [r for r in rows if r.task_type == name] for name in {r.task_type for r in rows}}
    assert sorted(by_set) == sorted(("xsumfaith", "summedits", "dialfact_testsmall", "begin", "faithdial_audit"))
    assert all(len(v) == 20 and {r.hallucinated for r in v} == {True, False} for v in by_set.values())
    assert [r.id for r in load_extra(DATA, limit=20)] == [r.id for r in rows]  # the same sample every run
    first = [r.id for r in load_extra(DATA, "summedits")][:20]
    assert [r.id for r in by_set["summedits"]] != first  # a sample, not the file's first (one-source) rows
    for r in rows:
        assert all(0 <= g.start < g.end <= len(r.answer) for g in r.labels)
    one = load_extra(DATA, "wice_nst_train,xsumfaith", limit=3)
    assert [r.task_type for r in one] == ["wice_nst_train"] * 3 + ["xsumfaith"] * 3
    with pytest.raises(InvalidInput, match="no extra set 'ragtruth'"):
        load_extra(DATA, "ragtruth")


def test_cli_bench_extra_reports_each_set_and_refuses_a_split(tmp_path, capsys):
    d = tmp_path / "data"
    for name, answers in (("summedits", ("Sales rose.", "Sales fell.")), ("begin", ("Hi there.", "It is blue."))):
        (d / "extra" / name).mkdir(parents=True)
        (d / "extra" / name / f"{name}.jsonl").write_text("".join(json.dumps(
            {"id": f"{name}-{k}", "task_type": "Summary", "split": "x", "context": "Sales rose.", "question": None,
             "answer": a, "hallucinated": bool(k), "labels": []}) + "\n" for k, a in enumerate(answers)))
    out = str(tmp_path / "r")
    argv = ["bench", "--dataset", "extra", "--subset", "summedits,begin", "--data-dir", str(d),
            "--systems", "flag-all", "--out", out, "-q"]
    assert cli.main(argv) == 0
    text = capsys.readouterr().out
    assert "### The extra/ sets" in text and "| flag-all | summedits |" in text and "| flag-all | begin |" in text
    summary = json.loads((tmp_path / "r" / "extra-summedits,begin" / "summary.json").read_text())
    assert summary["systems"]["flag-all"]["overall"]["n"] == 4
    assert cli.main([*argv, "--split", "train"]) == 2
    assert "no split" in capsys.readouterr().err


def test_wice_subset_by_claim_id_selects_all_its_chunks(tmp_path):
    (tmp_path / "wice").mkdir()
    line = {"id": "c1", "claim": "x", "label": "supported", "evidence_sentence_ids": [0]}
    (tmp_path / "wice" / "dev.jsonl").write_text("\n".join(
        json.dumps({**line, "context_sentences": [f"chunk {k}"]}) for k in range(3)) + "\n")
    (tmp_path / "ids.txt").write_text("c1\n")
    rows = load_wice(tmp_path, tmp_path / "ids.txt")
    assert [r.id for r in rows] == ["c1#0", "c1#1", "c1#2"]
    assert [r.context_sentences for r in rows] == [("chunk 0",), ("chunk 1",), ("chunk 2",)]


def test_data_dir_falls_back_to_the_environment(tmp_path, monkeypatch):
    from rt4chart_lab.data import datasets

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(datasets, "CHECKOUT_DATA", tmp_path / "no-such-checkout")
    monkeypatch.setenv("RT4CHART_DATA_DIR", str(tmp_path))
    assert resolve_data_dir() == tmp_path.resolve()
    monkeypatch.delenv("RT4CHART_DATA_DIR")
    with pytest.raises(InvalidInput, match="data-dir"):
        resolve_data_dir()


# ---- runner -------------------------------------------------------------------------------------

CONTEXT = "The trial lasts 14 days. Only verified users are eligible."
RULES = {"14 days": ("14 days", None), "all users": (None, "Only verified")}


def _rows():
    return [
        RagTruthRow("r1", "QA", "train", CONTEXT, "The trial lasts 14 days.", None, False),
        RagTruthRow("r2", "QA", "train", CONTEXT, "The trial lasts 14 days. It applies to all users.", None, True,
                    (GoldSpan(25, 49, "Evident Conflict"),)),
        RagTruthRow("r3", "Summary", "train", CONTEXT, "It goes boom.", None, True, (GoldSpan(0, 13, "Evident Baseless Info"),)),
    ]


def test_runner_writes_records_counts_a_failing_row_and_resumes(tmp_path):
    judge = ScriptedJudge(RULES, fail_claims={"boom"})
    out = tmp_path / "rt4chart-sentence.jsonl"
    system = SYSTEMS["rt4chart-sentence"]
    make = lambda s: Verifier(judge, **s.pipeline_config("ragtruth"))
    stats = run_system(system, _rows(), out, make_verifier=make, progress=False)
    assert (stats.total, stats.skipped, stats.ok, stats.failed) == (3, 0, 2, 1)
    recs = load_records(out)
    assert recs["r1"]["label"] == "ENT" and not recs["r1"]["hallucinated"] and recs["r1"]["score"] == 0
    assert recs["r2"]["label"] == "CON" and recs["r2"]["spans"] == [[25, 49]] and recs["r2"]["score"] == 0.5
    assert recs["r2"]["claims"][1]["label"] == "CON" and recs["r2"]["claims"][1]["evidence"] == [0]
    assert not recs["r3"]["ok"] and "scripted failure" in recs["r3"]["error"]

    calls = len(judge.requests)
    stats = run_system(system, _rows(), out, make_verifier=make, progress=False)
    assert (stats.skipped, stats.ok, stats.failed) == (2, 0, 1)
    assert len(judge.requests) == calls + 1  # only the failed row was retried
    assert len(out.read_text().splitlines()) == 3  # the retried row replaced, not duplicated


def test_floor_flags_everything_without_a_judge(tmp_path):
    out = tmp_path / "flag-all.jsonl"
    stats = run_system(SYSTEMS["flag-all"], _rows(), out, progress=False)
    assert stats.ok == 3
    s = metrics.evaluate_ragtruth(_rows(), load_records(out))["overall"]
    assert s["answer"]["recall"] == 1.0 and s["answer"]["precision"] == pytest.approx(2 / 3) and s["auc"] == 0.5
    assert s["span"]["recall"] == 1.0


def test_oracle_flags_exactly_the_sentences_and_clauses_the_gold_spans_touch(tmp_path):
    answer = "The trial lasts 14 days. It applies to all users, and it comes with free support for a year."
    rows = [RagTruthRow("o1", "QA", "train", CONTEXT, answer, None, True,
                        (GoldSpan(answer.index("it comes"), len(answer) - 1, "Evident Baseless Info"),)),
            *_rows()]
    out = tmp_path / "oracle.jsonl"
    assert run_system(SYSTEMS["oracle"], rows, out, progress=False).ok == 4
    recs = load_records(out)
    second = answer.index("It applies")
    assert recs["o1"]["spans"] == [[second, len(answer)]]  # the whole sentence
    assert recs["o1"]["phrase_spans"] == [[answer.index("and it comes"), len(answer) - 1]]  # its gold clause
    assert [c["label"] for c in recs["o1"]["claims"]] == ["ENT", "NIC"]
    assert recs["r2"]["label"] == "CON" and not recs["r1"]["hallucinated"]
    s = metrics.evaluate_ragtruth(rows, recs)["overall"]
    assert s["answer"]["f1"] == 1.0 and s["span"]["recall"] == 1.0 and s["span"]["precision"] < 1.0
    assert s["phrase_span"]["precision"] > s["span"]["precision"]
    with pytest.raises(InvalidInput, match="WiCE"):
        select("oracle", "wice")


def test_system_selection():
    assert [s.name for s in select("rt4chart-sentence,flag-all", "ragtruth")] == ["rt4chart-sentence", "flag-all"]
    assert SYSTEMS["rt4chart-no-global"].pipeline_config("wice") == {"global_verification": False,
                                                                     "decomposition": "sentence"}
    with pytest.raises(InvalidInput, match="unknown system"):
        select("gpt5", "ragtruth")


# ---- CLI ----------------------------------------------------------------------------------------

def _data_dir(tmp_path):
    d = tmp_path / "data"
    (d / "ragtruth").mkdir(parents=True)
    lines = []
    for r in _rows():
        lines.append(json.dumps({"id": r.id, "source_id": r.id, "model": "m", "task_type": r.task_type,
                                 "split": r.split, "question": None, "context": r.context, "answer": r.answer,
                                 "hallucinated": r.hallucinated,
                                 "labels": [{"start": g.start, "end": g.end, "text": r.answer[g.start:g.end],
                                             "label_type": g.label_type} for g in r.labels]}))
    (d / "ragtruth" / "ragtruth.jsonl").write_text("\n".join(lines) + "\n")
    (d / "ids.txt").write_text("r1\nr2\nr3\n")
    return d


def test_cli_bench_end_to_end_with_a_scripted_judge(tmp_path, monkeypatch, capsys):
    judge = ScriptedJudge(RULES)
    monkeypatch.setattr(JudgeChoice, "build", lambda self: judge)  # the judge the registry would build
    data = _data_dir(tmp_path)
    argv = ["bench", "--dataset", "ragtruth", "--subset", str(data / "ids.txt"), "--data-dir", str(data),
            "--systems", "rt4chart,rt4chart-sentence,flag-all", "--run", "t", "--out", str(tmp_path / "results"), "-q"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "| rt4chart-sentence | 3 | 0 |" in out and "| flag-all | 3 | 0 |" in out
    run = tmp_path / "results" / "t"
    summary = json.loads((run / "summary.json").read_text())
    s = summary["systems"]["rt4chart-sentence"]["overall"]
    # r1 ENT, r2 CON (its second sentence), r3 "It goes boom." NIC: answers all right
    assert s["answer"]["f1"] == 1.0 and s["auc"] == 1.0 and s["span"]["f1"] == 1.0
    assert (run / "table.md").read_text().startswith("### RAGTruth")
    assert (run / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    cost = summary["systems"]["rt4chart"]["cost"]
    # r1: 1 sentence, 1 claim, 1 window → 1 + 1 × (1 + 1) = 3 naive calls; r2: 2 + 2 × 2 = 6; r3: 1 + 1 × 2 = 3
    assert cost["naive_calls_mean"] == 4.0
    assert summary["systems"]["rt4chart"]["peak_rss_mb"] > 10
    assert len((run / "rt4chart.jsonl").read_text().splitlines()) == 3
    calls = len(judge.requests)
    assert cli.main(argv) == 0  # resumed: nothing left to judge
    assert len(judge.requests) == calls
    assert cli.main(argv[:-1] + ["--model-path", "other.gguf", "-q"]) == 2  # a different judge: refuse to mix
    assert cli.main(argv + ["--no-global"]) == 2


def test_cli_bench_subset_all_reads_every_row_of_the_split(tmp_path, capsys):
    data = _data_dir(tmp_path)
    argv = ["bench", "--subset", "all", "--data-dir", str(data), "--systems", "flag-all", "--out", str(tmp_path / "r"), "-q"]
    assert cli.main(argv) == 0
    summary = json.loads((tmp_path / "r" / "ragtruth-all" / "summary.json").read_text())
    assert summary["systems"]["flag-all"]["overall"]["n"] == len(_rows())
    assert "| flag-all | all |" in capsys.readouterr().out


def test_cli_bench_wice_with_a_scripted_judge(tmp_path, monkeypatch, capsys):
    judge = ScriptedJudge({"14 days": ("14 days", None)})
    monkeypatch.setattr(JudgeChoice, "build", lambda self: judge)  # the judge the registry would build
    d = tmp_path / "data"
    (d / "wice").mkdir(parents=True)
    (d / "wice" / "dev.jsonl").write_text(
        json.dumps({"id": "w1", "claim": "The trial lasts 14 days.", "label": "supported",
                    "context_sentences": ["Welcome.", "The trial lasts 14 days."], "evidence_sentence_ids": [1]}) + "\n"
        + json.dumps({"id": "w2", "claim": "It is free.", "label": "partially_supported",
                      "context_sentences": ["Nothing here."], "evidence_sentence_ids": [0]}) + "\n")
    assert cli.main(["bench", "--dataset", "wice", "--data-dir", str(d), "--out", str(tmp_path / "r"), "-q"]) == 0
    summary = json.loads((tmp_path / "r" / "wice-all" / "summary.json").read_text())
    m = summary["systems"]["rt4chart"]
    assert m["label_accuracy"] == 1.0 and m["evidence"]["f1"] == 1.0
    assert m["labels_by_gold"]["partially_supported"]["NIC"] == 1
    assert "### WiCE" in capsys.readouterr().out


def test_combination_logistic_regression_learns_the_informative_feature():
    import numpy as np

    from rt4chart_lab.bench.combine import fit_logistic, predict

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400).astype(float)
    x = np.column_stack([y * 2.0 + rng.normal(size=400), rng.normal(size=400)])  # only column 0 informs
    w = fit_logistic(x, y)
    assert w[0] > 1.5 and abs(w[1]) < w[0] / 3  # (matches scikit-learn on these data: 2.16, -0.48)
    p = predict(w, x)
    assert ((p > 0.5) == (y == 1)).mean() > 0.8 and np.all((p > 0) & (p < 1))


def test_records_dev_set_marks_exactly_its_unfaithful_sentences(tmp_path, capsys):
    from rt4chart_lab.data import records_dev

    rows = records_dev.rows()
    assert len(rows) == 33 and sum(r.hallucinated for r in rows) == 21
    unfaithful = {t for s in records_dev.SENTENCES.values() for t, label in s if label != "E"}
    for row in rows:
        assert all(row.answer[g.start:g.end] in unfaithful for g in row.labels)
        assert sum(t in row.answer for t in unfaithful) == len(row.labels)
    assert "Pennsylvania" in rows[0].answer and '"state": "PA"' in rows[0].context  # generated, not stored
    argv = ["bench", "--dataset", "records", "--systems", "flag-all", "--out", str(tmp_path / "r"), "-q"]
    assert cli.main(argv) == 0
    summary = json.loads((tmp_path / "r" / "records-all" / "summary.json").read_text())
    assert summary["systems"]["flag-all"]["by_task"]["Data2txt"]["n"] == 33
    with pytest.raises(InvalidInput, match="has the subsets dev, blind, both"):
        run_benchmark(dataset="records", subset="test-150", out=tmp_path / "r")


def test_the_blind_records_set_is_its_own_subset_with_gold_spans_on_its_unfaithful_sentences():
    from rt4chart_lab.data import records_blind, records_dev

    blind, dev = records_dev.rows("blind"), records_dev.rows()
    assert len(blind) == 37 and sum(r.hallucinated for r in blind) == 25
    assert not {r.context for r in blind} & {r.context for r in dev}  # other records
    unfaithful = {t for s in records_blind.SENTENCES.values() for t, label in s if label != "E"}
    assert all(row.answer[g.start:g.end] in unfaithful for row in blind for g in row.labels)
    assert len(records_dev.rows("both")) == 70


def test_the_minimal_pairs_take_a_file_of_item_ids_in_its_order(tmp_path):
    ids = tmp_path / "slice.txt"
    ids.write_text("neg-01b\nneg-01a\n", encoding="utf-8")
    summary, _table, _stats = run_benchmark(dataset="pairs", subset=str(ids), systems="flag-all",
                                            out=tmp_path / "r", progress=False)
    assert summary["systems"]["flag-all"]["n"] == 2
    records = load_records(tmp_path / "r" / "pairs-slice" / "flag-all.jsonl")
    assert list(records) == ["neg-01b", "neg-01a"]
    ids.write_text("neg-01a\nno-such-item\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="1 ids are not minimal pairs, e.g. 'no-such-item'"):
        run_benchmark(dataset="pairs", subset=str(ids), systems="flag-all", out=tmp_path / "r2", progress=False)
    the_slice = Path(__file__).resolve().parents[1] / "rt4chart_lab" / "data" / "subsets" / "pairs-slice.txt"
    assert len(the_slice.read_text().split()) == 72
