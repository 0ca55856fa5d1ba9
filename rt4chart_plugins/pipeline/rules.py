"""The rule stage: the deterministic checks, once, after the judge, whatever the judge.

Each enabled family (:data:`rt4chart_plugins.rules.RULES`, switched by the pipeline options
``record_checks``, ``contrast_check`` and ``fact_check``) reads the context once; every judged
claim is checked against the readings in order, and the first finding decides its label, its
evidence and its reason. The claim keeps what the judge said in ``rule.judge_label``, and its
probabilities are moved to agree with the rule. Each family's changes are counted in the notes.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, replace

from rt4chart_plugins.claims import clause_spans, clause_with, has_verb, held_alone, holds_words
from rt4chart_plugins.config import PipelineConfig
from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.pipeline.claims import read_alone
from rt4chart_plugins.pipeline.evidence import anchor_phrase
from rt4chart_plugins.pipeline.state import Part, RunState, Verdicts
from rt4chart_plugins.rules import RULES, Finding, Reading, Rule
from rt4chart_plugins.rules.finding import RuleName
from rt4chart_plugins.types import ClaimVerdict, Evidence, Label, RuleFinding, Sentence, Span

#: a claim a rule contradicts or finds baseless keeps at most this P(ENT); one a record confirms
#: at least :data:`CONFIRMED_SUPPORT`
OVERRULED_SUPPORT = 0.05
CONFIRMED_SUPPORT = 0.9
#: what each family's note says it did, by the label it set
NOTES = {
    ("records", Label.CON): "field check: {n} claim(s) say the opposite of a yes/no field or give other opening hours; "
    "set to CON",
    ("records", Label.ENT): "record check: {n} claim(s) state only hours or yes/no attributes as the record has them; "
    "set to ENT",
    ("contrast", Label.CON): "contrast check: {n} claim(s) reuse a context sentence's words with another negation, "
    "quantifier, modality, direction, state, roles, amount, date or price; set to CON",
    ("facts", Label.NIC): "fact check: {n} claim(s) judged ENT state numbers, names, dates, initialisms, places or "
    "descriptions absent from the context; set to NIC",
}


def enabled_rules(config: PipelineConfig) -> list[Rule]:
    switch = {"records": config.record_checks, "contrast": config.contrast_check, "facts": config.fact_check}
    return [rule for rule in RULES if switch[rule.name]]


@dataclass
class Doubt:
    """Clauses that took their sentence's verdict, read as a whole, when a rule contradicts the
    sentence: the sentence as a whole was misjudged, so their support is in doubt until the judge
    reads each alone (:func:`settle`). ``whole``: the finding is about the sentence, no clause holding
    its words, so when every clause holds alone and no other clause of it is contradicted, the
    weakest is."""

    clauses: list[ClaimVerdict]
    finding: Finding
    whole: bool
    answered: bool = False  # another clause of the sentence is contradicted already


def apply_rules(
    verdicts: list[ClaimVerdict],
    rules: list[tuple[Rule, Reading]],
    units: list[Sentence],
    answer_sentences: list[Sentence],
    changed: Counter[tuple[RuleName, Label]],
) -> list[Doubt]:
    """Each judged claim, checked by every rule in order; the first finding decides. A claim that
    is a clause of its answer sentence is also checked through the sentence: a sentence-level
    finding goes to the clause that holds its words. The other clauses of a sentence a rule
    contradicts, if they took the sentence's verdict and have a verb of their own, are returned as
    in doubt (one without, "and popularity among consumers", says nothing read alone, so it keeps
    its verdict); so are all of them when no clause holds the finding's words (a clause judged
    alone takes the finding)."""
    sentence_of = {s.id: s.text for s in answer_sentences}
    clauses_of: dict[int, list[ClaimVerdict]] = {}
    for v in verdicts:
        clauses_of.setdefault(v.sentence_id, []).append(v)
    by_sentence: dict[tuple[str, int], Finding | None] = {}
    doubts: dict[int, Doubt] = {}  # answer sentence → its clauses in doubt
    for v in verdicts:
        checkpoint()
        if v.label is None:
            continue
        sentence = sentence_of.get(v.sentence_id, v.text)
        for rule, reading in rules:
            if v.label not in rule.overrules:
                continue
            found = reading.check(v.text)
            whole = False
            if found is None and rule.by_sentence and sentence != v.text:
                key = (rule.name, v.sentence_id)
                if key not in by_sentence:
                    by_sentence[key] = reading.check(sentence)
                found = by_sentence[key]
                holding = [c for c in clauses_of[v.sentence_id] if found and holds_words(c.text, found.claim_says)]
                whole = found is not None and not (found.claim_says and holding)
                found = found if whole or v in holding else None
            if found is None:
                continue
            if whole and found.label == Label.CON and not v.judged_alone:
                doubts.setdefault(v.sentence_id, Doubt([], found, whole=True)).clauses.append(v)
                break
            if found.label != v.label:
                changed[(found.rule, found.label)] += 1
            decide(v, found, units)
            if found.label == Label.CON:
                doubts.setdefault(v.sentence_id, Doubt([], found, whole=False))
            break
    for sentence_id, doubt in doubts.items():
        if doubt.whole:
            doubt.answered = any(v.label == Label.CON for v in clauses_of[sentence_id] if v not in doubt.clauses)
        else:
            doubt.clauses = [
                v
                for v in clauses_of[sentence_id]
                if v.label not in (Label.CON, None) and not v.judged_alone and v.rule is None and has_verb(v.text)
            ]
    return [d for d in doubts.values() if d.clauses]


def settle(
    doubts: list[Doubt],
    support: list[float] | None,
    units: list[Sentence],
    changed: Counter[tuple[RuleName, Label]],
) -> None:
    """The clauses in doubt, once the judge has read each alone (``support``, in order: above
    zero, a clause holds alone; None when the judge cannot say): one that holds alone keeps its
    verdict, the others are contradicted with their sentence. When the finding is about the
    sentence as a whole and every clause holds alone, the weakest is contradicted: the sentence
    as a whole is what the context does not state (the claims' rule,
    :func:`~rt4chart_plugins.claims.held_alone`)."""
    scores = iter(support or [])
    for doubt in doubts:
        margins = [next(scores) if support is not None else -1.0 for _ in doubt.clauses]
        held = held_alone(margins, 0.0, weakest_falls=doubt.whole and not doubt.answered)
        found = doubt.finding
        if not doubt.whole:
            reason = f"Its sentence, read as a whole, is contradicted. {found.reason}"
            found = replace(found, claim_says="", reason=reason)
        for v, ok in zip(doubt.clauses, held):
            if ok:
                continue
            if v.label != found.label:
                changed[(found.rule, found.label)] += 1
            decide(v, found, units)


def notes_of(changed: Counter[tuple[RuleName, Label]]) -> list[str]:
    """What each family changed, in words: one note per family and label."""
    return [NOTES[(rule_name, label)].format(n=n) for (rule_name, label), n in changed.items()]


def decide(v: ClaimVerdict, found: Finding, units: list[Sentence]) -> None:
    """The finding becomes the claim's verdict: its label, evidence and reason; the phrase is where
    the words it is about stand; the probabilities move to agree with it."""
    judge_label = v.label if v.label != found.label else None
    v.rule = RuleFinding(
        rule=found.rule,
        kind=found.kind,
        claim_says=found.claim_says,
        context_says=found.context_says,
        judge_label=judge_label,
    )
    v.label = found.label
    v.evidence = [Evidence.of(units[i]) for i in found.units if 0 <= i < len(units)]
    v.reason = found.reason
    v.unsupported_facts = list(found.missing)
    if found.label == Label.ENT:
        v.phrase_span = None
    else:
        # the reason quotes the claim's words, so the mark is their clause; else the judge's own
        # mark; else the whole claim (RAGTruth's gold spans are clauses: a word alone, or a stretch
        # of words the evidence lacks, marks less than a person would)
        v.phrase_span = clause_holding(v.answer_span, found.claim_says) or v.phrase_span
    if v.probs:
        v.probs = agreeing(v.probs, found.label)


def agreeing(probs: dict[Label, float], label: Label) -> dict[Label, float]:
    """``probs`` moved as little as needed to agree with a rule's label: a contradicted or
    baseless claim keeps at most :data:`OVERRULED_SUPPORT`, the rest on the rule's label; a
    confirmed one at least :data:`CONFIRMED_SUPPORT`, the rest shared as before."""
    p_ent = probs.get(Label.ENT, 0.0)
    if label == Label.ENT:
        rest = {k: v for k, v in probs.items() if k != Label.ENT}
        total = sum(rest.values())
        p_ent = max(p_ent, CONFIRMED_SUPPORT)
        if not total:
            return {Label.ENT: p_ent, Label.CON: 0.0, Label.NIC: 1 - p_ent}
        return {Label.ENT: p_ent, **{k: (1 - p_ent) * v / total for k, v in rest.items()}}
    p_ent = min(p_ent, OVERRULED_SUPPORT)
    other = Label.NIC if label == Label.CON else Label.CON
    return {Label.ENT: p_ent, label: 1 - p_ent, other: 0.0}


def clause_holding(sentence: Span | None, words: str) -> Span | None:
    """The clause of a claim's answer sentence that holds a finding's words, as its phrase: the
    reason quotes them, so the mark must be where they are. None (the whole claim is the mark)
    when the claim is one clause, or its words are not in one of its clauses."""
    if sentence is None:
        return None
    return anchor_phrase(clause_with(sentence.text, clause_spans(sentence.text), words), sentence)


async def check_rules(state: RunState) -> Part:
    """The seventh stage: the deterministic rules, after the judge, on copies of the verdicts. The
    clauses a finding puts in doubt are read alone by the claims stage
    (:func:`~rt4chart_plugins.pipeline.claims.read_alone`), which asks the judge."""
    rules = enabled_rules(state.config)
    if not (state.context_sentences and rules and state.verdicts):
        return Part()
    units = [s.text for s in state.context_sentences]
    context = state.context if isinstance(state.context, str) else "\n".join(state.context)
    changed: Counter[tuple[RuleName, Label]] = Counter()
    part = Verdicts(verdicts=[v.model_copy() for v in state.verdicts])

    def run() -> list[Doubt]:
        readings = [(rule, state.readings.get(rule, units, context, state.question)) for rule in rules]
        return apply_rules(part.verdicts, readings, state.context_sentences, state.answer_sentences, changed)

    doubts = await asyncio.to_thread(run)
    if doubts:
        support, part.cost = await read_alone(state, [v.text for d in doubts for v in d.clauses])
        settle(doubts, support, state.context_sentences, changed)
    part.notes = notes_of(changed)
    return part
