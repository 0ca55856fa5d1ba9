"""The contrasts of a negation: a word negated on one side and stated plainly on the other, and
the same in the other words of a permission ("Pets are welcome" / "Pets are not accepted") or a
need ("A licence is not required" / "Applicants need a licence"). Each function compares a claim
with one aligned context sentence, as those of :mod:`.checks` do."""

from __future__ import annotations

from rt4chart_plugins.rules.contrast.checks import Contrast
from rt4chart_plugins.rules.contrast.lexicon import (
    FORBID,
    IMPLICATIVE,
    MODAL_VERBS,
    NEED_VERBS,
    NEEDED,
    PERMIT,
    SCOPE,
    SCOPED_NEGATORS,
)
from rt4chart_plugins.rules.contrast.reading import (
    Span,
    as_written,
    clause_of,
    conditional,
    content,
    is_content,
    names,
    negated_after,
    negated_at,
    negated_by_prefix,
    negators,
    same_subject,
    scope_word,
    stem,
)
from rt4chart_plugins.rules.contrast.states import said_of_other_pole


def negation(claim: Span, sentence: Span) -> Contrast | None:
    """A word negated on one side and stated plainly on the other, with the same subject: "are not
    allowed to ride" against "are allowed to ride", "can be refunded" against "are non-refundable".
    Not "did not accept" against "rejected" (a paraphrase: "accept" is not in the context) nor "did
    not identify the suspect" against "the suspect was injured" (the negation bears on "identify"),
    nor "is not closed on Mondays" against "is closed on Sundays" (what follows the word names
    other things)."""
    for negated, other in ((claim, sentence), (sentence, claim)):
        for i in negators(negated.low):
            if negated.low[i] not in SCOPED_NEGATORS | IMPLICATIVE:
                continue
            k = scope_word(negated, i + (negated.low[i] in IMPLICATIVE))
            if k < 0:
                continue
            if negated is claim and said_of_other_pole(claim, k, sentence):
                continue  # "is not open on Sundays" / "open …, and closed on Sundays"
            found = _negated_against_plain(claim, sentence, negated, other, k, stem(negated.toks[k]))
            if found is not None:
                return Contrast(
                    "negation",
                    sentence.unit,
                    sentence.text,
                    as_written(claim.text, negated.toks[i : k + 1]) if negated is claim else found,
                )
        for k, word in negated_by_prefix(negated.low):
            found = _negated_against_plain(claim, sentence, negated, other, k, stem(word))
            if found is not None:
                return Contrast(
                    "negation", sentence.unit, sentence.text, negated.toks[k] if negated is claim else found
                )
    return None


def _negated_against_plain(claim: Span, sentence: Span, negated: Span, other: Span, k: int, w: str) -> str | None:
    """The other side's plain word (as written) for the negated word at ``k`` of stem ``w``, when
    it is said of the same subject and the same things; else None."""
    plain = [
        j
        for j, u in enumerate(other.toks)
        if stem(u) == w and not negated_at(other, j) and not negated_after(other, j) and not conditional(other.low, j)
    ]
    if not plain or any(negated_at(other, j) for j, u in enumerate(other.toks) if stem(u) == w):
        return None
    at_claim, at_sentence = (k, plain[0]) if negated is claim else (plain[0], k)
    if not same_subject(claim, at_claim, sentence, at_sentence):
        return None
    # and of the same things: "is not closed on Mondays" says nothing against "is closed on
    # Sundays", where each side names after the word a thing, a day or a number the other does not
    mine = set(names(["", *claim.toks[at_claim + 1 :]]))
    theirs = set(names(["", *sentence.toks[at_sentence + 1 :]]))
    if mine - theirs and theirs - mine:
        return None
    # nor of another object: "do not need a driving licence" against "need a forklift licence"
    my_object, their_object = object_of(claim, at_claim), object_of(sentence, at_sentence)
    if my_object and their_object and my_object not in sentence.words and their_object not in claim.words:
        return None
    return other.toks[plain[0]]


#: what may stand between a word and its object: "need a licence", "bring their own"
_DETERMINERS = frozenset("a an the any their your its his her our my this that these those".split())


def object_of(span: Span, k: int) -> str | None:
    """The stem of the first content word right after position ``k`` when only an article or a
    possessive stands between ("need a forklift licence": forklift); None when a preposition, a
    comma or the end comes first ("locked at night")."""
    for t in span.toks[k + 1 : k + 2 + SCOPE]:
        if is_content(t):
            return stem(t)
        if t.lower() not in _DETERMINERS:
            return None
    return None


