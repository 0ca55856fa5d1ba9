"""Yes/no fields of a structured context that a claim states the opposite of.

A business record says ``"HasTV": "False"``; the answer says "it has TVs for watching games". The
trained verifier reads such flips as supported more often than not (on the hand-written records dev
set it passed 4 of the 6 sentences that flip a yes/no attribute), because the claim and the field
share every content word. A string rule does not: find the fields whose name the claim mentions,
read whether the claim affirms or denies it, and compare with the value. The result names the field
and its value, so the verdict's reason can quote the record.

Only fields whose value is a yes/no (JSON ``true``/``false``, the strings ``"True"``/``"False"``,
or a Python-literal dict of them as Yelp stores parking and ambience) are read; a value of
``None`` or any other string means "unknown" and is left to the judge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rt4chart_plugins.text.english import split_camel

_NESTED = re.compile(r"'(\w+)'\s*:\s*(True|False)")
_TOKEN = re.compile(r"[a-z0-9]+")
#: words of a field name that say nothing about what the field is
_GENERIC = frozenset("attribute restaurant business has good for accept allowed is by only the a of".split())
#: what an answer says for a field name's word (singular forms; the claim's words are singularized too)
_SYNONYMS = {
    "kid": ("kid", "child", "children"),
    "tv": ("tv", "television"),
    "reservation": ("reservation", "reserve"),
    "delivery": ("delivery", "deliver", "delivers"),
    "cater": ("cater", "catering"),
    "dog": ("dog", "pet"),
    "takeout": ("takeout",),
    "ambience": ("ambience", "ambiance", "atmosphere", "vibe", "feel", "setting"),
    "meal": ("meal", "breakfast", "brunch", "lunch", "dinner", "dessert", "latenight"),
}
_NEGATION = frozenset("not no never without lack lacking neither nor cannot none nt".split())
#: words a sentence of yes/no attributes may use besides the fields' names (tokens as _tokens gives them)
_CONFIRM_WORDS = _NEGATION | frozenset(
    "it its is are the a an and or also both offer offers has have provide accept take serve allow welcome "
    "feature available doe do can there option their customer guest".split()
)  # "does" folds to "doe"
SHORT_FIELD_CHARS = 120  # a field this short (a name, categories) states facts; a review sentence tells a story
NEGATION_REACH = (
    5  # tokens before the field's name that a negation may sit in: "does not deliver or accept reservations"
)
_COPULAS = frozenset("is are was were".split())
#: "and"/"but" before one of these starts a new predicate, which a negation before it does not reach
_VERBS = frozenset("offer has is accept take serve allow provide welcome feature come".split())
#: where a negation stops applying: "offers takeout, but no delivery"
_CLAUSE = re.compile(
    r"[;.!?]|,?\s+\b(?:but|although|though|while|whereas|however|yet)\b|,\s+(?=it\b|they\b|the\b)"
    r"|,\s+(?=(?:and\s+)?(?:has|is|offers|accepts|takes|serves|allows|provides|welcomes|features|does|can)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RecordField:
    """A field of a structured record, quoted as evidence: one a claim contradicts or one that confirms it."""

    path: str  # "attributes.HasTV", "attributes.BusinessParking.garage", "hours.Friday"
    value: bool | str  # the record's value: a yes/no, or opening hours as it stores them ("11:0-22:0", see .hours)
    unit: int  # index of the context unit that holds the field

    def __str__(self) -> str:
        return f"{self.path}: {self.value}"


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word == "tvs" or (len(word) > 3 and word.endswith("s") and not word.endswith("ss")):
        return word[:-1]
    return word


def _tokens(text: str) -> list[str]:
    text = re.sub(r"\btake[\s-]?out\b", "takeout", text.lower())
    text = re.sub(r"\bfamily[\s-]friendly\b", "kid friendly", text)  # "family-owned" is not about kids
    text = re.sub(r"\blate[\s-]?night\b", "latenight", text)
    text = text.replace("n't", " nt")
    return [_singular(t) for t in _TOKEN.findall(text)]


def _name_words(name: str) -> list[str]:
    words = [w for w in _tokens(split_camel(name)) if w not in _GENERIC]
    return ["takeout" if w == "take" else w for w in words if w != "out" or "take" not in words]


@dataclass(frozen=True)
class _Field:
    path: str
    value: bool
    unit: int  # index of the context unit that holds it
    words: list[str]  # the words of its name that a claim must say
    parent: list[str]  # for a nested flag: one of these (its parent's name words) must be said too


def nested_flags(value: str) -> dict[str, bool]:
    """The flags of a Python-literal dict string, as Yelp stores them: ``"{'garage': False, ...}"``."""
    return {key: flag == "True" for key, flag in _NESTED.findall(value)}


def yes_no_fields(units: Sequence[str]) -> list[_Field]:
    """Every yes/no field among context units rendered ``path: value``."""
    out = []
    for i, unit in enumerate(units):
        path, sep, value = unit.partition(": ")
        if not sep:
            continue
        value = value.strip().strip("'\"")
        leaf = path.rsplit(".", 1)[-1]
        if value.lower() in ("true", "yes", "false", "no"):
            out.append(_Field(path, value.lower() in ("true", "yes"), i, _name_words(leaf), []))
        elif value.startswith("{"):
            parent = _name_words(leaf)
            for key, flag in nested_flags(value).items():
                out.append(_Field(f"{path}.{key}", flag, i, _name_words(key), parent))
    return out


def _find(words: list[str], tokens: list[str]) -> int | None:
    """Where the claim mentions a field name: the index of its first word, or None."""
    if not words:
        return None
    options = [_SYNONYMS.get(w, (w,)) for w in words]
    for start in range(len(tokens) - len(words) + 1):
        if all(tokens[start + k] in options[k] for k in range(len(words))):
            return start
    return None


def _mention(field: _Field, tokens: list[str]) -> tuple[int, list[int]] | None:
    """Where a clause names ``field``: the index of its name's first word, and the positions of
    its parent's words (a nested flag counts only with its parent named: "garage parking"); None
    when it does not."""
    at = _find(field.words, tokens)
    if at is None:
        return None
    parents = [i for i, t in enumerate(tokens) if any(t in _SYNONYMS.get(w, (w,)) for w in field.parent)]
    if field.parent and not parents:
        return None
    return at, parents


def _said_no(tokens: list[str], at: int, length: int) -> bool:
    """Whether the clause denies the field named at ``tokens[at : at + length]``: a negation before
    it ("does not deliver"), or a denying copula right after it ("dogs are not allowed")."""
    after = tokens[at + length : at + length + 2]
    return _negated(tokens[max(0, at - NEGATION_REACH) : at]) or (
        len(after) == 2 and after[0] in _COPULAS and after[1] in _NEGATION
    )


def _negated(before: list[str]) -> bool:
    negated = False
    for k, token in enumerate(before):
        if token in _NEGATION:
            negated = True
        elif token in ("and", "but") and k + 1 < len(before) and before[k + 1] in _VERBS:
            negated = False
    return negated


class _Postings:
    """Which of some token lists hold a word: the lists' indices, in order, by word."""

    def __init__(self, lists: Sequence[Sequence[str]]):
        self._holding: dict[str, list[int]] = {}
        for k, tokens in enumerate(lists):
            for token in dict.fromkeys(tokens):
                self._holding.setdefault(token, []).append(k)

    def holding(self, word: str) -> list[int]:
        """The lists that hold ``word`` or a synonym of it, as :func:`_find` reads a name's words."""
        return self._in(_SYNONYMS.get(word, (word,)))

    def stood_for(self, tokens: Sequence[str]) -> list[int]:
        """The lists that hold a word which one of ``tokens`` stands for: the word itself, or one
        whose synonyms it is among."""
        words = set(tokens)
        return self._in(words | {w for w, options in _SYNONYMS.items() if words & set(options)})

    def _in(self, words) -> list[int]:
        return sorted({k for w in words for k in self._holding.get(w, ())})


