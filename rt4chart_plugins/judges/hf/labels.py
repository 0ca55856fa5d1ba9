"""What each output class of a Hugging Face verifier means, read from its own config.

Models order their classes as their authors trained them: ``cross-encoder/nli-deberta-v3-base``
has ``{0: contradiction, 1: entailment, 2: neutral}``, MoritzLaurer's DeBERTa NLI models
``{0: entailment, 1: neutral, 2: contradiction}``, a fact-checker ``{0: unsupported, 1: supported}``.
So no order is assumed: each ``id2label`` name is read (``entailment``, ``neutral``,
``contradiction``, ``supported``, ``not_entailment``, ...), and a model whose config says only
``LABEL_0``, ``LABEL_1`` (MiniCheck's classifiers) is refused until the ``labels`` option says what
they mean. A name that cannot be read is refused, never guessed.

Two kinds come out: **3-way** (ENT, CON, NIC: the model tells contradicted from baseless itself)
and **2-way** (ENT or not: the judge asks the trained verifier which of CON and NIC the rest is).
A model with one output (a consistency score) is 2-way, P(ENT) its sigmoid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rt4chart_plugins.errors import InvalidInput

#: the meanings a class may have: the three labels, or "not entailed" (a 2-way model's other class)
MEANINGS = ("ENT", "CON", "NIC", "NOT")

_NAMES = {
    "ENT": {"entailment", "entailed", "entails", "supported", "support", "supports", "consistent", "factual", "true"},
    "CON": {"contradiction", "contradicted", "contradicts", "contradictory", "refuted", "refutes", "false"},
    "NIC": {"neutral", "not_enough_info", "nei", "not_enough_information", "unverifiable", "baseless"},
    "NOT": {
        "not_entailment",
        "non_entailment",
        "not_entailed",
        "unsupported",
        "not_supported",
        "inconsistent",
        "not_consistent",
        "hallucinated",
        "hallucination",
    },
}

LabelsOption = Mapping[str, str] | Sequence[str] | None


@dataclass(frozen=True)
class LabelMap:
    """``meaning[i]``: what the model's class ``i`` means (one of :data:`MEANINGS`)."""

    meaning: tuple[str, ...]

    @property
    def three_way(self) -> bool:
        return set(self.meaning) == {"ENT", "CON", "NIC"}

    @property
    def index(self) -> dict[str, int]:
        return {m: i for i, m in enumerate(self.meaning)}


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def read_name(name: str) -> str | None:
    """The meaning of one class name (``"ENTAILMENT"``, ``"not-entailment"``), or None."""
    key = _key(name)
    if key.upper() in MEANINGS:
        return key.upper()
    return next((m for m, names in _NAMES.items() if key in names), None)


def label_map(id2label: Mapping[int, str] | None, num_labels: int, option: LabelsOption = None) -> LabelMap:
    """The meaning of each class of a model from its config's ``id2label`` and ``num_labels``,
    and the ``labels`` option when given: a list of meanings in class order
    (``["NOT", "ENT"]``), or a mapping from the config's names (``{"LABEL_0": "NOT", "LABEL_1":
    "ENT"}``) or from class indices to meanings. Each meaning is ENT, CON, NIC or NOT."""
    names = {int(k): str(v) for k, v in (id2label or {}).items()}
    if num_labels == 1:
        if option:
            raise InvalidInput("labels: a model with one output is a support score (P(ENT) its sigmoid); it takes none")
        return LabelMap(("ENT",))
    if option is None:
        meanings = [read_name(names.get(i, f"LABEL_{i}")) for i in range(num_labels)]
        if any(m is None for m in meanings):
            raise InvalidInput(
                f"cannot tell what the model's classes mean: its config names them "
                f"{[names.get(i, f'LABEL_{i}') for i in range(num_labels)]}; pass the labels option, "
                f"one of ENT, CON, NIC, NOT per class in order, e.g. labels={['NOT', 'ENT'][:num_labels]!r} "
                f"for a 2-way model whose class 1 is 'supported'"
            )
        return _checked([m for m in meanings if m is not None], names)
    if isinstance(option, str) or not isinstance(option, (Mapping, Sequence)):
        raise InvalidInput(f"labels: a list of meanings in class order or a mapping, not {option!r}")
    if isinstance(option, Mapping):
        by_name = {_key(v): i for i, v in names.items()}
        given: dict[int, str] = {}
        for k, v in option.items():
            i = k if isinstance(k, int) else by_name.get(_key(str(k)))
            if i is None and str(k).isdigit():
                i = int(str(k))
            if i is None or not 0 <= i < num_labels:
                raise InvalidInput(f"labels: the model has no class {k!r}; its classes are {names or num_labels}")
            given[i] = str(v)
        if len(given) != num_labels:
            raise InvalidInput(f"labels: give a meaning for each of the model's {num_labels} classes, not {len(given)}")
        raw = [given[i] for i in range(num_labels)]
    else:
        raw = [str(v) for v in option]
        if len(raw) != num_labels:
            raise InvalidInput(f"labels: the model has {num_labels} classes, the option names {len(raw)}")
    bad = [v for v in raw if v.strip().upper() not in MEANINGS]
    if bad:
        raise InvalidInput(f"labels: {bad} are not meanings; each class is one of {', '.join(MEANINGS)}")
    return _checked([v.strip().upper() for v in raw], names)


def _checked(meanings: list[str], names: dict[int, str]) -> LabelMap:
    """A set of meanings that makes a verdict: ENT, CON, NIC once each, or ENT and one "not"
    class (a 2-way model, its other class read as NOT whichever name it has)."""
    kinds = sorted(meanings)
    if kinds == ["CON", "ENT", "NIC"]:
        return LabelMap(tuple(meanings))
    if len(meanings) == 2 and meanings.count("ENT") == 1:
        return LabelMap(tuple("ENT" if m == "ENT" else "NOT" for m in meanings))
    raise InvalidInput(
        f"the classes {meanings} (config: {names}) make no verdict: a model needs ENT, CON and NIC once "
        f"each, or ENT and one other class"
    )
