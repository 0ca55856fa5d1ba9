"""Synthetic minimal pairs: a sentence the context supports, and edits of it the context does not.

Real contradictions are scarce in the training sets and come with heavy word overlap, so a
cross-encoder can learn "overlap means entailed". Minimal pairs break that shortcut: the original
(ENT) and each edit (CON or NIC, by edit kind) share almost every word and sit in one group, so a
group-wise split never puts a sentence in training and its twin in validation.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from . import kinds_lexical, kinds_structure, kinds_values  # noqa: F401  (register the kinds)
from .example import Example
from .registry import EDIT_KINDS, ContextInfo, EditKind
from .rows import is_claim
from .text import as_clause, same_text

Item = tuple[str, str, "str | None", str]  # (group, context, question, faithful sentence)
FOREIGN_SAMPLE = 12


#: Draw weights of the seeded kind order. The generic kinds apply to nearly every sentence; in a
#: plain shuffle they would take most of the ``per_item`` places, and the specific kinds (which
#: apply rarely, and teach the most) would almost never be kept.
KIND_WEIGHTS = {
    "negation": 1.0, "added_clause": 0.7, "causal_link": 0.7, "comparative": 1.5, "number": 1.5,
    "quantifier": 2.0, "date": 2.0, "entity_swap": 2.0, "unit": 3.0, "modality": 3.0, "time": 3.0,
    "role_swap": 4.0, "event_order": 4.0,
}


def seeded_order(options: list[EditKind], rng: random.Random) -> list[EditKind]:
    """A weighted random order (Efraimidis-Spirakis keys): heavier kinds tend to come first."""
    keyed = [(rng.random() ** (1.0 / KIND_WEIGHTS.get(k.name, 1.0)), k.name, k) for k in options]
    return [k for _, _, k in sorted(keyed, key=lambda t: (-t[0], t[1]))]


def kinds() -> list[EditKind]:
    """Every registered edit kind, by name."""
    return [EDIT_KINDS[name] for name in sorted(EDIT_KINDS)]


def edit_pairs(
    items: Iterable[Item], *, seed: int = 0, per_item: int = 2
) -> list[tuple[str, Example]]:
    """(faithful sentence, example) for every example :func:`edit_examples` returns."""
    todo: list[Item] = []
    seen_items: set[tuple[str, str]] = set()
    for group, context, question, sentence in items:
        sentence, context = (sentence or "").strip(), (context or "").strip()
        if not context or not is_claim(sentence) or (group, sentence) in seen_items:
            continue
        seen_items.add((group, sentence))
        todo.append((group, context, question, sentence))
    pool = [(g, s) for g, _, _, s in todo if as_clause(s) is not None]
    infos: dict[str, ContextInfo] = {}
    out: list[tuple[str, Example]] = []
    all_kinds = kinds()
    for group, context, question, sentence in todo:
        rng = random.Random(f"{seed}|{group}|{sentence}")
        if context not in infos:
            infos[context] = ContextInfo.build(context)
        picks = rng.sample(pool, min(len(pool), FOREIGN_SAMPLE)) if pool else []
        info = infos[context].with_foreign([s for g, s in picks if g != group])
        base = dict(context=context, question=question or None, group=group)
        out.append((sentence, Example(claim=sentence, label="ENT", source="edit/original", **base)))
        order = seeded_order(all_kinds, rng)
        made: list[str] = [sentence]
        for kind in order:
            if len(made) > per_item:
                break
            text = kind.fn(sentence, info, rng)
            if text is None or any(same_text(text, m) for m in made):
                continue
            made.append(text)
            out.append((sentence, Example(claim=text, label=kind.label, source=f"edit/{kind.name}", **base)))
    return out


def edit_examples(
    items: Iterable[Item], *, seed: int = 0, per_item: int = 2
) -> list[Example]:
    """For each (group, context, question, faithful sentence): the original as ENT, then up to
    ``per_item`` edits (kinds tried in a seeded order, those that apply kept), labelled by kind."""
    return [ex for _, ex in edit_pairs(items, seed=seed, per_item=per_item)]
