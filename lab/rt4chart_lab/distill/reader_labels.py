"""``rt4chart label-reader``: the embedded LLM's readings of (claim, premise) pairs, saved as they
come, for the encoder to learn from as soft labels.

The reader (:class:`rt4chart_plugins.judges.llama.premise_read.PremiseReader`) takes seconds a pair
on one core, so the job runs for hours in the background and must lose nothing when stopped:

- every pair has a stable id, a hash of its claim and premise (:func:`pair_id`), and a pair whose
  id is already in the output is skipped, so a run resumes where the last one stopped;
- each reading is appended as one JSON line and flushed at once, into shards of ``--shard-size``
  lines (``labels-000.jsonl``, …) so that committing them keeps git diffs small;
- the pairs are ordered by a weighted draw that favours those a meaning gate would send
  (:mod:`.gate_proxy`), so the first hours cover the pairs that matter most.

Sources: RAGTruth **train** rows and their edits (as ``train-verifier`` builds them), the ``extra/``
sets and synthetic minimal-pair edits of RAGTruth train and ``extra/`` text
(:mod:`rt4chart_lab.contrastive`), and WiCE dev claims. Never a RAGTruth test row, never the
minimal pairs. WiCE dev is a benchmark too: its labelled pairs carry ``source`` ``wice`` so that
a training run may leave them out and keep WiCE clean.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from pydantic import BaseModel

from rt4chart_lab.distill.gate_proxy import gate_score
from rt4chart_lab.distill.label_shards import DEFAULT_OUT, SHARD_SIZE, LabelShards

SOURCES = ("ragtruth", "contrastive", "wice")
LABEL_NAMES = ("ENT", "CON", "NIC", "NOT_ENT")
#: the premise budget and question policy of the shipped artifact (its manifest)
PREMISE_BUDGET = 120


class Candidate(BaseModel):
    """A pair to read: the claim, its premise as the trained judge picks it, where it came from,
    the source's gold label if it has one, and the gate proxy's score."""

    id: str
    claim: str
    premise: str
    source: str
    group: str
    gold: str | None
    gate: int


def pair_id(claim: str, premise: str) -> str:
    """A pair's stable id: the same claim against the same premise is one pair, whatever run or
    source made it."""
    return hashlib.sha256(f"{claim}\x00{premise}".encode()).hexdigest()[:16]


def draw_key(pid: str, gate: int) -> float:
    """A weighted draw without replacement (Efraimidis–Spirakis: u ** (1 / w), largest first),
    seeded by the id so the order is the same on every run. Weight 1 + 2 · gate."""
    u = (int(pid, 16) + 1) / (16 ** len(pid) + 1)
    return u ** (1.0 / (1 + 2 * gate))


def ordered(candidates: Iterable[Candidate]) -> list[Candidate]:
    """One candidate per id, those a gate would send more likely first."""
    unique = {c.id: c for c in candidates}
    return sorted(unique.values(), key=lambda c: -draw_key(c.id, c.gate))


# ---- sources ------------------------------------------------------------------------------------


def _candidate(claim: str, premise: str, source: str, group: str, gold: str | None) -> Candidate:
    return Candidate(id=pair_id(claim, premise), claim=claim, premise=premise, source=source, group=group,
                     gold=gold, gate=gate_score(claim, premise))


def _counter() -> Callable[[list[str]], list[int]]:
    from rt4chart_plugins.judges.trained.encoder import TOKENIZER_FILE, load_manifest, token_counter

    directory, _ = load_manifest(check=False)
    return token_counter(directory / TOKENIZER_FILE)


def ragtruth_candidates(data_dir: str | None, *, limit: int | None, seed: int) -> Iterator[Candidate]:
    """RAGTruth train answer sentences and their edits, exactly as ``train-verifier`` builds them
    (clause edits for half of the supported sentences)."""
    from rt4chart_lab.training import data

    train, _ = data.ragtruth_pairs(_counter(), PREMISE_BUDGET, data_dir=data_dir, holdout=0.0,
                                   rng=random.Random(seed), augment=True, limit=limit, clause_rate=0.5)
    for p in train:
        yield _candidate(p.claim, p.premise, p.source, p.group, LABEL_NAMES[p.label])


def contrastive_candidates(data_dir: str | None, *, per_set: int, edit_items: int, seed: int) -> Iterator[Candidate]:
    """The ``extra/`` sets at sentence level and synthetic minimal pairs (each edit beside its
    faithful original) of RAGTruth train and ``extra/`` text."""
    from rt4chart_lab.training import data

    train, _ = data.contrastive_pairs(_counter(), PREMISE_BUDGET, data_dir=data_dir, holdout=0.0, seed=seed,
                                      extra_per_set=per_set, edit_items_limit=edit_items, edits_per_item=2)
    for p in train:
        yield _candidate(p.claim, p.premise, p.source, p.group, LABEL_NAMES[p.label])


WICE_GOLD = {"supported": "ENT", "partially_supported": "NOT_ENT", "not_supported": "NOT_ENT"}


def wice_candidates(data_dir: str | None, *, limit: int | None) -> Iterator[Candidate]:
    """WiCE dev claims against the premise picked from their cited page's chunk."""
    from rt4chart_lab.data.datasets import load_wice, resolve_data_dir
    from rt4chart_lab.training.data import PremiseBuilder

    count = _counter()
    for row in load_wice(resolve_data_dir(data_dir), limit=limit):
        premise = PremiseBuilder(list(row.context_sentences), count, PREMISE_BUDGET)(row.claim)
        if premise:
            yield _candidate(row.claim, premise, "wice", row.id.split("#")[0], WICE_GOLD.get(row.label))


