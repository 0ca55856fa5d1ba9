"""Contradictions that word overlap cannot see: the claim uses the context's words and says the opposite.

"Anyone can enter the lab after 6 PM" against "Only employees with a badge may enter the lab after
6 PM" shares every content word with its context; so does "Opened software can be refunded"
against "Opened software cannot be refunded". A cross-encoder trained mostly on baseless additions
reads such sentences as supported, and word coverage agrees with it. What differs is a small,
closed set of words that carry the meaning: negation, quantifiers, modality, and the direction of
a comparison or an order. This rule aligns the claim with the context clause that shares most of
its content words, and reports a contrast when that clause marks one of these differently:

- **negation**: the clause is negated and the claim is not, or the reverse ("cannot" / "can");
- **quantifier**: the claim generalizes what the clause restricts ("anyone" / "only", "every" /
  "most"), or restricts what the clause generalizes ("only" / "all");
- **modality**: an obligation where the clause gives an option or a recommendation ("must" /
  "optional", "required" / "recommended"), or the reverse;
- **direction**: the opposite pole of one scale ("longer" / "shorter", "before" / "after", "open" /
  "closed", "increased" / "decreased") with the compared things on the same sides; the same pole
  with them on swapped sides ("A is larger than B" / "B is larger than A"). A converse ("A is
  larger than B" / "B is smaller than A") is consistent and reports nothing.

It is deliberately conservative: a contrast needs a strong alignment (most of the claim's content
words in one context sentence), and where two context sentences align equally well, every one of
them must show it. A weakening ("some" where the context says "all") is not a contrast. Word
lists are closed-class English words and common antonym pairs, never the words of one example.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

from rt4chart_plugins.rules.facts import numbers
from rt4chart_plugins.rules.quantities import Quantity, comparable, quantities, supported
from rt4chart_plugins.rules.text import STOPWORDS

#: a Snowball stemmer keeps the word it is working on in itself, so each thread gets its own (the
#: trained judge verifies windows in worker threads; one shared stemmer raised IndexError)
_STEMMERS = threading.local()

_TOKEN = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*|\d+(?:[.,:]\d+)*%?|[,;]")
#: where a sentence divides into clauses; "and" alone joins noun phrases too often to cut at it
_CLAUSE_BREAK = re.compile(r"[,;:]\s+|\s+[–—]\s+|\s+(?=(?:but|while|whereas|although|though|yet|except)\s)",
                           re.IGNORECASE)
#: a claim's conjuncts and clauses ("has a sports hall and is open on public holidays", "had baked
#: professionally before she won") are also compared one by one
_CONJUNCT = re.compile(r",?\s+and\s+(?=(?:is|are|was|were|has|have|had|can|will|does|do)\b)"
                       r"|,\s+|\s+(?=(?:before|after|when|because|while|although|but)\s)", re.IGNORECASE)

NEGATORS = frozenset("not no never none nobody nothing neither nor cannot unable instead rather".split())
#: negators whose scope is the word after them ("not allowed", "no fee", "never closes"); a pronoun
#: ("nobody", "nothing") negates a verb further on, so it counts for polarity but never triggers
SCOPED_NEGATORS = frozenset("not no never instead rather".split())
#: verbs that negate the verb after their "to" ("failed to report" = "did not report")
_IMPLICATIVE = frozenset("fail fails failed refuse refuses refused declined declines".split())
#: quantifier classes: a claim that generalizes (ALL) what its clause restricts (SOME, ONLY) contradicts it
ALL = frozenset("all every everyone everybody everything anyone anybody always entire".split())
SOME = frozenset("some several few most many majority minority sometimes usually often mostly certain "
                 "partly".split())
ONLY = frozenset("only solely exclusively limited restricted".split())
#: modality classes: an obligation against an option or a recommendation changes what is required
MUST = frozenset("must required require requires requiring mandatory compulsory obligatory shall "
                 "enforce enforces enforced".split())
MAY = frozenset("may optional allowed permitted voluntary choose chooses".split())
SHOULD = frozenset("should recommended recommend recommends advised advise advises advisable encouraged "
                   "suggested".split())
_MODAL_VERBS = frozenset("must may should shall might can could".split())
#: subjects that stand for something named before ("It still cannot be flown")
_PRONOUNS = frozenset("it they he she this these".split())
_PRONOUN_QUANTIFIERS = frozenset("everyone everybody everything anyone anybody".split())

#: comparatives: "A is longer than B". Each row is (one pole's forms, the other pole's forms); read
#: only with a "than", since "more oxygen" or "a higher payload" compares nothing named
_COMPARATIVES: tuple[tuple[str, str], ...] = (
    ("more", "less fewer"), ("higher", "lower"), ("larger bigger greater", "smaller"), ("longer", "shorter"),
    ("taller", "shorter"), ("older", "younger newer"), ("faster", "slower"), ("heavier", "lighter"),
    ("cheaper", "dearer costlier pricier"), ("louder", "quieter"), ("warmer hotter", "colder cooler"),
    ("wider", "narrower"), ("stronger", "weaker"), ("better", "worse"), ("earlier", "later"),
)
#: other two-place relations, read without "than": "A before B" = "B after A", "A beat B"; a
#: sequence adverb ("A, and then B", "A; twenty minutes later B") is read as "before"
_RELATIONS: tuple[tuple[str, str], ...] = (
    ("before then afterwards subsequently", "after"),
    ("beat beats defeated defeat", "lost"), ("bought", "sold"),
)
#: one-place scales: "the museum is open" / "closed", "the longest trail" / "the shortest"; only
#: the opposite pole about the same thing contradicts
_STATES: tuple[tuple[str, str], ...] = (
    ("open", "closed shut"), ("increase increased increases rose rise rises risen grew grow grows",
                              "decrease decreased decreases fell fall falls fallen shrank shrink shrinks"),
    ("include included includes", "exclude excluded excludes"), ("accept accepted accepts", "reject rejected rejects"),
    ("allowed permitted", "forbidden prohibited banned"), ("north northern", "south southern"),
    ("east eastern", "west western"), ("inside indoors", "outside outdoors"), ("maximum", "minimum"),
    ("highest", "lowest"), ("largest biggest greatest", "smallest"), ("longest", "shortest"),
    ("tallest", "shortest"), ("oldest", "youngest newest"), ("fastest", "slowest"), ("heaviest", "lightest"),
    ("cheapest", "dearest"), ("loudest", "quietest"), ("warmest hottest", "coldest coolest"), ("best", "worst"),
    ("earliest", "latest"), ("true", "false"), ("present", "absent"),
)
_TIME_UNITS = frozenset("seconds minutes hours days weeks months years decades moment".split())
_PHRASAL = frozenset("look looks looked looking".split())  # "look after" is not about time


def _poles_of(rows: tuple[tuple[str, str], ...], offset: int) -> dict[str, list[tuple[int, int]]]:
    out: dict[str, list[tuple[int, int]]] = {}
    for axis, (plus, minus) in enumerate(rows, start=offset):
        for sign, forms in ((1, plus), (-1, minus)):
            for w in forms.split():
                out.setdefault(w, []).append((axis, sign))
    return out


_COMPARATIVE = _poles_of(_COMPARATIVES, 0)
_RELATION = _poles_of(_RELATIONS, len(_COMPARATIVES))
_STATE = _poles_of(_STATES, len(_COMPARATIVES) + len(_RELATIONS))
#: scale and modality words that also say what a sentence is about ("permitted", "closed",
#: "longer"): they count for alignment, never as the compared things
_LEXICAL = (frozenset(_COMPARATIVE) | frozenset(_RELATION) | frozenset(_STATE)
            | (MUST | MAY | SHOULD) - _MODAL_VERBS)
#: adverbs that say nothing about what is claimed ("it still cannot be flown")
_ADVERBS = frozenset("still already now even ever again yet just longer".split())
MARKERS = NEGATORS | ALL | SOME | ONLY | MUST | MAY | SHOULD | _LEXICAL | _ADVERBS | frozenset("can could than".split())
#: the share of the claim's words its aligned context sentence must hold: half, since a claim
#: often names what its context sentence calls "it"
MIN_ALIGNMENT = 0.5
MIN_SHARED = 2
#: how far a marker's scope reaches, in words
SCOPE = 3


@dataclass(frozen=True)
class Contrast:
    """The context sentence ``unit`` marks ``kind`` differently: it says ``said`` where the claim says ``claimed``."""

    kind: str
    unit: int
    said: str
    claimed: str

    def __str__(self) -> str:
        return f"{self.kind}: the context says \u201c{self.said}\u201d where the claim says \u201c{self.claimed}\u201d"


def tokens(text: str) -> list[str]:
    """Words, commas and semicolons, with contracted negations split off ("can't" → "can",
    "not"), case kept: a capitalized word inside a sentence is a name."""
    out: list[str] = []
    for t in _TOKEN.findall(text.replace("’", "'")):
        low = t.lower()
        if low.endswith("n't"):
            out += [{"won't": "will", "can't": "can", "shan't": "shall"}.get(low, t[:-3]), "not"]
        elif low == "cannot":
            out += [t[:3], "not"]
        else:
            out.append(t)
    return out


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """The Snowball (Porter 2) stem: "approved" meets "approve", "refunds" meets "refunded"."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word.lower())


