"""The trained judge: a fine-tuned MiniLM cross-encoder that labels (claim, premise) pairs.

Where the embedded LLM judge reads a window into a KV cache and answers one claim at a time in
seconds, this judge scores every claim of a window in milliseconds, its pairs in parallel. It cannot
write, so it does what needs no generation: its claims are the clauses of the answer sentences,
cut by the claims stage (:mod:`rt4chart_plugins.claims`), each judged within its sentence first;
evidence is the premise sentence(s) that best match the claim, and the unfaithful phrase is the
stretch of the claim whose content words the premise lacks.
How it was trained, and where it fails: lab/docs/training.md.
"""

from __future__ import annotations

import asyncio
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rt4chart_plugins.claims import by_sentence, clause_spans, held_alone, judged_text, with_subject
from rt4chart_plugins.config import AtLeastOne, Probability, checked
from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.errors import Rt4chartError
from rt4chart_plugins.judges.base import Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.judges.trained.decision import decide, label_of, softmax
from rt4chart_plugins.judges.trained.encoder import (
    MODEL_FILE,
    TOKENIZER_FILE,
    Manifest,
    PairScorer,
    load_manifest,
    load_tokenizer,
    token_counter,
)
from rt4chart_plugins.judges.trained.localize import unsupported_phrase, weakest_clauses
from rt4chart_plugins.judges.trained.premise import Premise, Premises, coverage, needs_question
from rt4chart_plugins.rules.facts import unsupported_facts
from rt4chart_plugins.rules.novelty import novelty
from rt4chart_plugins.types import Claim, Cost, Judgement, Label, Sentence, Signals


@dataclass
class _Loaded:
    """One artifact in memory, shared by every judge that uses it."""

    scorer: PairScorer
    manifest: Manifest
    count_tokens: Any


_LOADED: dict[tuple[str, int], _Loaded] = {}
#: a clause of a flagged claim is part of its unfaithful phrase below the threshold plus this. The
#: threshold is fitted for whole sentences; clauses are scored against their own premise and read
#: best a little higher (the sweep on held-out train answers: lab/docs/training.md)
CLAUSE_MARGIN = 0.15
#: a clause in doubt (a rule contradicted its sentence) keeps its support only if, read alone, the
#: decision finds it more likely supported than not, whatever the threshold: the sentence it came
#: from is already known to be wrong somewhere, and a short clause clears a low bar on shared words
DOUBT_FLOOR = 0.5
#: a clause of a supported sentence is read on its own when the words it adds to the context weigh
#: this much (:meth:`~rt4chart_plugins.rules.novelty.Lexicon.weight`: about two words of middling
#: rarity, or one rare word that means nothing the context says). Reading every clause with a new
#: word cost RAGTruth test-150 answer F1 0.706 → 0.682 for 0.741 → 0.749 on the first-user set;
#: most of its false alarms added a common word or two ("adjust the cooking time", "the importance
#: of fairness"); see lab/docs/training.md
ADDED_WEIGHT = 1.0
#: a contradicted claim's refuting sentence is looked for among this many of its premise's best-matching sentences
EVIDENCE_CANDIDATES = 4
_LOAD_LOCK = threading.Lock()
# a forked child inherits the dict but not the encoder's worker threads: it loads its own
os.register_at_fork(after_in_child=_LOADED.clear)


def _named(manifest: Manifest) -> str:
    return f"trained-minilm-v{manifest.version}-{manifest.sha256[:8]}"


