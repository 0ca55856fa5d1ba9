"""The verifier's training command, end to end on a tiny slice (real PyTorch, real ONNX export)."""

from __future__ import annotations

import json
import random

import pytest

from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir
from rt4chart_plugins.judges.trained import encoder
from rt4chart_lab.training import data
from rt4chart_lab.data import synth


def _data_dir():
    try:
        return resolve_data_dir(None)
    except Exception:  # noqa: BLE001
        return None


TINY = ["--ragtruth-limit", "24", "--records", "6", "--max-pairs", "48", "--epochs", "1", "--max-length", "96",
        "--extra-per-set", "20", "--edit-items", "20",
        "--premise-budget", "64", "--holdout", "0.3"]


def test_train_command_rebuilds_a_loadable_artifact(tmp_path, capsys):
    pytest.importorskip("torch", reason="needs the 'train' extra")
    from rt4chart_plugins import Verifier
    from rt4chart_plugins.cli import main
    from rt4chart_plugins.judges.trained.judge import TrainedJudge

    sources = "ragtruth,ragtruth-aug,records,extra,edits" if _data_dir() else "records"
    out = tmp_path / "artifact"
    rc = main(["train-verifier", "--out", str(out), *TINY, "--sources", sources, "--members", "2"])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "member 2/2 (seed 14)" in printed and f"wrote {out}" in printed
    manifest = json.loads((out / encoder.MANIFEST_FILE).read_text())
    assert manifest["sha256"] == encoder.sha256_file(out / encoder.MODEL_FILE)
    assert manifest["training"]["config"]["max_pairs"] == 48
    assert [m["seed"] for m in manifest["training"]["members"]] == [13, 14]
    if _data_dir():
        assert "| fp32 |" in printed and manifest["validation"]["fp32"]["pairs"] > 0
        # the decision is fitted on the held-out pairs, contrastive ones included, and labels claims;
        # its support model reads what the claim adds beside the encoder, coverage and the fact check
        assert len(manifest["decision"]["support"]["weights"]) == 5
        assert len(manifest["decision"]["conflict"]["weights"]) == 2
        assert "contrastive" in manifest["validation"]["fp32"]
    report = Verifier(TrainedJudge(out), decomposition="sentence").verify(
        "The shop opens at 9 AM.", "The shop opens at 9 AM. It sells bread.")
    assert report.state == "verified" and len(report.claims) == 2
    assert all(abs(sum(c.probs.values()) - 1) < 1e-3 for c in report.claims)