def permission(claim: Span, sentence: Span) -> Contrast | None:
    """A permission denied on one side and granted on the other in other words: "Pets are welcome"
    against "Pets are not accepted", "Children can use the weights area" against "Children are not
    allowed in the weights area". The two must be said of the same subject, and what the context's
    side says after its word (where, when, for whom) must all be the claim's: "can buy tickets on
    board" says nothing against "tickets cannot be bought online"."""
    (claim_denies, claim_grants), (sentence_denies, sentence_grants) = _permissions(claim), _permissions(sentence)
    if min(claim_denies, claim_grants) >= 0 or min(sentence_denies, sentence_grants) >= 0:
        return None  # "stones can be pelted, while rocks cannot" grants one thing and denies another
    for denied, i, j in ((sentence, sentence_denies, claim_grants), (claim, claim_denies, sentence_grants)):
        if i < 0 or j < 0:
            continue
        at_claim, at_sentence = (j, i) if denied is sentence else (i, j)
        if not same_subject(claim, at_claim, sentence, at_sentence):
            continue
        end = clause_of(sentence.low, at_sentence)[1]
        if not set(content(sentence.toks[at_sentence + 1 : end])) <= set(content(claim.toks)):
            continue
        start, stop = at_claim, at_claim + 1
        if denied is claim:  # the claim's words that deny it: "not allowed", "can not"
            start = max((k for k in negators(claim.low) if k < at_claim), default=at_claim)
            stop += claim.low[at_claim] in MODAL_VERBS
        return Contrast("negation", sentence.unit, sentence.text, as_written(claim.text, claim.toks[start:stop]))
    return None


def _permissions(span: Span) -> tuple[int, int]:
    """The position of ``span``'s first word that denies a permission, and of its first that grants
    one; -1 where there is none."""
    marks = range(len(span.low))
    return next((k for k in marks if _denies(span, k)), -1), next((k for k in marks if _grants(span, k)), -1)


def _denies(span: Span, k: int) -> bool:
    """Whether the word at ``k`` denies a permission: a permission word negated ("not accepted",
    "can not"), or a word that forbids, not negated."""
    t = span.low[k]
    if t in FORBID:
        return not negated_at(span, k)
    if t not in PERMIT:
        return False
    return negated_at(span, k) or (t in MODAL_VERBS and span.low[k + 1 : k + 2] == ["not"])


def _grants(span: Span, k: int) -> bool:
    """Whether the word at ``k`` grants a permission, plainly: not negated, not in an "if" clause."""
    return (
        span.low[k] in PERMIT
        and not negated_at(span, k)
        and not negated_after(span, k)
        and not conditional(span.low, k)
    )


def requirement(claim: Span, sentence: Span) -> Contrast | None:
    """A thing said to be needed on one side and not needed on the other, in the same or other
    words: "A forklift licence is not required" against "Applicants need a forklift licence",
    "No booking is needed" against "Booking is required". What each side says is needed must be
    among the other side's words, and a subject the claim gives its need ("Children do not need a
    ticket") must be the sentence's too. A side that says both is left alone."""
    mine, theirs = _needs(claim), _needs(sentence)
    if mine is None or theirs is None or mine[1] == theirs[1]:
        return None
    (k, denied, thing), (j, _, their_thing) = mine, theirs
    a, b = clause_of(sentence.low, j)
    their_clause = set(content(sentence.toks[a:b]))
    if not thing or not their_thing or not thing <= their_clause or not their_thing <= claim.words:
        return None
    if claim.low[k] in NEED_VERBS and not set(content(claim.toks[clause_of(claim.low, k)[0] : k])) <= their_clause:
        return None  # the claim's own subject: "Children do not need a ticket"
    start = max((i for i in negators(claim.low) if i < k), default=k) if denied else k
    return Contrast("negation", sentence.unit, sentence.text, as_written(claim.text, claim.toks[start : k + 1]))


#: what ends the thing a need names after its verb: "need a forklift licence and must be able to …"
_THING_ENDS = frozenset("and or but".split())


def _needs(span: Span) -> tuple[int, bool, set[str]] | None:
    """(the position of ``span``'s first word of need, whether it is denied, the content words of
    what is needed); None where it has none, where it lies in an "if" clause ("if needed"), or
    where the side both says a thing is needed and that one is not."""
    found = [k for k, t in enumerate(span.low) if t in NEED_VERBS or t in NEEDED]
    if not found or conditional(span.low, found[0]):
        return None
    denied = [negated_at(span, k) for k in found]
    if any(d != denied[0] for d in denied) or (not denied[0] and negated_after(span, found[0])):
        return None
    k = found[0]
    a, b = clause_of(span.low, k)
    if span.low[k] in NEED_VERBS:
        end = next((i for i in range(k + 1, b) if span.low[i] in _THING_ENDS), b)
        return k, denied[0], set(content(span.toks[k + 1 : end]))
    return k, denied[0], set(content(span.toks[a:k]))