def build_candidates(sources: Iterable[str], data_dir: str | None, *, ragtruth_limit: int | None, per_set: int,
                     edit_items: int, seed: int, log: Callable[[str], None]) -> list[Candidate]:
    out: list[Candidate] = []
    for source in sources:
        start = time.monotonic()
        if source == "ragtruth":
            got = list(ragtruth_candidates(data_dir, limit=ragtruth_limit, seed=seed))
        elif source == "contrastive":
            got = list(contrastive_candidates(data_dir, per_set=per_set, edit_items=edit_items, seed=seed))
        elif source == "wice":
            got = list(wice_candidates(data_dir, limit=None))
        else:
            raise ValueError(f"unknown source {source!r}; use {', '.join(SOURCES)}")
        log(f"{source}: {len(got)} pairs in {time.monotonic() - start:.0f} s")
        out += got
    return ordered(out)


# ---- the output ---------------------------------------------------------------------------------


def record_of(c: Candidate, reading, model: str, seconds: float, cpu_seconds: float = 0.0) -> dict:
    """One output line: the pair, its gold label where the source has one, and the reader's
    probabilities (both raw readings and the (ENT, CON, NIC) they make), and what the pair took:
    wall-clock seconds and this process's CPU seconds (on a shared machine the second is the
    steadier)."""
    ent, con, nic = reading.probs()
    return {
        "id": c.id, "claim": c.claim, "premise": c.premise, "source": c.source, "group": c.group, "gold": c.gold,
        "gate": c.gate, "p_support": round(reading.p_support, 5), "p_compatible": round(reading.p_compatible, 5),
        "probs": [round(ent, 5), round(con, 5), round(nic, 5)], "model": model, "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu_seconds, 2),
    }


def label(candidates: list[Candidate], shards: LabelShards, read: Callable[[str, str], object], *, model: str,
          limit: int | None = None, log: Callable[[str], None] = print, every: int = 20) -> int:
    """Read the candidates not yet in ``shards``, appending each as it comes; at most ``limit``.
    A pair the reader fails on is reported and left for a later run. Returns how many were written."""
    todo = [c for c in candidates if c.id not in shards.done]
    log(f"{len(candidates)} pairs, {len(candidates) - len(todo)} already labelled, {len(todo)} to go")
    written = 0
    start = time.monotonic()
    for c in todo:
        if limit is not None and written >= limit:
            break
        t, cpu = time.monotonic(), time.process_time()
        try:
            reading = read(c.claim, c.premise)
        except Exception as exc:  # noqa: BLE001 - one pair's failure must not stop hours of labelling
            log(f"{c.id}: {type(exc).__name__}: {exc}")
            continue
        shards.append(record_of(c, reading, model, time.monotonic() - t, time.process_time() - cpu))
        written += 1
        if written % every == 0:
            rate = written / max(time.monotonic() - start, 1e-9) * 60
            log(f"{written} written, {len(shards.done)} in all, {rate:.1f} pairs/min")
    shards.close()
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="rt4chart label-reader", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder of the labels-NNN.jsonl shards")
    ap.add_argument("--sources", default=",".join(SOURCES), help=f"comma-separated, of {', '.join(SOURCES)}")
    ap.add_argument("--data-dir", default=None, help="the shared benchmark data (default: $RT4CHART_DATA_DIR)")
    ap.add_argument("--limit", type=int, default=None, help="pairs to label in this run (default: all)")
    ap.add_argument("--threads", type=int, default=1, help="llama.cpp threads (default 1)")
    ap.add_argument("--model-path", default=None, help="a GGUF file instead of the default model")
    ap.add_argument("--shard-size", type=int, default=SHARD_SIZE)
    ap.add_argument("--ragtruth-rows", type=int, default=None, help="read only the first N RAGTruth train rows")
    ap.add_argument("--extra-per-set", type=int, default=1500)
    ap.add_argument("--edit-items", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dry-run", action="store_true", help="build and count the pairs, read none")
    args = ap.parse_args(argv)
    sources = [s for s in args.sources.split(",") if s]
    if unknown := [s for s in sources if s not in SOURCES]:
        ap.error(f"unknown source {unknown[0]!r}; use {', '.join(SOURCES)}")

    def log(msg: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)

    candidates = build_candidates(sources, args.data_dir, ragtruth_limit=args.ragtruth_rows,
                                  per_set=args.extra_per_set, edit_items=args.edit_items, seed=args.seed, log=log)
    by = Counter((c.source, c.gate) for c in candidates)
    for source in sorted({s for s, _ in by}):
        log(f"  {source}: " + ", ".join(f"gate {g}: {by[(source, g)]}" for g in range(5) if by[(source, g)]))
    shards = LabelShards(args.out, args.shard_size)
    if args.dry_run:
        log(f"{len(candidates)} pairs, {sum(c.id in shards.done for c in candidates)} already labelled")
        return 0
    from rt4chart_plugins.judges.llama.premise_read import PremiseReader

    reader = PremiseReader(args.model_path, n_threads=args.threads)
    reader.load()
    n = label(candidates, shards, reader.read, model=reader.name, limit=args.limit, log=log)
    log(f"done: {n} written, {len(shards.done)} labelled in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
