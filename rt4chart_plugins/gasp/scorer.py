"""Re-scoring a fixed answer with a small causal LM under several versions of the context.

One sequence is ``head + chunk_1 … chunk_K + tail + answer``. GASP needs the answer's token
log-probabilities and full next-token distributions under the full context, under no context,
and with each chunk left out. Those conditions share prefixes, so they are laid out for the KV
cache: the full sequence is read once; then, for k = K … 1, the cache is cut back to
``head + chunk_1 … chunk_{k-1}`` (still valid) and only ``chunk_{k+1} … + tail + answer`` is read;
the empty context is the last cut, back to ``head``. With K = 5 this reads about half the tokens
that seven independent passes would.

Logits are requested only at the positions that predict answer tokens (llama.cpp's per-token
output flags), not for the whole prompt: for a 150k-token vocabulary that is the difference
between a few MB and a few GB per pass. llama-cpp-python's high-level API has no such call, so
this module drives its context and batch objects directly (pinned llama-cpp-python 0.3.36).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.llama_runtime.loaded import DirectLlama

_BLOCK = 64  # answer positions per block of the JSD computation (bounds memory at 64 × vocab)


@dataclass
class Conditions:
    """Per answer token: its log-probability under each condition and the JSD of each condition's
    next-token distribution from the full-context one. ``loo[k]`` is the context without chunk k."""

    full: np.ndarray
    empty: np.ndarray
    jsd_empty: np.ndarray
    loo: list[np.ndarray] = field(default_factory=list)
    jsd_loo: list[np.ndarray] = field(default_factory=list)
    passes: int = 0  # forward passes run: full, empty, and one per chunk when there are several
    tokens_read: int = 0  # tokens the model actually processed (after prefix reuse)
    tokens_naive: int = 0  # what independent passes would have processed


def log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def jsd_rows(lp: np.ndarray, lq: np.ndarray) -> np.ndarray:
    """Jensen–Shannon divergence (nats, in [0, ln 2]) between rows of two log-distributions. The
    mixture is floored at the smallest normal float before its log, so entries where both
    probabilities underflow to 0 contribute 0, not NaN (one log per entry: this runs over the
    whole vocabulary for every answer token and condition)."""
    p, q = np.exp(lp), np.exp(lq)
    log_m = np.log(np.maximum(p + q, np.finfo(p.dtype).tiny)) - np.log(2.0)
    out = 0.5 * ((p * (lp - log_m)).sum(axis=1) + (q * (lq - log_m)).sum(axis=1))
    return np.clip(out, 0.0, np.log(2.0))


class LlamaScorer(DirectLlama):
    """A GGUF causal LM through llama-cpp-python, used only to score text (nothing is generated).
    Instances with the same file and settings share the loaded model and its lock."""

    def __init__(self, model_path: str | Path, *, n_ctx: int = 8192, n_threads: int | None = None, n_batch: int = 512):
        super().__init__(model_path, n_ctx=n_ctx, n_threads=n_threads, n_batch=n_batch)

    def _params(self) -> dict[str, Any]:
        return {**super()._params(), "logits_all": False}

    def tokenize(self, text: str, *, bos: bool = False) -> list[int]:
        return self.load().tokenize(text.encode("utf-8"), add_bos=bos, special=False) if text or bos else []

    def token_char_spans(self, text: str, tokens: list[int]) -> list[tuple[int, int]]:
        """Each token's [start, end) in ``text`` (characters), from the lengths of the decoded
        prefixes, which stays right across multi-byte characters split between tokens."""
        llm = self.load()
        byte_to_char = np.zeros(len(text.encode("utf-8")) + 1, dtype=np.int64)
        pos = 0
        for i, ch in enumerate(text):
            n = len(ch.encode("utf-8"))
            byte_to_char[pos + 1 : pos + n + 1] = i + 1
            pos += n
        spans, prev = [], 0
        for i in range(len(tokens)):
            end = min(len(llm.detokenize(tokens[: i + 1])), len(byte_to_char) - 1)
            spans.append((int(byte_to_char[prev]), int(byte_to_char[end])))
            prev = end
        return spans

    # ---- scoring -------------------------------------------------------------------------------

    def _decode(self, tokens: list[int], n_past: int, first_output: int) -> np.ndarray:
        """Read ``tokens`` at positions ``n_past…``; return the logits of positions ``i >=
        first_output`` (indices into ``tokens``), one row each."""
        llm = self._llm
        ctx, batch, vocab = llm._ctx, llm._batch, llm.n_vocab()
        rows = []
        for i in range(0, len(tokens), self.n_batch):
            chunk = tokens[i : i + self.n_batch]
            batch.set_batch(batch=chunk, n_past=n_past + i, logits_all=False)
            wanted = 0
            for j in range(len(chunk)):
                flag = i + j >= first_output
                batch.batch.logits[j] = flag
                wanted += flag
            ctx.decode(batch)
            if wanted:
                rows.append(
                    np.ctypeslib.as_array(ctx.get_logits(), shape=(wanted * vocab,))
                    .reshape(wanted, vocab)
                    .astype(np.float32, copy=True)
                )
        return np.concatenate(rows) if rows else np.zeros((0, vocab), dtype=np.float32)

    def _answer_logits(self, prefix: list[int], n_keep: int, answer: list[int]) -> np.ndarray:
        """Cut the cache to ``n_keep`` tokens, read ``prefix[n_keep:] + answer``, return the rows
        that predict each answer token (the last prefix position predicts the first one)."""
        self._llm._ctx.kv_cache_seq_rm(-1, n_keep, -1)
        new = prefix[n_keep:] + answer
        first = len(prefix) - n_keep - 1
        if first < 0:
            raise InvalidInput("the scoring prompt must keep at least one token before the answer")
        return self._decode(new[:-1], n_keep, first)  # the last answer token predicts nothing we need

    def score(self, head: list[int], chunks: list[list[int]], tail: list[int], answer: list[int]) -> Conditions:
        """The answer under the full context, no context and each leave-one-chunk-out context."""
        if not answer:
            raise InvalidInput("nothing to score: the answer has no tokens")
        if not head:
            raise InvalidInput("the scoring prompt needs a head (at least a BOS token)")
        llm = self.load()
        n = len(head) + sum(map(len, chunks)) + len(tail) + len(answer)
        if n > llm.n_ctx():
            raise InvalidInput(f"{n} tokens do not fit the scorer's {llm.n_ctx()}-token window")
        target = np.asarray(answer)
        passes = [n - 1]  # tokens read by each pass (the last answer token is never read)
        with self._lock:
            full_prefix = head + [t for c in chunks for t in c] + tail
            full = log_softmax(self._answer_logits(full_prefix, 0, answer))

            def compare(prefix: list[int], keep: int) -> tuple[np.ndarray, np.ndarray]:
                passes.append(len(prefix) - keep + len(answer) - 1)
                logits = self._answer_logits(prefix, keep, answer)
                lp_tok = np.empty(len(answer), dtype=np.float32)
                jsd = np.empty(len(answer), dtype=np.float32)
                for b in range(0, len(answer), _BLOCK):
                    lp = log_softmax(logits[b : b + _BLOCK])
                    lp_tok[b : b + _BLOCK] = lp[np.arange(len(lp)), target[b : b + _BLOCK]]
                    jsd[b : b + _BLOCK] = jsd_rows(full[b : b + _BLOCK], lp)
                return lp_tok, jsd

            loo: list[tuple[np.ndarray, np.ndarray]] = []
            if len(chunks) > 1:  # with one chunk, leaving it out is the empty context
                for k in range(len(chunks) - 1, -1, -1):
                    keep = len(head) + sum(len(c) for c in chunks[:k])
                    prefix = head + [t for c in chunks[:k] + chunks[k + 1 :] for t in c] + tail
                    loo.insert(0, compare(prefix, keep))
            empty, jsd_empty = compare(head + tail, len(head))
        loo = loo or [(empty, jsd_empty)] * len(chunks)
        # independent passes would read the whole prompt each time: full, empty, each chunk left out
        naive = n + (n - sum(map(len, chunks))) + (sum(n - len(c) for c in chunks) if len(chunks) > 1 else 0)
        return Conditions(
            full=full[np.arange(len(answer)), target],
            empty=empty,
            jsd_empty=jsd_empty,
            loo=[lp for lp, _ in loo],
            jsd_loo=[j for _, j in loo],
            passes=len(passes),
            tokens_read=sum(passes),
            tokens_naive=naive,
        )