def _is_content(token: str) -> bool:
    low = token.lower()
    return low not in STOPWORDS and low not in MARKERS and len(low) > 1


def content(toks: Sequence[str]) -> list[str]:
    """The words that say what a sentence is about: not function words, not the markers above."""
    return [_stem(t) for t in toks if _is_content(t)]


def _names(toks: Sequence[str]) -> list[str]:
    """Capitalized words after the first, and words with digits: the things a sentence compares."""
    return [_stem(t) for i, t in enumerate(toks)
            if _is_content(t) and ((i > 0 and t[:1].isupper()) or any(ch.isdigit() for ch in t))]


@dataclass
class _Span:
    """One sentence, clause or claim, read once."""

    unit: int
    text: str
    toks: list[str]
    low: list[str]
    words: set[str]  # content words
    keys: set[str]  # what it is aligned by: its content words and its scale and modality words


def _clauses(text: str) -> list[str]:
    cuts = [0] + [m.end() for m in _CLAUSE_BREAK.finditer(text)] + [len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]


def _span(unit: int, text: str) -> _Span:
    toks = tokens(text)
    low = [t.lower() for t in toks]
    words = set(content(toks))
    return _Span(unit, text.strip(), toks, low, words, words | {_stem(t) for t in low if t in _LEXICAL})


