"""Only one of the alternatives the context gives: "Tickets can only be bought in the app" against
"Tickets can be bought from the driver or with the city's transport app".

The quantifier check reads "only" against a universal ("all", "every"). A list of alternatives
holds no quantifier; what says there is more than one way is the coordination itself, so this
check reads which two conjuncts a coordination joins. It reads them only where both open alike,
since "and" also joins clauses ("costs 5 euros and can be bought online"), where the second is no
alternative to the first.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rt4chart_plugins.rules.contrast.checks import Contrast
from rt4chart_plugins.rules.contrast.lexicon import (
    DETERMINERS,
    EXCLUSIVE,
    MERELY_AFTER,
    NOT_EXCLUSIVE_BEFORE,
    ONLY,
    PHRASE_OPENERS,
    SCOPE,
)
from rt4chart_plugins.rules.contrast.reading import Span, clause_of, content, is_content
from rt4chart_plugins.text.lemmas import lemmas

_LIST = frozenset(("and", "or", ",", ";"))
#: the most words a bare noun conjunct has ("by card or cash", "by bank transfer or credit card")
_BARE = 3
#: how far back the first conjunct's opener may stand from the list word
_REACH = 8
#: how many words after "only" say what it keeps ("only switches off when the water boils")
_KEPT = 6


def _name(tok: str) -> bool:
    return tok[:1].isupper()


def _noun(word: str) -> bool:
    """Whether ``word`` may be a noun: one out of the dictionary ("website") is read as one."""
    found = lemmas(word.lower())
    return not found or "NOUN" in found


def _bare_end(toks: Sequence[str], low: Sequence[str], r0: int) -> int:
    """Where the bare noun conjunct opening at ``r0`` ends; -1 when it is no noun ("identify their
    locations and indicate whether …") or does not end its phrase there ("bring a guest and use
    the sauna": "use" has an object after it)."""
    end = r0
    while end < len(toks) and end - r0 < _BARE and is_content(toks[end]) and not _name(toks[end]):
        end += 1
    if end == r0 or (end < len(low) and low[end] not in _LIST | PHRASE_OPENERS) or not _noun(toks[end - 1]):
        return -1
    return end


def conjuncts(span: Span) -> Iterator[tuple[Sequence[str], Sequence[str]]]:
    """The two conjuncts of each "or" and "and" of ``span`` whose conjuncts open alike: each with a
    preposition or a subordinator, an article or a possessive, a name, or each a bare noun."""
    toks, low = span.toks, span.low
    for k, t in enumerate(low[1:-1], start=1):
        if t not in ("or", "and"):
            continue
        r0, start = k + 1, -1
        if low[r0] in PHRASE_OPENERS or low[r0] in DETERMINERS:
            opens = PHRASE_OPENERS if low[r0] in PHRASE_OPENERS else DETERMINERS
            # a phrase runs to the next opener of its kind: "with the city's transport app" is one
            ends = opens | _LIST | (PHRASE_OPENERS if opens is DETERMINERS else frozenset())
            end = next((j for j in range(r0 + 1, len(low)) if low[j] in ends), len(low))
            back = range(k - 1, max(-1, k - 1 - _REACH), -1)
            start = next((j for j in back if low[j] in opens or low[j] in _LIST), -1)
            if start >= 0 and low[start] in _LIST:
                start = -1
        elif _name(toks[r0]):
            end = next((j for j in range(r0, len(toks)) if not _name(toks[j])), len(toks))
            start = k
            while start > 0 and _name(toks[start - 1]):
                start -= 1
            start = start if start < k else -1
        else:
            end = _bare_end(toks, low, r0)
            start = k
            while end > 0 and start > 0 and k - start < _BARE and is_content(toks[start - 1]):
                start -= 1
            start = start if end > 0 and start < k and _noun(toks[k - 1]) else -1
        if start < 0:
            continue
        left, right = toks[start:k], toks[r0:end]
        if any(ch.isdigit() for tok in (*left, *right) for ch in tok):
            continue  # a list of amounts is the amount checks' ("from 8:30 to 17:00 and on Fridays …")
        yield left, right


def exclusive_at(claim: Span) -> int:
    """The position of the claim's "only" that keeps one thing and no other, or -1: not "not
    only", "if only" or "the only", nor "only" before an amount, which means "merely"."""
    low = claim.low
    for i, t in enumerate(low):
        if t not in EXCLUSIVE or (i and low[i - 1] in NOT_EXCLUSIVE_BEFORE):
            continue
        after = low[i + 1 : i + 1 + SCOPE]  # "only 5 euros", "only takes a few clicks"
        if set(after) & MERELY_AFTER or any(ch.isdigit() for word in after for ch in word):
            continue
        return i
    return -1


def kept(claim: Span, i: int) -> tuple[set[str], set[str]]:
    """What the claim's "only" at ``i`` keeps, and all it says of it: the words right after it and
    the rest of its clause; where it ends its clause ("by card only"), the words before it. What
    comes further on is not kept: "works exclusively with young Jordanians from all backgrounds"
    keeps no background."""
    a, b = clause_of(claim.low, i)
    if i + 1 < b:
        return set(content(claim.toks[i + 1 : min(b, i + 1 + _KEPT)])), set(content(claim.toks[i + 1 : b]))
    before = set(content(claim.toks[max(a, i - SCOPE) : i]))
    return before, before


def alternatives(claim: Span, clause: Span) -> Contrast | None:
    """The claim keeps one of the clause's alternatives and drops the other: what its "only"
    keeps holds a word of one conjunct that the other lacks, and none of the other's own words,
    one of which the claim lacks altogether (the claim's subject may be the other conjunct's
    word: "The kettle only switches off when the water boils" / "… or if the kettle is lifted")."""
    i = exclusive_at(claim)
    if i < 0 or ONLY & set(clause.low):
        return None
    near, said = kept(claim, i)
    for left, right in conjuncts(clause):
        one, two = set(content(left)), set(content(right))
        for mine, other in ((one - two, two - one), (two - one, one - two)):
            if mine & near and other and not other & said and other - claim.words:
                return Contrast("quantifier", clause.unit, clause.text, claim.toks[i])
    return None
