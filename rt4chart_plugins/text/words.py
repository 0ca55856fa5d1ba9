"""Words, defined once: how every rule, judge and comparison splits a text into words, which words
say nothing about a claim, and how two forms of one word meet.

Readers that need more than words keep their own pattern beside their job: the contrast reader
keeps commas, case and contracted negations; the amount and number readers read units, clock
times and number words.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

import snowballstemmer

#: function words that say nothing about what a sentence claims
STOPWORDS = frozenset(
    "a an the and or but if of to in on at by for from with as is are was were be been being it its "
    "this that these those there their they them he she his her him we our you your i me my not no "
    "do does did has have had will would can could should may might must also which who whom what "
    "when where why how than then so such about into over after before during while up out all any "
    "both each other some more most very just only own same too s t".split()
)

#: letters and digits of any script; the underscore divides ("take_out" is two words)
_WORD = re.compile(r"[^\W_]+")
#: the same, with a decimal or a clock time kept whole ("3.5", "10:30")
_WORD_OR_NUMBER = re.compile(r"[^\W_]+(?:[.:][0-9]+)*")


def words(text: str, *, numbers: bool = False) -> list[str]:
    """The words of ``text``, lower-cased, in order; with ``numbers``, "3.5" and "10:30" stay whole."""
    return (_WORD_OR_NUMBER if numbers else _WORD).findall(text.lower())


def content_words(text: str, *, numbers: bool = False) -> set[str]:
    """The words of ``text`` that are not :data:`STOPWORDS` (``numbers``: as :func:`words`)."""
    return {w for w in words(text, numbers=numbers) if w not in STOPWORDS}


#: a Snowball stemmer keeps the word it is working on in itself, so each thread gets its own (the
#: trained judge verifies windows in worker threads; one shared stemmer raised IndexError)
_STEMMERS = threading.local()


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball (Porter 2) stem: "approved" meets "approve", "refunds" meets "refunded".

    Porter 2 leaves a verb in -ify and its noun in -ification apart ("verifi" / "verif",
    "classifi" / "classif"); the noun is how a claim often negates what its context states with
    the verb ("no verification is needed" / "has been verified"), so the two are made to meet."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    out = stemmer.stemWord(word.lower())
    return out[:-1] if out.endswith("ifi") else out  # -ify, -ified, -ifies → the stem of -ification
