"""The chat judge: decomposition and verification asked of a model that answers JSON over a chat API
(OpenAI-compatible endpoints, the frameworks' own LLMs).

What is asked lives in :mod:`~rt4chart_plugins.judges.prompts`, how a request is sent and retried in
:mod:`.transport`, how a reply's text becomes JSON in :mod:`.replies`, and how that JSON becomes
claims and verdicts in :mod:`.verdicts`. This class holds the policy that joins them: a reply that
is complete and valid is cached; one cut off or invalid is asked again, once; a verdict that parses
is kept, and the claims left without one are reported unjudged, never turned into NaN.
"""

from __future__ import annotations

from collections.abc import Callable

from rt4chart_plugins.claims import clause_claims
from rt4chart_plugins.config import AtLeastOne, checked
from rt4chart_plugins.errors import InvalidReply, JudgeError
from rt4chart_plugins.judges import prompts
from rt4chart_plugins.judges.base import DecomposeResult, Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.judges.cache import JudgeCache, cache_from_setting, cache_key
from rt4chart_plugins.judges.chat.replies import Answer, read_reply
from rt4chart_plugins.judges.chat.transport import ChatTransport
from rt4chart_plugins.judges.chat.verdicts import claims_of, salvage_verdicts, with_evidence
from rt4chart_plugins.judges.schema import DECOMPOSE_SCHEMA, VERIFY_SCHEMA
from rt4chart_plugins.types import Claim, Cost, Sentence

#: times a request whose reply is cut off or does not validate is asked, before its claims fail
REPLY_ATTEMPTS = 2
#: the problem of a complete reply that left a claim without a valid verdict
NO_VERDICT = "the judge returned no valid verdict for this claim"


class ChatJudge(ChatTransport, Judge):
    """Base class: subclasses implement :meth:`_complete` (one request, no retries)."""

    def __init__(
        self,
        *,
        name: str,
        cache: JudgeCache | str | bool | None = True,
        concurrency: int = 4,
        max_retries: int = 4,
        backoff: float = 1.0,
        max_retry_after: float = 60.0,
        breaker_after: int = 8,
        context_tokens: int = 6000,
    ):
        self.name = name
        super().__init__(
            concurrency=concurrency,
            max_retries=max_retries,
            backoff=backoff,
            max_retry_after=max_retry_after,
            breaker_after=breaker_after,
        )
        self._context_tokens = checked("context_tokens", context_tokens, AtLeastOne)
        self.cache = cache_from_setting(cache)

    def context_budget(self) -> int:
        return self._context_tokens

    async def _ask(
        self, system: str, user: str, schema: dict, schema_name: str, cost: Cost, check: Callable[[object], str | None]
    ) -> Answer:
        """One cached request with its transport retries, read. ``check(data)`` says what is wrong
        with a complete reply's JSON (None: nothing). Only a reply that is complete and passes
        ``check`` is cached: one that failed is asked again on a re-run, once the endpoint is
        fixed. Whether to ask again now, for a reply cut off or invalid, is the caller's."""
        key = cache_key(self.name, system, user, schema)
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None and check(hit) is None:  # a store from before replies were checked may hold others
                cost.cache_hits += 1
                return Answer(hit)
        try:
            reply = await self._send(system, user, schema, schema_name)
        except InvalidReply as exc:  # an answer, but no chat completion (an HTML page)
            return Answer(None, str(exc))
        cost.judge_calls += 1
        cost.prompt_tokens += reply.prompt_tokens
        cost.completion_tokens += reply.completion_tokens
        answer = read_reply(reply, check)
        if answer.problem is None and self.cache is not None:
            self.cache.put(key, answer.data)
        return answer

    # ---- decomposition ---------------------------------------------------------------------

    async def decompose(self, sentences: list[Sentence], *, holistic: bool, cost: Cost) -> DecomposeResult:
        """The claims of the sentences. A reply cut off or without a claim list is asked again;
        if it still cannot be read, the claims are the sentences' clauses, split by rule as for
        the trained verifier (:func:`rt4chart_plugins.claims.clause_claims`), and a note says so:
        a small model that writes no JSON costs the row its LLM claims, not its verdicts. Nothing
        of an unreadable reply is used, since a cut claim ("The sto") would be judged as if the
        answer had said it. An endpoint that failed after its retries leaves each sentence to be
        kept whole (:func:`rt4chart_plugins.pipeline.claims.decompose`)."""
        system = prompts.DECOMPOSE_HOLISTIC_SYSTEM if holistic else prompts.DECOMPOSE_SYSTEM
        user = prompts.decompose_user(sentences)
        result = DecomposeResult()

        def check(data: object) -> str | None:
            claims = claims_of(data, sentences, holistic)
            return "the judge's reply holds no claim list" if claims is None else None

        problem = None
        for _ in range(REPLY_ATTEMPTS):
            try:
                answer = await self._ask(system, user, DECOMPOSE_SCHEMA, "claims", cost, check)
            except JudgeError as exc:
                result.failed = {s.id: str(exc) for s in sentences}
                return result
            if answer.problem is None:
                result.claims = claims_of(answer.data, sentences, holistic) or []
                return result
            problem = answer.problem
        result.claims = clause_claims(sentences)
        result.notes.append(
            f"{self.name}: the decomposition could not be read ({problem}; asked {REPLY_ATTEMPTS} times): "
            "the claims are the answer's clauses, split by rule"
        )
        return result

    # ---- verification ----------------------------------------------------------------------

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        """Every claim's verdict. Each verdict that validates in a complete reply is kept; the
        claims left without one are asked again, once, then reported unjudged with the reason. A
        reply cut off gives no verdict at all, however much of it parses."""
        result = VerifyResult()
        pending = list(request.claims)
        problem = NO_VERDICT
        for round_ in range(REPLY_ATTEMPTS):  # the claims a reply left out are asked again, once
            if not pending:
                break
            user = prompts.verify_user(request.mode, request.sentences, pending, request.question, request.hints)
            if round_:
                user += "\n\n" + prompts.VERIFY_MISSING
            check = _every_claim_judged(list(pending))
            try:
                answer = await self._ask(prompts.VERIFY_SYSTEM, user, VERIFY_SCHEMA, "verdicts", cost, check)
            except JudgeError as exc:
                for c in pending:
                    result.unjudged[c.id] = str(exc)
                return result
            got = [with_evidence(j, pending, request.sentences) for j in salvage_verdicts(answer.data, pending)]
            result.judgements.extend(got)
            done = {j.claim_id for j in got}
            pending = [c for c in pending if c.id not in done]
            problem = answer.problem or problem
        for c in pending:
            result.unjudged[c.id] = (
                problem if problem == NO_VERDICT else f"{self.name}: {problem} (asked {REPLY_ATTEMPTS} times)"
            )
        return result


def _every_claim_judged(asked: list[Claim]) -> Callable[[object], str | None]:
    """The check of a verification reply: valid when every claim asked has a verdict that validates."""
    wanted = {c.id for c in asked}

    def check(data: object) -> str | None:
        judged = {j.claim_id for j in salvage_verdicts(data, asked)}
        return None if judged >= wanted else NO_VERDICT

    return check
