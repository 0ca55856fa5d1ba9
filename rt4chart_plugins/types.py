"""Every value that crosses a module or process boundary.

The report is the product: an auditor must be able to read, from the JSON alone, what each claim
was, where in the answer it came from, which context sentences decided it, and what the run cost.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator


class Label(str, Enum):
    """The three verdicts of RT4CHART. Anything but ENT is a faithfulness violation."""

    ENT = "ENT"  # entailed by the context
    CON = "CON"  # contradicted by the context
    NIC = "NIC"  # not in context: baseless

    def __str__(self) -> str:  # so f-strings and the CLI print "ENT", not "Label.ENT"
        return self.value

    @staticmethod
    def by_precedence(labels: list[Label], precedence: tuple[Label, Label, Label]) -> Label:
        """Many verdicts as one: the first of ``precedence`` among ``labels``, else its last (the
        answer's AND-join and the windows' OR-join differ only in that order)."""
        return next((label for label in precedence[:-1] if label in labels), precedence[-1])


class Span(BaseModel):
    """A half-open character range ``[start, end)`` of a text, with the text it covers."""

    model_config = ConfigDict(frozen=True)

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str


class Sentence(BaseModel):
    """A unit of text with exact offsets. For the context it is the unit of evidence.

    ``start``/``end`` index into ``passage`` number ``passage`` (context) or into the answer;
    ``field`` names the JSON path when the unit came from a structured (JSON) context.
    """

    model_config = ConfigDict(frozen=True)

    id: int
    text: str
    start: int
    end: int
    passage: int = 0
    field: str | None = None


class Window(BaseModel):
    """A run of consecutive context sentences judged together in local verification."""

    model_config = ConfigDict(frozen=True)

    index: int
    first: int  # id of the first sentence
    last: int  # id of the last sentence (inclusive)

    @property
    def ids(self) -> range:
        return range(self.first, self.last + 1)


class Claim(BaseModel):
    """An atomic statement decomposed from one answer sentence."""

    id: int
    text: str
    sentence_id: int  # the answer sentence it came from; -1 when it maps to none (holistic)
    sentence: str = ""  # that sentence's text, for a judge that reads a clause within its sentence
    after_abstention: bool = False  # asserted right after the answer said the context lacks something


class ReaderSignals(BaseModel):
    """What ``judge="auto"`` did with one claim: the gate's P(the trained verifier is wrong here);
    when it reached the gate's threshold, the embedded LLM's two readings of the same premise
    (P(supported), P(both can be true)) and the trained verifier's own label, which the fitted
    combination of both readings replaced; or why the reading failed (the trained verifier's
    verdict then stands)."""

    gate: float
    read: bool = False
    p_support: float | None = None
    p_compatible: float | None = None
    trained_label: Label | None = None
    error: str | None = None


class Signals(BaseModel):
    """What the trained verifier's decision read besides its probabilities, so that an auditor
    (and the benchmark) can see why it decided as it did."""

    encoder: dict[Label, float]  # the cross-encoder's own softmax over (claim, premise)
    coverage: float  # the share of the claim's content words its premise holds
    missing: list[str] = Field(default_factory=list)  # numbers and names of the claim its premise lacks
    novel: list[str] = Field(default_factory=list)  # content words of the claim no context sentence holds
    #: ``judge="auto"``: whether its gate sent the claim to the embedded LLM, and what it read
    reader: ReaderSignals | None = None


#: the deterministic check families, in the order the rule stage applies them
RuleName = Literal["records", "contrast", "facts"]


class RuleFinding(BaseModel):
    """A deterministic check that decided a claim's label over the judge's: which family, what
    kind of difference, the claim's words it is about and what the context says instead."""

    rule: RuleName
    kind: str  # "negation", "quantifier", …, "yes/no field", "opening hours", "number or name"
    claim_says: str = ""  # the claim's words the finding is about
    context_says: str | None = None  # the context sentence or record field it cites; None: nothing states it
    judge_label: Label | None = None  # what the judge had said, when the rule changed it


class Judgement(BaseModel):
    """What a judge said about one claim against one piece of context.

    ``probs`` carries label probabilities when the judge exposes them (the embedded judge reads
    them off the logits); they feed AUC and thresholds in the benchmark. ``signals``: what the
    trained verifier's decision read.
    """

    claim_id: int
    label: Label
    evidence: list[int] = Field(default_factory=list)
    quote: str | None = None  # a verbatim quote the judge gave instead of / besides ids
    phrase: str | None = None  # the unsupported / contradicted phrase of the claim, if named
    reason: str | None = None
    probs: dict[Label, float] | None = None
    signals: Signals | None = None
    #: False when the verdict is its sentence's, read as a whole (the trained verifier judges a
    #: clause within its sentence): when a rule contradicts that sentence, the judge is asked
    #: whether the clause holds alone (``Judge.support_alone``)
    alone: bool = True


