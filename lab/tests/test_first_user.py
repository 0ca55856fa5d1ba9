"""The first-user set: its file's shape and the bench's per-group scoring (hand-made records, and a
tiny slice end to end with a scripted judge). No model is loaded."""

import collections
import json
import re
from pathlib import Path

import pytest
from rt4chart_lab.bench.first_user import evaluate_first_user, is_flagged
from rt4chart_lab.bench.main import run_benchmark
from rt4chart_lab.data import first_user
from rt4chart_lab.data.first_user import FAITHFUL, GROUPS, HALLUCINATED, INVENTED, FirstUserRow, load_first_user
from scripted_judge import ScriptedJudge

from rt4chart_plugins import InvalidInput, cli
from rt4chart_plugins.judges.entries import JudgeChoice

ROOT = Path(__file__).resolve().parents[2]
ROWS = load_first_user()

#: the README policy context's answers that the set must hold verbatim, with their gold
POLICY_ANSWERS = {
    "The trial also includes priority email support.": "NIC",
    "The trial also includes a personal onboarding call.": "NIC",
    "The free trial lasts 14 days and includes unlimited storage.": "NIC",
    "Verified users also get a discount on the annual plan.": "NIC",
    "The policy does not mention student discounts.": "NONE",
    "The context does not say.": "NONE",
}


def _sentences(text: str) -> int:
    return len(re.findall(r"[.!?](?:\s|$)", text))


# ---- the file ------------------------------------------------------------------------------------
def test_every_line_has_the_fields_a_known_group_and_a_consistent_label():
    lines = [json.loads(line) for line in first_user.PATH.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(lines) == len(ROWS) >= 180
    for d in lines:
        assert set(d) == set(first_user.FIELDS), d["id"]
        assert all(isinstance(d[k], str) and d[k].strip() for k in ("id", "context_id", "context", "answer")), d["id"]
        assert d["question"] is None or (isinstance(d["question"], str) and d["question"].strip()), d["id"]
        assert isinstance(d["hallucinated"], bool)
    assert len({r.id for r in ROWS}) == len(ROWS), "ids are unique"
    for r in ROWS:
        assert r.group in GROUPS and r.label in first_user.LABELS
        assert r.id.startswith(f"{r.context_id}-")
        if r.group in INVENTED:
            assert r.label == "NIC", r.id
        expected = {"abstention": {"NONE"}, "abstention_then_assertion": {"NIC", "CON"}, "paraphrase": {"ENT"},
                    "faithful": {"ENT"}, "contradiction": {"CON"}}.get(r.group, {"NIC"})
        assert r.label in expected, r.id
        assert r.hallucinated == (r.group in HALLUCINATED)
        assert 1 <= _sentences(r.answer) <= 3, r.id


def test_groups_are_large_enough_to_measure_a_share_and_the_set_is_balanced():
    counts = collections.Counter(r.group for r in ROWS)
    assert set(counts) == set(GROUPS)
    assert all(n >= 15 for n in counts.values()), counts
    assert sum(counts[g] for g in INVENTED) >= 60
    share = sum(r.hallucinated for r in ROWS) / len(ROWS)
    assert 0.4 <= share <= 0.6, share
    assert sum(r.question is None for r in ROWS) > len(ROWS) / 2, "the question is null in most items"


def test_at_least_fourteen_short_contexts_each_one_text_under_one_id():
    contexts: dict[str, set[str]] = collections.defaultdict(set)
    for r in ROWS:
        contexts[r.context_id].add(r.context)
    assert len(contexts) >= 14
    assert all(len(texts) == 1 for texts in contexts.values()), "one context text per context_id"
    assert len({next(iter(t)) for t in contexts.values()}) == len(contexts), "no context under two ids"
    for cid, texts in contexts.items():
        assert 2 <= _sentences(next(iter(texts))) <= 6, cid
        mine = [r for r in ROWS if r.context_id == cid]
        assert any(not r.hallucinated for r in mine) and any(r.hallucinated for r in mine), cid


def test_the_readme_policy_answers_are_present_verbatim_on_the_readme_context():
    policy = (ROOT / "examples" / "policy" / "context.txt").read_text(encoding="utf-8").strip()
    on_policy = {r.answer: r for r in ROWS if r.context == policy}
    for answer, label in POLICY_ANSWERS.items():
        assert answer in on_policy, answer
        assert on_policy[answer].label == label
        assert on_policy[answer].hallucinated == (label == "NIC")
    assert sum(on_policy[a].group in INVENTED for a in POLICY_ANSWERS) == 4
    assert sum(on_policy[a].group == "abstention" for a in POLICY_ANSWERS) == 2


def test_the_loader_refuses_a_line_whose_group_and_label_disagree(tmp_path):
    good = {"id": "x-01", "context_id": "x", "context": "A. B.", "question": None, "answer": "A.",
            "group": "faithful", "label": "ENT", "hallucinated": False}
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(good) + "\n", encoding="utf-8")
    assert load_first_user(path) == [FirstUserRow(*good.values())]
    for change, message in [({"label": "MAYBE"}, "unknown label"), ({"group": "other"}, "unknown group"),
                            ({"label": "NIC", "hallucinated": True}, "disagree"), ({"answer": None}, None)]:
        bad = {**good, **change}
        if change == {"answer": None}:
            del bad["answer"]
            message = "missing answer"
        path.write_text(json.dumps(bad) + "\n", encoding="utf-8")
        with pytest.raises(ValueError, match=message):
            load_first_user(path)