class TrainedJudge(Judge):
    """``Verifier(judge="trained")``. ``artifact_dir``: another artifact than the packaged one;
    ``threshold``: support at or above which a claim is ENT (default: the one fitted in training);
    ``threads``: pairs scored at once, each on one core (default: all cores).

    P(ENT), P(CON) and P(NIC) come from the artifact's fitted decision over the encoder's logits,
    the share of the claim's words the premise contains and the number/name check
    (:mod:`rt4chart_plugins.judges.trained.decision`); the label is read off them. It is the
    encoder and its decision only: the deterministic rules run after it, for every judge
    (:mod:`rt4chart_plugins.pipeline.rules`)."""

    #: it picks each claim's premise out of any number of sentences, and a pair's logits depend on
    #: that pair alone, so its verdict on the whole context is the one the global pass would give
    #: after the windows: with ``window_size`` unset it reads one window, and does half the work
    #: (RAGTruth test-150: the same verdicts, 1,263 instead of 2,709 tokens an answer)
    one_window = True
    #: it cannot write: its claims are the clauses of the answer sentences (a one-clause sentence
    #: whole), each judged within its sentence first (:mod:`rt4chart_plugins.claims`)
    clause_claims = True

    def __init__(
        self, artifact_dir: str | Path | None = None, *, threshold: float | None = None, threads: int | None = None
    ):
        self.artifact_dir = Path(artifact_dir) if artifact_dir else None
        self._threshold = None if threshold is None else checked("threshold", threshold, Probability)
        self.threads = checked("threads", threads, AtLeastOne) if threads is not None else os.cpu_count() or 1
        self._state: _Loaded | None = None
        self._name: str | None = None

    @property
    def name(self) -> str:  # type: ignore[override]
        """The artifact's version and checksum, read off its manifest without loading the model,
        so that the name is the same before and after it loads; ``trained`` while the artifact
        cannot be read (it then never loads)."""
        if self._name is None:
            try:
                self._name = _named(load_manifest(self.artifact_dir, check=False)[1])
            except Rt4chartError:
                return "trained"
        return self._name

    # ---- loading -----------------------------------------------------------------------------

    def prepare(self) -> None:
        self._load()

    def _load(self) -> _Loaded:
        if self._state is not None:
            return self._state
        directory, manifest = load_manifest(self.artifact_dir, check=False)
        key = (str(directory.resolve()), self.threads)
        with _LOAD_LOCK:  # one session per artifact: loading costs a checksum and 23 MB
            if key not in _LOADED or _LOADED[key].manifest.sha256 != manifest.sha256:
                directory, manifest = load_manifest(directory, check=True)
                tok = load_tokenizer(directory / TOKENIZER_FILE, manifest.max_length)
                scorer = PairScorer(directory / MODEL_FILE, tok, self.threads)
                _LOADED[key] = _Loaded(scorer, manifest, token_counter(directory / TOKENIZER_FILE))
            self._state = _LOADED[key]
        self._name = _named(self._state.manifest)
        return self._state

    def forget_scores(self) -> None:
        """Forget the pairs scored so far (a benchmark that times the same answers twice starts cold)."""
        self._load().scorer.forget()

    @property
    def threshold(self) -> float:
        return self._threshold if self._threshold is not None else self._load().manifest.threshold

    # ---- the Judge protocol ------------------------------------------------------------------

    def context_budget(self) -> int:
        # it picks its own premise out of any window, so windows never need shrinking for it
        return 10**9

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        return await asyncio.to_thread(self._verify_sync, request, cost)

    async def support_alone(
        self, clauses: list[str], sentences: list[Sentence], question: str | None, *, cost: Cost
    ) -> list[float] | None:
        """Each clause scored against its own premise, as :meth:`_split` scores the clauses of a
        flagged sentence: P(ENT) against the threshold plus :data:`CLAUSE_MARGIN`, and at least
        :data:`DOUBT_FLOOR`."""
        if not clauses or not sentences:
            return [-1.0] * len(clauses)
        return await asyncio.to_thread(self._support_alone_sync, clauses, sentences, question, cost)

    def _support_alone_sync(
        self, clauses: list[str], sentences: list[Sentence], question: str | None, cost: Cost
    ) -> list[float]:
        loaded = self._load()
        premises, asked = self._premises(loaded, sentences, question)
        return [
            probs[0] - max(self._clause_bar, DOUBT_FLOOR)
            for _, probs, _ in self._score_alone(loaded, premises, asked, clauses, cost)
        ]

    @property
    def _clause_bar(self) -> float:
        """The support a clause scored alone must reach to count as supported on its own."""
        return self.threshold + CLAUSE_MARGIN

    @staticmethod
    def _premises(loaded: _Loaded, sentences: list[Sentence], question: str | None) -> tuple[Premises, str | None]:
        """The premise picker over ``sentences``, and the question its premises carry."""
        texts = [s.text for s in sentences]
        manifest = loaded.manifest
        premises = Premises(texts, loaded.count_tokens(texts), manifest.premise_budget, question=manifest.question)
        return premises, premise_question(sentences, question)

    def _score_alone(
        self, loaded: _Loaded, premises: Premises, question: str | None, texts: list[str], cost: Cost
    ) -> list[tuple[Premise, tuple[float, float, float], Signals]]:
        """Each text judged alone, against its own premise: the premise, (P(ENT), P(CON), P(NIC)) and
        the encoder's signals."""
        picked = [premises.pick(t, question) for t in texts]
        logits = self._logits(loaded, texts, [p.text for p in picked], cost)
        return [
            (premise, *self._read(loaded, text, premise, premises, lg))
            for text, premise, lg in zip(texts, picked, logits)
        ]

    def _read(
        self, loaded: _Loaded, text: str, premise: Premise, premises: Premises, logits: list[float]
    ) -> tuple[tuple[float, float, float], Signals]:
        """One pair's (P(ENT), P(CON), P(NIC)) from the artifact's decision, and the signals it read:
        the premise's coverage and missing facts, and what the claim adds to the whole context."""
        cover, missing = coverage(text, premise.text), unsupported_facts(text, premise.text)
        novel = premises.lexicon.novel(text)
        added = premises.lexicon.weight(novel)
        probs = decide(loaded.manifest.decision, logits, cover, bool(missing), added, novelty(text, novel))
        return probs, _signals(logits, cover, missing, novel)

    def _verify_sync(self, request: VerifyRequest, cost: Cost) -> VerifyResult:
        loaded = self._load()
        if not request.sentences or not request.claims:
            unjudged = {c.id: "no context sentences" for c in request.claims} if not request.sentences else {}
            return VerifyResult(unjudged=unjudged)
        premises, question = self._premises(loaded, request.sentences, request.question)
        # the clauses of one answer sentence are judged as the sentence they make up first: a
        # clause alone ("and includes phone support") lacks its subject, and scoring clauses for
        # the verdict ranked answers worse (lab/docs/training.md); then each clause of a flagged
        # sentence is scored alone (_split)
        groups = by_sentence(request.claims)
        units = [
            Claim(
                id=g[0].id,
                text=judged_text(g),
                sentence_id=g[0].sentence_id,
            )
            for g in groups
        ]
        picked = [premises.pick(u.text, question) for u in units]
        logits = self._logits(loaded, [u.text for u in units], [p.text for p in picked], cost)
        out = VerifyResult()
        cite: list[int] = []  # CON judgements whose refuting sentence is chosen sentence by sentence (_cite)
        for claim, lg, premise in zip(units, logits, picked):
            checkpoint()
            judgement = self._judge(loaded, claim, lg, premise, premises, request)
            if judgement.label == Label.CON:
                cite.append(len(out.judgements))
            out.judgements.append(judgement)
        if cite:
            self._cite(loaded, request, [(out.judgements[k], units[k], picked[k]) for k in cite], cost)
        single = [k for k, g in enumerate(groups) if len(g) == 1]
        if request.want_phrase and single:
            self._localize(
                loaded,
                request,
                premises,
                [picked[k] for k in single],
                question,
                [out.judgements[k] for k in single],
                [units[k] for k in single],
                cost,
            )
        split = [k for k, g in enumerate(groups) if len(g) > 1]
        if split:
            parts = self._split(
                loaded,
                premises,
                question,
                [(groups[k], out.judgements[k], picked[k]) for k in split],
                request.want_phrase,
                [s.id for s in request.sentences],
                cost,
            )
            by_unit = dict(zip(split, parts))
            out.judgements = [j for k, unit in enumerate(out.judgements) for j in by_unit.get(k, [unit])]
        return out

    def _judge(
        self,
        loaded: _Loaded,
        claim: Claim,
        lg: list[float],
        premise: Premise,
        premises: Premises,
        request: VerifyRequest,
    ) -> Judgement:
        """One claim's (or one sentence's) judgement from its encoder logits and its premise. A
        CON's refuting sentence is chosen afterwards, sentence by sentence (:meth:`_cite`)."""
        (p_ent, p_con, p_nic), signals = self._read(loaded, claim.text, premise, premises, lg)
        label = label_of(p_ent, p_con, p_nic, self.threshold)
        scores = premise.scores
        ranked = premise.ranked()
        if label == Label.ENT:
            # a claim whose words no context sentence holds ("Yes, it does.", "Sure!", or one that
            # shares only the question's words) was judged on its premise: it cites the premise's
            # lead, the sentence that matches it or its question best
            evidence = premises.relevance.cover(claim.text, ranked) or (
                ranked[:1] if ranked and (needs_question(claim.text) or scores[ranked[0]] > 0) else []
            )
        elif label == Label.CON:
            evidence = ranked[:1]
        else:
            evidence = []
        return Judgement(
            claim_id=claim.id,
            label=label,
            evidence=[request.sentences[i].id for i in evidence],
            probs={Label.ENT: p_ent, Label.CON: p_con, Label.NIC: p_nic},
            signals=signals,
        )

    def _cite(self, loaded: _Loaded, request: VerifyRequest, jobs: list, cost: Cost) -> None:
        """A contradicted claim cites the one premise sentence that refutes it: each of the
        premise's best-matching sentences is scored alone against the claim, the one with the
        highest P(CON) is cited."""
        pairs, where = [], []
        for j, (_judgement, claim, premise) in enumerate(jobs):
            for i in premise.ranked()[:EVIDENCE_CANDIDATES]:
                pairs.append((claim.text, request.sentences[i].text))
                where.append((j, i))
        best: dict[int, tuple[float, int]] = {}
        for (j, i), lg in zip(where, self._logits(loaded, [c for c, _ in pairs], [t for _, t in pairs], cost)):
            p_con = softmax(lg)[1]
            if j not in best or p_con > best[j][0]:
                best[j] = (p_con, i)
        for j, (judgement, _claim, _premise) in enumerate(jobs):
            if j in best:
                judgement.evidence = [request.sentences[best[j][1]].id]

    def _logits(self, loaded: _Loaded, claims: list[str], premises: list[str], cost: Cost) -> list[list[float]]:
        """The encoder's (ENT, CON, NIC) logits for each (claim, premise) pair: one encoder call."""
        out, tokens, kept = loaded.scorer.logits(claims, premises)
        if tokens:
            cost.judge_calls += 1
            cost.prompt_tokens += tokens
        cost.cache_hits += kept
        return out

    def _split(
        self,
        loaded: _Loaded,
        premises: Premises,
        question: str | None,
        jobs: list[tuple[list[Claim], Judgement, Premise]],
        want_phrase: bool,
        ids: list[int],
        cost: Cost,
    ) -> list[list[Judgement]]:
        """Each clause's own judgement, per sentence of ``jobs`` (the clauses the claims stage cut):
        the sentence's when it is supported; when it is flagged, each clause is scored against its
        own premise, and the clauses that hold alone, at the threshold plus :data:`CLAUSE_MARGIN`
        (:func:`~rt4chart_plugins.claims.held_alone`: if every one does, the weakest does not), are
        ENT on their own while the rest keep the sentence's label and its evidence. So the
        answer's verdict is the sentences'."""
        flagged = [(g, j, p) for g, j, p in jobs if j.label != Label.ENT]
        alone = iter(self._score_alone(loaded, premises, question, [c.text for g, _, _ in flagged for c in g], cost))
        # a clause of a supported sentence answers for itself when it adds words no context
        # sentence holds: read on its own, with its sentence's subject ("and includes unlimited
        # storage" → "The free trial includes unlimited storage"); one that restates the
        # context's words keeps its sentence's verdict without a second read
        adding = [
            (c.id, with_subject(judged_text(g), c.text))
            for g, j, _ in jobs
            if j.label == Label.ENT
            for c in g
            if premises.lexicon.weight(premises.lexicon.novel(c.text)) >= ADDED_WEIGHT
        ]
        read = self._score_alone(loaded, premises, question, [t for _, t in adding], cost)
        own = dict(zip((cid for cid, _ in adding), read))
        out: list[list[Judgement]] = []
        for group, sentence, premise in jobs:
            if sentence.label == Label.ENT:  # each clause cites what holds its own words
                ranked = premise.ranked()
                out.append(
                    [
                        self._own(c, own[c.id], ids, want_phrase)
                        if c.id in own and own[c.id][1][0] < self.threshold
                        else sentence.model_copy(
                            update={
                                "claim_id": c.id,
                                "alone": False,
                                "evidence": [ids[i] for i in premises.relevance.cover(c.text, ranked)]
                                or sentence.evidence,
                            }
                        )
                        for c in group
                    ]
                )
                continue
            scored = [(claim, *next(alone)) for claim in group]
            passing = held_alone([probs[0] for _, _, probs, _ in scored], self._clause_bar, weakest_falls=True)
            judgements = []
            for (claim, clause_premise, probs, signals), ok in zip(scored, passing):
                if ok:
                    ranked = clause_premise.ranked()
                    judgements.append(
                        Judgement(
                            claim_id=claim.id,
                            label=Label.ENT,
                            evidence=[ids[i] for i in premises.relevance.cover(claim.text, ranked) or ranked[:1]],
                            probs={Label.ENT: probs[0], Label.CON: probs[1], Label.NIC: probs[2]},
                            signals=signals,
                        )
                    )
                else:
                    phrase = unsupported_phrase(claim.text, clause_premise.text) if want_phrase else None
                    judgements.append(
                        sentence.model_copy(update={"claim_id": claim.id, "phrase": phrase, "alone": False})
                    )
            out.append(judgements)
        return out

    def _own(
        self, claim: Claim, read: tuple[Premise, tuple[float, float, float], Signals], ids: list[int], want_phrase: bool
    ) -> Judgement:
        """The verdict of a clause of a supported sentence that, read on its own, is not supported:
        its own label, the refuting sentence for a CON, nothing for a NIC."""
        premise, (p_ent, p_con, p_nic), signals = read
        label = label_of(p_ent, p_con, p_nic, self.threshold)
        return Judgement(
            claim_id=claim.id,
            label=label,
            evidence=[ids[i] for i in premise.ranked()[:1]] if label == Label.CON else [],
            probs={Label.ENT: p_ent, Label.CON: p_con, Label.NIC: p_nic},
            signals=signals,
            phrase=unsupported_phrase(claim.text, premise.text) if want_phrase else None,
        )

    def _localize(
        self,
        loaded: _Loaded,
        request: VerifyRequest,
        premises: Premises,
        picked: list,
        question: str | None,
        judgements: list[Judgement],
        claims: list[Claim],
        cost: Cost,
    ) -> None:
        """The unfaithful phrase of each flagged claim: its clauses below the threshold, each
        scored against its own premise (:mod:`.localize`), else the stretch of words its premise
        lacks. (A rule that decides the claim later marks the clause its reason is about.)"""
        jobs = [
            (judgement, claim, premise, clause_spans(claim.text))
            for judgement, claim, premise in zip(judgements, claims, picked)
            if judgement.label != Label.ENT
        ]
        texts = [c.text[a:b] for _, c, _, spans in jobs if len(spans) > 1 for a, b in spans]
        support_of = iter([probs[0] for _, probs, _ in self._score_alone(loaded, premises, question, texts, cost)])
        for judgement, claim, premise, spans in jobs:
            phrase = None
            if len(spans) > 1:
                phrase = weakest_clauses(claim.text, spans, [next(support_of) for _ in spans], self._clause_bar)
            judgement.phrase = phrase or unsupported_phrase(claim.text, premise.text)


def _signals(logits: list[float], cover: float, missing: list[str], novel: list[str]) -> Signals:
    enc = softmax(logits)
    return Signals(
        encoder={Label.ENT: enc[0], Label.CON: enc[1], Label.NIC: enc[2]}, coverage=cover, missing=missing, novel=novel
    )


def premise_question(sentences: list[Sentence], question: str | None) -> str | None:
    """The question the premise carries: none for a window of structured (JSON) fields.

    The verifier learned structured data from generated records with no question (RAGTruth's
    Data2txt rows have none). With a "Question:" line in front of a record it flagged 7 to 10 of 21
    faithful sentences about three records, against 1 of 21 without; with the line left out, a
    question changes nothing there."""
    if sentences and all(s.field is not None for s in sentences):
        return None
    return question
