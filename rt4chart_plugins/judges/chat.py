"""Judges that answer structured JSON over a chat API (OpenAI-compatible endpoints, framework LLMs).

All the care that small judges need lives here, once, whatever the transport: the persistent
cache, bounded concurrency, retries with backoff on transient failures, and *salvage* of partially
valid output: every verdict that parses is kept, the claims left without one are retried once and
then reported as unjudged, never turned into NaN. A subclass only says how to send one request.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import weakref
from abc import abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from json_repair import repair_json
from pydantic import ValidationError

from rt4chart_plugins.config import AtLeastOne, AtLeastZero, SecondsOrNone, checked
from rt4chart_plugins.errors import InvalidReply, JudgeError, JudgeUnavailable
from rt4chart_plugins.judges import failures, prompts
from rt4chart_plugins.judges.base import DecomposeResult, Judge, VerifyRequest, VerifyResult, label_from_text
from rt4chart_plugins.judges.cache import JudgeCache, cache_from_setting, cache_key
from rt4chart_plugins.judges.schema import DECOMPOSE_SCHEMA, VERIFY_SCHEMA
from rt4chart_plugins.rules.text import STOPWORDS
from rt4chart_plugins.types import Claim, Cost, Judgement, Sentence

T = TypeVar("T")


@dataclass
class ChatReply:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cut: bool = False  # the server says it stopped the reply early (OpenAI's finish_reason "length")


#: times a request whose reply is cut off or does not validate is asked, before its claims fail
REPLY_ATTEMPTS = 2
#: the problem of a reply cut off before its JSON ends
CUT = "the judge's reply was cut off before its JSON ended"
#: the problem of a complete reply that left a claim without a valid verdict
NO_VERDICT = "the judge returned no valid verdict for this claim"


@dataclass
class Answer:
    """A request's reply as read: its JSON (None when there is none), and what is wrong with it."""

    data: object | None
    problem: str | None = None  # None: complete, and it validated
    cut: bool = False  # the reply ends before its JSON does: nothing of it is used


async def within(seconds: float | None, request: Awaitable[T]) -> T:
    """``await request``, cut at ``seconds`` in all: a client's own timeout bounds each read of a
    reply, so a server that trickles its body a byte at a time is never timed out by it. Past the
    deadline the request is cancelled and a :class:`TimeoutError` saying so is raised (transient:
    retried as any timeout)."""
    if seconds is None:
        return await request
    try:
        return await asyncio.wait_for(request, seconds)
    except asyncio.TimeoutError:
        raise TimeoutError(f"no complete reply within {seconds:g} s") from None


def json_instruction(schema: dict) -> str:
    """Appended to the system prompt when JSON is asked for in the prompt (no response format)."""
    return (
        "\n\nRespond with one JSON object and nothing else (no prose, no code fences), "
        f"matching this JSON schema:\n{json.dumps(schema, separators=(',', ':'))}"
    )


