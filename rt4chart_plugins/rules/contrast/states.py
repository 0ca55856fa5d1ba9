"""Where a one-place scale's two poles fall in a sentence ("open … Monday to Saturday, and closed
on Sundays"): which pole a claim's holder or its "when" belongs to, a pole said without exception,
and a pole whose time of day says when rather than whether. The state and negation checks read
them (:mod:`~rt4chart_plugins.rules.contrast.checks`)."""

from __future__ import annotations

import re

from rt4chart_plugins.rules.contrast.lexicon import ALL, POLE_JOINS, SCOPE, STATE
from rt4chart_plugins.rules.contrast.reading import Span, clause_of, content, names, stem
from rt4chart_plugins.rules.quantities import TIME_OF_DAY, quantities

#: how far after a scale word (in characters) a time of day still is its object: "at 6 pm",
#: "until 17:00"
TIME_REACH = 8


def timed(span: Span, i: int) -> bool:
    """Whether a time of day comes right after the word at ``i`` ("closes at 6 pm", "open until
    17:00"): the time is what the word says, not a when added to it ("open on Mondays from 10:00
    to 17:00" says it is open on Mondays)."""
    word = span.low[i]
    nth = span.low[:i].count(word)
    at = [m.end() for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", span.text, re.IGNORECASE)]
    if nth >= len(at):
        return False
    after = span.text[at[nth] :]
    return any(q.kind == TIME_OF_DAY and after.find(q.text) <= TIME_REACH for q in quantities(after[:40]))


def said_of_other_pole(claim: Span, k: int, sentence: Span) -> bool:
    """Whether the claim's negated scale word at ``k`` ("not open on Sundays") is said of what the
    sentence gives that scale's other pole ("open …, and closed on Sundays"): "not open" is then
    "closed", as the sentence says."""
    for axis, sign in STATE.get(claim.low[k], ()):
        poles = poles_in(sentence, axis)
        if set(poles) == {sign, -sign} and other_pole_of(claim, k, sentence, poles[sign], poles[-sign]) is not None:
            return True
    return False


def poles_in(sentence: Span, axis: int) -> dict[int, int]:
    """Where ``sentence`` uses each pole (1 or -1) of the scale ``axis``: the position of its last
    word of that pole."""
    return {s: j for j, u in enumerate(sentence.low) for a, s in STATE.get(u, ()) if a == axis}


def other_pole_of(claim: Span, i: int, sentence: Span, same: int, other: int) -> int | None:
    """``other`` when the claim's holder or its "when" is what the sentence gives its other pole
    (:func:`holder_of_other_pole`, then :func:`when_of_other_pole`)."""
    j = holder_of_other_pole(claim, i, sentence, same, other)
    return j if j is not None else when_of_other_pole(claim, i, sentence, same, other)


def holder_of_other_pole(claim: Span, i: int, sentence: Span, same: int, other: int) -> int | None:
    """``other`` when the claim's subject (its words before the scale word at ``i``) is what the
    sentence names before its opposite pole at ``other``, and not before its same pole at ``same``;
    each pole's holder is read from its clause, after the other pole when that comes first."""

    def holder(j: int, k: int) -> set[str]:  # what the pole at j is said of; k: the other pole
        start, _ = clause_of(sentence.low, j)
        if k < j:  # after the other pole, what follows its last "and" or "but" is this pole's
            start = max(start, k + 1)
            start = max((x + 1 for x in range(start, j) if sentence.low[x] in POLE_JOINS), default=start)
        return set(content(sentence.toks[start:j]))

    mine = set(content(claim.toks[:i]))
    own, others = holder(same, other), holder(other, same)
    if not own or not others:
        return None  # a pronoun, or one subject for both ("closed on holidays but open on Sundays")
    distinct = mine - own
    # a name of the claim's that only the same pole's holder has means the claim agrees with it
    agrees = set(names(claim.toks[:i])) & (own - others)
    return other if distinct and distinct <= others and not agrees else None


def when_of_other_pole(claim: Span, i: int, sentence: Span, same: int, other: int) -> int | None:
    """``other`` when what the claim says after its scale word (when, where, for whom) is what the
    sentence says after its opposite pole, and not after its same pole: "open from 10 am to 4 pm
    on Saturdays, and it is closed on Sundays" / "open on Sundays". Each pole's complement is read
    up to the end of its clause, or to the other pole when that comes later in the clause."""

    def complement(j: int, k: int) -> set[str]:
        _, end = clause_of(sentence.low, j)
        if j < k:
            end = min(end, k)
        return set(content(sentence.toks[j + 1 : end]))

    mine = set(content(claim.toks[i + 1 : clause_of(claim.low, i)[1]]))
    own, others = complement(same, other), complement(other, same)
    distinct = mine - own
    return other if distinct and distinct <= others else None


def always_against_other_pole(claim: Span, i: int, sentence: Span, same: int, other: int) -> int | None:
    """``other`` when the claim gives its scale word at ``i`` without exception ("open every day",
    "always open") where the sentence gives the opposite pole some of the time ("open Tuesday to
    Sunday, and closed on Mondays"); not when what the claim's "every" ranges over is the same
    pole's own ("open every weekday" against "open on weekdays, closed on Sundays")."""
    start, end = clause_of(claim.low, i)
    if not ALL & set(claim.low[max(start, i - SCOPE) : end]):
        return None
    # the same pole's own when runs up to the other pole ("open from 7:00, Monday to Saturday, and
    # closed on Sundays"), or to its clause's end when it comes last
    own_end = other if same < other else clause_of(sentence.low, same)[1]
    own = {stem(t) for t in content(sentence.toks[same + 1 : own_end])}
    mine = {stem(t) for t in content(claim.toks[i + 1 : end])}
    return other if not mine & own else None


#: what opens an exception to a claim's "every" or "always": "open every day except Mondays"
EXCEPTIONS = frozenset("except besides apart other excluding".split())


def when_not_shared(claim: Span, i: int, sentence: Span, j: int) -> bool:
    """Whether the sentence says its pole at ``j`` of a when or where ("closed on Mondays") that
    the claim's opposite pole at ``i`` is not said of ("open on Tuesdays"), nor said without
    exception ("open every day", "always open"; not "open every day except Mondays"): the two
    are then about different times or places, and do not contradict."""
    when = set(content(sentence.toks[j + 1 : clause_of(sentence.low, j)[1]]))
    if not when:
        return False
    start, end = clause_of(claim.low, i)
    cut = next((k for k in range(i + 1, end) if claim.low[k] in EXCEPTIONS), end)
    if set(content(claim.toks[cut:end])) & when:
        return True  # the claim excepts what the sentence says: "open every day except Mondays"
    if set(content(claim.toks[i + 1 : cut])) & when:
        return False
    return not ALL & set(claim.low[max(start, i - SCOPE) : end])