@pytest.mark.skipif(_data_dir() is None, reason="needs ../shared/data")
def test_training_pairs_never_come_from_test_rows():
    test_ids = {r.id for r in load_ragtruth(_data_dir(), split="test")}
    count = lambda texts: [len(t) // 4 + 1 for t in texts]  # noqa: E731
    train, val = data.ragtruth_pairs(count, 100, data_dir=None, holdout=0.2, rng=random.Random(0), augment=True)
    groups = {p.group for p in train + val}
    assert groups and not groups & test_ids
    held_out = {data.source_of(p.group) for p in val}
    assert held_out and not held_out & {data.source_of(p.group) for p in train}  # split by source document


def test_contradicting_edits_change_the_fact():
    rng = random.Random(3)
    edited = synth._change_number("The bridge opened in 1932 and cost 40 million dollars.", rng)
    assert edited and edited != "The bridge opened in 1932 and cost 40 million dollars."
    assert synth._flip("Sales increased last year.", rng) == "Sales decreased last year."
    assert synth._swap_from("It is closed on Monday.", synth._DAYS, rng) != "It is closed on Monday."
    assert synth.contradict("zzz", [], rng) is None


def test_generated_records_are_reproducible_and_labelled():
    a = synth.business_record(random.Random(7))
    b = synth.business_record(random.Random(7))
    assert a == b
    claims = synth.verbalize(a, random.Random(7))
    assert {label for _, label in claims} == {"ENT", "CON", "NIC"}
    assert any(a["name"] in text and label == "ENT" for text, label in claims)


def test_clause_edits_append_a_baseless_clause_or_a_supported_one():
    rng = random.Random(5)
    assert synth.extend("The museum opened in 1998.", "which draws many tourists") == \
        "The museum opened in 1998, which draws many tourists."
    # the part after the last comma when it is a clause of its own, else the sentence behind a connector
    assert synth.clause_of("Officials said on Monday, the bridge will reopen next spring.", rng) == \
        "the bridge will reopen next spring"
    joined = synth.clause_of("The company grew fast.", rng)
    assert joined.endswith("the company grew fast") and joined.split()[0] in {"and", "which", "while", "as", "because"}
    assert synth.clause_of("NASA delayed the launch.", rng).endswith("NASA delayed the launch")

    context = "The museum opened in 1998. It has a large collection of Roman coins."
    count = lambda texts: [len(t) // 4 + 1 for t in texts]  # noqa: E731
    build = data.PremiseBuilder([context.split(". ")[0] + ".", context.split(". ")[1]], count, 100)
    pairs = list(data._clauses("The museum opened in 1998.", None, build, ["Prices rose by 5 percent in May."],
                               ["It has a large collection of Roman coins."], "row-1", random.Random(0)))
    by_label = {p.label: p.claim for p in pairs}
    assert set(by_label) == {0, 2}  # one NIC edit, one ENT join
    assert by_label[2].startswith("The museum opened in 1998, ") and by_label[2] != "The museum opened in 1998."
    assert "roman coins" in by_label[0].lower()
    assert all(p.source == "ragtruth-clause" for p in pairs)


@pytest.mark.skipif(_data_dir() is None, reason="needs ../shared/data")
def test_clause_edits_at_rate_zero_leave_every_other_pair_alone():
    count = lambda texts: [len(t) // 4 + 1 for t in texts]  # noqa: E731
    kwargs = dict(data_dir=None, holdout=0.2, augment=True, limit=30)
    plain, _ = data.ragtruth_pairs(count, 100, rng=random.Random(0), **kwargs)
    again, _ = data.ragtruth_pairs(count, 100, rng=random.Random(0), clause_rate=0.0, **kwargs)
    assert [p.claim for p in plain] == [p.claim for p in again]  # the shipped build is unchanged
    with_clauses, _ = data.ragtruth_pairs(count, 100, rng=random.Random(0), clause_rate=1.0, **kwargs)
    clause = [p for p in with_clauses if p.source == "ragtruth-clause"]
    assert {p.label for p in clause} == {0, 2}


def test_the_default_recipe_is_the_shipped_artifacts():
    """`rt4chart train-verifier` with no flags must rebuild what the package ships."""
    from rt4chart_lab.training.train import TrainConfig

    _, manifest = encoder.load_manifest(check=False)
    shipped, default = manifest.training["config"], TrainConfig().model_dump(mode="json")
    assert {k: default[k] for k in shipped} == shipped
    # a knob added after the artifact was built must default to off, so the rebuild stays the same
    # one model: no ensemble; premises as v1 read them; v1 drew its hard negatives at 0.3 before that was a knob
    off = {"members": 1, "question": "always", "drop_rate": 0.3}
    # sizes of sources that the recipe does not read change nothing
    inert = {"extra_per_set": "extra", "edit_items": "edits", "edits_per_item": "edits", "facts": "facts",
             "nli_pairs": "nli"}
    assert all(default[k] == off[k] if k in off else inert[k] not in default["sources"] if k in inert
               else default[k] in (0, None, False) for k in default.keys() - shipped.keys())


def test_review_rich_records_label_review_summaries_by_what_the_reviews_say():
    from rt4chart_lab.data import records

    rng = random.Random(11)
    record = records.review_record(rng)
    assert record == records.review_record(random.Random(11))
    context = records.record_context(record)
    assert "_facts" not in context and "BusinessParking" in context
    claims = records.verbalize(record, rng)
    assert {label for _, label in claims} == {"ENT", "CON", "NIC"}
    said, _ = records._review_knowledge(record)  # aspect -> 1 praised, 2 criticized (bits)
    praise = tuple(t.split("{")[0] for t in records._PRAISE)
    complain = tuple(t.split("{")[0] for t in records._COMPLAIN)
    checked = 0
    for text, label in claims:
        bit = 1 if text.startswith(praise) else 2 if text.startswith(complain) else 0
        if not bit:
            continue
        aspect = next(a for a, d in records._ASPECT_PHRASES.items() if any(p in text for ps in d.values() for p in ps))
        expected = "ENT" if said.get(aspect, 0) & bit else "CON" if aspect in said else "NIC"
        assert label == expected, text
        checked += 1
    assert checked == len(records._ASPECT_PHRASES)


def test_review_rich_records_are_off_in_the_shipped_recipe_and_add_pairs_when_on():
    count = lambda texts: [len(t) // 4 + 1 for t in texts]  # noqa: E731
    plain = data.record_pairs(count, 120, n_records=4, per_record=10, rng=random.Random(0))
    rich = data.record_pairs(count, 120, n_records=4, per_record=10, rng=random.Random(0), review_rich=True)
    assert {p.group[:3] for p in plain} == {"rec"} and {p.group[:4] for p in rich} == {"rrec"}
    assert any("review" in p.premise for p in rich) and len(rich) == 40


def _probs(model_path, pairs):
    import numpy as np

    from rt4chart_lab.training.train import onnx_probs

    tok = encoder.load_tokenizer(model_path.parent / encoder.TOKENIZER_FILE, 96)
    return np.asarray(onnx_probs(model_path, tok, [data.Pair(claim=c, premise=p, label=0, source="test", group="g")
                                                   for c, p in pairs]))


def test_members_trained_apart_join_into_one_artifact_that_averages_them(tmp_path, capsys):
    pytest.importorskip("torch", reason="needs the 'train' extra")
    from rt4chart_plugins.cli import main

    sources = ["--sources", "ragtruth,ragtruth-aug,records" if _data_dir() else "records"]
    first, second, joined = tmp_path / "s13", tmp_path / "s14", tmp_path / "joined"
    assert main(["train-verifier", "--out", str(first), *TINY, *sources, "--members", "1"]) == 0
    assert main(["train-verifier", "--out", str(second), *TINY, *sources, "--members", "1", "--seed", "14"]) == 0
    capsys.readouterr()
    assert main(["train-verifier", "--out", str(joined), *TINY, *sources, "--members-from", f"{first},{second}"]) == 0
    assert "joined 2 members" in capsys.readouterr().out
    manifest = encoder.load_manifest(joined)[1]  # the joined model's checksum is checked here
    assert manifest.training["config"]["members"] == 2
    assert [m["sha256"] for m in manifest.training["members"]] == [
        encoder.load_manifest(d)[1].sha256 for d in (first, second)]
    pairs = [("The shop opens at 9 AM.", "The shop opens at 9 AM. It sells bread."),
             ("It closes at noon.", "The shop opens at 9 AM. It sells bread.")]
    mean = (_probs(first / encoder.MODEL_FILE, pairs) + _probs(second / encoder.MODEL_FILE, pairs)) / 2
    assert abs(_probs(joined / encoder.MODEL_FILE, pairs) - mean).max() < 1e-5

    # members in the wrong order (or of another recipe) would make the manifest's recipe false
    with pytest.raises(SystemExit):
        main(["train-verifier", "--out", str(tmp_path / "bad"), *TINY, *sources, "--members-from", f"{second},{first}"])
    assert "was not trained as member 1 of this recipe (differs in ['seed'])" in capsys.readouterr().err


def test_merge_refuses_a_model_without_the_encoder_interface(tmp_path):
    pytest.importorskip("onnx", reason="needs the 'train' extra")
    from onnx import TensorProto, helper, save

    from rt4chart_lab.training.ensemble import merge

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
    save(helper.make_model(helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g", [x],
                                             [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])),
         str(tmp_path / "other.onnx"))
    with pytest.raises(ValueError, match="expected inputs"):
        merge([tmp_path / "other.onnx"], tmp_path / "out.onnx")


def test_the_fitted_decision_follows_the_encoder_where_coverage_says_nothing():
    """Held-out pairs where ENT and CON claims repeat the premise's words and NIC ones add new
    words: the support model follows the encoder's P(ENT), and the conflict model tells a
    confident contradiction from an absence by the encoder's CON-minus-NIC logit, whatever the
    coverage."""
    import random

    from rt4chart_lab.training import train
    from rt4chart_plugins.judges.trained.decision import decide

    rng = random.Random(0)
    pairs, logits = [], []
    for k in range(300):
        label = k % 3
        covered = label != 2  # ENT and CON claims repeat the premise's words; NIC ones add new words
        claim = "the shop opens at nine" if covered else "the shop sells fresh bread daily"
        pairs.append(data.Pair(claim=claim, premise="the shop opens at nine", label=label, source="edit/test", group=f"g{k}"))
        lg = [rng.gauss(0, 0.5) for _ in range(3)]
        lg[label] += 2.0
        logits.append(lg)
    decision = train.fit_decision(pairs, logits)
    p_ent, p_con, p_nic = decide(decision, [-1.0, 2.5, -1.0], 1.0, False)
    assert p_con > max(p_ent, p_nic)
    p_ent, _, _ = decide(decision, [2.5, -1.0, -1.0], 1.0, False)
    assert p_ent > 0.5
    assert abs(sum(decide(decision, [0.3, 0.1, 0.2], 0.4, True)) - 1) < 1e-9
    assert "300 held-out pairs" in decision.fitted_on and "200 of them CON or NIC" in decision.fitted_on


def test_an_unsupported_claims_share_of_contradiction_falls_back_to_the_encoder():
    """With no contradicted pair to fit on, the conflict model is the encoder's own CON share."""
    from rt4chart_lab.training import train
    from rt4chart_plugins.judges.trained.decision import decide

    pairs = [data.Pair(claim=f"c{k}", premise="p", label=0 if k % 2 else 2, source="ragtruth", group=f"g{k}")
             for k in range(20)]
    logits = [[2.0, -1.0, 0.0] if k % 2 else [-1.0, 0.0, 1.0] for k in range(20)]
    decision = train.fit_decision(pairs, logits)
    assert decision.conflict == train.unfitted_decision().conflict
    _, p_con, p_nic = decide(decision, [-2.0, 1.5, -0.5], 0.5, False)
    assert p_con > p_nic


def test_the_threshold_is_fitted_on_answer_f1_and_span_f1_together():
    from rt4chart_lab.training import train

    def pair(row: str, p_ent: float, chars: int, gold: int) -> tuple[data.Pair, list[float]]:
        label = 2 if gold else 0
        return (data.Pair(claim="x", premise="y", label=label, source="ragtruth", group=row, chars=chars, gold_chars=gold),
                [p_ent, 0.0, 1 - p_ent])

    # three hallucinated answers: two with a clearly baseless short sentence next to a doubtful long
    # faithful one, one whose only bad sentence is doubtful; two faithful answers
    rows = [pair("A", 0.30, 20, 20), pair("A", 0.52, 200, 0), pair("C", 0.30, 20, 20), pair("C", 0.52, 200, 0),
            pair("E", 0.52, 20, 20), pair("B", 0.90, 200, 0), pair("D", 0.90, 200, 0)]
    pairs, probs = [p for p, _ in rows], [q for _, q in rows]
    best = train.evaluate(pairs, probs)["answer_best"]
    # above 0.52 every hallucinated answer is caught (answer F1 1.0, which the old rule took) but the
    # long faithful sentences are flagged too: span F1 2·60/(460 + 60) = 0.23, a mean of 0.62.
    # Up to 0.50 two of three answers are caught (F1 0.8) with exact spans (span F1 0.8): mean 0.8
    assert best["threshold"] == 0.5
    assert (best["f1"], best["span_f1"], best["precision"]) == (0.8, 0.8, 1.0)


@pytest.mark.skipif(_data_dir() is None, reason="needs ../shared/data")
def test_refit_keeps_the_model_and_refits_the_weights_and_threshold(tmp_path, capsys):
    pytest.importorskip("torch", reason="needs the 'train' extra")
    from rt4chart_plugins.cli import main

    out = tmp_path / "artifact"
    assert main(["train-verifier", "--out", str(out), *TINY, "--sources", "ragtruth,records"]) == 0
    first = encoder.load_manifest(out, check=True)[1]
    # as an artifact from before the fitted decision: the earlier weights, another threshold; the
    # refit must restore what today's rule fits
    stale = first.model_dump(mode="json", exclude={"decision"}) | {"threshold": 0.95, "combine": {"coverage": 0.5}}
    (out / encoder.MANIFEST_FILE).write_text(json.dumps(stale))
    capsys.readouterr()
    again = tmp_path / "refit"
    assert main(["train-verifier", "--refit", str(out), "--out", str(again)]) == 0
    refit = encoder.load_manifest(again, check=True)[1]
    assert refit.sha256 == first.sha256 == encoder.sha256_file(again / encoder.MODEL_FILE)
    assert (refit.threshold, refit.decision) == (first.threshold, first.decision) and refit.decision is not None
    assert refit.training["refit"]["previous"] == {"threshold": 0.95, "combine": {"coverage": 0.5}}
    assert "refitted" in capsys.readouterr().out


def _label_line(claim, source="xsumfaith", group="xsumfaith:abc", p_support=0.2, gold=None, model="reader-a"):
    line = {"claim": claim, "premise": "The shop opens at 9 AM.", "source": source, "group": group,
            "model": model, "gold": gold, "id": claim}
    return json.dumps(line | ({"p_support": p_support, "probs": [p_support, 0.5, 0.5]} if p_support is not None else {}))


def _held(holdout, wanted):
    """A group name of the ``extra/`` kind that the split puts on the ``wanted`` side."""
    return next(g for g in (f"xsumfaith:{i}" for i in range(1000)) if data.in_holdout(g, holdout) == wanted)


def test_reader_labels_are_soft_targets_without_wice_failed_reads_or_held_out_documents(tmp_path):
    kept, held = _held(0.5, False), _held(0.5, True)
    (tmp_path / "labels-000.jsonl").write_text("\n".join([
        _label_line("kind unknown", group=kept, p_support=0.7),
        _label_line("gold NIC", group=kept, p_support=0.4, gold="NIC"),
        _label_line("gold CON", group=kept, p_support=0.1, gold="CON"),
        _label_line("held out", group=held),
        _label_line("wice dev", source="wice", group="dev00001"),
        _label_line("failed read", group=kept, p_support=None),
        _label_line("not a probability", group=kept, p_support=float("nan")),
    ]) + "\n")
    pairs = data.reader_pairs(data_dir=None, holdout=0.5, folder=tmp_path)
    assert [p.claim for p in pairs] == ["kind unknown", "gold NIC", "gold CON"]
    # the reader's support is learnt; the rest goes to the gold's kind, or to "not ENT" when unknown
    assert [p.soft for p in pairs] == [pytest.approx(t) for t in ((0.7, 0, 0, 0.3), (0.4, 0, 0.6, 0), (0.1, 0.9, 0, 0))]
    assert [p.label for p in pairs] == [0, 2, 1] and pairs[0].source == "reader/xsumfaith"


def test_reader_labels_from_two_models_are_refused(tmp_path):
    (tmp_path / "labels-000.jsonl").write_text(
        _label_line("a", group=_held(0.5, False)) + "\n" + _label_line("b", group=_held(0.5, False), model="reader-b") + "\n")
    with pytest.raises(Exception, match="2 models"):
        data.reader_pairs(data_dir=None, holdout=0.5, folder=tmp_path)


def test_a_soft_target_is_learnt_as_its_cross_entropy_and_a_one_hot_one_as_the_hard_label():
    torch = pytest.importorskip("torch", reason="needs the 'train' extra")
    from rt4chart_lab.training.train import partial_cross_entropy

    logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, -1.0, 0.0]])
    labels = torch.tensor([0, 3, 2])
    hard = partial_cross_entropy(logits, labels)
    one_hot = torch.tensor([[1.0, 0, 0, 0], [0, 0, 0, 1.0], [0, 0, 0, 0]])  # the last row has no soft target
    assert partial_cross_entropy(logits, labels, one_hot).item() == pytest.approx(hard.item(), abs=1e-6)
    soft = torch.tensor([[0.5, 0.25, 0, 0.25], [0, 0, 0, 0], [0, 0, 0, 0]])
    logp = torch.log_softmax(logits, dim=-1)
    not_ent = torch.logsumexp(logp[0, 1:], 0)
    expected = -(0.5 * logp[0, 0] + 0.25 * logp[0, 1] + 0.25 * not_ent + torch.logsumexp(logp[1, 1:], 0) + logp[2, 2]) / 3
    assert partial_cross_entropy(logits, labels, soft).item() == pytest.approx(expected.item(), abs=1e-6)
