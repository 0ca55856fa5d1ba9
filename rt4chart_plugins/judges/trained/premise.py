"""Which context sentences the trained verifier reads for one claim.

The cross-encoder reads a couple of hundred tokens; a window of 25 RAGTruth sentences is often
more. Cutting the window at its end would drop the sentence that decides the claim as often as
not, so the verifier reads the sentences that share the claim's rarest words (and, with a lower
weight, the question's), best first until the budget is spent, then puts them back in document
order. Training and inference share this function, so the model learns on exactly the premises it
will see.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.rules.amounts import AmountIndex, same_amount
from rt4chart_plugins.rules.novelty import Lexicon
from rt4chart_plugins.rules.quantities import Quantity, fractions_as_digits, quantities
from rt4chart_plugins.rules.records.regions import spell_codes
from rt4chart_plugins.text.english import CLOCK_12H, hour_24, split_camel, strip_markers
from rt4chart_plugins.text.words import STOPWORDS
from rt4chart_plugins.text.words import words as all_words

QUESTION_WEIGHT = 0.3


_CLOCK_ZERO = re.compile(r"\b(\d{1,2}):0{1,2}\b")


def _clock(m: re.Match) -> str:
    hour = hour_24(m)
    return f"{hour}:{m.group(2)}" if m.group(2) and m.group(2) != "00" else str(hour)


def words(text: str) -> list[str]:
    """Content words, lower-cased, with a crude plural fold ("mondays" meets "monday"). Structured
    data is met halfway: JSON keys are split at case changes ("RestaurantsTakeOut" → restaurants,
    take, out), clock times are read as 24-hour values ("10 PM" and "22:0" both give 22), and a
    spelled-out state or province as its postal code ("Pennsylvania" and "PA" both give pa)."""
    checkpoint()  # read for every sentence of a context: where reading a long one is stopped
    text = _CLOCK_ZERO.sub(lambda m: m.group(1), CLOCK_12H.sub(_clock, split_camel(spell_codes(text))))
    out = []
    for w in all_words(text, numbers=True):
        if w in STOPWORDS:
            continue
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss") and not w[0].isdigit():
            w = w[:-1]
        out.append(w)
    return out


class Relevance:
    """IDF-weighted word overlap between a claim and each sentence of one context.

    The context's words are indexed once (word → the sentences holding it), so that a claim is
    scored against the sentences that share one of its words, not against every sentence: on a
    1 MB context (6,000 sentences) scoring every sentence for each of 500 claims cost more than
    the encoder."""

    def __init__(self, sentences: Sequence[str]):
        self._sets = [set(words(s)) for s in sentences]
        self._holding: dict[str, list[int]] = {}  # word → the sentences holding it, in document order
        for i, s in enumerate(self._sets):
            checkpoint()
            for w in s:
                self._holding.setdefault(w, []).append(i)
        n = len(self._sets)
        self._idf = {w: math.log(1 + n / len(held)) for w, held in self._holding.items()}

    def __len__(self) -> int:
        return len(self._sets)

    def scores(self, claim: str, question: str | None = None) -> list[float]:
        """Every sentence's score, in document order (0.0 for one sharing no word)."""
        out = [0.0] * len(self._sets)
        for i, score in self.shared(claim, question).items():
            out[i] = score
        return out

    def shared(self, claim: str, question: str | None = None) -> dict[int, float]:
        """The score of each sentence that shares a word with the claim or the question; every
        other sentence scores 0."""
        claim_words = set(words(claim))
        question_words = set(words(question or "")) - claim_words
        mine, theirs = self._sums(claim_words), self._sums(question_words)
        return {i: mine.get(i, 0) + QUESTION_WEIGHT * theirs.get(i, 0) for i in mine.keys() | theirs.keys()}

    def _sums(self, mine: set[str]) -> dict[int, float]:
        # each sentence's sum is added up in sorted word order: set order follows per-process string
        # hashing, and float sums in another order can break a tie between two sentences the other way
        sums: dict[int, float] = {}
        for w in sorted(mine):
            idf = self._idf.get(w, 0.0)
            for i in self._holding.get(w, ()):
                sums[i] = sums.get(i, 0) + idf
        return sums

    def cover(self, claim: str, ranked: Sequence[int], *, limit: int = 4, min_gain: float = 0.05) -> list[int]:
        """The sentences that together hold the claim's words, for citing as its support: the one
        holding the most IDF weight of them, then while fewer than ``limit``, the candidate adding
        the most weight not yet held, if that is at least ``min_gain`` of the claim's weight. A claim is
        often supported by two or three sentences (a name in one, the date in the next); citing the
        best two matches alone found fewer of WiCE's gold evidence sentences than the cover does
        (lab/docs/benchmarks.md, "WiCE"). ``ranked``: candidate indices, best match first."""
        claim_words = set(words(claim))
        weight = {w: self._idf.get(w, 0.0) for w in claim_words}
        total = sum(weight.values())
        chosen: list[int] = []
        held: set[str] = set()
        while len(chosen) < limit:
            gains = [
                (sum(weight[w] for w in sorted((claim_words & self._sets[i]) - held)), i)
                for i in ranked
                if i not in chosen
            ]
            gain, best = max(gains, key=lambda g: g[0], default=(0.0, -1))  # max keeps the first of equals
            if gain <= 0 or (chosen and gain < min_gain * total):
                break
            chosen.append(best)
            held |= claim_words & self._sets[best]
        return chosen