def prompt_messages(system: str, user: str, schema: dict) -> tuple[str, str]:
    """The one request every chat client sends when it asks for JSON in the prompt: the system
    prompt with the schema appended, then the user turn. Every client (the ``openai`` judge once it
    has learnt that a server rejects response formats, and each framework's own LLM) sends exactly
    this, so that one endpoint gives the same verdicts whichever client reaches it."""
    return system + json_instruction(schema), user


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)(?:```|$)", re.DOTALL)


def extract_json_text(text: str) -> str:
    """The JSON part of a chat reply: small models often write a sentence of prose and then the
    JSON, fenced or not. Returns the fenced block, or the text from the first ``{``/``[`` on."""
    stripped = (text or "").strip()
    if not stripped or stripped[0] in "{[":
        return stripped
    fenced = _FENCE.search(stripped)
    if fenced and fenced.group(1).strip()[:1] in ("{", "["):
        return fenced.group(1).strip()
    starts = [i for i in (stripped.find("{"), stripped.find("[")) if i >= 0]
    return stripped[min(starts) :] if starts else stripped


#: one verdict of a reply written as labelled lines instead of JSON ("Claim (0): …", "Label: CON",
#: "Evidence: [0]", "Phrase: …", "Reason: …"), as small models write when asked for JSON in the prompt
_LABELLED = re.compile(
    r"^\W*Claim\s*\(?(?P<claim>\d+)\)?\s*[:.)-].*?^\W*Label\s*:\s*\W*(?P<label>[A-Za-z_]+)"
    r"(?:(?:(?!^\W*Claim\s*\(?\d).)*?^\W*Evidence\s*:\s*(?P<evidence>[^\n]*))?"
    r"(?:(?:(?!^\W*Claim\s*\(?\d).)*?^\W*Phrase\s*:\s*(?P<phrase>[^\n]*))?"
    r"(?:(?:(?!^\W*Claim\s*\(?\d).)*?^\W*Reason\s*:\s*(?P<reason>[^\n]*))?",
    re.IGNORECASE | re.MULTILINE | re.DOTALL,
)


def _parse_labelled(text: str) -> dict | None:
    """Verdicts written as labelled lines, as ``{"verdicts": [...]}``; None when there are none.
    The same reply then gives the same verdicts whichever client fetched it."""
    verdicts = []
    for m in _LABELLED.finditer(text or ""):
        phrase = (m.group("phrase") or "").strip().strip("\"'") or None
        verdicts.append(
            {
                "claim": int(m.group("claim")),
                "label": m.group("label"),
                "evidence": _INT.findall(m.group("evidence") or ""),
                "phrase": phrase,
                "reason": (m.group("reason") or "").strip() or None,
            }
        )
    return {"verdicts": verdicts} if verdicts else None


def parse_json_loose(text: str) -> object | None:
    """Parse a judge's JSON: prose and fences around it are cut, truncation repaired if possible;
    a reply of labelled lines instead of JSON is read as its verdicts."""
    raw = text
    text = extract_json_text(text)
    try:
        return json.loads(text)
    except (ValueError, TypeError):
        pass
    labelled = _parse_labelled(raw)
    if labelled is not None:
        return labelled
    try:
        repaired = repair_json(text or "", return_objects=True)
    except Exception:  # json_repair is best-effort; anything it cannot handle is unparseable
        return None
    return repaired if repaired not in ("", None) else None


def json_is_cut(text: str) -> bool:
    """Whether a reply's JSON ends before it is closed: a string, an object or an array left open
    (``{"claims": [{"sentence": 0, "text": "The sto``). Repairing it would make "The sto" a claim,
    or a verdict of what the judge had not finished saying."""
    body = extract_json_text(text)
    if body[:1] not in ("{", "["):
        return False
    depth, in_string, escaped = 0, False, False
    for ch in body:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return False  # closed: what follows is prose
    return True


def read_reply(reply: ChatReply, check: Callable[[object], str | None]) -> Answer:
    """A reply's JSON and what is wrong with it: cut off (by the server, or before its JSON is
    closed), unparseable, or failing ``check``. Nothing of a cut reply is used."""
    if reply.cut or json_is_cut(reply.text):
        return Answer(None, CUT, cut=True)
    data = parse_json_loose(reply.text)
    if data is None:
        return Answer(None, "the judge's reply holds no JSON")
    return Answer(data, check(data))


class ChatJudge(Judge):
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
        self.concurrency = checked("concurrency", concurrency, AtLeastOne)
        self.max_retries = checked("max_retries", max_retries, AtLeastZero)
        self.backoff = checked("backoff", backoff, SecondsOrNone)
        self.max_retry_after = checked("max_retry_after", max_retry_after, SecondsOrNone)
        self.breaker_after = checked("breaker_after", breaker_after, AtLeastOne)
        context_tokens = checked("context_tokens", context_tokens, AtLeastOne)
        self.cache = cache_from_setting(cache)
        #: failed attempts since the last success, across every request (the circuit breaker's count)
        self._failures_in_a_row = 0
        #: set once the endpoint is known unusable: every later request fails at once, unsent
        self._unavailable: JudgeUnavailable | None = None
        #: requests sent, retries included (what the endpoint saw)
        self.attempts = 0
        self._context_tokens = context_tokens
        # one semaphore per event loop, dropped with its loop: frameworks run us on fresh loops
        self._semaphores: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    # ---- transport -------------------------------------------------------------------------

    @abstractmethod
    async def _complete(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        """Send one request; raise on failure (``_is_transient`` decides whether to retry)."""

    def _is_transient(self, exc: BaseException) -> bool:
        """Worth retrying: a timeout, a dropped connection, 408/409/429 or a 5xx, whichever client
        raised it (:mod:`~rt4chart_plugins.judges.failures`)."""
        return failures.is_transient(exc)

    def _is_fatal(self, exc: BaseException) -> bool:
        """A failure no other request can avoid (401/403/404: bad key, no such model): stop asking."""
        return failures.is_fatal(exc)

    def _retry_after(self, exc: BaseException) -> float | None:
        """Seconds the endpoint asked us to wait before retrying (``Retry-After``), if it said."""
        return failures.retry_after(exc)

    def context_budget(self) -> int:
        return self._context_tokens

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if loop not in self._semaphores:
            self._semaphores[loop] = asyncio.Semaphore(self.concurrency)
        return self._semaphores[loop]

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

    async def _send(self, system: str, user: str, schema: dict, schema_name: str) -> ChatReply:
        """One request with its retries: transient failures wait (the endpoint's ``Retry-After``
        when it gives one, else exponential backoff with jitter) and try again, up to
        ``max_retries`` times. A fatal failure (401/403/404), or ``breaker_after`` failed attempts
        in a row across all requests (the endpoint is down), raises :class:`JudgeUnavailable`;
        from then on every request fails at once without being sent."""
        attempt = 0
        while True:
            if self._unavailable is not None:
                raise self._unavailable
            try:
                async with self._semaphore():
                    if self._unavailable is not None:  # opened while this request waited its turn
                        raise self._unavailable
                    self.attempts += 1
                    reply = await self._complete(system, user, schema, schema_name)
                self._failures_in_a_row = 0
                return reply
            except (JudgeUnavailable, InvalidReply):
                raise
            except Exception as exc:  # noqa: BLE001 - classified below
                attempt += 1
                what = failures.describe(exc)
                if self._is_fatal(exc):
                    self._unavailable = JudgeUnavailable(
                        f"{self.name} refused the request ({what}); check the key, the model name and the "
                        f"URL. No further request was sent; re-run to score the rows left"
                    )
                    raise self._unavailable from exc
                if not self._is_transient(exc):
                    raise JudgeError(f"{self.name}: {what}") from exc
                self._failures_in_a_row += 1
                if self._failures_in_a_row >= self.breaker_after:
                    self._unavailable = JudgeUnavailable(
                        f"{self.name} failed {self._failures_in_a_row} attempts in a row (last: {what}); the "
                        f"endpoint looks down, so the rest were not sent. Re-run to resume once it is back"
                    )
                    raise self._unavailable from exc
                if attempt > self.max_retries:
                    raise JudgeError(f"{self.name}: {what} (after {attempt} attempts)") from exc
                await asyncio.sleep(self._delay(exc, attempt))

    def _delay(self, exc: BaseException, attempt: int) -> float:
        asked = self._retry_after(exc)
        if asked is not None:
            return min(max(asked, 0.0), self.max_retry_after)
        return self.backoff * (2 ** (attempt - 1)) * (0.5 + random.random())

    # ---- decomposition ---------------------------------------------------------------------

    async def decompose(self, sentences: list[Sentence], *, holistic: bool, cost: Cost) -> DecomposeResult:
        """The claims of the sentences. A reply cut off or without a claim list is asked again,
        then raises :class:`InvalidReply`: the row fails, since a cut claim ("The sto") would be
        judged as if the answer had said it. An endpoint that failed after its retries leaves each
        sentence to be kept whole (:func:`rt4chart_plugins.pipeline.decompose.decompose`)."""
        system = prompts.DECOMPOSE_HOLISTIC_SYSTEM if holistic else prompts.DECOMPOSE_SYSTEM
        user = prompts.decompose_user(sentences)
        result = DecomposeResult()

        def check(data: object) -> str | None:
            claims = _claims_of(data, sentences, holistic)
            return "the judge's reply holds no claim list" if claims is None else None

        problem = None
        for _ in range(REPLY_ATTEMPTS):
            try:
                answer = await self._ask(system, user, DECOMPOSE_SCHEMA, "claims", cost, check)
            except JudgeError as exc:
                result.failed = {s.id: str(exc) for s in sentences}
                return result
            if answer.problem is None:
                result.claims = _claims_of(answer.data, sentences, holistic) or []
                return result
            problem = answer.problem
        raise InvalidReply(
            f"{self.name}: the decomposition could not be read ({problem}; asked {REPLY_ATTEMPTS} times)"
        )

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
                # the same prompt may well get the same reply again (a cached one, or one at temperature
                # 0), so the second ask says what is missing
                user += "\n\n" + _MISSING
            asked = list(pending)

            def check(data: object) -> str | None:
                judged = {j.claim_id for j in _salvage_verdicts(data, asked)}
                return None if judged >= {c.id for c in asked} else NO_VERDICT

            try:
                answer = await self._ask(prompts.VERIFY_SYSTEM, user, VERIFY_SCHEMA, "verdicts", cost, check)
            except JudgeError as exc:
                for c in pending:
                    result.unjudged[c.id] = str(exc)
                return result
            got = [_with_evidence(j, pending, request.sentences) for j in _salvage_verdicts(answer.data, pending)]
            result.judgements.extend(got)
            done = {j.claim_id for j in got}
            pending = [c for c in pending if c.id not in done]
            problem = answer.problem or problem
        for c in pending:
            result.unjudged[c.id] = (
                problem if problem == NO_VERDICT else f"{self.name}: {problem} (asked {REPLY_ATTEMPTS} times)"
            )
        return result


def _claims_of(data: object, sentences: list[Sentence], holistic: bool) -> list[tuple[int, str]] | None:
    """(answer sentence id, claim) for each claim of a decomposition reply that has a text; None
    when the reply holds no claim list, or a list none of whose items is a claim."""
    items = data.get("claims") if isinstance(data, dict) else data if isinstance(data, list) else None
    if not isinstance(items, list):
        return None
    valid_ids = {s.id for s in sentences}
    claims: list[tuple[int, str]] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        text = next((item[k] for k in ("text", "claim", "statement") if isinstance(item.get(k), str)), None)
        sid = _as_int(item.get("sentence", -1))
        if not isinstance(text, str) or not text.strip():
            continue
        if not isinstance(sid, int) or sid not in valid_ids:
            sid = -1 if holistic else _nearest_sentence(text, sentences)
        claims.append((sid, text.strip()))
    return claims if claims or not items else None


_MISSING = 'Give exactly one verdict for each claim above, numbered as above, in the "verdicts" list.'
_INT = re.compile(r"-?\d+")
_WORD = re.compile(r"[a-z0-9]+")


def _as_int(value: object) -> int | None:
    """A number as small models write it: 3, "3", "[3]", "S3", "sentence 3", 3.0."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        found = _INT.findall(value)
        return int(found[0]) if len(found) == 1 else None
    return None


def _content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in STOPWORDS}


def _with_evidence(judgement: Judgement, claims: list[Claim], sentences: list[Sentence]) -> Judgement:
    """A CON or ENT verdict that cites no context sentence gets the shown sentence that shares most
    content words with the claim (at least two), and its reason says so. Small chat judges often
    write ``"evidence": []`` beside a reason that paraphrases the refuting sentence; an empty
    evidence list would leave the user without the sentence to check."""
    if judgement.label.value == "NIC" or judgement.evidence or judgement.quote:
        return judgement
    claim = next((c for c in claims if c.id == judgement.claim_id), None)
    if claim is None:
        return judgement
    words = _content_words(claim.text)
    scored = [(len(words & _content_words(s.text)), -s.id) for s in sentences]
    best = max(scored, default=(0, 0))
    if best[0] < 2:
        return judgement
    note = f"(evidence: the judge cited no sentence; [{-best[1]}] shares most of the claim's words)"
    return judgement.model_copy(
        update={"evidence": [-best[1]], "reason": f"{judgement.reason} {note}" if judgement.reason else note}
    )


def _salvage_verdicts(data: object, claims: list[Claim]) -> list[Judgement]:
    """Keep every verdict that validates; ignore the rest (their claims get asked again)."""
    items = data.get("verdicts") if isinstance(data, dict) else data if isinstance(data, list) else None
    if not isinstance(items, list):
        return []
    wanted = {c.id for c in claims}
    single = len(claims) == 1
    out: dict[int, Judgement] = {}
    for item in items:
        if not isinstance(item, dict):
            continue
        cid = _as_int(next((item[k] for k in ("claim", "claim_id", "id") if k in item), None))
        if single and cid not in wanted:
            cid = claims[0].id  # a lone verdict for a lone claim, whatever number it carries
        label = label_from_text(item.get("label"))
        if cid not in wanted or label is None or cid in out:
            continue
        evidence = item.get("evidence") or []
        if not isinstance(evidence, list):
            evidence = [evidence]
        ids = [i for i in (_as_int(e) for e in evidence) if i is not None]
        try:
            out[cid] = Judgement(
                claim_id=cid,
                label=label,
                evidence=list(dict.fromkeys(ids)),
                phrase=item.get("phrase") if isinstance(item.get("phrase"), str) else None,
                reason=item.get("reason") if isinstance(item.get("reason"), str) else None,
                quote=item.get("quote") if isinstance(item.get("quote"), str) else None,
            )
        except (ValidationError, ValueError):
            continue
    return list(out.values())


def _nearest_sentence(text: str, sentences: list[Sentence]) -> int:
    """The answer sentence sharing most words with a claim (a decomposer that lost the id)."""
    words = set(text.lower().split())
    best = max(sentences, key=lambda s: len(words & set(s.text.lower().split())), default=None)
    return best.id if best else -1
