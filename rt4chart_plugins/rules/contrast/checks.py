"""The kinds of contrast, one function each: the claim against one aligned context sentence or
clause, a :class:`Contrast` when that sentence marks the claim's meaning otherwise, else None."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rt4chart_plugins.rules.contrast.lexicon import (
    ALL,
    COMPARATIVE,
    DAY_WORDS,
    EXTRA_PRICE,
    INCLUDED,
    MAY,
    MUST,
    NO_PRICE,
    ONLY,
    PHRASAL,
    PRONOUN_QUANTIFIERS,
    RELATION,
    SCOPE,
    SHOULD,
    SOME,
    STATE,
    TIME_UNITS,
)
from rt4chart_plugins.rules.contrast.reading import (
    Span,
    bears_on,
    clause_of,
    conditional,
    content,
    first,
    is_content,
    names,
    negated_after,
    negated_at,
    negators,
    scope_word,
    stem,
    tokens,
)
from rt4chart_plugins.rules.contrast.states import (
    always_against_other_pole,
    other_pole_of,
    poles_in,
    timed,
    when_not_shared,
)
from rt4chart_plugins.rules.dates import other_weekday
from rt4chart_plugins.rules.quantities import Quantity, quantities


@dataclass(frozen=True)
class Contrast:
    """The context sentence ``unit`` marks ``kind`` differently: it says ``said`` where the claim
    says ``claimed``. ``at`` is the claim's own words the contrast is about, as the claim writes
    them ("12 miles", "acquired"), for finding the clause to blame; ``claimed`` may say more
    ("12 miles (the context: 12 kilometres)", "who did what to whom")."""

    kind: str
    unit: int
    said: str
    claimed: str
    at: str = ""

    def __post_init__(self) -> None:
        if not self.at:  # most kinds quote the claim's words as they stand
            object.__setattr__(self, "at", self.claimed)

    def __str__(self) -> str:
        return f"{self.kind}: the context says \u201c{self.said}\u201d where the claim says \u201c{self.claimed}\u201d"


#: what makes "every" an interval: "every second Tuesday", "every two weeks", "every 3 days"
_INTERVAL = frozenset("second third fourth fifth two three four five six".split())


def excepting(low: Sequence[str], i: int) -> bool:
    """Whether the universal quantifier at ``i`` ranges over what remains after an exception ("on
    all other days", "every other week", "all the other rooms") or over an interval ("every second
    Tuesday", "every two weeks"): it restricts, as "some" does."""
    after = low[i + 1 : i + 2]
    interval = low[i] == "every" and bool(after) and (after[0] in _INTERVAL or after[0].isdigit())
    return "other" in low[i + 1 : i + 3] or interval


def quantifier(claim: Span, clause: Span) -> Contrast | None:
    """The claim generalizes what the clause restricts ("anyone may park" / "only residents may
    park", "every apartment" / "most of the apartments", "every day" / "all other days"), or
    restricts what it generalizes. A weakening ("some" where the clause says "all") is not a contrast."""

    def universal(span: Span) -> list[int]:
        return [i for i, t in enumerate(span.low) if t in ALL and not excepting(span.low, i)]

    def restricting(span: Span) -> list[int]:
        return [i for i, t in enumerate(span.low) if t in SOME | ONLY or (t in ALL and excepting(span.low, i))]

    c_all, c_some = universal(claim), restricting(claim)
    k_all, k_some = universal(clause), restricting(clause)
    c_only, k_only = (bool(set(s.low) & ONLY) for s in (claim, clause))
    if c_all and not k_all and k_some and not c_some:
        mine, theirs = c_all[0], k_some[0]
    elif c_only and k_all and not k_only:
        mine, theirs = first(claim.low, ONLY), k_all[0]
    else:
        return None
    if "of" in (claim.low[mine - 1 : mine] + clause.low[theirs - 1 : theirs]):
        return None  # "half of all defaults" is a share, not a generalization
    noun, their_noun = scope_word(claim, mine), scope_word(clause, theirs)
    if (
        noun >= 0
        and their_noun >= 0
        and claim.low[mine] not in PRONOUN_QUANTIFIERS
        and stem(claim.toks[noun]) not in set(content(clause.toks[theirs + 1 :]))
    ):
        return None  # "all student loan defaults" / "only 13% of students" quantify different things
    # the claim's quantifier bears on the words right after it; the clause's restriction on the rest
    # of its clause ("only residents with a permit may park" restricts who may park)
    if (
        bears_on(claim.toks, mine, before=False) & clause.words
        and set(content(clause.toks[theirs + 1 :])) & claim.words
    ):
        return Contrast("quantifier", clause.unit, clause.text, claim.toks[mine])
    return None


def modality(claim: Span, clause: Span) -> Contrast | None:
    """An obligation against an option or a recommendation, where both modals bear on what the
    other side states ("must submit" / "may submit", not "must wear goggles" / "aprons are optional")."""
    c = {name: first(claim.low, q) for name, q in (("must", MUST), ("may", MAY | SHOULD))}
    k = {name: first(clause.low, q) for name, q in (("must", MUST), ("may", MAY | SHOULD))}
    for mine, theirs in (("must", "may"), ("may", "must")):
        i, j = c[mine], k[theirs]
        if i < 0 or j < 0 or c[theirs] >= 0 or k[mine] >= 0:
            continue
        if bears_on(claim.toks, i) & clause.words and bears_on(clause.toks, j) & claim.words:
            return Contrast("modality", clause.unit, clause.text, claim.toks[i])
    return None


def sides_of(toks: Sequence[str], pivot: int) -> tuple[list[str], list[str]]:
    """The words left and right of a relation word. Where the clause opens with "before" or
    "after" ("After the storm, staff lit candles"), what it introduces is its right side; in "more
    A than B", A and B stand either side of "than"."""
    low = [t.lower() for t in toks]
    left, right = list(toks[:pivot]), list(toks[pivot + 1 :])
    if pivot == 0 and low[0] in ("before", "after") and "," in right:
        cut = right.index(",")
        left, right = right[cut + 1 :], right[:cut]
    if "than" in low[pivot + 1 :]:
        k = pivot + 1 + low[pivot + 1 :].index("than")
        left, right = list(toks[:k]), list(toks[k + 1 :])
    return left, right


def order_of(claim: Span, i: int, other: Span, j: int) -> int:
    """+1 when the things on either side of position ``i`` of the claim stand on the same sides of
    position ``j`` of the other span, -1 when swapped, 0 when there is no telling (a side shares
    nothing with the other span). Names (capitalized words, words with digits) decide when every
    side has one, else all content words."""
    sides = [*sides_of(claim.toks, i), *sides_of(other.toks, j)]
    named = [set(names(s)) for s in sides]
    left, right, their_left, their_right = named if all(named) else [set(content(s)) for s in sides]
    if not (
        left & (their_left | their_right)
        and right & (their_left | their_right)
        and their_left & (left | right)
        and their_right & (left | right)
    ):
        return 0
    same = len(left & their_left) + len(right & their_right)
    swapped = len(left & their_right) + len(right & their_left)
    return (same > swapped) - (swapped > same)


def voice(low: Sequence[str], i: int) -> int:
    """-1 when the relation word at ``i`` is a passive with its agent after it ("was beaten by"), else 1."""
    return -1 if "by" in low[i + 1 : i + 3] else 1


def polarity(span: Span, i: int) -> int:
    """-1 when the clause around position ``i`` is negated."""
    a, b = clause_of(span.low, i)
    return -1 if len(negators(span.low[a:b])) % 2 else 1


def poles(span: Span) -> list[tuple[int, int, int]]:
    """(axis, sign, position) of every two-place scale word of the span: a comparative only with
    its "than"; "later" after a span of time ("twenty minutes later") as the sequence it implies."""
    out = []
    for i, t in enumerate(span.low):
        prev = span.low[i - 1] if i else ""
        if t in ("later", "earlier") and "than" not in span.low[i + 1 :]:
            if prev in TIME_UNITS or prev in ("and", "then"):
                out.append((RELATION["before"][0][0], 1 if t == "later" else -1, i))
            continue
        if t in COMPARATIVE and "than" not in span.low[i + 1 :]:
            continue
        if t == "after" and prev in PHRASAL:
            continue
        out += [(axis, sign, i) for axis, sign in COMPARATIVE.get(t, []) + RELATION.get(t, [])]
    return out


def relation(claim: Span, clause: Span) -> Contrast | None:
    """A two-place scale word of the claim against the same scale in the clause: opposite poles
    with the compared things on the same sides, or the same pole with them swapped. A converse
    ("A is larger than B" / "B is smaller than A") is consistent; so is a passive ("B was beaten by A")."""
    mine = poles(claim)
    for axis, sign, i in mine:
        if len({s for a, s, _ in mine if a == axis}) != 1:
            continue  # the claim uses both poles of this scale ("after steeping …, before swallowing")
        theirs = [(s, j) for a, s, j in poles(clause) if a == axis]
        if len({s for s, _ in theirs}) != 1:
            continue  # the clause does not use this scale, or uses both of its poles
        their_sign, j = theirs[0]
        after = claim.low[i + 1 : i + 3]
        if len(after) == 2 and after[0] == "than" and any(ch.isdigit() for ch in after[1]):
            continue  # "more than 500" is an amount
        order = order_of(claim, i, clause, j)
        if not order:
            continue
        ours = sign * voice(claim.low, i) * polarity(claim, i)
        if (their_sign * voice(clause.low, j) * polarity(clause, j) == ours) != (order > 0):
            return Contrast("direction", clause.unit, clause.text, claim.toks[i])
    return None


def state(claim: Span, sentence: Span) -> Contrast | None:
    """A one-place scale word of the claim whose opposite pole the sentence uses, about the same
    thing (words shared on the same side of it): "is open every day" / "is closed on Mondays".
    A sentence that uses both poles gives each to what is named before it ("the Ridge Trail is the
    longest and the Lakeside Loop the shortest"): the claim must name what has the other one."""
    poles_of: dict[int, dict[int, int]] = {}  # per scale, read once: each claim word read it all again
    for i, t in enumerate(claim.low):
        for axis, sign in STATE.get(t, []):
            if axis not in poles_of:
                poles_of[axis] = poles_in(sentence, axis)
            if timed(claim, i):
                continue  # "closes at 18:00" says when, not whether: "open from 10:00 to 18:00"
            theirs = poles_of[axis]
            if set(theirs) == {sign, -sign}:
                j = other_pole_of(claim, i, sentence, theirs[sign], theirs[-sign])
                if j is None:
                    j = always_against_other_pole(claim, i, sentence, theirs[sign], theirs[-sign])
                if j is not None and polarity(claim, i) == polarity(sentence, j):
                    return Contrast("opposite", sentence.unit, sentence.text, claim.toks[i])
                continue
            if set(theirs) != {-sign}:
                continue
            j = theirs[-sign]
            if polarity(claim, i) != polarity(sentence, j) or timed(sentence, j):
                continue  # "did not accept" / "rejected"; "closes at 17:00 on Sundays" / "is open on Sundays"
            if when_not_shared(claim, i, sentence, j):
                continue  # "open on Tuesdays" / "closed on Mondays"
            before = set(content(claim.toks[:i])) & set(content(sentence.toks[:j]))
            after = set(content(claim.toks[i + 1 :])) & set(content(sentence.toks[j + 1 :]))
            if before or after:
                return Contrast("opposite", sentence.unit, sentence.text, claim.toks[i])
    return None


def no_price(claim: Span, sentence: Span) -> Contrast | None:
    """A claim that says something costs nothing, against a sentence that gives it a price or a
    discount short of all of it ("Shoe hire is free for members" against "Members get 25 percent
    off shoe hire"). A sentence that calls anything free is left alone: what it calls free may be
    the claim's thing."""
    said = NO_PRICE.search(claim.text)
    if said is None or "free" in sentence.low or NO_PRICE.search(sentence.text):
        return None
    prices = [q.text for q in quantities(sentence.text) if q.kind == "currency" and q.value > 0 or _discount(q)]
    if not prices:
        return None
    words = said.group(0)
    return Contrast("price", sentence.unit, sentence.text, f"{words} (the context: {', '.join(prices)})", at=words)


def extra_price(claim: Span, sentence: Span) -> Contrast | None:
    """A claim that says something costs extra, against a sentence that puts it inside a price
    ("Breakfast costs extra" against "Breakfast … is included in the rate"). What the claim says
    costs extra must be what the sentence's "included" is said of, in its own clause: "Personal
    training costs extra" says nothing against "Group classes are included, but personal training
    costs 30 euros an hour"."""
    said = EXTRA_PRICE.search(claim.text)
    if said is None or EXTRA_PRICE.search(sentence.text):
        return None
    before = tokens(claim.text[: said.start()])
    if negated_at(claim, len(before)):
        return None  # "Breakfast does not cost extra" says what "included" does
    thing = set(content(before))
    for j, t in enumerate(sentence.low):
        if t not in INCLUDED or negated_at(sentence, j) or negated_after(sentence, j) or conditional(sentence.low, j):
            continue
        start, end = clause_of(sentence.low, j)
        # "the rate includes breakfast": what follows; "breakfast is included": what comes before
        holder = sentence.toks[j + 1 : end] if t != "included" else sentence.toks[start:j]
        if thing and thing <= set(content(holder)):
            return Contrast("price", sentence.unit, sentence.text, said.group(0))
    return None


def _discount(q: Quantity) -> bool:
    """A percentage short of all of it: what is left to pay is not nothing."""
    return q.kind == "percent" and 0 < q.value < 100


def weekday(claim: Span, sentence: Span) -> Contrast | None:
    """A date the sentence gives another day of the week: "booked for Tuesday 3 April" against
    "booked for Thursday 3 April"."""
    found = other_weekday(claim.text, sentence.text)
    if found is None:
        return None
    mine, theirs = found
    return Contrast("date", sentence.unit, sentence.text, f"{mine.text} (the context: {theirs.text})", at=mine.text)


def phrase(toks: Sequence[str], i: int, step: int) -> set[str]:
    """The run of names nearest to position ``i`` in direction ``step``, within :data:`SCOPE` words.
    A day or a month ("on Mondays", "in April") says when, not who: it is no name."""
    out: set[str] = set()
    k = i + step
    while 0 <= k < len(toks) and abs(k - i) <= SCOPE + len(out):
        t = toks[k]
        if is_content(t) and t[:1].isupper() and t.lower() not in DAY_WORDS:  # first words too: "Norcast …"
            out.add(stem(t))
        elif out or t in ",;":
            break
        k += step
    return out


def roles(claim: Span, clause: Span) -> Contrast | None:
    """Who did what to whom: a word the claim and the clause share once each, with a name right
    before and right after it in both, and those names swapped in the same voice ("Crispen
    acquired Harborline" / "Harborline acquired Crispen"), or kept in another voice ("Harborline
    was acquired by Crispen"). Every such word must say so; one that agrees clears the claim."""
    verdicts: list[tuple[bool, str]] = []
    # each side's stems counted once: scanning both sides again for every word of the claim made
    # an unpunctuated sentence of repeated words quadratic (4.6 s at 3,000 words)
    stems = [stem(u) for u in claim.toks]
    in_claim = Counter(stems)
    in_clause: dict[str, list[int]] = {}
    for j, u in enumerate(clause.toks):
        in_clause.setdefault(stem(u), []).append(j)
    for i, t in enumerate(claim.toks):
        if not is_content(t) or t[:1].isupper() or any(ch.isdigit() for ch in t):
            continue
        where = in_clause.get(stems[i], [])
        if len(where) != 1 or in_claim[stems[i]] != 1:
            continue
        j = where[0]
        left, right = phrase(claim.toks, i, -1), phrase(claim.toks, i, 1)
        their_left, their_right = phrase(clause.toks, j, -1), phrase(clause.toks, j, 1)
        if not (left and right and their_left and their_right):
            continue
        same = len(left & their_left) + len(right & their_right)
        swapped = len(left & their_right) + len(right & their_left)
        if same != swapped:
            verdicts.append(((same > swapped) == (voice(claim.low, i) == voice(clause.low, j)), t))
    if verdicts and not any(agrees for agrees, _ in verdicts):
        return Contrast("roles", clause.unit, clause.text, "who did what to whom", at=verdicts[0][1])
    return None