def _clause_of(low: Sequence[str], i: int) -> tuple[int, int]:
    """The token range of the clause (between commas or semicolons) around position ``i``."""
    a = max((k for k, t in enumerate(low[:i]) if t in ",;"), default=-1) + 1
    b = next((k for k in range(i, len(low)) if low[k] in ",;"), len(low))
    return a, b


_CONDITIONAL = frozenset("if unless whether until".split())


def _conditional(low: Sequence[str], i: int) -> bool:
    """Whether position ``i`` lies in an "if", "unless" or "until" clause, which asserts nothing."""
    a, _ = _clause_of(low, i)
    return any(t in _CONDITIONAL for t in low[a:i])


def _gerund(word: str) -> bool:
    """"brushing", "getting" (a stem shorter than the word), not "bring" or "thing"."""
    return word.endswith("ing") and _stem(word) != word


def _negators(low: Sequence[str]) -> list[int]:
    """Positions of the negators that count. "Not ... until" ("not plastered until approved" =
    "plastered only after"), "not only", "not just", a negated quantifier ("not all" = "some") and
    a negated gerund ("not brushing your teeth is bad") negate no statement; "failed to",
    "refused to" do."""
    out = []
    for i, t in enumerate(low):
        after = low[i + 1: i + 2]
        if (t == "rather" and after != ["than"]) or (t == "instead" and after != ["of"]) or _conditional(low, i):
            continue
        if t in _IMPLICATIVE and after == ["to"]:
            out.append(i)
        elif t in NEGATORS and not (t == "not" and ("until" in low[i + 1: i + 2 + SCOPE]
                                                    or after and (after[0] in ONLY | ALL | {"just"}
                                                                  or _gerund(after[0])))):
            out.append(i)
    return out


def _negated_at(span: _Span, j: int) -> bool:
    """Whether a negator of the same clause stands within :data:`SCOPE` words before position ``j``."""
    a, _ = _clause_of(span.low, j)
    return any(max(a, j - SCOPE - 1) <= k < j for k in _negators(span.low))


