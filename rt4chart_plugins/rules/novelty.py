"""What a claim adds: the content words of a claim that no sentence of its context holds, read by
lemma.

The number/name check (:mod:`.facts`) covers numbers and proper names. An answer invents more than
those: a thing ("priority email support"), a property ("unlimited storage"), an event, a place, a
time ("at night"). The trained encoder reads overlap ("free", "trial", "users") and scored
"The free trial lasts 14 days and includes unlimited storage." supported. These words are a signal
the judge's fitted decision reads beside the encoder (:mod:`rt4chart_plugins.judges.trained.decision`),
weighed by what training data says they mean, not a verdict on their own: a faithful paraphrase
adds words too ("you pay nothing" for "free").

A word is held by the context when one of its lemmas is a lemma of a context word ("bought" meets
"buys", "children" meets "child"), when the two share their Snowball stem, or, for longer words,
their first :data:`PREFIX` letters ("verification" meets "verified"). Amounts are the number
check's: a number, the unit or counted noun after it ("two weeks"), and a unit after "a", "an" or
"per" ("an hour") are not counted here, so "two weeks" for "14 days" adds nothing.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from pathlib import Path

import numpy as np

from rt4chart_plugins.rules.quantities import number_spans, unit_of
from rt4chart_plugins.text.english import CARDINALS
from rt4chart_plugins.text.lemmas import guessed_lemmas, lemmas
from rt4chart_plugins.text.words import STOPWORDS, stem

#: a word of this many letters or more meets a context word with the same first letters
PREFIX = 6
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
#: words too general to be content a claim adds: how answers refer to the context and to
#: themselves, and the usual adverbs of degree and sequence (closed classes, not topic words)
_GENERAL = frozenset(
    "according context passage passages text information article source sources document documents "
    "however therefore thus overall additionally furthermore moreover also well even still yet already "
    "currently generally usually typically often sometimes always never however indeed really "
    "one ones thing things way ways lot lots able "
    # amounts and quantifiers: the number check and the contrast rule read them
    "once twice half dozen hundred thousand million billion first second third every none nothing "
    "nobody anything something everything many several few much little less least".split()
)
_ARTICLE_UNIT = re.compile(r"\b(?:a|an|per|one)\s+([^\W\d_]+)", re.IGNORECASE)


#: how many documents each lemma occurs in (``rt4chart fit-rarity``, in the lab): a word a claim
#: adds weighs by how rare it is, so "give" or "provide" (a paraphrase's usual new words) weigh
#: less than "storage" or "refund"
RARITY_FILE = Path(__file__).with_name("word_rarity.json")
#: each lemma of the rarity table as a short static vector, in the table's order (int8, unit length x 127)
VECTORS_FILE = Path(__file__).with_name("word_vectors.npy")


@lru_cache(maxsize=1)
def _rarity() -> tuple[int, dict[str, int]]:
    table = json.loads(RARITY_FILE.read_text(encoding="utf-8"))
    return int(table["documents"]), table["df"]


def words_of(text: str) -> list[str]:
    """The alphabetic words of ``text``, lower-cased."""
    return [m.group().lower() for m in _TOKEN.finditer(text) if m.group().isalpha()]


@lru_cache(maxsize=65536)
def lemma_key(word: str) -> str:
    """One lemma that stands for ``word`` (the first in order of every lemma lemminflect gives it),
    under which the rarity table counts it."""
    found = lemmas(word.lower())
    return min(lemma for tagged in found.values() for lemma in tagged) if found else word.lower()


@lru_cache(maxsize=65536)
def rarity(word: str) -> float:
    """How rare ``word``'s lemma is in documents, in [0, 1]: log(N / df) over log(N); 1.0 for a word
    the table does not hold (seen in fewer than its ``min_df`` documents)."""
    n, df = _rarity()
    return math.log((n + 1) / (df.get(lemma_key(word), 0) + 1)) / math.log(n + 1)


@lru_cache(maxsize=1)
def _vectors() -> tuple[dict[str, int], np.ndarray]:
    """The rarity table's lemmas, each with its row of the vector table (unit length)."""
    _, df = _rarity()
    table = np.load(VECTORS_FILE).astype(np.float32) / 127.0
    return {key: i for i, key in enumerate(df)}, table


def vector(word: str) -> np.ndarray | None:
    """The static vector of ``word``'s lemma, or None for a lemma the table does not hold."""
    rows, table = _vectors()
    i = rows.get(lemma_key(word))
    return None if i is None else table[i]