def select(scores: Sequence[float], costs: Sequence[int], budget: int, *, exclude: set[int] | None = None) -> list[int]:
    """Indices of the sentences to read, in document order: best-scoring first while they fit.

    The best sentence is always taken (the encoder truncates it if it alone is too long); ties go
    to the earlier sentence. ``exclude`` removes sentences from consideration (training uses it to
    build premises that lack the supporting sentence). Scores are never negative.
    """
    return select_shared({i: s for i, s in enumerate(scores) if s > 0}, costs, budget, exclude=exclude)


def select_shared(
    shared: dict[int, float], costs: Sequence[int] | np.ndarray, budget: int, *, exclude: set[int] | None = None
) -> list[int]:
    """:func:`select` from the scores of the sentences that score above 0 (:meth:`Relevance.shared`):
    those best first, then the others in document order while they fit. The others are looked up
    among the sentences whose cost fits what is left of the budget, not walked one by one: a
    premise seldom fills its budget exactly, and walking a long context's every sentence for
    each claim made the choice cost claims × sentences."""
    exclude = exclude or set()
    chosen: list[int] = []
    used = 0
    for i in sorted((i for i in shared if i not in exclude), key=lambda i: (-shared[i], i)):
        if chosen and used + costs[i] > budget:
            continue
        chosen.append(i)
        used += costs[i]
        if used >= budget:
            return sorted(chosen)
    taken = set(chosen) | set(shared) | exclude  # every scored sentence was weighed above
    cost = np.asarray(costs)
    start = 0
    while start < len(cost):
        # the first sentence from ``start`` on that fits (any, while nothing is chosen)
        fitting = np.flatnonzero(cost[start:] <= budget - used) + start if chosen else range(start, len(cost))
        found = next((int(k) for k in fitting if int(k) not in taken), None)
        if found is None:
            break
        chosen.append(found)
        used += int(cost[found])
        start = found + 1
        if used >= budget:
            break
    return sorted(chosen)


def premise_text(sentences: Sequence[str], chosen: Sequence[int], question: str | None) -> str:
    """The text the encoder reads beside the claim."""
    body = "\n".join(sentences[i] for i in chosen)
    return f"Question: {question.strip()}\n{body}" if question and question.strip() else body


class Scores(Sequence[float]):
    """Every sentence's score, kept as those of the sentences that share a word with the claim."""

    def __init__(self, shared: dict[int, float], size: int):
        self._shared, self._size = shared, size

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._size))]
        if not -self._size <= i < self._size:
            raise IndexError(i)
        return self._shared.get(i % self._size, 0.0)

    def __len__(self) -> int:
        return self._size


@dataclass(frozen=True)
class Premise:
    text: str
    chosen: list[int]  # indices of the sentences read, in document order
    scores: Sequence[float]  # every sentence's relevance to the claim

    def ranked(self) -> list[int]:
        """The sentences read, the best match to the claim first (the order evidence is cited in)."""
        return sorted(self.chosen, key=lambda i: -self.scores[i])