class Evidence(BaseModel):
    """One context sentence cited for a verdict, with where it lies in the caller's input."""

    sentence_id: int
    passage: int
    start: int  # offsets into that passage
    end: int
    text: str
    field: str | None = None
    #: the cited passage's metadata where the caller's input carried some (a LangChain
    #: ``Document``'s ``metadata``: its ``source``, page, ...), so a citation leads back to the document
    metadata: dict[str, Any] | None = None

    @classmethod
    def of(cls, sentence: Sentence) -> Evidence:
        """The citation of one context sentence, where it lies in the caller's input."""
        return cls(
            sentence_id=sentence.id,
            passage=sentence.passage,
            start=sentence.start,
            end=sentence.end,
            text=sentence.text,
            field=sentence.field,
        )


class LocalVerdict(BaseModel):
    """The OR-join of a claim's window verdicts, kept for audit."""

    label: Label
    window: int | None = None  # the deciding window (None for NIC)
    evidence: list[int] = Field(default_factory=list)
    window_labels: list[Label] = Field(default_factory=list)


class Grounding(BaseModel):
    """GASP's reading of one answer sentence: how much its likelihood under a small causal LM
    depends on the context. Log-likelihoods are means over the sentence's tokens, in nats.

    ``gap``: log-likelihood with the full context minus with none; ``jsd_empty``: mean
    Jensen–Shannon divergence of the next-token distributions full vs none; ``drop`` and
    ``jsd_loo``: the largest log-likelihood drop and JSD when one chunk is removed. A grounded
    sentence scores high on all four. ``risk`` is the negated sum of their standardized values
    (higher = less grounded); the sentence is flagged when it exceeds ``threshold``.
    """

    gap: float
    jsd_empty: float
    drop: float
    jsd_loo: float
    risk: float
    threshold: float
    supporting_chunk: int | None = None  # index of the chunk whose removal hurt most
    tokens: int = 0  # answer tokens the sentence was scored on


class ClaimVerdict(BaseModel):
    """The final verdict on one claim: what an auditor reads."""

    id: int
    text: str
    sentence_id: int
    label: Label | None  # None: the judge could not be made to answer for this claim
    judged: bool = True
    answer_span: Span | None = None  # the originating answer sentence
    phrase_span: Span | None = None  # the unsupported phrase inside that sentence, when named
    evidence: list[Evidence] = Field(default_factory=list)
    reason: str | None = None
    probs: dict[Label, float] | None = None  # they agree with the label, a rule's decision included
    signals: Signals | None = None  # the trained verifier's inputs to its decision
    rule: RuleFinding | None = None  # the deterministic check that decided the label, if one did
    judged_alone: bool = True  # False: the judge gave it its sentence's verdict, read as a whole
    local: LocalVerdict | None = None
    global_checked: bool = False
    unsupported_facts: list[str] = Field(default_factory=list)  # numbers/names absent from C
    grounding: Grounding | None = None  # GASP only: one "claim" per answer sentence
    error: str | None = None

    @classmethod
    def unjudged(cls, id: int, text: str, sentence_id: int, error: str, **fields: Any) -> ClaimVerdict:
        """A claim nothing could give a verdict (the judge failed on it, GASP's scorer cut it):
        listed with ``error`` saying why, never dropped; ``fields``: what is known of it (its span)."""
        return cls(id=id, text=text, sentence_id=sentence_id, label=None, judged=False, error=error, **fields)


class Unclaimed(BaseModel):
    """A stretch of the answer that carries no claim, and why: it is listed, never dropped
    silently. ``reason``: ``abstention`` (the answerer does not know, or says the context does not
    say), ``refusal``, ``preamble`` ("Here is a summary:", or an attribution of what follows to
    the context: "Based on the given passages,", "The policy states that") or ``closing`` ("I
    hope this helps!").
    A whole sentence, or the abstaining clause of one that then asserts (its assertion is a claim)."""

    sentence_id: int
    span: Span
    reason: Literal["abstention", "refusal", "preamble", "closing"]


class Correction(BaseModel):
    """A fix the evidence oracle applied to a judge's output. Never silent."""

    claim_id: int
    kind: Literal[
        "evidence_out_of_range",
        "evidence_outside_window",
        "evidence_on_nic_removed",
        "evidence_missing",
        "quote_matched",
        "quote_unmatched",
        "phrase_not_in_sentence",
    ]
    detail: str = ""


class Cost(BaseModel):
    """What the verification cost: the judge is the expensive part, so it is always counted."""

    judge_calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0

    def add(self, other: Cost) -> None:
        self.judge_calls += other.judge_calls
        self.cache_hits += other.cache_hits
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens


AnswerState = Literal["verified", "partial", "no_claims", "failed"]

#: the version of the report's JSON layout: raised when a field is removed, renamed or changes
#: meaning (adding a field with a default does not), so a reader of stored reports can tell
SCHEMA_VERSION = "1"


