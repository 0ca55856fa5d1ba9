"""``judge="auto"``: the trained verifier on every claim, the embedded LLM on the claims a fitted gate
says it may have wrong.

The trained verifier reads word overlap in milliseconds; the embedded LLM reads meaning, at
seconds a claim. So:

1. the trained verifier judges every claim (its clauses, each within its sentence);
2. the **gate** (:mod:`.reader.fitted`) reads what the verifier measured and where the claim meets
   its premise (:mod:`.reader.features`) and gives P(the verifier's supported-or-not verdict is
   wrong). A claim at or above ``gate_threshold`` is read, at most ``budget`` of a request's
   units (the likeliest errors first);
3. the **cheap read** (:class:`.llama.premise_read.PremiseReader`): the LLM sees the unit the
   verifier judged (the sentence of its clauses, or the clause it judged alone) against the
   premise the verifier picked, after instructions held in its KV cache, and two Yes/No
   questions are read off its logits;
4. the **combination**, fitted like the verifier's own decision, turns both judges' readings into
   (P(ENT), P(CON), P(NIC)). It may flag a claim the verifier passed or clear one it flagged.

Every claim carries what happened to it in ``signals.reader`` (the gate's P, the LLM's readings,
the verifier's own label). A reading that fails (the model errs, the prompt is too long) leaves
the verifier's verdict, marked with the error; only valid readings are cached. The gate and the
combination are fitted on labelled pairs from RAGTruth train and the ``extra/`` sets, never on
the sets that report them (``rt4chart fit-reader`` in the lab).
"""

from __future__ import annotations

import asyncio
import math
import os
from pathlib import Path
from typing import Any

from rt4chart_plugins.claims import held_alone
from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.errors import InvalidInput, JudgeError
from rt4chart_plugins.judges.base import Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.judges.cache import JudgeCache, cache_from_setting
from rt4chart_plugins.judges.reader import features
from rt4chart_plugins.judges.reader.fitted import FIT_FILE, ReaderFit, load_fit
from rt4chart_plugins.judges.trained.decision import label_of
from rt4chart_plugins.types import Claim, Cost, Judgement, Label, ReaderSignals, Sentence

#: the most sentences of one answer read by default. One read costs about what ``local`` spends on
#: one sentence, so a cap of one keeps ``auto`` near a fifth of ``local``'s time on RAG answers of
#: five sentences or more; against no cap it changed 5 of RAGTruth test-150's 150 answer verdicts
#: (answer F1 0.652 against 0.653) and none of the minimal pairs' (lab/docs/benchmarks.md, "The cascade").
MAX_READS = 1