def _scope_word(span: _Span, i: int) -> int:
    """The position of the first word after ``i`` that says something (a content, scale or
    modality word), skipping auxiliaries; -1 when the clause ends first."""
    for k in range(i + 1, min(len(span.low), i + 2 + SCOPE)):
        t = span.low[k]
        if t in ",;":
            return -1
        if k == i + 1 and span.low[i] == "no" and t in ("longer", "one"):
            continue  # "no longer supports", "no one may operate"
        if _is_content(span.toks[k]) or t in _LEXICAL:
            return k
    return -1


def _subject(span: _Span, k: int) -> tuple[set[str], set[str]]:
    """(the content words of the clause before position ``k``, all the clause's words)."""
    a, b = _clause_of(span.low, k)
    return set(content(span.toks[a:k])), set(content(span.toks[a:b])) | {_stem(t) for t in span.low[a:b] if t in _LEXICAL}


def _same_subject(claim: _Span, i: int, sentence: _Span, j: int) -> bool:
    """Whether the claim's clause at ``i`` and the sentence's at ``j`` are about the same thing:
    one's subject is all in the other's clause, or the sentence's is a pronoun ("It still cannot
    be flown"). "White-tailed deer do not have a black tip" is not about "mule deer have a black tip"."""
    mine, my_clause = _subject(claim, i)
    theirs, their_clause = _subject(sentence, j)
    a, _ = _clause_of(sentence.low, j)
    # an empty subject stands for something named before when it is a pronoun, or when the clause
    # opens the sentence ("Cannot be flown in high winds."); not after a comma ("…, rather than branching")
    pronoun = bool(_PRONOUNS & set(sentence.low[a:j])) or a == 0
    return (not theirs and pronoun) or bool(mine) and mine <= their_clause or bool(theirs) and theirs <= my_clause


def _bears_on(toks: Sequence[str], i: int, *, before: bool = True) -> set[str]:
    """What the marker at ``i`` bears on: the words after it, and for an adjective or participle
    ("aprons are optional") also the words before it."""
    after = set(content(toks[i + 1: i + 1 + SCOPE]))
    if not before or toks[i].lower() in _MODAL_VERBS:
        return after
    return set(content(toks[max(0, i - SCOPE): i])) | after


def _first(low: Sequence[str], words: frozenset) -> int:
    return next((i for i, t in enumerate(low) if t in words), -1)


class Contrasts:
    """Every sentence of one context, split into clauses, ready to be compared with claims."""

    def __init__(self, units: Sequence[str]):
        self._units = list(units)
        self._amounts: tuple[list[Quantity], set, list[list[Quantity]]] | None = None
        # a question asserts nothing ("wouldn't one instructor have noticed?"): it has no words to align with
        self.sentences = [_span(i, "" if t.rstrip().endswith("?") else t) for i, t in enumerate(units)]
        self.clauses = [[_span(i, c) for c in _clauses(t)] for i, t in enumerate(units)]

    def find(self, claim: str) -> Contrast | None:
        """The contrast between ``claim`` (or one of its conjuncts) and the context sentence it
        aligns with, or None."""
        pieces = _CONJUNCT.split(claim)
        for text in [claim, *(pieces if len(pieces) > 1 else [])]:
            found = self._find(_span(-1, text))
            if found:
                return found
        return None

    def _find(self, mine: _Span) -> Contrast | None:
        shared = [len(mine.keys & s.keys) for s in self.sentences]
        best = max(shared, default=0)
        if best < MIN_SHARED or best < MIN_ALIGNMENT * len(mine.keys):
            return None
        found = [self._compare(mine, self.sentences[i], self.clauses[i]) for i, n in enumerate(shared) if n == best]
        # several sentences align equally well: each must show the contrast, or none is reported (on
        # RAGTruth train, reporting the first that shows one fired on 15 faithful sentences, against 8)
        return found[0] if found and all(found) else None

    def amounts(self) -> tuple[list[Quantity], set, list[list[Quantity]]]:
        """The context's quantities, its numbers, and each sentence's quantities, read once when
        a claim first states an amount."""
        if self._amounts is None:
            per_sentence = [quantities(t) for t in self._units]
            self._amounts = ([q for qs in per_sentence for q in qs], numbers("\n".join(self._units)), per_sentence)
        return self._amounts

    def _quantity(self, claim: _Span, sentence: _Span) -> Contrast | None:
        """An amount of the claim that the context states nowhere, where its aligned sentence
        states another amount of the same kind: "12 miles" against "12 kilometres", "40 million"
        against "a population of about 40,000", "elected mayor in 2018" against "in 2019". A count
        whose number the context has anywhere is left to the judge (it may be derived)."""
        mine = quantities(claim.text)
        if not mine:
            return None
        everywhere, known_numbers, per_sentence = self.amounts()
        theirs = per_sentence[sentence.unit] if 0 <= sentence.unit < len(per_sentence) else []
        bare = {c.value for c in everywhere if not c.unit}  # "35 to 40 for brown rice": the unit said once before
        for q in mine:
            if supported(q, everywhere) or q.value in bare or (not q.unit and q.value in {float(v) for v in known_numbers}):
                continue
            other = next((c for c in theirs if comparable(q, c)), None)
            if other is not None:
                return Contrast("quantity", sentence.unit, sentence.text, f"{q.text} (the context: {other.text})")
        return None

    def _compare(self, claim: _Span, sentence: _Span, clauses: list[_Span]) -> Contrast | None:
        found = _negation(claim, sentence)
        # quantifiers and modality are read clause by clause; each check also asks that the markers
        # of both sides bear on words the other side states
        candidates = [c for c in clauses if claim.keys & c.keys]
        for check in (_quantifier, _modality, _relation, _roles):
            found = found or next((r for c in candidates if (r := check(claim, c))), None)
        return found or _state(claim, sentence) or self._quantity(claim, sentence)


