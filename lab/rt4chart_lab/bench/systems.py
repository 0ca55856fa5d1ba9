"""The systems a benchmark compares: RT4CHART configurations, GASP scorers, the frameworks' own
metrics, the hidden-state readout, the floor and the ceiling.

Every RT4CHART system uses the same judge (the one chosen on the command line); only pipeline
knobs differ, so a row of the table isolates what that knob buys. GASP systems use no judge; the
readout systems always read the embedded 1.5B judge (their probe is fitted to its hidden state).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rt4chart_plugins.errors import InvalidInput
from rt4chart_lab.bench.external import EXTERNAL
from rt4chart_lab.bench.served import SERVED


@dataclass(frozen=True)
class System:
    name: str
    description: str
    config: dict[str, Any] = field(default_factory=dict)  # PipelineConfig overrides
    floor: bool = False  # no judge: flags every answer, whole answer as the span
    oracle: bool = False  # no judge: reads the gold labels, flags exactly the sentences and clauses they touch
    external: bool = False  # not RT4CHART: run through an OpenAI-compatible endpoint (bench/external.py)
    gasp_model: str | None = None  # GASP with this scorer instead of RT4CHART (no judge)
    readout_model: str | None = None  # the hidden-state readout of this judge instead of RT4CHART
    prompt_only: bool = False  # with readout_model: the judge's own P(Yes) from the same pass
    served: bool = False  # bench/served.py: the embedded model through the openai judge and its server, or in-process

    def pipeline_config(self, dataset: str, base: dict[str, Any] | None = None) -> dict[str, Any]:
        cfg = {**(base or {}), **self.config}
        if dataset == "wice":  # a WiCE claim is verified as a one-claim answer
            cfg["decomposition"] = "sentence"
        return cfg


SYSTEMS: dict[str, System] = {s.name: s for s in (
    System("rt4chart", "RT4CHART defaults: LLM decomposition, local windows + global verification"),
    System("rt4chart-no-global", "RT4CHART without the global verification pass", {"global_verification": False}),
    System("rt4chart-sentence", "RT4CHART with one claim per answer sentence (no LLM decomposition)",
           {"decomposition": "sentence"}),
    System("gasp", "GASP with the default scorer (SmolLM2-135M-Instruct), K=5, label-free decision",
           gasp_model="smollm2-135m"),
    System("gasp-qwen0.5b", "GASP with Qwen2.5-Coder-0.5B-Instruct as the scorer", gasp_model="qwen2.5-coder-0.5b"),
    System("gasp-qwen1.5b", "GASP with Qwen2.5-Coder-1.5B-Instruct as the scorer", gasp_model="qwen2.5-coder-1.5b"),
    System("readout", "hidden-state readout of the embedded judge (Qwen2.5-Coder-1.5B): one KV-cached pass per "
           "answer sentence, linear probe on the verdict position", readout_model="qwen2.5-coder-1.5b"),
    System("judge-yes", "the embedded judge's own P(Yes) from the readout's pass (prompt only, threshold fitted on "
           "train rows)", readout_model="qwen2.5-coder-1.5b", prompt_only=True),
    System("flag-all", "floor: flags every answer as hallucinated, the whole answer as the span", floor=True),
    System("oracle", "ceiling, not a detector: reads the gold labels and flags exactly the answer sentences (span) "
           "and clauses (phrase) that overlap a gold span", oracle=True),
    *(System(name, description, external=True) for name, (description, _) in EXTERNAL.items()),
    *(System(name, description, served=True) for name, description in SERVED.items()),
)}

DEFAULT_SYSTEMS = {"ragtruth": ["rt4chart", "rt4chart-no-global", "rt4chart-sentence", "flag-all"],
                   "wice": ["rt4chart", "rt4chart-no-global", "flag-all"],
                   "pairs": ["rt4chart", "flag-all"],
                   "first-user": ["rt4chart", "flag-all"]}


def select(names: str | None, dataset: str) -> list[System]:
    """Systems from a comma-separated list of names (the dataset's defaults when None)."""
    wanted = [n.strip() for n in names.split(",") if n.strip()] if names else DEFAULT_SYSTEMS[dataset]
    unknown = [n for n in wanted if n not in SYSTEMS]
    if unknown:
        raise InvalidInput(f"unknown system(s) {', '.join(unknown)}; known: {', '.join(SYSTEMS)}")
    if dataset in ("wice", "pairs", "first-user") and "oracle" in wanted:
        kind = {"wice": "WiCE", "pairs": "minimal-pair", "first-user": "first-user"}[dataset]
        raise InvalidInput(f"the oracle reads RAGTruth-style span labels; {kind} rows have none")
    return [SYSTEMS[n] for n in dict.fromkeys(wanted)]