class YesNoFields:
    """The yes/no fields of one context, read once, against which many claims are checked.

    A "no" is not held against a claim that another short field states: Yelp files a business
    under "Breakfast & Brunch" while its ``GoodForMeal`` says ``'breakfast': False``."""

    def __init__(self, units: Sequence[str]):
        fields = yes_no_fields(units)
        flagged_units = {f.unit for f in fields}
        others = [
            _tokens(u) for i, u in enumerate(units) if fields and i not in flagged_units and len(u) <= SHORT_FIELD_CHARS
        ]
        # each field is looked for in the short fields that hold its name's first word, not in all of
        # them: a record of 2,000 yes/no fields among 2,000 short ones took 11 s, every pair compared
        holding = _Postings(others)
        self.fields = [
            f
            for f in fields
            if f.value
            or not (f.words and any(_find(f.words, others[k]) is not None for k in holding.holding(f.words[0])))
        ]
        self.name_words = {w for u in units if u.startswith("name: ") for w in _tokens(u[6:])}
        self._naming = _Postings([f.words[:1] for f in self.fields])  # first word of a name → the fields

    def _named(self, tokens: Sequence[str]) -> list[_Field]:
        """The fields, in order, whose name's first word (or a synonym) is one of ``tokens``: the
        only ones a clause of them can name."""
        return [self.fields[k] for k in self._naming.stood_for(tokens)]

    def confirmed(self, claim: str) -> list[RecordField] | None:
        """The fields that confirm a claim made of nothing but yes/no attributes, each as the record
        has it ("It offers takeout and delivery but does not take reservations"); None otherwise.

        Every clause must name at least one field with the record's polarity, and no word may be
        left besides the fields' names and :data:`_CONFIRM_WORDS` ("only accepts cash", "great for
        families" and "free WiFi" all leave one)."""
        if not self.fields:
            return None
        cited: list[RecordField] = []
        for clause in _CLAUSE.split(claim):
            tokens = _tokens(clause or "")
            if not tokens:
                continue
            covered: set[int] = set()
            named = False
            for field in self._named(tokens):
                mention = _mention(field, tokens)
                if mention is None:
                    continue
                at, parents = mention
                if _said_no(tokens, at, len(field.words)) == field.value:
                    return None  # says the opposite: contradicted() reports it
                named = True
                covered.update(range(at, at + len(field.words)), parents)
                covered.update(i for i in (at - 2, at - 1) if i >= 0 and tokens[i] in ("good", "for"))
                cited.append(RecordField(field.path, field.value, field.unit))
            left = [
                t
                for i, t in enumerate(tokens)
                if i not in covered and t not in _CONFIRM_WORDS and t not in self.name_words
            ]
            if not named or left:
                return None
        return list(dict.fromkeys(cited)) or None

    def contradicted(self, claim: str) -> list[RecordField]:
        """The fields whose value the claim states the opposite of."""
        if not self.fields:
            return []
        out: list[RecordField] = []
        clauses = [_tokens(c) for c in _CLAUSE.split(claim) if c and c.strip()]
        for field in self._named([t for tokens in clauses for t in tokens]):
            for tokens in clauses:
                mention = _mention(field, tokens)
                if mention is None:
                    continue
                at = mention[0]
                negated = _said_no(tokens, at, len(field.words))
                if negated == field.value:  # says no where the record says yes, or yes where it says no
                    out.append(RecordField(field.path, field.value, field.unit))
                break
        return out
