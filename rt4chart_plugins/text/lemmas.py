"""The lemmas of a word, as lemminflect gives them, with lemminflect loaded on the first word.

Loading lemminflect (its tables, and numpy with them) was a quarter of a second of ``import
rt4chart_plugins``, paid by every user, a guard that never reads a claim's verbs included. Claims
and the novelty rule ask here instead, and lemminflect loads when a first word is asked about.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType


@cache
def _lemminflect() -> ModuleType:
    import lemminflect

    return lemminflect


def lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """Every lemma of ``word`` lemminflect knows, by part of speech (``{"VERB": ("run",)}``);
    empty for a word out of its dictionary."""
    found: dict[str, tuple[str, ...]] = _lemminflect().getAllLemmas(word)
    return found


def guessed_lemmas(word: str, upos: str) -> dict[str, tuple[str, ...]]:
    """The lemma lemminflect guesses for a word out of its dictionary, read as part of speech ``upos``."""
    found: dict[str, tuple[str, ...]] = _lemminflect().getAllLemmasOOV(word, upos=upos)
    return found
