"""The one protocol every judge implements, and the requests the pipeline sends it.

The pipeline speaks in RT4CHART terms (decompose these sentences; judge these claims against these
context sentences), not in prompts, so that each backend can answer in the cheapest way it has:
an API judge puts every claim of a window into one structured request, the embedded judge reads
the window once into its KV cache and reads each claim's label off the logits.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Literal

from pydantic import BaseModel, Field

from rt4chart_plugins.types import Claim, Cost, Judgement, Label, Sentence

VerifyMode = Literal["local", "global_search", "global_hint"]


class VerifyRequest(BaseModel):
    """Judge ``claims`` against ``sentences`` (a window, or the whole context).

    ``global_search``: the claim was NIC in every window; search all of ``sentences`` with no hint.
    ``global_hint``: ``hints[claim_id]`` holds the local label and the deciding window's sentence
    ids; the judge checks whether the surrounding text changes that verdict.
    """

    mode: VerifyMode
    sentences: list[Sentence]
    claims: list[Claim]
    question: str | None = None
    hints: dict[int, tuple[Label, list[int]]] = Field(default_factory=dict)
    want_phrase: bool = False


class VerifyResult(BaseModel):
    """Judgements that could be obtained, and for the others why not (never silently dropped)."""

    judgements: list[Judgement] = Field(default_factory=list)
    unjudged: dict[int, str] = Field(default_factory=dict)


class DecomposeResult(BaseModel):
    """Claims per answer sentence id (``-1`` for a holistic claim that maps to no sentence)."""

    claims: list[tuple[int, str]] = Field(default_factory=list)
    failed: dict[int, str] = Field(default_factory=dict)  # sentence id → error
    notes: list[str] = Field(default_factory=list)  # how the claims were made, when not as asked (the report's notes)


class Judge(ABC):
    """What labels claims against context sentences (:meth:`verify`), and, for an LLM judge, splits
    answer sentences into claims (:meth:`decompose`). Implementations must be safe to share
    between concurrent verifications (they serialize or bound their own calls)."""

    #: identifies the model in reports and in the cache key
    name: str = "judge"
    #: True for a judge whose verdict on the whole context is final, so that windows would only
    #: repeat work: one that reads a claim against what it picks out of the sentences it is given,
    #: whatever their number (the trained verifier picks a 120-token premise). An LLM judge reads
    #: the window it is given, and a long one dilutes its attention, so it keeps the method's
    #: windows. Read only when the pipeline's ``window_size`` is left unset.
    one_window: bool = False
    #: True for a judge whose claims are the clauses of the answer sentences, cut where the
    #: sentence divides (:func:`rt4chart_plugins.claims.clause_claims`), in place of its own
    #: decomposition: one that cannot write (the trained verifier). It judges a clause within its
    #: sentence and says so (``Judgement.alone`` False).
    clause_claims: bool = False

    async def decompose(self, sentences: list[Sentence], *, holistic: bool, cost: Cost) -> DecomposeResult:
        """Split answer sentences into atomic, self-contained claims; sees the answer only. Asked
        with ``decomposition="holistic"``, and with ``"llm"`` unless :attr:`clause_claims`. An LLM
        judge overrides it; by default each sentence is one claim, whole."""
        return DecomposeResult(claims=[(s.id, s.text) for s in sentences])

    @abstractmethod
    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        """Label every claim of the request ENT / CON / NIC with evidence sentence ids."""

    async def support_alone(
        self, clauses: list[str], sentences: list[Sentence], question: str | None, *, cost: Cost
    ) -> list[float] | None:
        """How far each clause, judged alone against ``sentences``, is above (positive) or below
        (negative) the support this judge asks of a clause. Asked by the claims stage
        (:func:`rt4chart_plugins.pipeline.claims.read_alone`), for the rule stage, of the clauses
        that took their sentence's verdict (``Judgement.alone`` False) when a rule contradicts
        their sentence: the sentence as a whole was misjudged, and only the clauses that hold
        alone keep their support (:func:`rt4chart_plugins.claims.held_alone`). None: this judge
        cannot say (it judges every claim alone, so it is never asked)."""
        return None

    def context_budget(self) -> int:
        """How many tokens of context sentences one request may carry."""
        return 6000

    def count_tokens(self, text: str) -> int:
        """A cheap estimate; local judges override with their tokenizer."""
        return max(1, len(text) // 4)

    def prepare(self) -> None:
        """Load whatever the judge needs (a model file) before the first timed verification."""
        return None

    async def aclose(self) -> None:  # pragma: no cover - default: nothing to release
        return None


def label_from_text(value: object) -> Label | None:
    """Map the many spellings judges use onto the three labels; None when unrecognizable."""
    if isinstance(value, Label):
        return value
    if not isinstance(value, str):
        return None
    key = value.strip().upper().replace("-", "_").replace(" ", "_")
    aliases = {
        "ENT": Label.ENT,
        "ENTAILED": Label.ENT,
        "ENTAILMENT": Label.ENT,
        "SUPPORTED": Label.ENT,
        "YES": Label.ENT,
        "TRUE": Label.ENT,
        "CON": Label.CON,
        "CONTRADICTED": Label.CON,
        "CONTRADICTION": Label.CON,
        "REFUTED": Label.CON,
        "NO": Label.CON,
        "FALSE": Label.CON,
        "NIC": Label.NIC,
        "NOT_IN_CONTEXT": Label.NIC,
        "BASELESS": Label.NIC,
        "NEUTRAL": Label.NIC,
        "NOT_FOUND": Label.NIC,
        "NOT_MENTIONED": Label.NIC,
        "UNKNOWN": Label.NIC,
        "NOT_ENOUGH_INFO": Label.NIC,
        "UNVERIFIABLE": Label.NIC,
    }
    return aliases.get(key)
