"""Stage 7: the deterministic rules overrule the judge where they are sure.

A claim the judge found supported but which states a number or a name that the context contains
nowhere is baseless (``rules.facts``). On a structured record, one that says the opposite of a
yes/no field or gives a day other opening hours is contradicted and cites the field
(``rules.records``). One that reuses a context sentence's words with another negation,
quantifier, modality, direction, roles or amount is contradicted and cites that sentence
(``rules.contrast``). Each override is noted in the report.
"""

from __future__ import annotations

from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.pipeline.evidence import anchor_phrase
from rt4chart_plugins.rules.clauses import clause_spans, clause_with, holds_words
from rt4chart_plugins.rules.contrast import contrasts_of
from rt4chart_plugins.rules.facts import KnownFacts
from rt4chart_plugins.rules.records import records_of
from rt4chart_plugins.types import ClaimVerdict, Evidence, Label, Sentence, Span


def apply_rules(
    verdicts: list[ClaimVerdict],
    context: str | list[str],
    units: list[Sentence],
    question: str | None,
    notes: list[str],
    *,
    answer_sentences: list[Sentence] = (),
    facts: bool = True,
    records: bool = True,
    contrasts: bool = True,
) -> None:
    """A claim the judge found supported, but which states a number or a name that the context
    does not contain anywhere, is baseless; one that says the opposite of a yes/no field of a
    structured context ("has TVs" against ``"HasTV": "False"``), or gives a day other hours than
    the record's, is contradicted; so is one that reuses a context sentence's words with another
    negation, quantifier, modality, direction, roles or amount. The deterministic checks overrule
    the judge. A claim that is a clause of its answer sentence is contradicted when the sentence
    is and the contrast's words are in that clause: a clause alone often shares too few words
    with the context to be aligned."""
    if not (facts or records or contrasts):
        return
    text = context if isinstance(context, str) else "\n".join(context)
    overruled = flipped = contradicted = 0
    record = records_of([u.text for u in units]) if records else None
    contrast = contrasts_of([u.text for u in units]) if contrasts else None
    known: KnownFacts | None = None  # read when a claim first needs it
    sentence_of = {s.id: s.text for s in answer_sentences}
    for v in verdicts:
        checkpoint()
        if v.label != Label.ENT:
            continue
        conflicts, confirmed = record.read(v.text) if record else ([], None)
        if conflicts:
            v.label = Label.CON
            v.evidence = [Evidence.of(units[c.unit]) for c in conflicts]
            v.reason = f"the record says {', '.join(map(str, conflicts))} (judge: {v.reason})"
            flipped += 1
            continue
        if confirmed:  # "closed on Fridays": no field names Friday
            continue
        found = contrast.find(v.text) if contrast else None
        sentence = sentence_of.get(v.sentence_id, v.text)
        if contrast and not found and sentence != v.text:
            found = contrast.find(sentence)
            found = found if found and holds_words(v.text, found.at) else None
        if found:
            v.label = Label.CON
            v.evidence = [Evidence.of(units[found.unit])]
            v.phrase_span = clause_holding(v.answer_span, found.at)
            v.reason = f"{found} (judge: {v.reason})"
            contradicted += 1
            continue
        if not facts:
            continue
        known = known or KnownFacts(text, question)
        missing = known.missing(v.text)
        if missing:
            v.unsupported_facts = missing
            v.label = Label.NIC
            v.evidence = []
            v.reason = f"states {', '.join(repr(m) for m in missing)}, found nowhere in the context (judge: {v.reason})"
            overruled += 1
    if overruled:
        notes.append(
            f"fact check: {overruled} claim(s) judged ENT state numbers or names absent from the context; set to NIC"
        )
    if contradicted:
        notes.append(
            f"contrast check: {contradicted} claim(s) judged ENT reuse a context sentence's words with another "
            f"negation, quantifier, modality, direction, roles or amount; set to CON"
        )
    if flipped:
        notes.append(
            f"field check: {flipped} claim(s) judged ENT say the opposite of a yes/no field "
            f"or other opening hours; set to CON"
        )


def clause_holding(sentence: Span | None, words: str) -> Span | None:
    """The clause of a claim's answer sentence that holds a contrast's words, as its phrase: the
    reason quotes them, so the mark must be where they are. None (the whole sentence is the mark)
    when the sentence is one clause, or a decomposed claim's words are not in one of its clauses."""
    if sentence is None:
        return None
    return anchor_phrase(clause_with(sentence.text, clause_spans(sentence.text), words), sentence)