# ---- the bench's scoring ------------------------------------------------------------------------
def _row(i: str, group: str, label: str) -> FirstUserRow:
    return FirstUserRow(i, "c", "The shop opens at 9.", None, "x", group, label, label in ("CON", "NIC"))


def _rec(label: str | None, state: str = "verified", ok: bool = True, seconds: float = 0.5) -> dict:
    return {"ok": ok, "label": label, "state": state, "hallucinated": label in ("CON", "NIC"),
            "cost": {"seconds": seconds, "judge_calls": 1, "prompt_tokens": 0, "completion_tokens": 0}}


def test_flagged_means_con_or_nic_and_no_claims_is_not_flagged():
    assert is_flagged(_rec("NIC")) and is_flagged(_rec("CON"))
    assert is_flagged(_rec("ENT")) is False
    assert is_flagged(_rec(None, state="no_claims")) is False
    assert is_flagged(_rec("ENT", state="no_claims")) is False
    assert is_flagged(_rec("NIC", ok=False, state="failed")) is None and is_flagged(None) is None


def test_per_group_shares_invented_caught_and_the_overall_accuracies():
    rows = [_row("t1", "invented_thing", "NIC"), _row("t2", "invented_thing", "NIC"),
            _row("p1", "invented_place", "NIC"), _row("a1", "abstention", "NONE"), _row("a2", "abstention", "NONE"),
            _row("aa1", "abstention_then_assertion", "CON"), _row("k1", "contradiction", "CON"),
            _row("f1", "paraphrase", "ENT"), _row("f2", "faithful", "ENT"), _row("f3", "faithful", "ENT")]
    preds = {"t1": _rec("NIC"), "t2": _rec("ENT"),  # one invented thing caught, one passed
             "p1": _rec("CON"),  # flagged is what counts: CON for a NIC item is right
             "a1": _rec(None, state="no_claims"), "a2": _rec("NIC"),  # an abstention read as a claim: wrong
             "aa1": _rec(None, state="no_claims"),  # the assertion after the abstention missed: wrong
             "k1": _rec("NIC", ok=False, state="failed"),  # unjudged: wrong either way
             "f1": _rec("ENT"), "f2": _rec("ENT"), "f3": _rec("NIC")}
    m = evaluate_first_user(rows, preds)
    g = m["by_group"]
    assert (g["invented_thing"]["right"], g["invented_thing"]["n"]) == (1, 2)
    assert g["invented_place"]["share"] == 1.0 and g["abstention"]["share"] == 0.5
    assert g["abstention_then_assertion"]["share"] == 0.0 and g["contradiction"]["share"] == 0.0
    assert g["paraphrase"]["share"] == 1.0 and g["faithful"]["right"] == 1
    assert g["abstention"]["predicted"] == {"ENT": 0, "CON": 0, "NIC": 1, "no_claims": 1, "unjudged": 0}
    assert m["invented_caught"] == {"n": 3, "right": 2, "share": 2 / 3}
    assert m["hallucinated_flagged"]["right"] == 2 and m["hallucinated_flagged"]["n"] == 5
    assert m["faithful_kept"]["right"] == 3 and m["faithful_kept"]["n"] == 5
    assert m["binary_accuracy"] == 0.5 and m["balanced_accuracy"] == pytest.approx((2 / 5 + 3 / 5) / 2)
    assert m["unjudged"] == 1
    assert m["confusion"]["NONE"]["no_claims"] == 1 and m["confusion"]["CON"]["unjudged"] == 1
    assert list(m["by_group"]) == [g for g in GROUPS if g in m["by_group"]]  # the set's group order
    assert m["cost"]["answers_per_s"] == pytest.approx(10 / 5.0)  # every record 0.5 s


