"""``judge="hf:<repo or folder>"``: a Hugging Face NLI or fact-check model as the judge.

It reads like the trained verifier, with another encoder: it holds the same
:class:`~rt4chart_plugins.judges.trained.reading.Reading`, so the same clause claims (a clause
judged within its sentence first), the same premise picker (the context sentences that share the
claim's rarest words, as many as fit), the same evidence, phrase and clause logic. What changes
is where P(ENT), P(CON) and P(NIC) come from:

- a **3-way** model (entailment / neutral / contradiction, in whatever order its config lists
  them) gives them itself: its softmax, no fitted decision on top;
- a **2-way** model (supported / unsupported; a seq2seq verifier's yes / no token; a single
  consistency score) gives P(ENT). Whether the rest is contradicted or not in the context is the
  shipped trained verifier's call, read from its fitted conflict model on the same pair, and a
  flagged claim's reason says so.

The label: ENT when P(ENT) reaches ``threshold`` (0.5 unless set), else the larger of P(CON) and
P(NIC). The deterministic rules run after it, as after every judge.
"""

from __future__ import annotations

import asyncio
import math
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, cast

from rt4chart_plugins.config import AtLeastOne, Probability, checked
from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.judges.base import Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.judges.hf.labels import LabelsOption
from rt4chart_plugins.judges.hf.runtime import (
    DEFAULT_VERDICT_TOKENS,
    RUNTIMES,
    Loaded,
    ModelCard,
    choose_runtime,
    load,
    read_card,
)
from rt4chart_plugins.judges.trained.decision import conflict_features, softmax
from rt4chart_plugins.judges.trained.encoder import load_manifest
from rt4chart_plugins.judges.trained.judge import TrainedJudge
from rt4chart_plugins.judges.trained.premise import Premise, Premises, coverage
from rt4chart_plugins.judges.trained.reading import LoadedEncoder, Reading
from rt4chart_plugins.models.hf import locate
from rt4chart_plugins.rules.facts import unsupported_facts
from rt4chart_plugins.types import Cost, Judgement, Label, Sentence, Signals

#: P(ENT) at or above which a claim is supported, unless ``threshold`` is set: a 3-way model's
#: softmax and a 2-way model's P(supported) are probabilities of their own, not a fitted score
DEFAULT_THRESHOLD = 0.5
#: tokens of a pair kept for the claim when the premise budget is set from the max length
CLAIM_ROOM = 96
_FLOOR = 1e-12
_LOADED: dict[tuple, Loaded] = {}
_LOAD_LOCK = threading.Lock()
# a forked child inherits the dict but not torch's or onnxruntime's worker threads: it loads its own
os.register_at_fork(after_in_child=_LOADED.clear)


