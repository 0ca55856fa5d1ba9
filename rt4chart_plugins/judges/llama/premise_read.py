"""The cheap read: the embedded LLM judges one (claim, premise) pair off its next-token logits.

The full embedded judge reads a whole window of context per request and asks up to four questions
per claim; on two cores that is tens of seconds an answer. Here the model sees only the premise the
trained judge would pick for the claim (:func:`premise_for`, the same few sentences, about 120
encoder tokens), after instructions that never change and so stay in the KV cache: a pair costs
the forward pass over its own premise and claim, and two short questions read off the logits:

- *supported?* P(Yes) against P(No): does the passage support the statement;
- *compatible?* P(Yes) against P(No), asked after the first on the same cached premise and claim
  (only the question's tokens are read again): can the two both be true, the question the full
  embedded judge asks to tell CON from NIC.

:func:`label_probs` turns the two into (P(ENT), P(CON), P(NIC)). The readings are kept raw
(:class:`PairReading`) so that what reads them (a gate, the lab's distillation labels) may fit its
own combination; ``read(..., extra=True)`` also asks "contradicted?" and a three-way letter
question, which the lab compared.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rt4chart_plugins.errors import JudgeError
from rt4chart_plugins.judges.llama import prompting, scoring
from rt4chart_plugins.judges.llama.loading import load_judge_model
from rt4chart_plugins.types import Cost

#: the fixed instructions: the KV-cached prefix every pair starts from
SYSTEM = (
    "You are a careful fact checker. You are shown a short passage and a statement. Judge the statement "
    "only by the passage, never by your own knowledge. A statement is supported when the passage states "
    "it or clearly implies it, with the same numbers, names, dates, negations, quantities and certainty. "
    "A statement is contradicted when it cannot be true if the passage is true. A statement the passage "
    "does not mention is neither supported nor contradicted."
)
ASK_SUPPORT = "Does the passage support the statement? Answer Yes or No."
ASK_CONFLICT = "Does the passage contradict the statement? Answer Yes or No."
ASK_COMPATIBLE = "Can the passage and the statement both be true at the same time? Answer Yes or No."
ASK_THREE = (
    "Answer with one letter: A if the passage supports the statement, B if the passage contradicts it, "
    "C if the passage does not mention it."
)
#: the letters of the three-way question, in label order (ENT, CON, NIC)
THREE_LETTERS = ("A", "B", "C")
#: the context a pair needs: the instructions, a premise of about 150 model tokens, the claim
N_CTX = 1024
#: the premise's text is cut to this many characters (a premise picked for the encoder is ~600)
MAX_PREMISE_CHARS = 2400
MAX_CLAIM_CHARS = 600


def pair_user(premise: str, claim: str, question: str) -> str:
    """The user turn: the premise and claim first, the question last, so that the second question
    reuses the first one's KV cache up to the question."""
    passage, statement = premise.strip()[:MAX_PREMISE_CHARS], claim.strip()[:MAX_CLAIM_CHARS]
    return f"Passage:\n{passage}\n\nStatement: {statement}\n\n{question}"


@dataclass(frozen=True)
class PairReading:
    """The readings of one pair: P(supported) and P(the passage and the statement can both be
    true), each Yes against No; with ``extra``, P(contradicted) (Yes/No) and the three-way
    question's (P(A), P(B), P(C)) = (ENT, CON, NIC) as well."""

    p_support: float
    p_compatible: float
    p_conflict: float | None = None
    three_way: tuple[float, float, float] | None = None

    def probs(self) -> tuple[float, float, float]:
        return label_probs(self.p_support, self.p_compatible)


def letter_probs(logits: np.ndarray, letters: list[list[int]]) -> tuple[float, float, float]:
    """The three letters' probabilities renormalised among themselves (uniform if all underflow)."""
    top = float(logits.max())
    if not np.isfinite(top):
        return 1 / 3, 1 / 3, 1 / 3
    shifted = np.exp(logits - top)
    mass = [float(shifted[ids].sum()) for ids in letters]
    total = sum(mass)
    a, b, c = (m / total for m in mass) if total > 0 else (1 / 3, 1 / 3, 1 / 3)
    return a, b, c


def label_probs(p_support: float, p_compatible: float) -> tuple[float, float, float]:
    """(P(ENT), P(CON), P(NIC)) from the two readings, as the full embedded judge combines its two
    questions (:func:`.scoring.judgement`): ENT as supported; the rest CON where the two cannot
    both be true, else NIC. They sum to one."""
    rest = 1.0 - p_support
    return p_support, rest * (1.0 - p_compatible), rest * p_compatible


