"""The natural-language-inference sets of the shared data (``nli/<set>/<split>.jsonl.gz``).

Two tables say what each split may be used for, following ``shared/data/README.md``:
:data:`TRAIN` lists the splits a shipped artifact may be trained on (with their licenses, which
the artifact's manifest records), :data:`REPORT` the splits that make an NLI number comparable
with published ones and are never trained on. A split in neither table is not read.

Labels become the verifier's: entailment → ENT (0), contradiction → CON (1), neutral → NIC (2)
for 3-way sets. In a 2-way set "neutral" means "not entailed" and includes contradictions, so it
becomes the partial label NOT_ENT (3), which the training loss spreads over CON and NIC.
"""

from __future__ import annotations

import gzip
import json
import random
from dataclasses import dataclass
from pathlib import Path

ENT, CON, NIC, NOT_ENT = 0, 1, 2, 3


@dataclass(frozen=True)
class NliSplit:
    folder: str
    split: str
    way: int  # 3: entailment / neutral / contradiction; 2: entailment / not
    kind: str  # "human" (written by people), "perturbed" (machine edits of human text), "templated"
    license: str
    cap: int | None = None  # at most this many rows a pass (templated sets must not crowd out the rest)
    repeat: float = 1.0  # passes per epoch of the mixture (small human sets are read more than once)

    @property
    def name(self) -> str:
        return f"{self.folder}/{self.split}"


_CURRICULUM = "MIT repo (eric11eca/curriculum-ling); underlying sources vary"
_CURRICULUM_3WAY = ("boolean", "comparative", "conditional", "control", "counting", "negation", "quantifier")
_CURRICULUM_2WAY = ("coreference", "hypernymy", "hyponymy", "lexical", "monotonicity_infer", "spatial",
                    "syntactic_alternation", "syntactic_variation", "temporal", "transitive", "verbnet")

#: what stage 1 may train on: every split whose use in the shared data's README is "train"
TRAIN: tuple[NliSplit, ...] = (
    NliSplit("snli", "dev", 3, "human", "CC BY-SA 4.0", repeat=2.0),
    NliSplit("taxinli", "train_from_mnli_train", 3, "human", "Computational Use of Data Agreement (MNLI text)",
             repeat=3.0),
    NliSplit("conjnli", "train_adversarial", 3, "perturbed", "MIT"),
    NliSplit("binary_fever_nli_docnli", "dev", 2, "human", "BSD-3 (DocNLI); FEVER text CC BY-SA 3.0"),
    NliSplit("binary_fever_nli_docnli", "test", 2, "human", "BSD-3 (DocNLI); FEVER text CC BY-SA 3.0"),
    NliSplit("scone", "train", 2, "templated", "CC0 1.0"),
    NliSplit("hans_regenerated", "train_like", 2, "templated", "MIT", cap=5000),
    *(NliSplit(f"curriculum_{t}", "train", 3, "templated", _CURRICULUM, cap=3000) for t in _CURRICULUM_3WAY),
    *(NliSplit(f"curriculum_{t}", "train", 2, "templated", _CURRICULUM, cap=2000) for t in _CURRICULUM_2WAY),
)

#: the NLI table's columns: (name, split, how it is scored); never trained on
REPORT: tuple[tuple[str, NliSplit, str], ...] = (
    ("MNLI dev (2-way)", NliSplit("binary_mnli_docnli", "dev", 2, "human", "report only"), "2way"),
    ("MNLI dev, TaxiNLI (3-way)", NliSplit("taxinli", "dev_from_mnli_dev", 3, "human", "report only"), "3way"),
    ("SNLI test (3-way)", NliSplit("snli", "test", 3, "human", "report only"), "3way"),
    ("SNLI test hard (3-way)", NliSplit("snli", "test_hard", 3, "human", "report only"), "3way"),
    ("negation, MNLI (3-way)", NliSplit("negation_nli", "test_mnli", 3, "human", "report only"), "3way"),
    ("negation, SNLI (3-way)", NliSplit("negation_nli", "test_snli", 3, "human", "report only"), "3way"),
    ("negation, RTE (2-way)", NliSplit("negation_nli", "test_rte", 2, "human", "report only"), "2way"),
    ("ScoNe test (2-way)", NliSplit("scone", "test", 2, "templated", "report only"), "2way"),
    ("ConjNLI dev (3-way)", NliSplit("conjnli", "dev", 3, "perturbed", "report only"), "3way"),
    *((f"Curriculum {t} val", NliSplit(f"curriculum_{t}", "val", 3, "templated", "report only", cap=500), "3way")
      for t in _CURRICULUM_3WAY),
    *((f"Curriculum {t} val", NliSplit(f"curriculum_{t}", "val", 2, "templated", "report only", cap=500), "2way")
      for t in _CURRICULUM_2WAY),
)


@dataclass(frozen=True)
class NliPair:
    premise: str
    hypothesis: str
    label: int  # ENT, CON, NIC or NOT_ENT
    set: str


def label_of(raw: str, way: int) -> int:
    if raw == "entailment":
        return ENT
    if raw not in ("neutral", "contradiction"):
        raise ValueError(f"unknown NLI label {raw!r}")
    if way == 2:
        return NOT_ENT
    return CON if raw == "contradiction" else NIC


def read_split(nli_dir: Path, split: NliSplit, *, rng: random.Random | None = None) -> list[NliPair]:
    """The rows of one split, in file order; ``split.cap`` keeps a random sample of that many
    (drawn with ``rng``, or a fixed seed when none is given, so that a report set is the same rows
    in every run)."""
    path = nli_dir / split.folder / f"{split.split}.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    pairs = [NliPair(r["premise"], r["hypothesis"], label_of(r["label"], split.way), split.name) for r in rows
             if r.get("premise") and r.get("hypothesis")]
    if split.cap is not None and len(pairs) > split.cap:
        pairs = (rng or random.Random(13)).sample(pairs, split.cap)
    return pairs


def training_mixture(nli_dir: Path, rng: random.Random, splits: tuple[NliSplit, ...] = TRAIN) -> list[NliPair]:
    """One epoch of stage 1: each split ``repeat`` times (the fraction drawn at random), capped
    templated sets sampled afresh, shuffled."""
    out: list[NliPair] = []
    for s in splits:
        rows = read_split(nli_dir, s, rng=rng)
        whole, part = divmod(s.repeat, 1.0)
        out += rows * int(whole) + rng.sample(rows, int(len(rows) * part))
    rng.shuffle(out)
    return out


def licenses(splits: tuple[NliSplit, ...] = TRAIN) -> dict[str, str]:
    """Each trained split with its license: what the artifact's manifest records."""
    return {s.name: s.license for s in splits}
