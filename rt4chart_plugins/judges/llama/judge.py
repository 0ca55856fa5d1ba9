"""The embedded judge: a local GGUF model run in-process with llama-cpp-python, offline.

Generation is the expensive part on a CPU (a few tokens per second), prompt reading much less so,
and re-reading nothing at all. So every request is laid out for the KV cache: instructions and
context come first and are read once, then each claim is appended and its label is read off the
logits of one forward pass (no generated token, and label probabilities for free). Only ENT/CON
claims generate a few tokens more: their evidence ids, under a grammar that allows only the ids
shown; unfaithful claims may also name their unsupported phrase.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rt4chart_plugins.errors import JudgeError, MissingExtra
from rt4chart_plugins.judges import prompts
from rt4chart_plugins.judges.base import DecomposeResult, Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.judges.cache import JudgeCache, cache_from_setting, cache_key
from rt4chart_plugins.judges.llama.shared import close_at_exit
from rt4chart_plugins.rules.text import STOPWORDS
from rt4chart_plugins.types import Claim, Cost, Judgement, Label, Sentence

#: tokens kept free in the context for instructions, the claim and what is generated
_RESERVE = 640


@dataclass
class _Model:
    llm: Any
    lock: threading.Lock
    yes: list[int]
    no: list[int]


def first_tokens(llm: Any, words: tuple[str, ...]) -> list[int]:
    """The ids of the first token of each spelling of a label word (Yes, yes, YES)."""
    return sorted({llm.tokenize(w.encode(), add_bos=False, special=False)[0] for w in words})


def p_yes(logits: np.ndarray, yes: list[int], no: list[int]) -> float:
    """P(Yes) against P(No) from next-token logits (0.5 when both underflow)."""
    shifted = np.exp(logits - logits.max())
    y, n = float(shifted[yes].sum()), float(shifted[no].sum())
    return y / (y + n) if y + n > 0 else 0.5


@dataclass
class _Support:
    p_sup: float
    evidence: list[int]
    phrase: str | None


_LOADED: dict[tuple, _Model] = {}
_LOAD_LOCK = threading.Lock()


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
        self.name = f"llama.cpp:{self._model_name if not model_path else Path(model_path).name}"

    # ---- model ---------------------------------------------------------------------------

    def _load(self) -> Any:
        """Load the model, or join an already loaded one: judges that differ only in cache or
        thresholds share one model in memory (and its lock, since it holds one sequence)."""
        if self._llm is not None:
            return self._llm
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise MissingExtra("llama-cpp-python", "local") from exc
        from rt4chart_plugins import models

        with _LOAD_LOCK:
            self.model_path = models.locate(self._model_name, self._explicit_path)
            if self._explicit_path or os.environ.get("RT4CHART_MODEL_PATH"):
                stat = self.model_path.stat()
                self.name = f"llama.cpp:{self.model_path.name}:{stat.st_size}"
            else:
                self.name = f"llama.cpp:{self._model_name}:{models.MODELS[self._model_name].sha256[:12]}"
            key = (str(self.model_path.resolve()), self.n_ctx, self.n_threads, self.seed)
            if key not in _LOADED:
                llm = Llama(
                    model_path=str(self.model_path),
                    n_ctx=self.n_ctx,
                    n_threads=self.n_threads,
                    n_batch=512,
                    seed=self.seed,
                    logits_all=False,
                    verbose=False,
                )
                if "<|im_start|>" not in (llm.metadata.get("tokenizer.chat_template") or ""):
                    raise JudgeError(
                        f"{self.model_path.name}: only ChatML-templated instruct models are supported as judges"
                    )
                close_at_exit(llm)
                _LOADED[key] = _Model(
                    llm, threading.Lock(), first_tokens(llm, prompts.READOUT_YES), first_tokens(llm, prompts.READOUT_NO)
                )
            loaded = _LOADED[key]
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

    # ---- low level: ChatML, prefix-reusing eval, label readout, constrained generation ----

    @staticmethod
    def _chatml(turns: list[tuple[str, str]], open_assistant: bool = True) -> str:
        text = "".join(f"<|im_start|>{role}\n{content}<|im_end|>\n" for role, content in turns)
        return text + ("<|im_start|>assistant\n" if open_assistant else "")

    def _tokens(self, text: str) -> list[int]:
        return self._llm.tokenize(text.encode(), add_bos=False, special=True)

    def _eval(self, tokens: list[int], cost: Cost) -> np.ndarray:
        """Evaluate ``tokens`` reusing the longest cached prefix; return the last logits."""
        llm = self._llm
        if len(tokens) >= self.n_ctx:
            raise JudgeError(f"prompt of {len(tokens)} tokens exceeds the judge's context of {self.n_ctx}")
        prefix = self._cached_prefix(tokens)
        llm.n_tokens = prefix
        llm.eval(tokens[prefix:])
        cost.prompt_tokens += len(tokens) - prefix
        logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),))
        return np.array(logits, dtype=np.float64)

    def _cached_prefix(self, tokens: list[int]) -> int:
        """How many leading tokens are already in the KV cache (at least one is always re-read)."""
        cached = self._llm.input_ids[: self._llm.n_tokens]
        prefix = 0
        limit = min(len(cached), len(tokens) - 1)
        while prefix < limit and cached[prefix] == tokens[prefix]:
            prefix += 1
        return prefix

    def _p_yes(self, turns: list[tuple[str, str]], cost: Cost) -> float:
        """P(Yes) against P(No) for the next token: one forward pass, nothing generated."""
        return p_yes(self._eval(self._tokens(self._chatml(turns)), cost), self._yes, self._no)

    def _generate(self, tokens: list[int], grammar: str | None, max_tokens: int, cost: Cost) -> str:
        from llama_cpp import LlamaGrammar

        cost.prompt_tokens += len(tokens) - self._cached_prefix(tokens)
        out = self._llm.create_completion(
            prompt=tokens,
            max_tokens=max_tokens,
            temperature=0.0,
            grammar=LlamaGrammar.from_string(grammar, verbose=False) if grammar else None,
            stop=["<|im_end|>", "\n\n"],
        )
        usage = out.get("usage", {})
        cost.completion_tokens += usage.get("completion_tokens", 0)
        return out["choices"][0]["text"]

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
            pending: list[tuple[Claim, str, _Support]] = []
            for claim in request.claims:
                hint = None
                if claim.id in request.hints:
                    label, ids = request.hints[claim.id]
                    span = f"{ids[0]}-{ids[-1]}" if ids else "none"
                    hint = f"(Provisional verdict: {_WORD[label]}, near sentences {span}.)"
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

    def _support(self, system: str, user: str, shown: list[int], want_phrase: bool, cost: Cost) -> _Support:
        """P(the context supports the claim); for a supported claim its evidence ids, for the
        others the phrase the judge names as unsupported."""
        cost.judge_calls += 1
        turns = [("system", system), ("user", user)]
        p_sup = self._p_yes(turns, cost)
        evidence: list[int] = []
        phrase = None
        if p_sup >= self.support_threshold:
            if self.evidence and shown:
                text = self._generate(
                    self._tokens(self._chatml(turns + [("assistant", "Yes"), ("user", prompts.READOUT_EVIDENCE)])),
                    _ids_grammar(shown),
                    max_tokens=12,
                    cost=cost,
                )
                evidence = [int(t) for t in text.replace(" ", "").split(",") if t.isdigit()]
        elif want_phrase:
            lines = (
                self._generate(
                    self._tokens(self._chatml(turns + [("assistant", "No"), ("user", prompts.READOUT_PHRASE)])),
                    None,
                    max_tokens=24,
                    cost=cost,
                )
                .strip()
                .splitlines()
            )
            phrase = _quoted(lines[0]) if lines else None
        return _Support(p_sup, evidence, phrase)

    def _decide(self, system: str, claim: Claim, support: _Support, sentences: list[Sentence], cost: Cost) -> Judgement:
        """ENT when supported; otherwise: can the claim and the context sentence closest to it
        both be true? No → CON with that sentence as evidence, yes → NIC."""
        p_sup = support.p_sup
        p_compatible, closest = 1.0, None
        if p_sup >= self.support_threshold:
            label = Label.ENT
        else:
            for cand in closest_sentences(claim.text, sentences, k=2):
                p = self._p_yes([("system", system), ("user", prompts.readout_pair(cand.text, claim.text))], cost)
                if p < p_compatible:
                    p_compatible, closest = p, cand
            label = Label.CON if p_compatible < self.conflict_threshold else Label.NIC
        evidence = support.evidence if label == Label.ENT else [closest.id] if label == Label.CON and closest else []
        probs = {Label.ENT: p_sup, Label.CON: (1 - p_sup) * (1 - p_compatible), Label.NIC: (1 - p_sup) * p_compatible}
        return Judgement(
            claim_id=claim.id,
            label=label,
            evidence=evidence,
            phrase=support.phrase if label != Label.ENT else None,
            probs=probs,
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
                        budget = int(1.6 * len(self._tokens(s.text))) + 16
                        text = self._generate(self._tokens(self._chatml([("user", user)])), _CLAIM_LINES, budget, cost)
                    except Exception as exc:  # noqa: BLE001
                        result.failed[s.id] = f"{type(exc).__name__}: {exc}"
                        continue
                    lines = _claim_lines(text, s.text)
                    if self.cache is not None:
                        self.cache.put(key, lines)
                for line in lines:
                    if line.lower().rstrip(".") != "none":
                        result.claims.append((s.id, line))
        return result


_WORD = {Label.ENT: "supported", Label.CON: "contradicted", Label.NIC: "not mentioned"}
_CLAIM_LINES = r'root ::= ("- " [^\n]+ "\n")+'


def _ids_grammar(ids: list[int]) -> str:
    alternatives = " | ".join(f'"{i}"' for i in sorted(set(ids), key=lambda x: -len(str(x))))
    return f'root ::= id (", " id)*\nid ::= {alternatives}'


_TOKEN = re.compile(r"\w+", re.UNICODE)


def _stems(text: str) -> set[str]:
    """Content words cut to 5 characters: 'verification' and 'verified' meet, cheaply."""
    return {t[:5] for t in (m.group().lower() for m in _TOKEN.finditer(text)) if t not in STOPWORDS and len(t) > 1}


def closest_sentences(claim: str, sentences: list[Sentence], k: int = 2) -> list[Sentence]:
    """The k sentences sharing most content words with the claim (rarer words weigh more)."""
    want = _stems(claim)
    if not want or not sentences:
        return []
    bags = [_stems(s.text) for s in sentences]
    df = {w: sum(1 for b in bags if w in b) for w in want}
    scored = [(sum(1.0 / df[w] for w in want & b), s) for b, s in zip(bags, sentences)]
    scored = [x for x in scored if x[0] > 0]
    scored.sort(key=lambda x: -x[0])
    return [s for _, s in scored[:k]]


def _claim_lines(text: str, source: str) -> list[str]:
    """Claims from '- ' lines: no duplicates, no fragments of under three words, no '- none', and
    none whose content words are mostly absent from the sentence (the decomposer invented it, or
    copied a claim of the previous sentences it was shown for pronoun resolution)."""
    allowed = _stems(source)
    out: list[str] = []
    seen: set[str] = set()
    for line in text.splitlines():
        if not line.startswith("- "):
            continue
        claim = re.sub(r"\s+-\s*none\.?$", "", line[2:].strip(), flags=re.IGNORECASE).strip()
        key = " ".join(_TOKEN.findall(claim.lower()))
        words = _stems(claim)
        if len(key.split()) < 3 or key in seen or len(words & allowed) < 0.6 * len(words):
            continue
        seen.add(key)
        out.append(claim)
    keys = [" ".join(_TOKEN.findall(c.lower())) for c in out]  # a claim cut short by another: drop it
    return [c for c, k in zip(out, keys) if not any(o != k and o.startswith(k) for o in keys)]


def _quoted(answer: str) -> str | None:
    """The phrase a judge named: the first quoted text if it quoted, else the whole line."""
    m = re.search(r'["“]([^"”]{2,})["”]', answer)
    return (m.group(1) if m else answer).strip() or None