@lru_cache(maxsize=65536)
def forms(word: str) -> frozenset[str]:
    """The lemmas of ``word`` (every part of speech lemminflect knows it as), its stem and, for a
    long word, its prefix: the keys under which it meets another form of itself."""
    low = word.lower().replace("’", "'")
    lemma_set = {lemma for tagged in lemmas(low).values() for lemma in tagged}
    if not lemma_set:
        lemma_set = {lemma for tagged in guessed_lemmas(low, "NOUN").values() for lemma in tagged}
    keys = {"w:" + low} | {"l:" + lemma for lemma in lemma_set} | {"s:" + stem(low)}
    keys |= {"s:" + stem(lemma) for lemma in lemma_set}
    if len(low) >= PREFIX + 1:
        keys.add("p:" + low[:PREFIX])
    return frozenset(keys)


def _amount_words(text: str) -> set[int]:
    """Character offsets of the words that belong to an amount: the number, the word after it
    (its unit or what it counts) and a unit after "a", "an", "per" or "one"."""
    starts: set[int] = set()
    for a, b in number_spans(text):
        starts.update(m.start() + a for m in _TOKEN.finditer(text[a:b]))
        after = _TOKEN.search(text, b)
        if after and after.start() - b <= 2:
            starts.add(after.start())
            # a unit's second word ("79 degrees Fahrenheit", "12 square metres"): a unit or a name
            following = _TOKEN.search(text, after.end())
            if following and following.start() - after.end() <= 1:
                if unit_of(following.group()) or following.group()[:1].isupper():
                    starts.add(following.start())
    for m in _ARTICLE_UNIT.finditer(text):
        if unit_of(m.group(1)):
            starts.add(m.start(1))
    return starts


def content_tokens(text: str) -> list[str]:
    """The words of ``text`` a claim can add: not function words, not general words, not numbers
    or the words of an amount, at least three letters."""
    skip = _amount_words(text)
    out = []
    for m in _TOKEN.finditer(text):
        low = m.group().lower().replace("’", "'")
        if (
            m.start() in skip
            or len(low) < 3
            or low in STOPWORDS
            or low in _GENERAL
            or low in CARDINALS
            or any(ch.isdigit() for ch in low)
            or "'" in low
        ):
            continue
        out.append(low)
    return out


class Lexicon:
    """The words of one context under every key of :func:`forms`, and the meanings of its content
    words (:func:`vector`), built once per context and asked about each claim."""

    def __init__(self, text: str):
        self.keys: set[str] = set()
        meanings: dict[str, np.ndarray] = {}
        for m in _TOKEN.finditer(text):
            word = m.group()
            self.keys |= forms(word)
            low = word.lower()
            if low not in meanings and low not in STOPWORDS and len(low) > 2 and (v := vector(low)) is not None:
                meanings[low] = v
        self._meanings = np.stack(list(meanings.values())) if meanings else np.zeros((0, 1), np.float32)

    def closest(self, word: str) -> float:
        """How close ``word``'s meaning comes to a content word of the context: the largest cosine,
        0.0 for a word with no vector or a context with none."""
        v = vector(word)
        if v is None or not len(self._meanings):
            return 0.0
        return float(max(0.0, (self._meanings @ v).max()))

    def weight(self, novel: list[str]) -> float:
        """The words a claim adds, each weighed by its :func:`rarity` and by how far its meaning is
        from every context word's: a rare word that means nothing the context says weighs most."""
        return sum(rarity(w) * (1.0 - self.closest(w)) for w in novel)

    def holds(self, word: str) -> bool:
        return not self.keys.isdisjoint(forms(word))

    def novel(self, claim: str) -> list[str]:
        """The content words of ``claim`` this context does not hold, in order, each once."""
        seen: dict[str, None] = {}
        for w in content_tokens(claim):
            if w not in seen and not self.holds(w):
                seen[w] = None
        return list(seen)


def novel_words(claim: str, context: str) -> list[str]:
    """The content words of ``claim`` that ``context`` does not hold (:class:`Lexicon`)."""
    return Lexicon(context).novel(claim)


def novelty(claim: str, novel: list[str]) -> float:
    """The share of the claim's content words that are new: 0.0 for a claim with none."""
    mine = set(content_tokens(claim))
    return len(set(novel) & mine) / len(mine) if mine else 0.0