def _negation(claim: _Span, sentence: _Span) -> Contrast | None:
    """A word negated on one side and stated plainly on the other, with the same subject: "are not
    allowed to ride" against "are allowed to ride". Not "did not accept" against "rejected" (a
    paraphrase: "accept" is not in the context) nor "did not identify the suspect" against "the
    suspect was injured" (the negation bears on "identify")."""
    for negated, other in ((claim, sentence), (sentence, claim)):
        for i in _negators(negated.low):
            if negated.low[i] not in SCOPED_NEGATORS | _IMPLICATIVE:
                continue
            k = _scope_word(negated, i + (negated.low[i] in _IMPLICATIVE))
            if k < 0:
                continue
            w = _stem(negated.toks[k])
            plain = [j for j, u in enumerate(other.toks)
                     if _stem(u) == w and not _negated_at(other, j) and not _conditional(other.low, j)]
            if not plain or any(_negated_at(other, j) for j, u in enumerate(other.toks) if _stem(u) == w):
                continue
            at_claim, at_sentence = (k, plain[0]) if negated is claim else (plain[0], k)
            if not _same_subject(claim, at_claim, sentence, at_sentence):
                continue
            claimed = " ".join(negated.toks[i: k + 1]) if negated is claim else other.toks[plain[0]]
            return Contrast("negation", sentence.unit, sentence.text, claimed)
    return None


def _quantifier(claim: _Span, clause: _Span) -> Contrast | None:
    """The claim generalizes what the clause restricts ("anyone may park" / "only residents may
    park", "every apartment" / "most of the apartments"), or restricts what it generalizes. A
    weakening ("some" where the clause says "all") is not a contrast."""
    c_all, c_some, c_only = (bool(set(claim.low) & q) for q in (ALL, SOME, ONLY))
    k_all, k_some, k_only = (bool(set(clause.low) & q) for q in (ALL, SOME, ONLY))
    if c_all and not k_all and (k_some or k_only) and not (c_some or c_only):
        mine, theirs = _first(claim.low, ALL), _first(clause.low, SOME | ONLY)
    elif c_only and k_all and not k_only:
        mine, theirs = _first(claim.low, ONLY), _first(clause.low, ALL)
    else:
        return None
    if "of" in (claim.low[mine - 1: mine] + clause.low[theirs - 1: theirs]):
        return None  # "half of all defaults" is a share, not a generalization
    noun, their_noun = _scope_word(claim, mine), _scope_word(clause, theirs)
    if noun >= 0 and their_noun >= 0 and claim.low[mine] not in _PRONOUN_QUANTIFIERS \
            and _stem(claim.toks[noun]) not in set(content(clause.toks[theirs + 1:])):
        return None  # "all student loan defaults" / "only 13% of students" quantify different things
    # the claim's quantifier bears on the words right after it; the clause's restriction on the rest
    # of its clause ("only residents with a permit may park" restricts who may park)
    if _bears_on(claim.toks, mine, before=False) & clause.words and set(content(clause.toks[theirs + 1:])) & claim.words:
        return Contrast("quantifier", clause.unit, clause.text, claim.toks[mine])
    return None