class HFJudge(Judge):
    """``Verifier("hf", judge_kwargs={"model": REPO_OR_FOLDER})``, or ``Verifier("hf:REPO")``.

    ``model``: a repo id pulled with ``rt4chart model pull hf:REPO``, or a local folder
    (``save_pretrained``'s, or an ONNX export's). ``kind``: ``auto`` (from the config),
    ``classifier`` or ``seq2seq``. ``labels``: what the classes mean when the config says only
    ``LABEL_0``…: one of ENT, CON, NIC, NOT per class in order, or a mapping from the config's
    names. ``threshold``: P(ENT) at or above which a claim is ENT (default 0.5). ``runtime``:
    ``auto`` (an exported ONNX graph if the folder has one, else torch), ``torch``, ``onnx`` or
    ``onnx-int8``. ``device``: torch's device (default: a GPU when torch sees one, else the CPU).
    ``max_length``: tokens per pair (default the model's, at most 512); ``premise_tokens``: of
    them, the premise's (default what the claim leaves). ``batch_size``: pairs a run (default 16).
    Seq2seq only: ``prompt`` (default MiniCheck-Flan-T5's ``premise: {premise} hypothesis:
    {claim}``) and ``verdict_tokens`` (the words for not supported and supported, default
    ``("0", "1")``)."""

    #: as the trained verifier: it picks each claim's premise out of any window, and its claims are
    #: the clauses of the answer sentences (:class:`~rt4chart_plugins.judges.trained.TrainedJudge`)
    one_window = True
    clause_claims = True

    def __init__(
        self,
        model: str | None = None,
        *,
        kind: str = "auto",
        labels: LabelsOption = None,
        threshold: float | None = None,
        runtime: str = "auto",
        device: str | None = None,
        max_length: int | None = None,
        premise_tokens: int | None = None,
        batch_size: int = 16,
        prompt: str | None = None,
        verdict_tokens: tuple[str, str] | list[str] = DEFAULT_VERDICT_TOKENS,
    ):
        given = None if threshold is None else checked("threshold", threshold, Probability)
        self._threshold = DEFAULT_THRESHOLD if given is None else given
        self._state: LoadedEncoder | None = None
        if not model or not isinstance(model, (str, Path)):
            raise InvalidInput(
                "the hf judge needs a model: judge='hf:REPO' or 'hf:/path/to/folder', or judge_kwargs={'model': ...}"
            )
        self.model = str(model)
        self.name = f"hf:{self.model}"
        directory, self.pin = locate(self.model)  # a name that is not here fails now, in one line
        self.card: ModelCard = read_card(directory, labels=labels, kind=kind)
        if runtime not in RUNTIMES:
            raise InvalidInput(f"runtime: one of {', '.join(RUNTIMES)}, not {runtime!r}")
        self.runtime = choose_runtime(self.card, runtime)
        if self.card.kind == "classifier" and (prompt is not None or tuple(verdict_tokens) != DEFAULT_VERDICT_TOKENS):
            raise InvalidInput("prompt and verdict_tokens are for a seq2seq verifier; this model is a classifier")
        if len(verdict_tokens) != 2 or not all(isinstance(t, str) and t for t in verdict_tokens):
            raise InvalidInput(f"verdict_tokens: two words, not supported then supported, not {verdict_tokens!r}")
        if prompt is not None and not ("{premise}" in prompt and "{claim}" in prompt):
            raise InvalidInput("prompt: a template with {premise} and {claim}")
        self.device = device
        self.max_length = None if max_length is None else checked("max_length", max_length, AtLeastOne)
        self.premise_tokens = None if premise_tokens is None else checked("premise_tokens", premise_tokens, AtLeastOne)
        self.batch_size = checked("batch_size", batch_size, AtLeastOne)
        self.prompt = prompt
        self.verdict_tokens = (str(verdict_tokens[0]), str(verdict_tokens[1]))
        self._helper: TrainedJudge | None = None

    @property
    def two_way(self) -> bool:
        return not self.card.labels.three_way

    # ---- loading -----------------------------------------------------------------------------

    def prepare(self) -> None:
        self._load()

    def _load(self) -> LoadedEncoder:
        if self._state is not None:
            return self._state
        key = (
            str(self.card.directory.resolve()),
            self.card.kind,
            self.runtime,
            self.device,
            self.max_length,
            self.prompt,
            self.verdict_tokens,
        )
        with _LOAD_LOCK:  # one copy of a model's weights per process, whichever judges share it
            if key not in _LOADED:
                _LOADED[key] = load(
                    self.card,
                    self.runtime,
                    max_length=self.max_length,
                    prompt=self.prompt,
                    verdict_tokens=self.verdict_tokens,
                    device=self.device,
                )
        model = _LOADED[key]
        if self.two_way and self._helper is None:
            self._helper = TrainedJudge()
        length = model.encoder.max_length
        budget = self.premise_tokens or max(16, length - min(CLAIM_ROOM, length // 3) - 8)
        _, trained = load_manifest(None, check=False)
        manifest = trained.model_copy(
            update={
                "version": "hf",
                "max_length": length,
                "premise_budget": budget,
                # off-the-shelf NLI models were not trained with a "Question:" line in the premise:
                # it is read only where the claim means nothing without it ("Yes, it does.")
                "question": "elliptical",
                "base_model": self.name,
                "quantized": self.runtime == "onnx-int8",
            }
        )
        scorer = _Scorer(model, self.card, self.batch_size, self._helper)
        self._state = LoadedEncoder(cast(Any, scorer), manifest, model.encoder.count_tokens)
        return self._state

    def forget_scores(self) -> None:
        """Forget the pairs scored so far (a benchmark that times the same answers twice starts cold)."""
        self._load().scorer.forget()

    @property
    def threshold(self) -> float:
        return self._threshold

    @property
    def runtime_used(self) -> str:
        """Where the model runs once loaded: ``torch (cpu)``, ``torch (cuda)``, ``onnx``, ``onnx-int8``."""
        return cast(_Scorer, self._load().scorer).model.runtime

    # ---- the Judge protocol, read as the trained verifier reads --------------------------------

    def context_budget(self) -> int:
        # it picks its own premise out of any window, so windows never need shrinking for it
        return 10**9

    def reading(self) -> Reading:
        """The trained verifier's reading over this model: the model's own probabilities for each
        pair, and a 2-way model's reason saying which model said what."""
        return Reading(self._load(), self.threshold, model_read, self._explain if self.two_way else None)

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        return await asyncio.to_thread(lambda: self.reading().verify(request, cost))

    async def support_alone(
        self, clauses: list[str], sentences: list[Sentence], question: str | None, *, cost: Cost
    ) -> list[float] | None:
        if not clauses or not sentences:
            return [-1.0] * len(clauses)
        return await asyncio.to_thread(lambda: self.reading().support_alone(clauses, sentences, question, cost))

    def _explain(self, judgement: Judgement) -> None:
        """A 2-way model's flagged claim says that the model found it unsupported and that CON
        against NIC is the trained verifier's call."""
        if judgement.label == Label.ENT:
            return
        probs = judgement.probs or {}
        said = "contradicted" if judgement.label == Label.CON else "not stated in the context"
        judgement.reason = (
            f"{self.name} (a 2-way model) found it unsupported (P(supported) {probs.get(Label.ENT, 0.0):.2f}); "
            f"the trained verifier read it as {said} (P(CON) {probs.get(Label.CON, 0.0):.2f}, "
            f"P(NIC) {probs.get(Label.NIC, 0.0):.2f})."
        )


def model_read(
    loaded: LoadedEncoder, text: str, premise: Premise, premises: Premises, logits: list[float]
) -> tuple[tuple[float, float, float], Signals]:
    """The model's own (P(ENT), P(CON), P(NIC)): the scorer hands over their logarithms."""
    p_ent, p_con, p_nic = softmax(logits)
    signals = Signals(
        encoder={Label.ENT: p_ent, Label.CON: p_con, Label.NIC: p_nic},
        coverage=coverage(text, premise.text),
        missing=unsupported_facts(text, premise.text, extended=False),
    )
    return (p_ent, p_con, p_nic), signals


class _Scorer:
    """The trained verifier's scorer interface over a Hugging Face model: for each (claim,
    premise) pair, log P(ENT), log P(CON), log P(NIC), in that order; the pairs already scored are
    read back (a claim meets its premise again when its clauses are judged alone)."""

    def __init__(self, model: Loaded, card: ModelCard, batch_size: int, helper: TrainedJudge | None, memo: int = 4096):
        self.model, self.card, self.batch_size, self.helper = model, card, batch_size, helper
        self._memo: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self._memo_size = memo
        self._lock = threading.Lock()  # one run at a time: torch and onnxruntime use every core for one

    def logits(self, claims: list[str], premises: list[str]) -> tuple[list[list[float]], int, int]:
        keys = list(zip(claims, premises))
        with self._lock:
            todo = [k for k in dict.fromkeys(keys) if k not in self._memo]
            tokens = 0
            if todo:
                raw, tokens = self.model.logits([p for _, p in todo], [c for c, _ in todo], self.batch_size, checkpoint)
                for k, row, share in zip(todo, raw, self._conflict([c for c, _ in todo], [p for _, p in todo])):
                    self._memo[k] = _three(self.card, list(map(float, row)), share)
                while len(self._memo) > self._memo_size:
                    self._memo.popitem(last=False)
            out = [self._memo[k] for k in keys]
        return out, tokens, len(keys) - len(todo)

    def _conflict(self, claims: list[str], premises: list[str]) -> list[float | None]:
        """For a 2-way model: the trained verifier's share of contradiction in what is not
        supported, per pair (its fitted conflict model over its CON−NIC logit and the coverage)."""
        if self.helper is None:
            return [None] * len(claims)
        helper = self.helper._load()
        logits, _, _ = helper.scorer.logits(claims, premises)
        conflict = helper.manifest.decision.conflict
        return [conflict.prob(conflict_features(lg, coverage(c, p))) for lg, c, p in zip(logits, claims, premises)]

    def forget(self) -> None:
        with self._lock:
            self._memo.clear()


def _three(card: ModelCard, row: list[float], share: float | None) -> list[float]:
    """log (P(ENT), P(CON), P(NIC)) from one pair's raw output."""
    meaning = card.labels.meaning
    if len(meaning) == 1:  # one output: a support score
        p_ent = 1.0 / (1.0 + math.exp(-row[0])) if row[0] >= 0 else math.exp(row[0]) / (1.0 + math.exp(row[0]))
        probs = {"ENT": p_ent}
    else:
        probs = dict(zip(meaning, softmax(row)))
    if card.labels.three_way:
        p = (probs["ENT"], probs["CON"], probs["NIC"])
    else:
        rest = 1.0 - probs["ENT"]
        con = share if share is not None else 0.0
        p = (probs["ENT"], rest * con, rest * (1.0 - con))
    return [math.log(max(v, _FLOOR)) for v in p]
