"""Added-fact pairs: a faithful sentence with something its context lacks, and the faithful
readings beside it, built as the trained judge reads them.

An answer's commonest hallucination adds a fact: a thing ("and includes unlimited storage"), a
property ("the premium trial"), a place ("in Denver"), a time ("on Sundays") or an event (a
clause of another document). Each edit here takes a supported RAGTruth sentence and adds one, with
words drawn from other documents so that they are real: the result is NIC. Beside them stand the
readings of faithful sentences that also carry new words (their clauses read alone with their
sentence's subject, as :func:`rt4chart_plugins.claims.with_subject` reads them): ENT, so that a
new word alone is not taken for an added fact.

The decision (``rt4chart train-verifier --refit``) is fitted on these pairs beside the held-out
sentences; the encoder is not trained on them. Only held-out sources are edited, and their words
come from other held-out sources' documents.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

from lemminflect import getAllLemmas

from rt4chart_plugins.claims import carries_no_claim, clause_spans, with_subject
from rt4chart_plugins.text.words import STOPWORDS
from rt4chart_plugins.rules.novelty import Lexicon

#: the kinds of added fact, each a function of (sentence, pool, rng) → the edited sentence or None
KINDS = ("thing", "property", "place", "time", "event")
_DET_NP = re.compile(r"\b(?:the|a|an|its|their|his|her|our)\s+((?:[a-z]+[- ]){0,2}[a-z]{4,})\b")
_PLACE = re.compile(r"\b(?:in|at|near|from)\s+((?:[A-Z][a-z]+)(?:\s+[A-Z][a-z]+)?)\b")
_TIME = re.compile(
    r"\b((?:on|every|by|since|until|in)\s+(?:(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?"
    r"|(?:January|February|March|April|May|June|July|August|September|October|November|December)(?:\s+\d{4})?"
    r"|(?:19|20)\d\d|the (?:morning|evening|afternoon|weekend)s?)|at night|last (?:year|month|week)"
    r"|next (?:year|month|week))\b"
)
_LEADING_JOINER = re.compile(r"^(?:(?:and|but|or|so|while|which|who|as|because)\b\s*)+", re.IGNORECASE)
#: how answers speak of their sources: not a fact to add
_META = frozenset("given provided following above passage passages answer summary article text question".split())
_THING_VERBS = ("includes", "comes with", "offers", "also has", "also provides")
_DETERMINER = re.compile(r"\b(the|a|an)\s+(?=[a-z]{4,}\b)")


class Pool:
    """Words of other documents to add: noun phrases, adjectives, places, times, clauses."""

    def __init__(self, sentences: list[str]):
        self.phrases: list[str] = []
        self.adjectives: list[str] = []
        self.places: list[str] = []
        self.times: list[str] = []
        self.clauses: list[str] = []
        for s in sentences:
            self.phrases += [m.group(1) for m in _DET_NP.finditer(s) if _noun_phrase(m.group(1))]
            self.places += [m.group(0) for m in _PLACE.finditer(s) if m.start() > 0]
            self.times += [m.group(1) for m in _TIME.finditer(s)]
            self.adjectives += [w for w in re.findall(r"\b[a-z]{5,}\b", s) if set(getAllLemmas(w)) == {"ADJ"}]
            parts = [_LEADING_JOINER.sub("", p.strip()) for p in s.rstrip(".!?").split(",")]
            if len(parts) > 1 and 4 <= len(parts[-1].split()) <= 14 and parts[-1][:1].islower():
                self.clauses.append(parts[-1])


def _noun_phrase(words: str) -> bool:
    """Content words ending in a noun: "annual budget", not "given passages" or "following way"."""
    parts = words.replace("-", " ").split()
    return (
        not any(w in STOPWORDS or w in _META for w in parts)
        and "NOUN" in getAllLemmas(parts[-1])
        and "VERB" not in getAllLemmas(parts[0]).keys() - {"NOUN", "ADJ"}
    )


def _new(words: str, lexicon: Lexicon) -> bool:
    """Whether ``words`` add a content word the context does not hold: an edit that adds nothing
    new is not an added fact."""
    return bool(lexicon.novel(words))


def _body(text: str) -> str:
    return text.rstrip().rstrip(".!?;:,")


def add_thing(text: str, pool: Pool, lexicon: Lexicon, rng: random.Random) -> str | None:
    options = [p for p in rng.sample(pool.phrases, min(12, len(pool.phrases))) if _new(p, lexicon)]
    if not options:
        return None
    article = "an" if options[0][0] in "aeiou" else "a"
    return f"{_body(text)} and {rng.choice(_THING_VERBS)} {rng.choice([article, 'the'])} {options[0]}."


def add_property(text: str, pool: Pool, lexicon: Lexicon, rng: random.Random) -> str | None:
    spots = list(_DETERMINER.finditer(text))
    options = [a for a in rng.sample(pool.adjectives, min(12, len(pool.adjectives))) if _new(a, lexicon)]
    if not spots or not options:
        return None
    at = rng.choice(spots).end()
    adjective = options[0]
    edited = text[:at] + adjective + " " + text[at:]
    return re.sub(r"\ba (?=[aeiou])", "an ", edited, count=1) if edited[at - 2 : at] == "a " else edited


def add_place(text: str, pool: Pool, lexicon: Lexicon, rng: random.Random) -> str | None:
    options = [p for p in rng.sample(pool.places, min(12, len(pool.places))) if _new(p, lexicon)]
    return f"{_body(text)} {options[0]}." if options else None


def add_time(text: str, pool: Pool, lexicon: Lexicon, rng: random.Random) -> str | None:
    options = [t for t in rng.sample(pool.times, min(12, len(pool.times))) if _new(t, lexicon)]
    return f"{_body(text)} {options[0]}." if options else None


def add_event(text: str, pool: Pool, lexicon: Lexicon, rng: random.Random) -> str | None:
    options = [c for c in rng.sample(pool.clauses, min(12, len(pool.clauses))) if _new(c, lexicon)]
    if not options:
        return None
    clause = options[0]
    return f"{_body(text)}, and {clause[0].lower()}{clause[1:]}."


EDITS: dict[str, Callable[[str, Pool, Lexicon, random.Random], str | None]] = {
    "thing": add_thing,
    "property": add_property,
    "place": add_place,
    "time": add_time,
    "event": add_event,
}


def readings(sentence: str, lexicon: Lexicon) -> Iterator[str]:
    """What the trained judge reads of a sentence: the sentence, and each of its clauses that adds
    a word its context lacks, with the sentence's subject."""
    yield sentence
    spans = clause_spans(sentence)
    if len(spans) > 1:
        for a, b in spans:
            clause = sentence[a:b]
            if lexicon.novel(clause):
                yield with_subject(sentence, clause)


def added_facts(text: str, context: str, pool: Pool, rng: random.Random, per_sentence: int) -> Iterator[tuple[str, str, int]]:
    """(kind, claim, label) pairs for one supported sentence: up to ``per_sentence`` edits that add a
    fact (each read as the judge reads it: the edited sentence, and its added clause alone, NIC),
    and the faithful sentence's own clause readings that carry new words (ENT)."""
    if carries_no_claim(text) or text.rstrip().endswith(":") or len(text.split()) < 5:
        return
    lexicon = Lexicon(context)
    for reading in list(readings(text, lexicon))[1:]:
        yield "faithful-clause", reading, 0
    for kind in rng.sample(KINDS, min(per_sentence, len(KINDS))):
        edited = EDITS[kind](text, pool, lexicon, rng)
        if not edited:
            continue
        spans = clause_spans(edited)
        yield kind, edited, 2
        if len(spans) > 1:
            a, b = spans[-1]
            clause = edited[a:b]
            if lexicon.novel(clause) and not text.startswith(clause):
                yield kind + "-clause", with_subject(edited, clause), 2
