"""``rt4chart readout-fit``: train the linear readout on the embedded judge's hidden state.

Statements, each asked of the judge against a whole document with its global support prompt:
- every answer sentence of N RAGTruth **train** rows (a seeded choice that keeps the QA/Summary
  mix), labelled by the gold spans it overlaps: Conflict → CON, Baseless → NIC, none → ENT;
- for rows outside ``in_holdout`` (the 20 % of sources the cross-encoder validates on), edits of their supported sentences (a changed number,
  day, month, name or polarity → CON, ``training/synth.py``) and a supported sentence of another
  source → NIC; they share the row's prefix, so they cost only their question;
- generated business records (RAGTruth's Data2txt has no train rows) with faithful, contradicted
  and absent verbalizations.

States are cached per document in ``results/readout-fit/<model>/`` so an interrupted run
resumes and a refit costs nothing. The L2 strength and the threshold are chosen by 5-fold
cross-validation grouped by source document (each RAGTruth answer's real sentences are predicted
by a readout that saw nothing of its source); the printed table is those out-of-fold numbers,
next to the judge's prompt-only P(Yes) on the same sentences. The shipped readout is then fitted
on everything. No RAGTruth test row is read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir
from rt4chart_lab.metrics import auc
from rt4chart_lab.thresholds import best_threshold
from rt4chart_lab.gasp_fit import choose_rows
from rt4chart_plugins.claims import is_refusal
from rt4chart_plugins.pipeline.segment import segment_answer, segment_context
from rt4chart_lab.data import synth
from rt4chart_lab.training.data import LABEL_ID, in_holdout, sentence_label, source_of, supported_sentences
from rt4chart_lab.logistic import softmax
from rt4chart_lab.readout.probe import features, fit_linear
from rt4chart_lab.readout.states import StateReader, chatml_question, document_prefix

HOLDOUT = 0.2
PER_RECORD = 10  # statements per generated record (a record verbalizes into ~30)


@dataclass
class Document:
    """One prefix and the statements asked after it."""

    group: str  # source document (the validation split is by source)
    row_id: str | None  # the RAGTruth row whose answer these sentences are (None for records)
    task: str
    context: str
    question: str | None
    statements: list[tuple[str, int, str]]  # (text, label id, kind: "real" | "edit" | "foreign" | "record")
    held_out: bool

    def key(self) -> str:
        blob = json.dumps([self.context, self.question, self.statements])
        return hashlib.sha256(blob.encode()).hexdigest()[:20]


def documents(n_rows: int, n_records: int, data_dir: str | None, seed: int = 13) -> list[Document]:
    rng = random.Random(seed)
    rows = load_ragtruth(resolve_data_dir(data_dir), split="train")
    if any(r.split != "train" for r in rows):  # pragma: no cover - load_ragtruth filters already
        raise SystemExit("refusing RAGTruth test rows as training data")
    chosen = choose_rows(rows, n_rows, seed="readout")
    pool = supported_sentences(chosen)
    docs: list[Document] = []
    for row in chosen:
        group = source_of(row.id)
        held = in_holdout(group, HOLDOUT)
        names = synth.context_names(row.context)
        statements: list[tuple[str, int, str]] = []
        for s in segment_answer(row.answer):
            if is_refusal(s.text):
                continue
            label = sentence_label(s.start, s.end, row.labels)
            statements.append((s.text, LABEL_ID[label], "real"))
            if held or label != "ENT":
                continue
            if rng.random() < 0.5 and (edited := synth.contradict(s.text, names, rng)):
                statements.append((edited, LABEL_ID["CON"], "edit"))
            if rng.random() < 0.25 and pool:
                other_id, other = rng.choice(pool)
                if source_of(other_id) != group:
                    statements.append((other, LABEL_ID["NIC"], "foreign"))
        if statements:
            docs.append(Document(group, row.id, row.task_type, row.context, row.question, statements, held))
    for i in range(n_records):
        record = synth.business_record(rng)
        claims = synth.verbalize(record, rng)
        claims = rng.sample(claims, min(PER_RECORD, len(claims)))
        statements = [(t, LABEL_ID[lab], "record") for t, lab in claims]
        docs.append(Document(f"rec{i}", None, "Data2txt", synth.record_context(record), None, statements, False))
    return docs


def read_states(reader: StateReader, doc: Document, cache: Path) -> dict[str, np.ndarray]:
    path = cache / f"{doc.key()}.npz"
    if path.exists():
        with np.load(path) as z:
            return dict(z)
    started = time.perf_counter()
    sentences = segment_context(doc.context)
    prefix, _ = document_prefix(reader, sentences, doc.question)
    states = reader.read(prefix, [reader.tokenize(chatml_question(t)) for t, _, _ in doc.statements])
    out = {"hidden": states.hidden, "p_yes": states.p_yes, "labels": np.array([lab for _, lab, _ in doc.statements]),
           "kinds": np.array([k for _, _, k in doc.statements]), "seconds": np.array(time.perf_counter() - started),
           "tokens": np.array(states.tokens_read)}
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **out)
    tmp.replace(path)
    return out


def extract(reader: StateReader, docs: list[Document], cache: Path, progress: bool = True) -> list[dict]:
    from tqdm import tqdm

    cache.mkdir(parents=True, exist_ok=True)
    return [read_states(reader, d, cache) for d in tqdm(docs, desc="judge hidden states", unit="doc",
                                                         disable=not progress)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rt4chart readout-fit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b", help="the judge whose hidden state is read")
    parser.add_argument("--rows", type=int, default=150, help="RAGTruth train rows (default 150)")
    parser.add_argument("--records", type=int, default=40, help="generated business records (default 40)")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--cache", default="results/readout-fit", help="folder of the per-document state cache")
    parser.add_argument("--out", default=None, help="folder for <model>.json (default: the package's artifacts)")
    parser.add_argument("--extract-only", action="store_true", help="compute the states, fit nothing")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    from rt4chart_plugins import models

    reader = StateReader(models.locate(args.model))
    docs = documents(args.rows, args.records, args.data_dir)
    n = sum(len(d.statements) for d in docs)
    print(f"{len(docs)} documents, {n} statements", file=sys.stderr)
    states = extract(reader, docs, Path(args.cache) / args.model, progress=not args.quiet)
    if args.extract_only:
        return 0
    return fit_and_report(docs, states, args)


# ---- fitting -----------------------------------------------------------------------------------

FOLDS = 5
GRID = [(k, l2) for k in (16, 64, 256) for l2 in (0.01, 0.1, 1.0)]  # (components, L2)


def _fold(group: str) -> int:
    return int(hashlib.sha256(f"readout:{group}".encode()).hexdigest()[:8], 16) % FOLDS


def _stack(items: list[tuple[Document, dict]]) -> tuple[np.ndarray, np.ndarray]:
    x = np.vstack([features(s["hidden"], s["p_yes"]) for _, s in items])
    y = np.concatenate([s["labels"] for _, s in items]).astype(int)
    return x, y


def out_of_fold(docs: list[Document], states: list[dict], components: int,
                l2: float) -> list[tuple[Document, np.ndarray, dict]]:
    """Each RAGTruth row's real sentences predicted by a readout fitted without its source's fold."""
    pairs = list(zip(docs, states))
    out = []
    for f in range(FOLDS):
        train = [(d, s) for d, s in pairs if d.row_id is None or _fold(d.group) != f]
        test = [(d, s) for d, s in pairs if d.row_id is not None and _fold(d.group) == f]
        if not test:
            continue
        mean, std, w, b = fit_linear(*_stack(train), components, l2)
        for d, s in test:
            real = s["kinds"] == "real"
            p = softmax(((features(s["hidden"], s["p_yes"]) - mean) / std) @ w.T + b)
            out.append((d, p[real], {"labels": s["labels"][real], "p_yes": s["p_yes"][real]}))
    return out


def evaluate(oof: list[tuple[Document, np.ndarray, dict]], use_prompt: bool = False) -> dict:
    """Sentence and answer AUC, best answer F1 and its threshold, CON vs NIC accuracy."""
    sent_scores, sent_gold, ans_scores, ans_gold, con_nic = [], [], [], [], []
    for _, p, s in oof:
        score = 1.0 - (s["p_yes"] if use_prompt else p[:, 0])
        sent_scores += list(score)
        sent_gold += list(s["labels"] != 0)
        ans_scores.append(float(score.max()))
        ans_gold.append(bool((s["labels"] != 0).any()))
        if not use_prompt:
            con_nic += [int(np.argmax(pi[1:]) + 1 == lab) for pi, lab in zip(p, s["labels"]) if lab != 0]
    threshold, f1 = best_threshold(ans_scores, ans_gold)
    flagged = [a > threshold for a in ans_scores]
    tp = sum(f and g for f, g in zip(flagged, ans_gold))
    return {"sentences": len(sent_scores), "answers": len(ans_scores), "positives": sum(ans_gold),
            "sentence_auc": _r(auc(sent_scores, sent_gold)), "answer_auc": _r(auc(ans_scores, ans_gold)),
            "answer_f1": round(f1, 4), "answer_p": round(tp / max(1, sum(flagged)), 4),
            "answer_r": round(tp / max(1, sum(ans_gold)), 4), "threshold": round(threshold, 4),
            "con_vs_nic_acc": round(float(np.mean(con_nic)), 4) if con_nic else None}


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def fit_and_report(docs: list[Document], states: list[dict], args: argparse.Namespace) -> int:
    from rt4chart_lab.readout.probe import Readout, readout_path

    rows = [d for d in docs if d.row_id is not None]
    print(f"\n{FOLDS}-fold cross-validation by source over {len(rows)} RAGTruth train answers "
          f"(real sentences only are scored; edits and records only ever train)\n")
    print("| readout | components | L2 | sentence AUC | answer AUC | answer F1 (P / R) | threshold | CON vs NIC acc |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    results = {}
    for k, l2 in GRID:
        results[k, l2] = m = evaluate(out_of_fold(docs, states, k, l2))
        print(f"| hidden state + P(Yes) | {k} | {l2} | {m['sentence_auc']} | {m['answer_auc']} | {m['answer_f1']} "
              f"({m['answer_p']} / {m['answer_r']}) | {m['threshold']} | {m['con_vs_nic_acc']} |")
    prompt = evaluate(out_of_fold(docs, states, *GRID[0]), use_prompt=True)
    print(f"| the judge's P(Yes) alone (prompt only) | - | - | {prompt['sentence_auc']} | {prompt['answer_auc']} | "
          f"{prompt['answer_f1']} ({prompt['answer_p']} / {prompt['answer_r']}) | {prompt['threshold']} | - |")
    best = max(GRID, key=lambda g: (results[g]["answer_auc"] or 0, results[g]["sentence_auc"] or 0))
    x, y = _stack(list(zip(docs, states)))
    mean, std, w, b = fit_linear(x, y, *best)
    counts = np.bincount(y, minlength=3)
    readout = Readout(
        model=args.model, dim=x.shape[1], mean=mean.tolist(), std=std.tolist(), weights=w.tolist(), bias=b.tolist(),
        components=best[0], l2=best[1], threshold=results[best]["threshold"], prompt_threshold=prompt["threshold"],
        fitted_on=(f"rt4chart readout-fit --model {args.model} --rows {args.rows} --records {args.records}: "
                   f"{len(rows)} RAGTruth train answers + {len(docs) - len(rows)} generated records, "
                   f"{len(y)} statements (ENT {counts[0]}, CON {counts[1]}, NIC {counts[2]}); components, L2 and threshold "
                   f"chosen by {FOLDS}-fold cross-validation by source"),
        validation={**results[best], "prompt_only_answer_auc": prompt["answer_auc"],
                    "prompt_only_sentence_auc": prompt["sentence_auc"]})
    readout.sha256 = readout.digest()
    path = readout_path(args.model, args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(readout.model_dump_json() + "\n", encoding="utf-8")
    print(f"\nchose {best[0]} components, L2 {best[1]}; wrote {path} (sha256 {readout.sha256[:12]}…)")
    return 0
