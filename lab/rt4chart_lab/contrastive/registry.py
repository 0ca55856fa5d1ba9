"""The edit-kind registry and what an edit may know about the context.

Each edit kind is a small function ``(sentence, info, rng) -> str | None`` registered with the
label its edit gives. The registering wrapper enforces the contract every kind must keep: the
result is tidied (only where the input was tidy, so that an edit never changes the spacing style
of the rest of the sentence, which would be a give-away cue), and a result equal to the input (up
to case and spacing) becomes None, so an edit can never emit its original under a new label.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import wraps

from rt4chart_plugins.pipeline.segment import segment_context

from .text import name_spans, same_text, tidy, tokens, words

_TRIVIAL_SLOT_WORDS = frozenset({"and", "or", "the", "a", "an", "but", "nor"})


@dataclass(frozen=True)
class ContextInfo:
    """What the edits may use about one context: its sentences, names and vocabulary.

    ``foreign`` holds sentences of *other* documents, the material of ``added_clause``: content
    that this context cannot support.
    """

    context: str
    sentences: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    #: name -> its neighbours in the context, "L:word" / "R:word", to swap only like for like.
    slots: Mapping[str, frozenset[str]] = field(default_factory=dict)
    words: frozenset[str] = frozenset()
    foreign: tuple[str, ...] = ()

    @classmethod
    def build(cls, context: str, *, foreign: Sequence[str] = ()) -> ContextInfo:
        units = [s.text for s in segment_context(context) if s.field is None]
        names: dict[str, None] = {}
        slots: dict[str, set[str]] = defaultdict(set)
        for unit in units:
            toks = tokens(unit)
            for span in name_spans(unit, toks):
                if span.initial and span.first == span.last:
                    continue  # one capitalized word opening a sentence proves nothing
                names.setdefault(span.text, None)
                before = toks[span.first - 1] if span.first > 0 else None
                after = toks[span.last + 1] if span.last + 1 < len(toks) else None
                if before is not None and before.is_word and before.low not in _TRIVIAL_SLOT_WORDS:
                    slots[span.text].add(f"L:{before.low}")
                if after is not None and after.is_word and after.low not in _TRIVIAL_SLOT_WORDS:
                    slots[span.text].add(f"R:{after.low}")
        lowered = {t.low for unit in units for t in tokens(unit) if t.is_word and t.text.islower()}
        # a one-word "name" that also occurs in lower case ("Internet"/"internet") is a common noun
        kept = [n for n in names if " " in n or n.lower() not in lowered]
        return cls(
            context=context,
            sentences=tuple(units),
            names=tuple(kept),
            slots={k: frozenset(v) for k, v in slots.items()},
            words=frozenset(words(context)),
            foreign=tuple(foreign),
        )

    def with_foreign(self, foreign: Sequence[str]) -> ContextInfo:
        return replace(self, foreign=tuple(foreign))


EditFn = Callable[[str, ContextInfo, random.Random], "str | None"]


@dataclass(frozen=True)
class EditKind:
    name: str
    label: str  # the label an applied edit gives: CON or NIC
    fn: EditFn


EDIT_KINDS: dict[str, EditKind] = {}


def edit_kind(name: str, label: str) -> Callable[[EditFn], EditFn]:
    """Register an edit kind; the registered function never returns its input unchanged."""

    def register(fn: EditFn) -> EditFn:
        @wraps(fn)
        def checked(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
            if not sentence or not sentence.strip():
                return None
            out = fn(sentence, info, rng)
            if out is None:
                return None
            out = tidy(out, like=sentence)
            if not out or same_text(out, sentence):
                return None
            return out

        EDIT_KINDS[name] = EditKind(name, label, checked)
        return checked

    return register


def pick(rng: random.Random, candidates: Sequence):
    """One candidate, or None when there is none."""
    return rng.choice(list(candidates)) if candidates else None
