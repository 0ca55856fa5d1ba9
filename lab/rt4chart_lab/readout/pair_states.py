"""``rt4chart reader-states``: the premise read's hidden state for the labelled (claim, premise)
pairs, saved as they come, for a probe to be fitted on (``rt4chart reader-probe``).

The premise read (:mod:`rt4chart_plugins.judges.llama.premise_read`) asks the embedded model
"does the passage support the statement?" and takes P(Yes) against P(No) at the last position of
its prompt: one fixed direction of the final hidden state. This job takes that whole state, the
vector the LM head reads (llama.cpp's output after the last norm, ``embedding=True`` with no
pooling, the last token's row), at the end of the very prompt the premise read builds
(:func:`prompt_text`), and the same position's P(Yes) as a check that it is the same read.

Like ``rt4chart label-reader``, it runs for hours on one thread and loses nothing when stopped:

- the pairs are the committed reader labels (:mod:`rt4chart_lab.distill.label_shards`), keyed by
  their ids; a pair already in the output is skipped, so a run resumes where the last one stopped;
- each state is appended as one JSON line (float32, base64) and flushed at once into shards of
  the same kind as the labels', in a cache folder kept out of git (:data:`DEFAULT_CACHE`), one
  subfolder per model;
- the order (:func:`balanced_order`) takes one pair of every group before a second of any, and
  deals the gold labels in turn, so a run stopped early still holds a sample spread over
  documents and labels; WiCE pairs (a benchmark) come last.

The instructions stay in the KV cache between pairs; every token but the last is read with the
embeddings off (llama.cpp would otherwise output every position), the last with them on.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from rt4chart_lab.distill.label_shards import DEFAULT_OUT, LabelShards, read_labels
from rt4chart_lab import jsonl

#: the lab's cache of extracted states (git-ignored), one subfolder per reader model
DEFAULT_CACHE = Path(__file__).resolve().parents[2] / "cache" / "reader-states"
SHARD_SIZE = 400
#: what the states are: the last layer after the output norm, at the prompt's last token
LAYER = "out_norm"
GOLD_ORDER = ("ENT", "CON", "NIC", "NOT_ENT")


def prompt_text(claim: str, premise: str) -> str:
    """The premise read's support prompt for one pair, exactly as it builds it."""
    from rt4chart_plugins.judges.llama import prompting
    from rt4chart_plugins.judges.llama.premise_read import ASK_SUPPORT, SYSTEM, pair_user

    return prompting.chatml([("system", SYSTEM), ("user", pair_user(premise, claim, ASK_SUPPORT))])


def prompt_digest() -> str:
    """A short hash of the instructions and the question: states read under another prompt are
    not the same features."""
    from rt4chart_plugins.judges.llama.premise_read import ASK_SUPPORT, SYSTEM

    return hashlib.sha256(f"{SYSTEM}\x00{ASK_SUPPORT}\x00{LAYER}".encode()).hexdigest()[:12]


def model_folder(cache: Path, model: str) -> Path:
    """The subfolder of ``cache`` for one reader model's states (its name made path-safe)."""
    return Path(cache) / "".join(ch if ch.isalnum() or ch in "-._" else "_" for ch in model)