class PremiseReader:
    """The embedded model reading (claim, premise) pairs; loaded on first use and shared with any
    other judge on the same file and settings. ``n_threads``: cores for llama.cpp (1 for a
    background labelling job)."""

    def __init__(
        self, model_path: str | Path | None = None, *, model: str | None = None, n_threads: int = 1, seed: int = 0
    ):
        from rt4chart_plugins import models

        self._model_name = model or models.DEFAULT_MODEL
        self._explicit_path = model_path
        self.n_threads = n_threads
        self.seed = seed
        self._llm: Any = None
        self._lock = threading.Lock()
        self._yes: list[int] = []
        self._no: list[int] = []
        self._letters: list[list[int]] = []
        self.name = ""

    def load(self) -> Any:
        if self._llm is None:
            loaded = load_judge_model(
                self._model_name, self._explicit_path, n_ctx=N_CTX, n_threads=self.n_threads, seed=self.seed
            )
            self._llm, self._lock, self._yes, self._no, self.name = (
                loaded.llm,
                loaded.lock,
                loaded.yes,
                loaded.no,
                loaded.name,
            )
            self._letters = [scoring.first_tokens(self._llm, (x,)) for x in THREE_LETTERS]
        return self._llm

    def _logits(self, user: str, cost: Cost) -> np.ndarray:
        prompt = prompting.tokens(self._llm, prompting.chatml([("system", SYSTEM), ("user", user)]))
        return prompting.eval_logits(self._llm, prompt, N_CTX, cost)

    def _p_yes(self, user: str, cost: Cost) -> float:
        return scoring.p_yes(self._logits(user, cost), self._yes, self._no)

    def read(self, claim: str, premise: str, cost: Cost | None = None, *, extra: bool = False) -> PairReading:
        """The readings of one pair: one forward pass over the premise, the claim and the first
        question, then only the next question's tokens (the premise and claim stay cached).
        ``extra`` asks the two further questions the lab compared (they cost as much again)."""
        cost = cost if cost is not None else Cost()
        self.load()
        with self._lock:
            cost.judge_calls += 1
            p_support = self._p_yes(pair_user(premise, claim, ASK_SUPPORT), cost)
            p_compatible = self._p_yes(pair_user(premise, claim, ASK_COMPATIBLE), cost)
            if not extra:
                return PairReading(p_support, p_compatible)
            p_conflict = self._p_yes(pair_user(premise, claim, ASK_CONFLICT), cost)
            three = letter_probs(self._logits(pair_user(premise, claim, ASK_THREE), cost), self._letters)
        return PairReading(p_support, p_compatible, p_conflict, three)


def reading_key(model: str, claim: str, premise: str) -> str:
    """The cache key of one pair's two readings by ``model``: the instructions are in it, so that a
    changed prompt is never read from an old entry. Both premise reads (in-process and through an
    endpoint) store their readings under it."""
    from rt4chart_plugins.judges.cache import cache_key

    return cache_key(model, SYSTEM, ASK_SUPPORT, ASK_COMPATIBLE, premise, claim, "premise-read")


def cached_reading(reader: PremiseReader, cache: Any, claim: str, premise: str, cost: Cost) -> tuple[float, float]:
    """(P(supported), P(both can be true)) of one pair, from ``cache`` (a
    :class:`~rt4chart_plugins.judges.cache.JudgeCache`, or None) when read before. The key is the
    model, the instructions and the pair, so that a changed prompt is never read from an old
    entry; only finite readings are stored, and one that is not raises :class:`JudgeError`."""
    reader.load()
    key = reading_key(reader.name, claim, premise)
    if cache is not None and (hit := cache.get(key)) is not None:
        cost.cache_hits += 1
        return float(hit[0]), float(hit[1])
    reading = reader.read(claim, premise, cost)
    values = (reading.p_support, reading.p_compatible)
    if not all(np.isfinite(v) for v in values):
        raise JudgeError("the embedded LLM's reading was not a number")
    if cache is not None:
        cache.put(key, list(values))
    return values


@functools.lru_cache(maxsize=1)
def _trained_premise_settings() -> tuple[Any, int, str]:
    """The shipped artifact's token counter, premise budget and question policy (read once)."""
    from rt4chart_plugins.judges.trained.encoder import TOKENIZER_FILE, load_manifest, token_counter

    directory, manifest = load_manifest(check=False)
    return token_counter(directory / TOKENIZER_FILE), manifest.premise_budget, manifest.question


def trained_premises(sentences: Sequence[str]):
    """The :class:`~rt4chart_plugins.judges.trained.premise.Premises` the shipped trained judge
    builds over ``sentences``: the same budget, token counter and question policy as its artifact,
    so that the reader and the encoder judge a claim on the same words."""
    from rt4chart_plugins.judges.trained.premise import Premises

    texts = list(sentences)
    count, budget, policy = _trained_premise_settings()
    return Premises(texts, count(texts), budget, question=policy)


def premise_for(sentences: Sequence[str], claim: str, question: str | None = None) -> str:
    """The text of the premise the shipped trained judge picks for ``claim`` among ``sentences``."""
    texts = list(sentences)
    return trained_premises(texts).pick(claim, question).text if texts else ""