@lru_cache(maxsize=1)
def package_version() -> str:
    """The installed rt4chart-plugins version ("unknown" when run from a bare source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rt4chart-plugins")
    except PackageNotFoundError:
        return "unknown"


class Report(BaseModel):
    """The verification trace T of one (C, Q, A) and its verdict.

    ``state``: ``verified`` every claim judged; ``partial`` some claims could not be judged (they
    are listed with ``judged=False``, the verdict uses the rest); ``no_claims`` the answer has
    nothing verifiable (empty, a pure refusal): ``label`` is None, ``score`` 1.0, not hallucinated;
    ``failed`` no claim could be judged (``error`` says why): ``score`` and ``hallucinated`` are
    None, so that a failed row is never averaged in as a hallucination (a score of 0.0).
    """

    model_config = ConfigDict(
        json_schema_extra=lambda schema: schema.update(
            {"schema_version": SCHEMA_VERSION, "package_version": package_version()}
        )
    )

    label: Label | None
    hallucinated: bool | None  # None when failed
    score: float | None = Field(ge=0.0, le=1.0)  # fraction of judged claims that are entailed; None when failed
    state: AnswerState
    claims: list[ClaimVerdict] = Field(default_factory=list)
    #: the answer's sentences (or clauses) that carry no claim, each with its reason
    unclaimed: list[Unclaimed] = Field(default_factory=list)
    unfaithful_spans: list[Span] = Field(default_factory=list)  # merged answer-sentence spans
    phrase_spans: list[Span] = Field(default_factory=list)  # finer: named phrases where given
    answer: str = ""
    question: str | None = None
    answer_sentences: list[Sentence] = Field(default_factory=list)
    context_sentences: list[Sentence] = Field(default_factory=list)
    windows: list[Window] = Field(default_factory=list)
    corrections: list[Correction] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    cost: Cost = Field(default_factory=Cost)
    judge: str = ""
    method: str = "rt4chart"
    risk: float | None = None  # GASP: the answer's risk, its largest sentence risk (unbounded)
    error: str | None = None
    schema_version: str = SCHEMA_VERSION  # the JSON layout (see SCHEMA_VERSION)
    version: str = Field(default_factory=package_version)  # the rt4chart-plugins that wrote it
    #: the exception a ``failed`` report stands for, where the code that caught it kept it (the
    #: adapters): it travels beside ``error``, never serialized, so no reader parses its class
    #: back out of the text
    _failure: BaseException | None = PrivateAttr(default=None)

    @classmethod
    def failure(cls, error: str | None, **fields: Any) -> Report:
        """The report of a row that could not be verified, for ``error``: no verdict and no
        score; ``fields`` are what is known of the row (its answer, the judge, ...)."""
        return cls(label=None, hallucinated=None, score=None, state="failed", error=error, **fields)

    @model_validator(mode="after")
    def _failed_has_no_score(self) -> Report:
        """A failed report has no score and no verdict, whoever built it (a file written before
        this rule says 0.0 and False); any other state has both."""
        if self.state == "failed":
            self.score, self.hallucinated = None, None
        elif self.score is None or self.hallucinated is None:
            raise ValueError(f"a {self.state} report needs its score and hallucinated")
        return self

    def _repr_html_(self) -> str:
        """The audit's card of this report, for a notebook's inline view. The card is drawn on the
        top floor (``rt4chart_plugins.audit``); the package hands its drawer in through
        :func:`set_html_view`, so the types import nothing above them."""
        if _HTML_VIEW is None:  # only while the package itself is still being imported
            from html import escape

            return f"<pre>{escape(self.model_dump_json(indent=2))}</pre>"
        return _HTML_VIEW(self)


def score_text(score: float | None) -> str:
    """A report's score as the CLI and the audit pages show it: two decimals, or a dash for a
    failed report, which has none."""
    return "–" if score is None else f"{score:.2f}"


_HTML_VIEW: Callable[[Report], str] | None = None


def set_html_view(view: Callable[[Report], str]) -> None:
    """Install what ``Report._repr_html_`` draws with (the package sets the audit's card)."""
    global _HTML_VIEW
    _HTML_VIEW = view


class VerifyInput(BaseModel):
    """One row to verify, as read from JSONL or passed by an adapter."""

    model_config = ConfigDict(extra="ignore")

    id: str | None = None
    context: str | list[str]
    answer: str
    question: str | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _integer_id(cls, value: object) -> object:
        """An integer id (``{"id": 5}``) is the id "5": JSONL writers number their rows."""
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


class BatchRow(BaseModel):
    """One line of a batch output file: the input id and either a report or an error."""

    id: str
    ok: bool
    report: Report | None = None
    error: str | None = None
    #: a hash of the row's input and the detector's settings: a re-run keeps this line only while
    #: both are the same (docs/output.md, "A batch output line")
    fingerprint: str | None = None