def _modality(claim: _Span, clause: _Span) -> Contrast | None:
    """An obligation against an option or a recommendation, where both modals bear on what the
    other side states ("must submit" / "may submit", not "must wear goggles" / "aprons are optional")."""
    c = {name: _first(claim.low, q) for name, q in (("must", MUST), ("may", MAY | SHOULD))}
    k = {name: _first(clause.low, q) for name, q in (("must", MUST), ("may", MAY | SHOULD))}
    for mine, theirs in (("must", "may"), ("may", "must")):
        i, j = c[mine], k[theirs]
        if i < 0 or j < 0 or c[theirs] >= 0 or k[mine] >= 0:
            continue
        if _bears_on(claim.toks, i) & clause.words and _bears_on(clause.toks, j) & claim.words:
            return Contrast("modality", clause.unit, clause.text, claim.toks[i])
    return None


def _sides(toks: Sequence[str], pivot: int) -> tuple[list[str], list[str]]:
    """The words left and right of a relation word. Where the clause opens with "before" or
    "after" ("After the storm, staff lit candles"), what it introduces is its right side; in "more
    A than B", A and B stand either side of "than"."""
    low = [t.lower() for t in toks]
    left, right = list(toks[:pivot]), list(toks[pivot + 1:])
    if pivot == 0 and low[0] in ("before", "after") and "," in right:
        cut = right.index(",")
        left, right = right[cut + 1:], right[:cut]
    if "than" in low[pivot + 1:]:
        k = pivot + 1 + low[pivot + 1:].index("than")
        left, right = list(toks[:k]), list(toks[k + 1:])
    return left, right


def _order(claim: _Span, i: int, other: _Span, j: int) -> int:
    """+1 when the things on either side of position ``i`` of the claim stand on the same sides of
    position ``j`` of the other span, -1 when swapped, 0 when there is no telling (a side shares
    nothing with the other span). Names (capitalized words, words with digits) decide when every
    side has one, else all content words."""
    sides = [*_sides(claim.toks, i), *_sides(other.toks, j)]
    named = [set(_names(s)) for s in sides]
    left, right, their_left, their_right = named if all(named) else [set(content(s)) for s in sides]
    if not (left & (their_left | their_right) and right & (their_left | their_right)
            and their_left & (left | right) and their_right & (left | right)):
        return 0
    same = len(left & their_left) + len(right & their_right)
    swapped = len(left & their_right) + len(right & their_left)
    return (same > swapped) - (swapped > same)


def _voice(low: Sequence[str], i: int) -> int:
    """-1 when the relation word at ``i`` is a passive with its agent after it ("was beaten by"), else 1."""
    return -1 if "by" in low[i + 1: i + 3] else 1


def _polarity(span: _Span, i: int) -> int:
    """-1 when the clause around position ``i`` is negated."""
    a, b = _clause_of(span.low, i)
    return -1 if len(_negators(span.low[a:b])) % 2 else 1


def _poles(span: _Span) -> list[tuple[int, int, int]]:
    """(axis, sign, position) of every two-place scale word of the span: a comparative only with
    its "than"; "later" after a span of time ("twenty minutes later") as the sequence it implies."""
    out = []
    for i, t in enumerate(span.low):
        prev = span.low[i - 1] if i else ""
        if t in ("later", "earlier") and "than" not in span.low[i + 1:]:
            if prev in _TIME_UNITS or prev in ("and", "then"):
                out.append((_RELATION["before"][0][0], 1 if t == "later" else -1, i))
            continue
        if t in _COMPARATIVE and "than" not in span.low[i + 1:]:
            continue
        if t == "after" and prev in _PHRASAL:
            continue
        out += [(axis, sign, i) for axis, sign in _COMPARATIVE.get(t, []) + _RELATION.get(t, [])]
    return out


