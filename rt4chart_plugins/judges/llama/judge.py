"""The embedded judge: a local GGUF model run in-process with llama-cpp-python, offline.

Every request is laid out for the KV cache (:mod:`.prompting`): instructions and context come
first and are read once, then each claim is appended and its label is read off the logits of one
forward pass (:mod:`.scoring`: no generated token, and label probabilities for free). Only ENT/CON
claims generate a few tokens more: their evidence ids, under a grammar that allows only the ids
shown; unfaithful claims may also name their unsupported phrase. The model is loaded once per file
and settings (:mod:`.loading`); this class is the glue that asks the questions in order.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

from rt4chart_plugins.errors import MissingExtra
from rt4chart_plugins.judges import prompts
from rt4chart_plugins.judges.base import DecomposeResult, Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.judges.cache import JudgeCache, cache_from_setting, cache_key
from rt4chart_plugins.judges.llama import prompting, scoring
from rt4chart_plugins.judges.llama.loading import judge_model_name, load_judge_model
from rt4chart_plugins.judges.llama.scoring import Support
from rt4chart_plugins.types import Claim, Cost, Judgement, Sentence

#: tokens kept free in the context for instructions, the claim and what is generated
_RESERVE = 640


class LlamaCppJudge(Judge):
    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        model: str | None = None,
        n_ctx: int = 8192,
        n_threads: int | None = None,
        seed: int = 0,
        cache: JudgeCache | str | bool | None = True,
        evidence: bool = True,
        support_threshold: float = 0.5,  # see lab/docs/notes.md for the train-row sweep
        conflict_threshold: float = 0.3,
    ):
        from rt4chart_plugins import models

        self._model_name = model or models.DEFAULT_MODEL
        self._explicit_path = model_path
        self.n_ctx = n_ctx
        self.n_threads = n_threads or max(1, os.cpu_count() or 1)
        self.seed = seed
        self.cache = cache_from_setting(cache)
        self.evidence = evidence
        self.support_threshold = support_threshold
        self.conflict_threshold = conflict_threshold
        self._llm: Any = None
        self._lock = threading.Lock()
        self._yes: list[int] = []
        self._no: list[int] = []
        self.model_path: Path | None = None
        self.name = judge_model_name(self._model_name, model_path)  # the loaded model's, known before it loads

    # ---- model ---------------------------------------------------------------------------

    def _load(self) -> Any:
        """Load the model, or join an already loaded one (:func:`.loading.load_judge_model`)."""
        if self._llm is not None:
            return self._llm
        loaded = load_judge_model(
            self._model_name, self._explicit_path, n_ctx=self.n_ctx, n_threads=self.n_threads, seed=self.seed
        )
        self.model_path, self.name = loaded.path, loaded.name
        self._lock, self._yes, self._no = loaded.lock, loaded.yes, loaded.no
        self._llm = loaded.llm
        return self._llm

    def prepare(self) -> None:
        self._load()

    def context_budget(self) -> int:
        return self.n_ctx - _RESERVE

    def count_tokens(self, text: str) -> int:
        llm = self._load()
        return len(llm.tokenize(text.encode(), add_bos=False, special=False))

    def _p_yes(self, turns: list[tuple[str, str]], cost: Cost) -> float:
        """P(Yes) against P(No) for the next token: one forward pass, nothing generated."""
        prompt = prompting.tokens(self._llm, prompting.chatml(turns))
        return scoring.p_yes(prompting.eval_logits(self._llm, prompt, self.n_ctx, cost), self._yes, self._no)

    def _generate(self, turns: list[tuple[str, str]], grammar: str | None, max_tokens: int, cost: Cost) -> str:
        prompt = prompting.tokens(self._llm, prompting.chatml(turns))
        return prompting.generate(self._llm, prompt, grammar, max_tokens, cost)

    # ---- verification ----------------------------------------------------------------------

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        return await asyncio.to_thread(self._verify_sync, request, cost)

    def _verify_sync(self, request: VerifyRequest, cost: Cost) -> VerifyResult:
        """Two phases, so that the context is read once per request: first every claim's support
        readout against the context (each claim appended to the cached context prefix; ENT claims
        then name their evidence, the others their unsupported phrase); then, for the claims not
        supported, the short pairwise questions that tell CON from NIC (no context needed)."""
        result = VerifyResult()
        try:
            self._load()
        except MissingExtra:
            raise
        except Exception as exc:  # noqa: BLE001 - e.g. a corrupt model: every claim unjudged, with why
            for c in request.claims:
                result.unjudged[c.id] = f"{type(exc).__name__}: {exc}"
            return result
        head = prompts.readout_context(request.sentences, request.question)
        note = prompts.READOUT_NOTES[request.mode]
        system = prompts.READOUT_SYSTEM
        shown = [s.id for s in request.sentences]
        with self._lock:  # one model, one sequence
            pending: list[tuple[Claim, str, Support]] = []
            for claim in request.claims:
                hint = prompts.readout_hint(*request.hints[claim.id]) if claim.id in request.hints else None
                user = head + prompts.readout_support(claim.text, hint, note)
                key = cache_key(
                    self.name,
                    "verify",
                    system,
                    user,
                    self.evidence,
                    request.want_phrase,
                    shown,
                    self.support_threshold,
                    self.conflict_threshold,
                )
                if self.cache is not None and (hit := self.cache.get(key)) is not None:
                    cost.cache_hits += 1
                    result.judgements.append(Judgement.model_validate(hit))
                    continue
                try:
                    pending.append((claim, key, self._support(system, user, shown, request.want_phrase, cost)))
                except Exception as exc:  # noqa: BLE001 - one claim's failure must not sink the rest
                    result.unjudged[claim.id] = f"{type(exc).__name__}: {exc}"
            for claim, key, support in pending:
                try:
                    judgement = self._decide(system, claim, support, request.sentences, cost)
                except Exception as exc:  # noqa: BLE001
                    result.unjudged[claim.id] = f"{type(exc).__name__}: {exc}"
                    continue
                result.judgements.append(judgement)
                if self.cache is not None:
                    self.cache.put(key, judgement.model_dump(mode="json"))
        return result

    def _support(self, system: str, user: str, shown: list[int], want_phrase: bool, cost: Cost) -> Support:
        """P(the context supports the claim); for a supported claim its evidence ids, for the
        others the phrase the judge names as unsupported."""
        cost.judge_calls += 1
        turns = [("system", system), ("user", user)]
        p_sup = self._p_yes(turns, cost)
        evidence: list[int] = []
        phrase = None
        if p_sup >= self.support_threshold:
            if self.evidence and shown:
                asked = turns + [("assistant", "Yes"), ("user", prompts.READOUT_EVIDENCE)]
                evidence = scoring.evidence_ids(self._generate(asked, prompting.ids_grammar(shown), 12, cost))
        elif want_phrase:
            asked = turns + [("assistant", "No"), ("user", prompts.READOUT_PHRASE)]
            lines = self._generate(asked, None, 24, cost).strip().splitlines()
            phrase = scoring.quoted(lines[0]) if lines else None
        return Support(p_sup, evidence, phrase)

    def _decide(self, system: str, claim: Claim, support: Support, sentences: list[Sentence], cost: Cost) -> Judgement:
        """ENT when supported; otherwise: can the claim and the context sentence closest to it
        both be true? No → CON with that sentence as evidence, yes → NIC."""
        p_compatible, closest = 1.0, None
        if support.p_sup < self.support_threshold:
            for cand in scoring.closest_sentences(claim.text, sentences, k=2):
                p = self._p_yes([("system", system), ("user", prompts.readout_pair(cand.text, claim.text))], cost)
                if p < p_compatible:
                    p_compatible, closest = p, cand
        return scoring.judgement(
            claim.id,
            support,
            p_compatible,
            closest,
            support_threshold=self.support_threshold,
            conflict_threshold=self.conflict_threshold,
        )

    # ---- decomposition ---------------------------------------------------------------------

    async def decompose(self, sentences: list[Sentence], *, holistic: bool, cost: Cost) -> DecomposeResult:
        return await asyncio.to_thread(self._decompose_sync, sentences, cost)

    def _decompose_sync(self, sentences: list[Sentence], cost: Cost) -> DecomposeResult:
        """One sentence at a time (the paper's sentence-based decomposition); holistic requests
        are served the same way, since a 1.5B model splits one sentence far more reliably."""
        result = DecomposeResult()
        self._load()
        with self._lock:
            for i, s in enumerate(sentences):
                before = " ".join(p.text for p in sentences[max(0, i - 2) : i])
                user = prompts.readout_decompose(s.text, before)
                key = cache_key(self.name, "decompose", user)
                lines = self.cache.get(key) if self.cache is not None else None
                if lines is not None:
                    cost.cache_hits += 1
                else:
                    try:
                        cost.judge_calls += 1
                        budget = int(1.6 * len(prompting.tokens(self._llm, s.text))) + 16
                        text = self._generate([("user", user)], prompting.CLAIM_LINES, budget, cost)
                    except Exception as exc:  # noqa: BLE001
                        result.failed[s.id] = f"{type(exc).__name__}: {exc}"
                        continue
                    lines = scoring.claim_lines(text, s.text)
                    if self.cache is not None:
                        self.cache.put(key, lines)
                for line in lines:
                    if line.lower().rstrip(".") != "none":
                        result.claims.append((s.id, line))
        return result