def test_a_slice_end_to_end_with_a_scripted_judge(tmp_path, monkeypatch, capsys):
    policy = {r.answer: r.id for r in ROWS if r.context_id == "policy"}
    ids = [policy[a] for a in ("The free trial lasts 14 days.", "The trial also includes priority email support.",
                               "The free trial lasts 14 days and includes unlimited storage.",
                               "The free trial runs for two weeks.", "The free trial lasts 30 days.")]
    subset = tmp_path / "slice.txt"
    subset.write_text("\n".join(ids) + "\n", encoding="utf-8")
    # ENT where a claim says 14 days, CON where it says 30, NIC otherwise: the paraphrase is missed
    judge = ScriptedJudge({"14 days": ("trial lasts 14 days", None), "30 days": (None, "trial lasts 14 days")})
    monkeypatch.setattr(JudgeChoice, "build", lambda self: judge)  # the judge the registry would build
    argv = ["bench", "--dataset", "first-user", "--subset", str(subset), "--run", "t",
            "--out", str(tmp_path / "r"), "-q"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("### First-user set") and "| invented_thing | 2 | flagged | " in out
    summary = json.loads((tmp_path / "r" / "t" / "summary.json").read_text())
    m, floor = summary["systems"]["rt4chart"], summary["systems"]["flag-all"]
    assert m["n"] == 5 and m["unjudged"] == 0
    assert m["invented_caught"]["share"] == 1.0  # the clause "includes unlimited storage" answers for itself
    assert m["by_group"]["faithful"]["share"] == 1.0 and m["by_group"]["contradiction"]["share"] == 1.0
    assert m["by_group"]["paraphrase"]["share"] == 0.0 and m["binary_accuracy"] == 0.8
    assert floor["invented_caught"]["share"] == 1.0 and floor["faithful_kept"]["share"] == 0.0
    assert "| **invented facts caught** | 2 | flagged | ≥ 0.95 | 1.000 (2/2) | 1.000 (2/2) |" in out


def test_the_bench_refuses_a_split_an_unknown_id_and_the_oracle(tmp_path):
    with pytest.raises(InvalidInput, match="no splits"):
        run_benchmark(dataset="first-user", split="test", systems="flag-all", out=tmp_path, progress=False)
    ids = tmp_path / "ids.txt"
    ids.write_text("policy-01\nno-such-item\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="1 ids are not first-user items"):
        run_benchmark(dataset="first-user", subset=str(ids), systems="flag-all", out=tmp_path, progress=False)
    with pytest.raises(InvalidInput, match="oracle"):
        run_benchmark(dataset="first-user", systems="oracle", out=tmp_path, progress=False)


def test_the_whole_set_runs_with_the_floor(tmp_path):
    summary, table, _stats = run_benchmark(dataset="first-user", systems="flag-all", out=tmp_path, progress=False)
    m = summary["systems"]["flag-all"]
    assert m["n"] == len(ROWS) and summary["meta"]["run_dir"].endswith("first-user-all")
    assert m["hallucinated_flagged"]["share"] == 1.0 and m["faithful_kept"]["share"] == 0.0
    assert m["balanced_accuracy"] == 0.5
    assert all(f"| {g} | " in table for g in GROUPS)


def test_the_faithful_groups_and_hallucinated_groups_partition_the_set():
    assert set(FAITHFUL).isdisjoint(HALLUCINATED) and set(FAITHFUL) | set(HALLUCINATED) == set(GROUPS)
    assert set(INVENTED) <= set(HALLUCINATED)