class Premises:
    """Premises for many claims against one context: the judge at inference and the training
    pairs both build them here, so the model learns on exactly what it will read."""

    def __init__(self, sentences: list[str], costs: list[int], budget: int, *, question: str = "elliptical"):
        if question not in QUESTION_POLICIES:
            raise ValueError(f"unknown question policy {question!r}; use one of {QUESTION_POLICIES}")
        self.sentences, self.costs, self.budget, self.question = sentences, costs, budget, question
        self._costs = np.asarray(costs, dtype=np.int64)
        self.relevance = Relevance(sentences)

    @property
    def fit_one(self) -> bool:
        """Whether the whole context fits in one premise: every claim's premise then holds every
        sentence that shares a word with it, and what a claim adds is absent from all the encoder
        could read."""
        return int(self._costs.sum()) <= self.budget

    @cached_property
    def lexicon(self) -> Lexicon:
        """The whole context's words by lemma: what a claim adds is read against every sentence,
        not only those its premise picked."""
        return Lexicon(" ".join(self.sentences))

    @cached_property
    def _amounts(self) -> tuple[AmountIndex, dict[str, list[Quantity]], set[str]]:
        """The context's amounts as it writes them (not those a fraction was rewritten for):
        indexed, by kind, and as written. Read when a claim first states an amount."""
        text = " ".join(self.sentences)
        stated = [q for q in quantities(text) if q.text in text]
        by_kind: dict[str, list[Quantity]] = {}
        for q in stated:
            by_kind.setdefault(q.kind, []).append(q)
        return AmountIndex(stated), by_kind, {q.text for q in stated}

    def restated(self, claim: str) -> str:
        """The claim as the encoder reads it: each amount the context states in another form
        written as the context writes it ("a quarter of an hour" as "15 minutes", "two weeks" as
        "14 days"), so that the encoder, which reads shared words, reads a restated amount as the
        same one. A claim with no such amount is returned as it is."""
        mine = quantities(claim)
        if not mine:
            return claim
        index, by_kind, written = self._amounts
        plain, changed = fractions_as_digits(strip_markers(claim)), False
        for q in mine:
            # looked up first: a long context states thousands of amounts, and most claims' are
            # either the context's own words or none of its amounts
            if q.text in written or q.text not in plain or not index.supports(q):
                continue
            same = next((c for c in by_kind.get(q.kind, []) if same_amount(q, c)), None)
            if same is not None:
                plain, changed = plain.replace(q.text, same.text, 1), True
        return plain if changed else claim

    def pick(self, claim: str, question: str | None = None, *, exclude: set[int] | None = None) -> Premise:
        """The premise of a claim. Under the ``elliptical`` policy the question is read only when
        the claim means nothing without it (:func:`needs_question`): otherwise the same claim
        against the same context would get another premise, and so another verdict, depending on
        whether a question was passed. Under ``always`` (what artifacts up to v1 were trained on)
        every premise carries the question."""
        checkpoint()
        question = self._question(claim, question)
        shared = self.relevance.shared(claim, question)
        chosen = select_shared(shared, self._costs, self.budget, exclude=exclude)
        return Premise(premise_text(self.sentences, chosen, question), chosen, Scores(shared, len(self.sentences)))

    def _question(self, claim: str, question: str | None) -> str | None:
        if not question or (self.question == "elliptical" and not needs_question(claim)):
            return None
        return question

    def without_best(self, claim: str, question: str | None, n: int) -> Premise | None:
        """The premise with the claim's ``n`` best-matching sentences removed (those scoring at
        least half the best): training's "support removed" pairs. None when nothing matches or
        nothing would be left."""
        question = self._question(claim, question)
        scores = self.relevance.scores(claim, question)
        best = max(scores, default=0.0)
        if best <= 0:
            return None
        ranked = sorted(range(len(scores)), key=lambda i: -scores[i])
        exclude = {i for i in ranked[:n] if scores[i] >= 0.5 * best}
        if len(exclude) >= len(self.sentences):
            return None
        return self.pick(claim, question, exclude=exclude)


#: how a premise reads the question: ``always``, or only for an ``elliptical`` claim
QUESTION_POLICIES = ("always", "elliptical")
#: an answer sentence with fewer content words than this is read with its question ("Yes, it does.")
ELLIPTICAL_WORDS = 3
_YES_NO = re.compile(r"^\W*(?:yes|no|yeah|nope|correct|incorrect|true|false)\b", re.IGNORECASE)


def needs_question(claim: str) -> bool:
    """Whether a claim only means something through its question: a bare yes/no, or a fragment
    of fewer than :data:`ELLIPTICAL_WORDS` content words ("Three days.", "Yes, it does.")."""
    return bool(_YES_NO.match(claim)) or len(words(claim)) < ELLIPTICAL_WORDS


def coverage(claim: str, premise: str) -> float:
    """The share of the claim's content words that the premise contains (1.0 for a claim with none).

    A blunt signal, and a strong one on RAG answers: on held-out training sentences it ranks
    unfaithful sentences better than the fine-tuned encoder alone; the judge combines both (see
    :mod:`rt4chart_plugins.judges.trained.decision`)."""
    mine = set(words(claim))
    return len(mine & set(words(premise))) / len(mine) if mine else 1.0
