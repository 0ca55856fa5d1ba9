"""The ``openai`` judge on the embedded model served on loopback, against the same weights in-process.

Many users point the ``openai`` judge at a small model they serve themselves. This compares, on the
same rows, the embedded 1.5B model read two ways: through llama-cpp-python's OpenAI-compatible
server (:func:`rt4chart_lab.serving.llama_server`, started once per run by the
benchmark's ``endpoint``) with the ``openai`` judge, and in-process with the ``local`` judge. Both
are systems of ``rt4chart bench`` (``--systems openai-served,local``); :func:`served_metrics` adds
what the comparison is about to each system's scores: rows that failed, balanced accuracy of
hallucinated against faithful, how many faithful answers were flagged, and seconds a row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rt4chart_plugins.detector import Detector
from rt4chart_lab.serving import Endpoint
from rt4chart_plugins.verifier import Verifier

#: the systems this module adds, and the judge each reads the embedded model through
SERVED = {
    "openai-served": "the openai judge on the embedded 1.5B model served by llama_server on loopback "
    "(llama-cpp-python's OpenAI-compatible server)",
    "openai-served-premise": "the openai judge with read='premise' on the same server: the premise read's two "
    "Yes/No questions, off the endpoint's log probabilities",
    "local": "the embedded 1.5B model in-process (the local judge), one thread",
}


def served_verifier(name: str, endpoint: Callable[[], Endpoint], config: dict[str, Any]) -> Detector:
    """The verifier of one of :data:`SERVED`. No judge cache: each row's seconds are its own."""
    if name.startswith("openai-served"):
        ep = endpoint()
        options = {"base_url": ep.base_url, "model": ep.model, "api_key": ep.api_key, "cache": False,
                   "concurrency": 1, "timeout": 600.0}
        if name == "openai-served-premise":
            options["read"] = "premise"
        return Verifier("openai", judge_kwargs=options, **config)
    return Verifier("local", judge_kwargs={"n_threads": 1, "cache": False}, **config)


def _hallucinated(row: Any) -> bool:
    return bool(row.hallucinated)  # a minimal pair's and a RAGTruth row's gold


def served_metrics(rows: Sequence[Any], preds: dict[str, dict]) -> dict:
    """Failed rows, and over the rows scored: balanced accuracy (the mean of the share of
    hallucinated answers flagged and of faithful ones kept), accuracy, faithful answers flagged;
    and the median seconds a row. A row asked again without its question (``-noq``) is left out."""
    main = [r for r in rows if not str(r.id).endswith("-noq")]
    failed = [r for r in main if not (preds.get(r.id) or {}).get("ok")]
    scored = [(r, preds[r.id]) for r in main if (preds.get(r.id) or {}).get("ok")]
    hallucinated = [bool(p.get("hallucinated")) for r, p in scored if _hallucinated(r)]
    faithful = [bool(p.get("hallucinated")) for r, p in scored if not _hallucinated(r)]
    recall = sum(hallucinated) / len(hallucinated) if hallucinated else None
    kept = (len(faithful) - sum(faithful)) / len(faithful) if faithful else None
    seconds = sorted(float((p.get("cost") or {}).get("seconds") or 0.0) for _, p in scored)
    return {
        "rows": len(main),
        "failed": len(failed),
        "failed_share": len(failed) / len(main) if main else None,
        "balanced_accuracy": (recall + kept) / 2 if recall is not None and kept is not None else None,
        "accuracy": (sum(hallucinated) + len(faithful) - sum(faithful)) / len(scored) if scored else None,
        "faithful": len(faithful) + sum(1 for r in failed if not _hallucinated(r)),
        "faithful_flagged": sum(faithful),
        "seconds_median": seconds[len(seconds) // 2] if seconds else None,
        "seconds_total": sum(seconds),
    }


def served_table(results: dict[str, dict]) -> str:
    """The comparison as Markdown, one line per served system."""
    lines = ["| system | rows | failed | balanced accuracy | accuracy | faithful flagged | s/row (median) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, r in results.items():
        m = r.get("served")
        if not m:
            continue

        def f(x: float | None) -> str:
            return "–" if x is None else f"{x:.2f}"

        lines.append(f"| {name} | {m['rows']} | {m['failed']} | {f(m['balanced_accuracy'])} | {f(m['accuracy'])} "
                     f"| {m['faithful_flagged']} of {m['faithful']} | {f(m['seconds_median'])} |")
    return "\n".join(lines)
