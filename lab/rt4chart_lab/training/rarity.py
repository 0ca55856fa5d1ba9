"""`rt4chart fit-rarity`: how common each word is in documents, and what it means, for the novelty signal.

A claim that adds "give" or "provide" to its context is usually a paraphrase; one that adds
"storage", "landlord" or "refund" usually invents something. The trained judge weighs each word a
claim adds by how rare its lemma is in documents (:mod:`rt4chart_plugins.rules.novelty`). The
counts are document frequencies over RAGTruth train contexts (MIT) and the FEVER-NLI premises
(Wikipedia text, CC BY-SA 3.0; only counts are kept, no text), written to
``rt4chart_plugins/rules/word_rarity.json``: a lemma seen in fewer than :data:`MIN_DF` documents is
left out and reads as rare.

Beside the counts, each kept lemma's meaning as a short static vector
(``rt4chart_plugins/rules/word_vectors.npy``): the lemma alone through all-MiniLM-L6-v2 (mean
pooling, Apache-2.0), reduced to :data:`DIMS` dimensions by PCA and stored as int8. A word a claim
adds that means what a context word means ("midday" for "noon", "shuts" for "closes") weighs less
as an added fact: that is a paraphrase's usual new word.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir
from rt4chart_plugins.rules import novelty

MIN_DF = 3
DIMS = 128
FEVER = ("nli/binary_fever_nli_docnli/dev.jsonl.gz", "nli/binary_fever_nli_docnli/test.jsonl.gz")


def documents(data_dir: Path) -> list[str]:
    """RAGTruth train contexts (each once) and the FEVER-NLI premises."""
    docs = {r.context if isinstance(r.context, str) else json.dumps(r.context)
            for r in load_ragtruth(data_dir, split="train")}
    out = sorted(docs)
    for name in FEVER:
        with gzip.open(data_dir / name, "rt", encoding="utf-8") as f:
            out += [json.loads(line)["premise"] for line in f]
    return out


def document_frequency(docs: list[str]) -> Counter:
    df: Counter = Counter()
    for d in docs:
        df.update({novelty.lemma_key(w) for w in novelty.words_of(d)})
    return df


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="rt4chart fit-rarity", description=__doc__.splitlines()[0])
    p.add_argument("--data-dir", help="the shared data directory (default: ../shared/data or $RT4CHART_DATA_DIR)")
    p.add_argument("--out", type=Path, default=novelty.RARITY_FILE)
    args = p.parse_args(argv)
    docs = documents(resolve_data_dir(args.data_dir))
    df = document_frequency(docs)
    kept = {k: n for k, n in sorted(df.items()) if n >= MIN_DF}
    args.out.write_text(json.dumps({"documents": len(docs), "min_df": MIN_DF, "df": kept}, separators=(",", ":")) + "\n")
    print(f"{len(docs)} documents, {len(df)} lemmas, {len(kept)} kept (df >= {MIN_DF}) -> {args.out}")
    vectors = word_vectors(list(kept))
    np.save(args.out.with_name(novelty.VECTORS_FILE.name), vectors)
    print(f"{vectors.shape} int8 vectors -> {args.out.with_name(novelty.VECTORS_FILE.name)}")
    return 0


def word_vectors(words: list[str], batch: int = 256) -> np.ndarray:
    """Each word alone through all-MiniLM-L6-v2, mean-pooled and normalized, reduced by PCA to
    :data:`DIMS` dimensions, normalized again and stored as int8 (x 127)."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    from rt4chart_lab.training.train import _base_model_dir

    base = _base_model_dir()
    tok, model = AutoTokenizer.from_pretrained(base), AutoModel.from_pretrained(base).eval()
    out = []
    with torch.inference_mode():
        for i in range(0, len(words), batch):
            enc = tok(words[i : i + batch], padding=True, return_tensors="pt")
            hidden = model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).float()
            out.append(((hidden * mask).sum(1) / mask.sum(1)).numpy())
    x = np.concatenate(out)
    x -= x.mean(axis=0)
    _, _, vt = np.linalg.svd(x, full_matrices=False)
    reduced = x @ vt[:DIMS].T
    reduced /= np.linalg.norm(reduced, axis=1, keepdims=True) + 1e-9
    return np.round(reduced * 127).astype(np.int8)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
