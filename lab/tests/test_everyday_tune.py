"""The everyday tuning set (``everyday_tune.jsonl``): first-user's schema and groups over other
contexts, independent of the held-out first-user set, and the bench runs it scored as first-user.
No model is loaded."""

import collections
import json
import re

from rt4chart_lab.bench.main import run_benchmark
from rt4chart_lab.data import first_user
from rt4chart_lab.data.first_user import GROUPS, HALLUCINATED, INVENTED, TUNE_PATH, load_first_user

ROWS = load_first_user(TUNE_PATH)
HELD_OUT = load_first_user()


def _sentences(text: str) -> int:
    return len(re.findall(r"[.!?](?:\s|$)", text))


def test_the_file_loads_with_first_users_loader_and_fields():
    lines = [json.loads(line) for line in TUNE_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(lines) == len(ROWS) >= 240
    assert all(set(d) == set(first_user.FIELDS) for d in lines)
    assert len({r.id for r in ROWS}) == len(ROWS), "ids are unique"
    for r in ROWS:
        assert re.fullmatch(rf"{re.escape(r.context_id)}-\d\d", r.id), r.id
        expected = {"abstention": {"NONE"}, "abstention_then_assertion": {"NIC", "CON"}, "paraphrase": {"ENT"},
                    "faithful": {"ENT"}, "contradiction": {"CON"}}.get(r.group, {"NIC"})
        assert r.label in expected, r.id
        assert r.hallucinated == (r.group in HALLUCINATED)
        assert 1 <= _sentences(r.answer) <= 3, r.id
    assert sum(r.question is None for r in ROWS) > len(ROWS) / 2, "the question is null in most items"


def test_every_group_is_present_and_the_set_is_balanced():
    counts = collections.Counter(r.group for r in ROWS)
    assert set(counts) == set(GROUPS)
    assert all(n >= 12 for n in counts.values()), counts
    assert sum(counts[g] for g in INVENTED) >= 60
    assert 0.4 <= sum(r.hallucinated for r in ROWS) / len(ROWS) <= 0.6


def test_at_least_sixteen_contexts_of_four_or_five_sentences_each_under_one_id():
    contexts: dict[str, set[str]] = collections.defaultdict(set)
    for r in ROWS:
        contexts[r.context_id].add(r.context)
    assert len(contexts) >= 16
    assert all(len(texts) == 1 for texts in contexts.values()), "one context text per context_id"
    for cid, texts in contexts.items():
        assert 4 <= _sentences(next(iter(texts))) <= 5, cid
        mine = [r for r in ROWS if r.context_id == cid]
        assert any(r.hallucinated for r in mine) and any(not r.hallucinated for r in mine), cid


def test_independent_of_the_held_out_first_user_set():
    assert not {r.context_id for r in ROWS} & {r.context_id for r in HELD_OUT}
    assert not {r.context for r in ROWS} & {r.context for r in HELD_OUT}
    assert not {r.answer.strip().lower() for r in ROWS} & {r.answer.strip().lower() for r in HELD_OUT}


def test_the_whole_set_runs_with_the_floor_scored_as_first_user(tmp_path):
    summary, table, _stats = run_benchmark(dataset="everyday-tune", systems="flag-all", out=tmp_path, progress=False)
    m = summary["systems"]["flag-all"]
    assert m["n"] == len(ROWS) and summary["meta"]["run_dir"].endswith("everyday-tune-all")
    assert summary["meta"]["dataset"] == "everyday-tune" and summary["meta"]["data_dir"] == str(TUNE_PATH)
    assert m["hallucinated_flagged"]["share"] == 1.0 and m["faithful_kept"]["share"] == 0.0
    assert m["balanced_accuracy"] == 0.5
    assert table.startswith("### everyday-tune (scored as the first-user set)")
    assert all(f"| {g} | " in table for g in GROUPS)
    saved = json.loads((tmp_path / "everyday-tune-all" / "summary.json").read_text(encoding="utf-8"))
    assert saved["meta"]["dataset"] == "everyday-tune"
    assert (tmp_path / "everyday-tune-all" / "table.md").read_text(encoding="utf-8") == table