def _relation(claim: _Span, clause: _Span) -> Contrast | None:
    """A two-place scale word of the claim against the same scale in the clause: opposite poles
    with the compared things on the same sides, or the same pole with them swapped. A converse
    ("A is larger than B" / "B is smaller than A") is consistent; so is a passive ("B was beaten by A")."""
    mine = _poles(claim)
    for axis, sign, i in mine:
        if len({s for a, s, _ in mine if a == axis}) != 1:
            continue  # the claim uses both poles of this scale ("after steeping …, before swallowing")
        theirs = [(s, j) for a, s, j in _poles(clause) if a == axis]
        if len({s for s, _ in theirs}) != 1:
            continue  # the clause does not use this scale, or uses both of its poles
        their_sign, j = theirs[0]
        if claim.low[i + 1: i + 2] and claim.low[i + 1] == "than" and any(ch.isdigit() for ch in " ".join(claim.low[i + 2: i + 3])):
            continue  # "more than 500" is an amount
        order = _order(claim, i, clause, j)
        if not order:
            continue
        ours = sign * _voice(claim.low, i) * _polarity(claim, i)
        if (their_sign * _voice(clause.low, j) * _polarity(clause, j) == ours) != (order > 0):
            return Contrast("direction", clause.unit, clause.text, claim.toks[i])
    return None


def _state(claim: _Span, sentence: _Span) -> Contrast | None:
    """A one-place scale word of the claim whose opposite pole the sentence uses, about the same
    thing (words shared on the same side of it): "is open every day" / "is closed on Mondays"."""
    for i, t in enumerate(claim.low):
        for axis, sign in _STATE.get(t, []):
            theirs = {s: j for j, u in enumerate(sentence.low) for a, s in _STATE.get(u, []) if a == axis}
            if set(theirs) != {-sign}:
                continue
            j = theirs[-sign]
            if _polarity(claim, i) != _polarity(sentence, j):
                continue  # "did not accept" / "rejected"
            before = set(content(claim.toks[:i])) & set(content(sentence.toks[:j]))
            after = set(content(claim.toks[i + 1:])) & set(content(sentence.toks[j + 1:]))
            if before or after:
                return Contrast("opposite", sentence.unit, sentence.text, claim.toks[i])
    return None


def _phrase(toks: Sequence[str], i: int, step: int) -> set[str]:
    """The run of names nearest to position ``i`` in direction ``step``, within :data:`SCOPE` words."""
    out: set[str] = set()
    k = i + step
    while 0 <= k < len(toks) and abs(k - i) <= SCOPE + len(out):
        t = toks[k]
        if _is_content(t) and t[:1].isupper():  # a sentence's first word too: "Norcast acquired …"
            out.add(_stem(t))
        elif out or t in ",;":
            break
        k += step
    return out


def _roles(claim: _Span, clause: _Span) -> Contrast | None:
    """Who did what to whom: a word the claim and the clause share once each, with a name right
    before and right after it in both, and those names swapped in the same voice ("Crispen
    acquired Harborline" / "Harborline acquired Crispen"), or kept in another voice ("Harborline
    was acquired by Crispen"). Every such word must say so; one that agrees clears the claim."""
    verdicts = []
    for i, t in enumerate(claim.toks):
        if not _is_content(t) or t[:1].isupper() or any(ch.isdigit() for ch in t):
            continue
        where = [j for j, u in enumerate(clause.toks) if _stem(u) == _stem(t)]
        if len(where) != 1 or sum(_stem(u) == _stem(t) for u in claim.toks) != 1:
            continue
        j = where[0]
        left, right = _phrase(claim.toks, i, -1), _phrase(claim.toks, i, 1)
        their_left, their_right = _phrase(clause.toks, j, -1), _phrase(clause.toks, j, 1)
        if not (left and right and their_left and their_right):
            continue
        same = len(left & their_left) + len(right & their_right)
        swapped = len(left & their_right) + len(right & their_left)
        if same != swapped:
            verdicts.append((same > swapped) == (_voice(claim.low, i) == _voice(clause.low, j)))
    if verdicts and not any(verdicts):
        return Contrast("roles", clause.unit, clause.text, "who did what to whom")
    return None
