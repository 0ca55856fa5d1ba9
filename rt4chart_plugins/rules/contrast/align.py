"""The contrast rule's driver: a claim aligned with the context sentence that shares most of its
words, and every check of :mod:`.negations`, :mod:`.checks`, :mod:`.alternatives`,
:mod:`.restrictions` and :mod:`.prices` run against it (the rule itself is described in the
package's docstring)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rt4chart_plugins.rules.amounts import AmountIndex, comparable, same_amount
from rt4chart_plugins.rules.contrast.alternatives import alternatives
from rt4chart_plugins.rules.contrast.checks import (
    Contrast,
    extra_price,
    modality,
    no_price,
    quantifier,
    relation,
    roles,
    state,
    weekday,
)
from rt4chart_plugins.rules.contrast.lexicon import (
    BOUND_ALIGNMENT,
    DETERMINERS,
    LEXICAL,
    MIN_ALIGNMENT,
    MIN_SHARED,
    OPENING_PRONOUNS,
)
from rt4chart_plugins.rules.contrast.negations import negation, permission, requirement
from rt4chart_plugins.rules.contrast.prices import priced_where_free
from rt4chart_plugins.rules.contrast.reading import CONJUNCT, Span, clauses, span
from rt4chart_plugins.rules.contrast.restrictions import other_days, unrestricted
from rt4chart_plugins.rules.dates import dates, days_known, gives_a_span_of_days
from rt4chart_plugins.rules.derived import implied
from rt4chart_plugins.rules.facts import numbers
from rt4chart_plugins.rules.finding import Finding, RuleName, quoted
from rt4chart_plugins.rules.quantities import Quantity, quantities, singular
from rt4chart_plugins.text.english import ORDINALS
from rt4chart_plugins.text.words import stem
from rt4chart_plugins.types import Label


@dataclass(frozen=True)
class _Amounts:
    """What a context states in amounts, read once when a claim first states one."""

    everywhere: AmountIndex  # every quantity of the context
    per_sentence: list[list[Quantity]]
    bare: set[float]  # values written without a unit ("35 to 40 for brown rice": the unit said once before)
    numbers: set[float]  # every number of the context, as the number check reads them
    unmeasured: set[float]  # those outside its measures ("3 hours") and ordinals, which say nothing of how many
    ordinals: set[tuple[float, str]]  # each ordinal's value and the noun after it: (4, "floor") of "the fourth floor"
    days: set[tuple[int, int]]  # every (day, month) the context gives, spans of days included


#: what may open a sentence before its names ("The Corvo Air 14 …")
_ARTICLES = ("the", "a", "an")


def _named_subjects(sentences: Sequence[Span]) -> list[set[str]]:
    """For each sentence that opens with a pronoun ("It has two USB-C ports, but no HDMI port."),
    the names that open the sentence it follows ("The Corvo Air 14 laptop has …"), carried along a
    run of such sentences; an empty set for any other. A claim names the thing ("The Corvo Air 14
    has an HDMI port") where the context said "it", so the sentence aligns with the claim by
    those names too. Only alignment reads them: every check still reads the sentence's own words.

    A sentence whose one capitalized opening word is only its first ("Lessons last 45 minutes.")
    may not name anything, since every sentence starts with a capital: the names before it are
    carried past it too, beside that word ("The Harbour Pool …. Lessons last 45 minutes. It has a
    sauna" carries harbour and pool to "It")."""
    out: list[set[str]] = []
    carried: set[str] = set()
    for s in sentences:
        if s.low and s.low[0] in OPENING_PRONOUNS:
            out.append(carried)
            continue
        run = _leading_names(s)
        only_first = len(run) == 1 and s.low[0] not in _ARTICLES
        carried = carried | set(run) if only_first else set(run)
        out.append(set())
    return out


def _leading_names(s: Span) -> list[str]:
    """The run of names (capitalized words and numbers) that opens a sentence after its article:
    "The Corvo Air 14 laptop has …" → corvo, air, 14."""
    toks = s.toks[1:] if s.low and s.low[0] in _ARTICLES else s.toks
    run: list[str] = []
    for t in toks:
        if not (t[:1].isupper() or t[:1].isdigit()):
            break
        run.append(stem(t))
    return run


class Contrasts:
    """Every sentence of one context, split into clauses, ready to be compared with claims; what
    it found for a claim is kept, since a clause and its sentence often ask about the same words."""

    def __init__(self, units: Sequence[str]):
        self._units = list(units)
        self._amounts: _Amounts | None = None
        self._found: dict[str, Contrast | None] = {}
        # a question asserts nothing ("wouldn't one instructor have noticed?"): it has no words to align with
        self.sentences = [span(i, "" if t.rstrip().endswith("?") else t) for i, t in enumerate(units)]
        # key → the sentences holding it, in order: a claim is aligned with the sentences that share
        # its words, not compared with every sentence (a 1 MB context has 6,000 of them)
        self._holding: dict[str, list[int]] = {}
        for s, named in zip(self.sentences, _named_subjects(self.sentences)):
            for key in s.keys | named:
                self._holding.setdefault(key, []).append(s.unit)
        self._clauses: dict[int, list[Span]] = {}  # a sentence's clauses, read when a claim aligns with it
        self._indexes: dict[int, AmountIndex] = {}  # a sentence's amounts, indexed when a claim's amount is looked for

    def find(self, claim: str) -> Contrast | None:
        """The contrast between ``claim`` (or one of its conjuncts) and the context sentence it
        aligns with, or None."""
        if claim not in self._found:
            self._found[claim] = self._search(claim)
        return self._found[claim]

    def _search(self, claim: str) -> Contrast | None:
        pieces = CONJUNCT.split(claim)
        whole = span(-1, claim)
        for text in [claim, *(pieces if len(pieces) > 1 else [])]:
            found = self._find(span(-1, text) if text != claim else whole, whole)
            if found:
                return found
        return None

    def _find(self, mine: Span, whole: Span) -> Contrast | None:
        shared = Counter(i for key in mine.keys for i in self._holding.get(key, ()))
        best = max(shared.values(), default=0)
        if best < MIN_SHARED or best < MIN_ALIGNMENT * len(mine.keys):
            return None
        found = [
            self._compare(mine, self.sentences[i], self.clauses(i), whole) for i in sorted(shared) if shared[i] == best
        ]
        # several sentences align equally well: each must show the contrast, or none is reported (on
        # RAGTruth train, reporting the first that shows one fired on 15 faithful sentences, against 8)
        return found[0] if found and all(found) else None

    def clauses(self, i: int) -> list[Span]:
        """The clauses of sentence ``i``, read once."""
        if i not in self._clauses:
            self._clauses[i] = [span(i, c) for c in clauses(self._units[i])]
        return self._clauses[i]

    def amounts(self) -> _Amounts:
        """The context's amounts, read once when a claim first states one."""
        if self._amounts is None:
            per_sentence = [quantities(t) for t in self._units]
            text = "\n".join(self._units)
            unmeasured = "\n".join(_without_measures(t, qs) for t, qs in zip(self._units, per_sentence))
            ordinals = {
                (float(_ordinal_value(m.group(1))), singular(m.group(2).lower())) for m in _ORDINAL.finditer(text)
            }
            # what the context implies ("from 11:00 to 12:30": 90 minutes) is known, but is no
            # amount a claim's is compared with
            stated = [q for qs in per_sentence for q in qs]
            everywhere = AmountIndex(stated + implied(self._units, stated))
            self._amounts = _Amounts(
                everywhere,
                per_sentence,
                {q.value for qs in per_sentence for q in qs if not q.unit},
                {float(v) for v in numbers(text)},
                {float(v) for v in numbers(_ORDINAL.sub(" ", unmeasured))},
                ordinals,
                days_known(text),
            )
        return self._amounts

    def _quantity(self, claim: Span, sentence: Span) -> Contrast | None:
        """An amount of the claim that the context states nowhere, where its aligned sentence
        states another amount of the same kind: "12 miles" against "12 kilometres", "40 million"
        against "a population of about 40,000", "elected mayor in 2018" against "in 2019". A count
        whose number the context has where it may be derived from is left to the judge
        (:func:`_may_derive`); "3 hours" says nothing against "three devices", nor "the fourth
        floor" against "four nights".

        An amount with a unit that the context states elsewhere counts too when the aligned
        sentence holds every other word of the claim and gives it another amount of that kind:
        "A full service costs 25 euros" against "A full service costs 70 euros", where 25 euros is
        what the basic service costs. Every word of the claim but its amount is that sentence's,
        so its amount is the one that sentence gives."""
        mine = quantities(claim.text)
        if not mine:
            return None
        known = self.amounts()
        theirs = known.per_sentence[sentence.unit] if 0 <= sentence.unit < len(known.per_sentence) else []
        # a day of a date the context gives is no count to compare: "on 14 June" against "from 12
        # to 15 June"; the ends of a span the claim gives are ("from 12 to 14 June")
        dated = set()
        if not gives_a_span_of_days(claim.text):
            dated = {float(d.day) for d in dates(claim.text) if (d.day, d.month) in known.days}
        amount_words = {k for m in mine for k in span(-1, m.text).keys}
        rest = claim.keys - amount_words  # the claim's words outside its amounts
        for q in mine:
            if q.kind.startswith("count:") and q.value in dated:
                continue
            stated = known.everywhere.supports(q) or q.value in known.bare
            if stated and (other := _given_to_another(claim, sentence, mine, amount_words, theirs, q)) is not None:
                return _amount_contrast(sentence, q, other)
            # a stated amount counts where the sentence gives another, not it, and holds every other
            # word of the claim, or the context gives it only to something else
            if stated and not (
                q.unit
                and rest
                and _gives_not(sentence, theirs, q)
                and (rest <= sentence.keys or self._given_elsewhere(rest, sentence, mine, q))
            ):
                continue
            if not stated and not q.unit and _may_derive(known, q, claim):
                continue
            other = next((c for c in theirs if comparable(q, c)), None)
            if other is not None:
                return _amount_contrast(sentence, q, other)
        return None

    def _given_elsewhere(self, rest: set[str], sentence: Span, mine: list[Quantity], q: Quantity) -> bool:
        """Whether the context gives the measure ``q`` only to another thing than the one the claim
        and ``sentence`` are about: "Cars parked too long may be fined 60 euros" against "Cars parked
        longer than allowed may be fined 40 euros", where 60 euros is what a permit costs. The
        sentence must hold :data:`BOUND_ALIGNMENT` of the claim's other words (``rest``), the claim
        no other amount of its kind (it may say what each thing gets), and no sentence that gives
        ``q`` may share any of those words. A time of day counts ("Breakfast is served at 11:00"
        against "from 7:00 to 10:30", where 11:00 is check-out), as one the context states nowhere
        does; a count is left out, since what it counts is not read."""
        if q.kind.startswith("count:") or any(m is not q and comparable(q, m) for m in mine):
            return False
        if len(rest & sentence.keys) < BOUND_ALIGNMENT * len(rest):
            return False
        # a sentence that gives the amount and shares a word with the claim may be what the claim
        # is about ("Capital One reported earnings per share of $6.86" against "earnings per share
        # in the quarter were $6.86", beside "Capital One earned … $6.78 per diluted share")
        return not any(
            i != sentence.unit and amounts and rest & self.sentences[i].keys and self._index_of(i).supports(q)
            for i, amounts in enumerate(self.amounts().per_sentence)
        )

    def _index_of(self, i: int) -> AmountIndex:
        """Sentence ``i``'s amounts as an index, built once."""
        if i not in self._indexes:
            self._indexes[i] = AmountIndex(self.amounts().per_sentence[i])
        return self._indexes[i]

    def _compare(self, claim: Span, sentence: Span, clauses: list[Span], whole: Span) -> Contrast | None:
        """``claim`` is the whole claim or one of its conjuncts (``whole`` is the claim)."""
        found = negation(claim, sentence) or permission(claim, sentence) or requirement(claim, sentence)
        # quantifiers and modality are read clause by clause; each check also asks that the markers
        # of both sides bear on words the other side states
        candidates = [c for c in clauses if claim.keys & c.keys]
        for check in (quantifier, alternatives, modality, relation, roles):
            found = found or next((r for c in candidates if (r := check(claim, c))), None)
        return (
            found
            or state(claim, sentence)
            or unrestricted(claim, sentence, clauses, whole)
            or other_days(claim, sentence, clauses, whole)
            or self._quantity(claim, sentence)
            or weekday(claim, sentence)
            or no_price(claim, sentence)
            or priced_where_free(claim, sentence, self.sentences[sentence.unit - 1] if sentence.unit > 0 else None)
            or extra_price(claim, sentence)
        )

    def check(self, claim: str) -> Finding | None:
        """:class:`Finding` protocol: CON citing the context sentence the claim contrasts with,
        the reason quoting that sentence and the claim's words it says otherwise."""
        found = self.find(claim)
        if found is None:
            return None
        sentence = self._units[found.unit]
        if found.kind == "roles":
            reason = f"The context says {quoted(sentence)}: who did what to whom is the other way round."
        elif found.kind == "negation":
            # either side may be the negated one: "…, not “LNER”" against "but not on LNER trains"
            # would read as if the context never named it
            reason = f"The context says {quoted(sentence)}; the claim says the opposite ({quoted(found.at)})."
        else:
            reason = f"The context says {quoted(sentence)}, not {quoted(found.at)}."
        return Finding(
            "contrast", found.kind, Label.CON, (found.unit,), reason, claim_says=found.at, context_says=sentence
        )


#: where a sentence that gives several amounts passes from one to the next: "28 euros in the stalls
#: and 18 euros in the balcony", "three weeks, while DVDs … 7 days"; not before a participle, whose
#: clause says more of the one before it ("35,512 square feet …, bringing the total to 180,000 square
#: feet", "40 euros, including 5 euros of tax")
_AMOUNT_BREAK = re.compile(r"(?:[,;]\s*|\s+(?:and|but|while|whereas|or)\s+)(?!\s*[a-z]+ing\b)", re.IGNORECASE)


def _strength(brk: re.Match) -> float:
    """How strongly a break divides: a semicolon ends a clause; a comma or a contrast ("while",
    "but") most often does; "and" and "or" may join two things said of one subject ("follow-up
    sessions last 30 minutes and cost 45 euros") or two nouns of one phrase ("a scale and polish"),
    but one that opens a noun phrase ("and a scale and polish costs …") most often opens the next
    piece's subject."""
    word = brk.group().strip().lower()
    if word.startswith(";"):
        return 3
    if word.startswith(",") or word in ("but", "while", "whereas"):
        return 2
    after = _WORD.match(brk.string, brk.end())
    return 1.5 if after and after.group().lower() in _OPENS_NOUN_PHRASE else 1


#: what opens a noun phrase
_OPENS_NOUN_PHRASE = DETERMINERS | frozenset("each every my".split())
_WORD = re.compile(r"\w+")


#: what joins a span's two ends and nothing else: "from 8:30 to 17:00", "9–5"
_SPAN_ENDS = re.compile(r"\s*(?:to|until|till|through|-|–|—)\s*", re.IGNORECASE)


def _pieces(text: str, amounts: list[Quantity]) -> list[tuple[str, str, list[Quantity], Quantity]] | None:
    """``text`` cut between each two of its amounts at the strongest break between them (the last
    of equals: :func:`_strength`), as (the words before the piece's amounts, the piece, its
    amounts, what a reason quotes of them). A span's two ends ("from 8:30 to 17:00") are one
    piece's amounts, quoted as the span (:func:`_as_one`). None where an amount's words are not
    found as written, two amounts have neither a break nor a span's join between them ("12 euros
    50"), or nothing but a list's join ("at 7:15, 11:45 and 16:30 every day")."""
    at, found = 0, []
    for q in amounts:
        i = text.find(q.text, at)
        if i < 0:
            return None
        found.append((i, i + len(q.text), q))
        at = i + len(q.text)
    groups = [[found[0]]]
    for (_, end, _q), here in zip(found, found[1:]):
        if _SPAN_ENDS.fullmatch(text, end, here[0]):
            groups[-1].append(here)
        else:
            groups.append([here])
    cuts = [0]
    for before, after in zip(groups, groups[1:]):
        if _AMOUNT_BREAK.fullmatch(text, before[-1][1], after[0][0]):
            return None  # listed together: what follows the last is each one's
        breaks = list(_AMOUNT_BREAK.finditer(text, before[-1][1], after[0][0]))
        if not breaks:
            return None
        cuts.append(max(reversed(breaks), key=_strength).end())  # the strongest, the last of equals
    # the last piece ends at the first break after its amount: what follows ("…, whichever is later,
    # if you file a claim") may bear on every piece, as the words before the first amount may
    tail = _AMOUNT_BREAK.search(text, groups[-1][-1][1])
    cuts.append(tail.start() if tail else len(text))
    return [
        (text[a : g[0][0]], text[a:b], [q for _, _, q in g], g[0][2] if len(g) == 1 else _as_one(text, g))
        for (a, b), g in zip(zip(cuts, cuts[1:]), groups)
    ]


def _as_one(text: str, ends: list[tuple[int, int, Quantity]]) -> Quantity:
    """A span's amounts as one, as the sentence writes it ("8:30 to 13:00"): the first end's, with
    the span's words."""
    return replace(ends[0][2], text=text[ends[0][0] : ends[-1][1]])


def _may_derive(known: _Amounts, q: Quantity, claim: Span) -> bool:
    """Whether the context has the number of ``q``, a unitless amount of ``claim`` it does not
    state, where the amount may be derived from it. A count of the noun after its number ("three
    devices") may be derived from a number said otherwise than as a measure ("3 hours") or as an
    ordinal of a thing the claim does not name ("the fourth floor" against "four nights"; "a third
    port" against "three USB ports" counts); a count read from the noun before it ("out of 5",
    "ages of 30 and 40") may be a measure whose unit is said once, so any number will do."""
    if not q.kind.startswith("count:") or q.kind.startswith("count:of "):
        return q.value in known.numbers
    if q.value in known.unmeasured:
        return True
    named = {singular(t) for t in claim.low}
    return any(v == q.value and noun in named for v, noun in known.ordinals)


#: an ordinal and the word after it: "the fourth floor", "her 2nd album"
_ORDINAL = re.compile(r"\b(" + "|".join(ORDINALS) + r"|\d+(?:st|nd|rd|th))\s+([A-Za-z][\w-]*)", re.IGNORECASE)


def _ordinal_value(word: str) -> int:
    low = word.lower()
    return ORDINALS[low] if low in ORDINALS else int(low[:-2])


def _without_measures(text: str, amounts: list[Quantity]) -> str:
    """``text`` with the amounts that have a unit ("3 hours", "18.40 pounds", "9 PM") blanked out."""
    for q in amounts:
        if q.unit:
            text = text.replace(q.text, " ", 1)
    return text


def _gives_not(sentence: Span, theirs: list[Quantity], q: Quantity) -> bool:
    """Whether ``sentence`` (whose amounts are ``theirs``) states no amount that is ``q``, nor its
    number bare ("brown rice 35 to 40", the unit said before)."""
    return not AmountIndex(theirs).supports(q) and q.value not in {float(v) for v in numbers(sentence.text)}


def _amount_contrast(sentence: Span, q: Quantity, other: Quantity) -> Contrast:
    """The claim's amount ``q`` where ``sentence`` gives ``other``."""
    return Contrast("quantity", sentence.unit, sentence.text, f"{q.text} (the context: {other.text})", at=q.text)


def _given_to_another(
    claim: Span, sentence: Span, mine: list[Quantity], amount_words: set[str], amounts: list[Quantity], q: Quantity
) -> Quantity | None:
    """The amount of another piece of ``sentence`` that the claim's words bind ``q`` to, where
    the sentence gives ``q`` to one thing and another amount of its kind to another: "Balcony
    tickets cost 28 euros" against "Tickets cost 28 euros in the stalls and 18 euros in the
    balcony" (18 euros), "DVDs can be kept for three weeks" against "Books can be kept for three
    weeks, while DVDs must be returned within 7 days" (7 days).

    The claim must share words with the other piece that ``q``'s piece lacks, and none with
    ``q``'s piece that the other lacks. The words before the first amount are left out of both
    sides, since they may be what every piece shares ("Tickets cost … and 18 euros …"): a claim
    of those words alone ("Tickets cost 18 euros") is only vaguer than the sentence, and so are
    the words after the last piece's amount and its phrase. None when the sentence holds less
    than :data:`BOUND_ALIGNMENT` of the claim's other words, gives ``q`` twice, or the claim
    states another amount of its kind (that one is what the claim gives the other piece, and the
    amount check reads it), and for a bare count: what it counts is not read. A time of day is
    read ("Check-out is by 15:00" against "Check-in is from 15:00 and check-out is by 11:00"), and
    a span's two ends are one piece's ("On Fridays the practice closes at 17:00" against "open
    Monday to Thursday from 8:30 to 17:00 and on Fridays from 8:30 to 13:00"): which end of a span
    a time is, is not read, only which span holds it. ``amounts`` are the sentence's, as the
    context read them; ``amount_words`` the keys of the claim's own amounts."""
    if not q.unit:
        return None
    if any(m is not q and comparable(q, m) for m in mine):
        return None
    theirs = [a for a in amounts if comparable(q, a)]  # "children under 12" cuts nothing
    if len(theirs) < 2:
        return None
    pieces = _pieces(sentence.text, theirs)
    if pieces is None:
        return None
    # what the claim is about, not how it says it: "closes at 17:00" names no piece by "closes"
    words = claim.keys - amount_words - {stem(t) for t in claim.low if t in LEXICAL}
    if len(words & sentence.keys) < BOUND_ALIGNMENT * len(words):
        return None  # "With only two weeks left in the game" says more than the sentence's pieces
    head = span(-1, pieces[0][0]).keys
    # the words before the first amount are every piece's ("Tickets cost 28 euros in the stalls and
    # 18 euros in the balcony"), unless a later piece says one of them before its own amount ("Adults
    # pay 12 euros and children pay 6 euros"): then that piece has its own, and they are the first's
    if any(head & span(-1, before).keys for before, _, _, _ in pieces[1:]):
        head = set()
    own = [span(-1, piece).keys - amount_words - head for _, piece, _, _ in pieces]
    holding = [i for i, (_, _, held, _) in enumerate(pieces) if any(same_amount(q, a) for a in held)]
    if len(holding) != 1:
        return None
    i = holding[0]
    for j, (_, _, _, as_quoted) in enumerate(pieces):
        if j == i:
            continue
        if words & (own[j] - own[i]) and not words & (own[i] - own[j]):
            return as_quoted
    return None


class ContrastRule:
    """The contrast check as a :class:`~rt4chart_plugins.rules.finding.Rule`: it decides any
    label, since the words are the context's and the meaning is not."""

    name: RuleName = "contrast"
    overrules = frozenset(Label)
    by_sentence = True

    def read(self, units: Sequence[str], context: str, question: str | None) -> Contrasts:
        return Contrasts(units)