def _hash(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


def balanced_order(rows: Iterable[dict]) -> list[dict]:
    """The rows in the order they are read: within each group its pairs in a seeded order, and a
    pair's round is its place there; all first rounds come before any second one. Within that,
    one queue per gold label (ordered by round, then a hash), dealt in turn, so that any prefix
    holds about as many pairs of each label as are left. WiCE rows come after all others."""
    rows = list(rows)
    by_group: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_group[r["group"]].append(r)
    round_of: dict[str, int] = {}
    for members in by_group.values():
        for k, r in enumerate(sorted(members, key=lambda r: _hash(r["id"]))):
            round_of[r["id"]] = k

    def dealt(part: list[dict]) -> list[dict]:
        queues: dict[str, list[dict]] = defaultdict(list)
        for r in part:
            queues[r.get("gold") or "none"].append(r)
        for q in queues.values():
            q.sort(key=lambda r: (round_of[r["id"]], _hash(r["group"] + r["id"])))
        names = [g for g in GOLD_ORDER if g in queues] + sorted(g for g in queues if g not in GOLD_ORDER)
        out, at = [], {g: 0 for g in names}
        while len(out) < len(part):
            for g in names:
                if at[g] < len(queues[g]):
                    out.append(queues[g][at[g]])
                    at[g] += 1
        return out

    return dealt([r for r in rows if r["source"] != "wice"]) + dealt([r for r in rows if r["source"] == "wice"])


# ---- the records --------------------------------------------------------------------------------


def encode(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def decode(text: str, dim: int) -> np.ndarray:
    out = np.frombuffer(base64.b64decode(text), dtype="<f4")
    if out.shape != (dim,):
        raise ValueError(f"a state of {out.size} numbers where {dim} were expected")
    return out


def record_of(pid: str, hidden: np.ndarray, p_yes: float, tokens: int, model: str, seconds: float,
              cpu_seconds: float) -> dict:
    return {"id": pid, "model": model, "prompt": prompt_digest(), "layer": LAYER, "dim": int(hidden.size),
            "hidden": encode(hidden), "p_yes": round(float(p_yes), 6), "tokens": tokens,
            "seconds": round(seconds, 2), "cpu_seconds": round(cpu_seconds, 2)}


def read_states(folder: Path, *, prompt: str | None = None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(ids, hidden states (n, d) float32, P(Yes) (n,)) of every state in ``folder``'s shards; a
    line cut short by a kill is skipped (:func:`rt4chart_lab.jsonl.records`). States of another
    prompt than ``prompt`` (default: the premise read's) or of two sizes are refused."""
    prompt = prompt or prompt_digest()
    ids, vectors, p_yes = [], [], []
    seen: set[str] = set()
    for path in sorted(Path(folder).glob("labels-*.jsonl")):
        for r in jsonl.records(path):
            if r.get("prompt") != prompt:
                raise ValueError(f"{path.name}: a state read under prompt {r.get('prompt')!r}, not {prompt!r}")
            if r["id"] in seen:
                continue
            seen.add(r["id"])
            ids.append(r["id"])
            vectors.append(decode(r["hidden"], r["dim"]))
            p_yes.append(r["p_yes"])
    if len({v.size for v in vectors}) > 1:
        raise ValueError(f"{folder}: states of more than one size")
    hidden = np.stack(vectors) if vectors else np.zeros((0, 0), dtype=np.float32)
    return ids, hidden, np.asarray(p_yes, dtype=np.float64)


# ---- the model ----------------------------------------------------------------------------------


class PairStateReader:
    """The judge model loaded with its final hidden state available (one thread by default, for
    the prompt batch too), reading one premise-read prompt at a time and keeping the shared
    instructions in its KV cache."""

    def __init__(self, model_path: str | Path | None = None, *, n_threads: int = 1):
        from rt4chart_plugins import models
        from rt4chart_plugins.judges.llama.loading import judge_model_name

        self.path = models.locate(models.DEFAULT_MODEL, model_path)
        self.name = judge_model_name(models.DEFAULT_MODEL, model_path)
        self.n_threads = n_threads
        self._llm: Any = None
        self._yes: list[int] = []
        self._no: list[int] = []
        self._cached: list[int] = []

    def load(self) -> Any:
        if self._llm is None:
            from llama_cpp import LLAMA_POOLING_TYPE_NONE

            from rt4chart_plugins.judges import prompts
            from rt4chart_plugins.judges.llama.premise_read import N_CTX
            from rt4chart_plugins.judges.llama.scoring import first_tokens
            from rt4chart_plugins.llama_runtime.loaded import shared_llama

            self._llm, _ = shared_llama(self.path, n_ctx=N_CTX, n_batch=512, n_ubatch=512,
                                        n_threads=self.n_threads, n_threads_batch=self.n_threads,
                                        embedding=True, pooling_type=LLAMA_POOLING_TYPE_NONE)
            self._yes = first_tokens(self._llm, prompts.READOUT_YES)
            self._no = first_tokens(self._llm, prompts.READOUT_NO)
        return self._llm

    def _decode(self, tokens: list[int], n_past: int, embeddings: bool) -> None:
        """Read ``tokens`` after ``n_past`` cached ones; only the last is an output."""
        import llama_cpp

        llm = self._llm
        ctx, batch = llm._ctx, llm._batch
        llama_cpp.llama_set_embeddings(ctx.ctx, embeddings)
        for i in range(0, len(tokens), 512):
            chunk = tokens[i: i + 512]
            batch.set_batch(batch=chunk, n_past=n_past + i, logits_all=False)
            for j in range(len(chunk)):
                batch.batch.logits[j] = i + j == len(tokens) - 1
            ctx.decode(batch)

    def read(self, claim: str, premise: str) -> tuple[np.ndarray, float, int]:
        """(the final hidden state at the prompt's last token, P(Yes) against P(No) there, the
        tokens read) for one pair."""
        import llama_cpp

        from rt4chart_plugins.judges.llama import prompting
        from rt4chart_plugins.judges.llama.premise_read import N_CTX
        from rt4chart_plugins.judges.llama.scoring import p_yes

        llm = self.load()
        tokens = prompting.tokens(llm, prompt_text(claim, premise))
        if len(tokens) >= N_CTX:
            raise ValueError(f"prompt of {len(tokens)} tokens exceeds the reader's context of {N_CTX}")
        keep = 0
        while keep < min(len(self._cached), len(tokens) - 1) and self._cached[keep] == tokens[keep]:
            keep += 1
        self._cached = []  # until the reads below succeed, nothing in the cache is trusted
        llm._ctx.kv_cache_seq_rm(-1, keep, -1)
        if keep < len(tokens) - 1:
            self._decode(tokens[keep:-1], keep, embeddings=False)
        self._decode(tokens[-1:], len(tokens) - 1, embeddings=True)
        d, vocab = llm.n_embd(), llm.n_vocab()
        hidden = np.array(np.ctypeslib.as_array(llama_cpp.llama_get_embeddings_ith(llm._ctx.ctx, -1), shape=(d,)),
                          dtype=np.float32)
        logits = np.array(np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llm._ctx.ctx, -1), shape=(vocab,)),
                          dtype=np.float64)
        llama_cpp.llama_set_embeddings(llm._ctx.ctx, False)
        llm.n_tokens = 0  # the high-level object must not believe its own cache is valid
        if not (np.all(np.isfinite(hidden)) and np.all(np.isfinite(logits))):
            raise ValueError("the reader's state was not finite")
        self._cached = tokens
        return hidden, p_yes(logits, self._yes, self._no), len(tokens) - keep


# ---- the job ------------------------------------------------------------------------------------


def extract(rows: list[dict], shards: LabelShards, read: Callable[[str, str], tuple[np.ndarray, float, int]], *,
            model: str, limit: int | None = None, log: Callable[[str], None] = print, every: int = 20) -> int:
    """Read the rows not yet in ``shards`` in the given order, appending each state as it comes;
    at most ``limit``. A pair the reader fails on is reported and left for a later run."""
    todo = [r for r in rows if r["id"] not in shards.done]
    log(f"{len(rows)} pairs, {len(rows) - len(todo)} already read, {len(todo)} to go")
    written, start = 0, time.monotonic()
    for r in todo:
        if limit is not None and written >= limit:
            break
        t, cpu = time.monotonic(), time.process_time()
        try:
            hidden, p, n_tokens = read(r["claim"], r["premise"])
        except Exception as exc:  # noqa: BLE001 - one pair's failure must not stop hours of reading
            log(f"{r['id']}: {type(exc).__name__}: {exc}")
            continue
        shards.append(record_of(r["id"], hidden, p, n_tokens, model, time.monotonic() - t, time.process_time() - cpu))
        written += 1
        if written % every == 0:
            rate = written / max(time.monotonic() - start, 1e-9) * 60
            log(f"{written} written, {len(shards.done)} in all, {rate:.1f} pairs/min; "
                f"P(Yes) {p:.3f} against the label's {r['p_support']:.3f}")
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="rt4chart reader-states", description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, default=DEFAULT_OUT, help="the reader labels' folder")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where the states go (a folder per model)")
    ap.add_argument("--limit", type=int, default=None, help="pairs to read in this run (default: all)")
    ap.add_argument("--threads", type=int, default=1, help="llama.cpp threads (default 1)")
    ap.add_argument("--model-path", default=None, help="a GGUF file instead of the default model")
    ap.add_argument("--no-wice", action="store_true", help="leave the WiCE pairs out")
    ap.add_argument("--dry-run", action="store_true", help="count the pairs, read none")
    args = ap.parse_args(argv)

    def log(msg: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)

    rows = [r for r in read_labels(args.labels) if not (args.no_wice and r["source"] == "wice")]
    models = sorted({r["model"] for r in rows})
    reader = PairStateReader(args.model_path, n_threads=args.threads)
    if models != [reader.name]:
        log(f"warning: the labels were read by {', '.join(models)}; these states by {reader.name}")
    folder = model_folder(args.cache, reader.name)
    shards = LabelShards(folder, SHARD_SIZE)
    ordered = balanced_order(rows)
    if args.dry_run:
        log(f"{len(ordered)} pairs, {sum(r['id'] in shards.done for r in ordered)} already read, in {folder}")
        return 0
    reader.load()
    n = extract(ordered, shards, reader.read, model=reader.name, limit=args.limit, log=log)
    log(f"done: {n} written, {len(shards.done)} read in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