class CascadeJudge(Judge):
    """``gate_threshold``: the gate's P at or above which a claim is read (default: the fit's);
    ``budget``: the largest share of a request's judged units read (1: every gated one; 0: none,
    the trained verifier alone); ``max_reads``: the most units read in one request, whatever its
    length (default :data:`MAX_READS`; ``None``: no cap); ``trained``: the trained verifier's
    options (``TrainedJudge``);
    ``model_path`` / ``model`` / ``n_threads``: the embedded LLM; ``cache``: the readings' cache
    (True: the default file, False: none, or a path); ``fit``: a fit file from ``rt4chart
    fit-reader`` instead of the shipped one."""

    one_window = True
    clause_claims = True

    def __init__(
        self,
        *,
        gate_threshold: float | None = None,
        budget: float = 1.0,
        max_reads: int | None = MAX_READS,
        trained: dict[str, Any] | None = None,
        model_path: str | Path | None = None,
        model: str | None = None,
        n_threads: int | None = None,
        cache: JudgeCache | str | bool | None = True,
        fit: str | Path | None = None,
    ):
        if not 0.0 <= budget <= 1.0:
            raise InvalidInput(f"budget must lie in [0, 1] (got {budget})")
        if max_reads is not None and max_reads < 0:
            raise InvalidInput(f"max_reads must be 0 or more (got {max_reads})")
        if gate_threshold is not None and not 0.0 <= gate_threshold <= 1.0:
            raise InvalidInput(f"gate_threshold must lie in [0, 1] (got {gate_threshold})")
        from rt4chart_plugins.judges.llama.premise_read import PremiseReader
        from rt4chart_plugins.judges.trained import TrainedJudge

        self.fit: ReaderFit = load_fit(Path(fit) if fit else FIT_FILE)
        self.gate_threshold = self.fit.gate_threshold if gate_threshold is None else gate_threshold
        self.budget = budget
        self.max_reads = max_reads
        self.trained = TrainedJudge(**(trained or {}))
        self.reader = PremiseReader(model_path, model=model, n_threads=n_threads or max(1, os.cpu_count() or 1))
        self.cache = cache_from_setting(cache)

    @property
    def name(self) -> str:  # type: ignore[override]
        cap = "" if self.max_reads is None else f",max_reads={self.max_reads}"
        return f"auto({self.trained.name}+{self.fit.reader},gate={self.gate_threshold:g},budget={self.budget:g}{cap})"

    def prepare(self) -> None:
        self.trained.prepare()
        if self.budget > 0 and self.max_reads != 0:
            self.reader.load()

    def context_budget(self) -> int:
        return self.trained.context_budget()

    async def support_alone(
        self, clauses: list[str], sentences: list[Sentence], question: str | None, *, cost: Cost
    ) -> list[float] | None:
        return await self.trained.support_alone(clauses, sentences, question, cost=cost)

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        first = await self.trained.verify(request, cost=cost)
        if not first.judgements:
            return first
        flagged = await asyncio.to_thread(self._second_read, request, first, cost)
        for before in flagged:
            await self._clauses_that_hold(request, before, first, cost)
        return first

    async def _clauses_that_hold(
        self, request: VerifyRequest, before: list[Judgement], result: VerifyResult, cost: Cost
    ) -> None:
        """A sentence the LLM flagged where the verifier passed it, whose clauses took its verdict:
        as when a rule flags such a sentence, each clause is scored alone by the verifier, and the
        ones that hold alone (:func:`~rt4chart_plugins.claims.held_alone`: if every one does, the
        weakest does not) keep the verifier's verdict. The LLM read the sentence, not its clauses."""
        claims = {c.id: c for c in request.claims}
        supports = await self.trained.support_alone(
            [claims[j.claim_id].text for j in before], request.sentences, request.question, cost=cost
        )
        if supports is None:
            return
        now = {j.claim_id: k for k, j in enumerate(result.judgements)}
        for j, held in zip(before, held_alone(supports, 0.0, weakest_falls=True)):
            if held:
                flagged = result.judgements[now[j.claim_id]]
                result.judgements[now[j.claim_id]] = j.model_copy(
                    update={
                        "signals": flagged.signals,
                        "reason": _joined(j.reason, "the embedded LLM flagged its sentence; this clause holds alone"),
                    }
                )

    # ---- the gate, the read, the combination ---------------------------------------------------

    def _second_read(self, request: VerifyRequest, first: VerifyResult, cost: Cost) -> list[list[Judgement]]:
        """Gate, read and combine, in place in ``first``; the sentences the LLM flagged whose clauses
        the verifier had passed, as they were (for :meth:`_clauses_that_hold`)."""
        from rt4chart_plugins.judges.llama.premise_read import trained_premises
        from rt4chart_plugins.judges.trained.judge import premise_question

        claims = {c.id: c for c in request.claims}
        premises = trained_premises([s.text for s in request.sentences])
        question = premise_question(request.sentences, request.question)
        units: dict[str, list[Judgement]] = {}  # the text the verifier judged → its judgements
        for j in first.judgements:
            if j.probs is None or j.signals is None:
                continue
            units.setdefault(_unit_text(claims[j.claim_id], j), []).append(j)
        gated: list[tuple[float, str, Any]] = []
        for text, js in units.items():
            checkpoint()
            premise = premises.pick(text, question)
            probs, signals = js[0].probs, js[0].signals
            assert probs is not None and signals is not None  # only such judgements are units
            p = self.fit.gate.prob(
                features.gate_features(
                    text,
                    premise.text,
                    probs[Label.ENT],
                    [signals.encoder[Label.ENT], signals.encoder[Label.CON]],
                    signals.coverage,
                    bool(signals.missing),
                )
            )
            for one in js:
                one.signals = signals.model_copy(update={"reader": ReaderSignals(gate=p)})
            if p >= self.gate_threshold:
                gated.append((p, text, premise))
        gated.sort(key=lambda g: -g[0])
        flagged: list[list[Judgement]] = []  # the verifier's ENT clauses of sentences the LLM flagged
        reads = math.ceil(self.budget * len(units) - 1e-9)
        if self.max_reads is not None:
            reads = min(reads, self.max_reads)
        for _p, text, premise in gated[:reads]:
            checkpoint()
            reading = self._read(text, premise.text, cost)
            before = [j.model_copy(deep=True) for j in units[text]]
            for j in units[text]:
                self._replace(j, *reading, premise, request)
            if len(before) > 1 and all(
                b.label == Label.ENT and j.label != Label.ENT for b, j in zip(before, units[text])
            ):
                flagged.append(before)
        return flagged

    def _read(self, text: str, premise: str, cost: Cost) -> tuple[float | None, float | None, str | None]:
        """The LLM's (P(supported), P(both can be true)) of one unit, or the error that kept it from reading."""
        from rt4chart_plugins.judges.llama.premise_read import cached_reading

        try:
            return (*cached_reading(self.reader, self.cache, text, premise, cost), None)
        except JudgeError as exc:
            return None, None, str(exc)

    def _replace(
        self,
        j: Judgement,
        p_support: float | None,
        p_compatible: float | None,
        error: str | None,
        premise: Any,
        request: VerifyRequest,
    ) -> None:
        """Set ``j`` (in place) to the combined verdict, or mark why the verifier's stands. A changed
        verdict cites what the verifier cited, or, where it cited nothing (it found the claim
        baseless), the premise's best-matching sentence; like every judge's, that evidence is
        settled after the judges have spoken (:mod:`rt4chart_plugins.pipeline.evidence`: a NIC
        verdict carries none, an ENT one that cites nothing is reported baseless)."""
        assert j.probs is not None and j.signals is not None and j.signals.reader is not None
        gate = j.signals.reader.gate
        if error is not None or p_support is None or p_compatible is None:
            j.signals = j.signals.model_copy(update={"reader": ReaderSignals(gate=gate, error=error)})
            j.reason = _joined(
                j.reason, f"the embedded LLM could not read it ({error}); the trained verifier's verdict"
            )
            return
        enc = j.signals.encoder
        con_minus_nic = math.log(max(enc[Label.CON], 1e-9) / max(enc[Label.NIC], 1e-9))
        p_ent, p_con, p_nic = self.fit.combined(
            features.support_features(
                j.probs[Label.ENT], p_support, p_compatible, j.signals.coverage, bool(j.signals.missing)
            ),
            features.conflict_features(con_minus_nic, p_compatible, j.signals.coverage),
        )
        label = label_of(p_ent, p_con, p_nic, self.fit.threshold)
        before = j.label
        j.signals = j.signals.model_copy(
            update={
                "reader": ReaderSignals(
                    gate=gate, read=True, p_support=p_support, p_compatible=p_compatible, trained_label=before
                )
            }
        )
        j.probs = {Label.ENT: p_ent, Label.CON: p_con, Label.NIC: p_nic}
        read = f"the embedded LLM read it (P(supported)={p_support:.2f}, P(both can be true)={p_compatible:.2f})"
        if label == before:
            j.reason = _joined(j.reason, f"{read} and agrees")
            return
        j.label = label
        j.reason = (
            f"{read}; with the trained verifier's reading, {label.value} (the trained verifier alone: {before.value})"
        )
        if label == Label.NIC:
            j.phrase = None  # the verifier named the phrase of its own verdict, which the reading overturned
        j.evidence = j.evidence or [request.sentences[i].id for i in premise.ranked()[:1]]


def _unit_text(claim: Claim, j: Judgement) -> str:
    """What the verifier judged: the claim's sentence when the claim took its sentence's verdict."""
    return claim.sentence if not j.alone and claim.sentence else claim.text


def _joined(reason: str | None, more: str) -> str:
    return f"{reason}; {more}" if reason else more
