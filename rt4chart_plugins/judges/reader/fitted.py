"""The gate and the combination as fitted in the lab (``rt4chart fit-reader``), read from
:data:`FIT_FILE`, which ships in the wheel beside this module.

- **gate**: P(the trained verifier's supported-or-not verdict on this claim is wrong), over
  :data:`.features.GATE_FEATURES`. A claim whose P reaches ``gate_threshold`` is read.
- **support** and **conflict**: the verdict of a read claim, in the trained judge's form
  (:mod:`rt4chart_plugins.judges.trained.decision`): P(ENT) from both judges; of the rest, the
  share that is contradiction. ENT when P(ENT) reaches ``threshold``.
- **reader_support** and **reader_conflict**: the same from the embedded LLM's readings alone (and
  the premise's coverage), for ``judge="local"``'s premise read.

All three are fitted on labelled pairs from RAGTruth train, the ``extra/`` sets and their edits,
never on the minimal pairs, WiCE or RAGTruth test, which report them.
"""

from __future__ import annotations

import functools
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rt4chart_plugins.errors import ModelNotAvailable
from rt4chart_plugins.judges.reader import features
from rt4chart_plugins.judges.trained.decision import Logistic, split

FIT_FILE = Path(__file__).with_name("fitted.json")


class ReaderFit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gate: Logistic
    gate_threshold: float = Field(ge=0.0, le=1.0)
    support: Logistic
    conflict: Logistic
    threshold: float = Field(ge=0.0, le=1.0)
    reader_support: Logistic
    reader_conflict: Logistic
    reader: str = Field(description="the reader model the fit read (its name, as the reader reports it)")
    fitted_on: str = ""

    @model_validator(mode="after")
    def _known_features(self) -> ReaderFit:
        expected = (
            features.GATE_FEATURES,
            features.SUPPORT_FEATURES,
            features.CONFLICT_FEATURES,
            features.READER_SUPPORT_FEATURES,
            features.READER_CONFLICT_FEATURES,
        )
        found = (
            self.gate.features,
            self.support.features,
            self.conflict.features,
            self.reader_support.features,
            self.reader_conflict.features,
        )
        if found != expected:
            raise ValueError(f"a fit over {expected} was expected")
        return self

    def combined(self, support: list[float], conflict: list[float]) -> tuple[float, float, float]:
        """(P(ENT), P(CON), P(NIC)) of a read claim from both judges' support and conflict features."""
        return split(self.support.prob(support), self.conflict.prob(conflict))

    def reader_alone(self, support: list[float], conflict: list[float]) -> tuple[float, float, float]:
        """(P(ENT), P(CON), P(NIC)) from the embedded LLM's readings alone."""
        return split(self.reader_support.prob(support), self.reader_conflict.prob(conflict))


@functools.lru_cache(maxsize=4)
def load_fit(path: Path = FIT_FILE) -> ReaderFit:
    try:
        return ReaderFit.model_validate_json(path.read_text())
    except (OSError, ValueError) as exc:
        raise ModelNotAvailable(f"cannot read the reader's fit {path}: {exc}") from exc
