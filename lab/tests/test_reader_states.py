"""The hidden-state job's bookkeeping, with a scripted reader (no model): the order that keeps an
early stop balanced, appending and resuming without reading a pair twice, reading the shards
back (a line cut short, another prompt's states), and the prompt being the premise read's."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from rt4chart_lab.distill.label_shards import LabelShards
from rt4chart_lab.readout import pair_states as ps


def _rows(groups: int, per_group: int, wice: int = 0) -> list[dict]:
    golds = ("ENT", "CON", "NIC", "ENT", "NOT_ENT")
    rows = []
    for g in range(groups):
        for k in range(per_group):
            i = g * per_group + k
            rows.append({"id": f"{i:016x}", "claim": f"claim {i}", "premise": f"premise {i}", "group": f"g{g}",
                         "source": "test", "gold": golds[i % len(golds)], "p_support": 0.5})
    for w in range(wice):
        rows.append({"id": f"w{w:015x}", "claim": f"wice {w}", "premise": "p", "group": f"w{w}", "source": "wice",
                     "gold": "ENT", "p_support": 0.5})
    return rows


class Scripted:
    """Returns a state that encodes which pair it read; fails on the claims it is told to."""

    def __init__(self, dim: int = 8, fail_on: frozenset[str] = frozenset()):
        self.dim, self.fail_on, self.calls = dim, fail_on, []

    def __call__(self, claim: str, premise: str):
        self.calls.append(claim)
        if claim in self.fail_on:
            raise RuntimeError("scripted failure")
        n = int(claim.split()[-1])
        return np.arange(self.dim, dtype=np.float32) + n, 0.25 + n / 1000, 10


def test_order_takes_every_group_once_before_any_twice_and_deals_the_labels():
    rows = _rows(groups=40, per_group=5, wice=3)
    order = ps.balanced_order(rows)
    assert sorted(r["id"] for r in order) == sorted(r["id"] for r in rows)
    assert [r["source"] for r in order[-3:]] == ["wice"] * 3
    first = order[:40]
    assert len({r["group"] for r in first}) >= 36  # the labels' queues are dealt in turn: nearly one per group
    golds = Counter(r["gold"] for r in order[:40])
    assert set(golds) == {"ENT", "CON", "NIC", "NOT_ENT"} and max(golds.values()) - min(golds.values()) <= 1
    assert ps.balanced_order(list(reversed(rows))) == order  # the order does not depend on the input's


def test_states_are_appended_skipped_when_done_and_read_back(tmp_path):
    rows = ps.balanced_order(_rows(groups=6, per_group=2))
    shards = LabelShards(tmp_path, shard_size=5)
    reader = Scripted()
    assert ps.extract(rows, shards, reader, model="m", limit=7, log=lambda m: None) == 7
    assert len(list(tmp_path.glob("labels-*.jsonl"))) == 2

    again = Scripted()
    assert ps.extract(rows, LabelShards(tmp_path, shard_size=5), again, model="m", log=lambda m: None) == 5
    assert len(again.calls) == 5 and not set(again.calls) & set(reader.calls)

    ids, hidden, p_yes = ps.read_states(tmp_path)
    assert sorted(ids) == sorted(r["id"] for r in rows)
    by_id = {r["id"]: int(r["claim"].split()[-1]) for r in rows}
    for pid, h, p in zip(ids, hidden, p_yes):
        assert h.dtype == np.float32 and np.array_equal(h, np.arange(8, dtype=np.float32) + by_id[pid])
        assert p == pytest.approx(0.25 + by_id[pid] / 1000)


def test_a_line_cut_short_is_read_again_and_a_failed_pair_left_for_later(tmp_path):
    rows = ps.balanced_order(_rows(groups=3, per_group=2))
    first = Scripted(fail_on=frozenset({rows[1]["claim"]}))
    assert ps.extract(rows, LabelShards(tmp_path), first, model="m", limit=3, log=lambda m: None) == 3
    shard = next(tmp_path.glob("labels-*.jsonl"))
    text = shard.read_text()
    shard.write_text(text[: text.rstrip("\n").rfind("\n") + 1] + text.rstrip("\n").rsplit("\n", 1)[1][:40])
    done = {json.loads(x)["id"] for x in text.splitlines()}
    assert len(done) == 3 and rows[1]["id"] not in done

    again = Scripted()
    ps.extract(rows, LabelShards(tmp_path), again, model="m", log=lambda m: None)
    cut = [r["claim"] for r in rows if r["id"] in done][-1]
    assert rows[1]["claim"] in again.calls and cut in again.calls
    ids, _, _ = ps.read_states(tmp_path)
    assert sorted(ids) == sorted(r["id"] for r in rows)


def test_states_of_another_prompt_are_refused(tmp_path):
    shards = LabelShards(tmp_path)
    record = ps.record_of("00aa", np.ones(4, dtype=np.float32), 0.5, 3, "m", 1.0, 1.0)
    shards.append({**record, "prompt": "another"})
    with pytest.raises(ValueError, match="prompt"):
        ps.read_states(tmp_path)


def test_the_prompt_is_the_premise_reads_support_prompt():
    from rt4chart_plugins.judges.llama import prompting
    from rt4chart_plugins.judges.llama.premise_read import ASK_SUPPORT, SYSTEM, pair_user

    text = ps.prompt_text("The bridge opened in 1990.", "The bridge opened in 1991.")
    assert text == prompting.chatml([("system", SYSTEM), ("user", pair_user("The bridge opened in 1991.",
                                                                            "The bridge opened in 1990.",
                                                                            ASK_SUPPORT))])
    assert text.endswith("<|im_start|>assistant\n") and ASK_SUPPORT in text
    assert ps.model_folder(ps.DEFAULT_CACHE, "llama.cpp:qwen:abc").name == "llama.cpp_qwen_abc"


# ---- the probe's fit (rt4chart reader-probe), on synthetic states --------------------------------


def _synthetic(n: int = 600, d: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    hidden = rng.normal(size=(n, d))
    signal = hidden[:, :5].sum(axis=1)
    y = signal + rng.normal(size=n) * 0.5 > 0
    free = (signal + rng.normal(size=n) * 3.0)[:, None]  # a weak zero-shot reading of the same signal
    groups = [f"g{i // 3}" for i in range(n)]
    return hidden, free, y, groups


def test_auc_matches_the_lab_metric_with_ties():
    from rt4chart_lab.metrics import auc
    from rt4chart_lab.readout import pair_probe as pp

    rng = np.random.default_rng(1)
    scores, labels = np.round(rng.random(300), 1), rng.random(300) > 0.6
    assert pp.auc(scores, labels) == pytest.approx(auc(list(scores), list(labels)))
    assert np.isnan(pp.auc(scores, np.zeros(300, dtype=bool)))


def test_the_probe_folds_into_one_linear_map_and_beats_a_weak_reading():
    from rt4chart_lab.readout import pair_probe as pp

    hidden, free, y, groups = _synthetic()
    probe = pp.Basis(hidden, 16).fit(16, free, y, 1.0)
    w, b = probe.linear()
    folded = 1 / (1 + np.exp(-(np.hstack([hidden, free]) @ w + b)))
    assert np.allclose(folded, probe.prob(hidden, free), atol=1e-9)

    folds = pp.group_folds(groups, 5, 0)
    oof, chosen = pp.probe_oof(hidden, free, y, groups, folds, 0, log=lambda m: None, components=(4, 16),
                               l2s=(0.1, 10.0))
    assert len(chosen) == 5 and {c["k"] for c in chosen} <= {4, 16}
    assert pp.auc(oof, y) > pp.auc(free[:, 0], y) + 0.05
    for f in range(5):  # no group is split across folds
        assert not {g for g, k in zip(groups, folds) if k == f} & {g for g, k in zip(groups, folds) if k != f}
    lo, hi = pp.bootstrap_difference(oof, free[:, 0], y, groups, 100, 0)
    assert 0 < lo < hi


def test_a_k_beyond_the_rows_takes_as_many_components_as_there_are():
    from rt4chart_lab.readout import pair_probe as pp

    hidden, free, y, _ = _synthetic(n=30, d=40)
    probe = pp.Basis(hidden, 256).fit(256, free, y, 1.0)
    assert probe.axes.shape == (40, 30) and np.all(np.isfinite(probe.prob(hidden, free)))
