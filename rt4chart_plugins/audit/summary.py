"""What the top of an audit says: how many rows, how many hallucinated, which labels, which rows
failed and why, which judge, what it cost, and how the scores spread.

Computed apart from the markup so that the numbers the page shows are tested as numbers.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from rt4chart_plugins.audit.rows import AuditRow
from rt4chart_plugins.types import Cost, Report

#: the histogram's bins over [0, 1] (answer scores); GASP's unbounded risks get bins over their range
BINS = 10
#: an input field groups the aggregates by default when it has 2 to this many values (task, model…)
MAX_GROUPS = 30


def fields_to_group(metas: Iterable[dict[str, str]]) -> list[str]:
    """The input fields worth a per-value aggregate: those with 2 to :data:`MAX_GROUPS` values."""
    values: dict[str, set[str]] = {}
    for meta in metas:
        for k, v in meta.items():
            values.setdefault(k, set()).add(v)
    return [k for k, vs in values.items() if 2 <= len(vs) <= MAX_GROUPS]


class Problem(BaseModel):
    """A row that failed or was only partly judged, with what went wrong."""

    id: str
    state: str
    error: str


class GroupStats(BaseModel):
    """The aggregate of the rows that share one value of an input field (a task, a model…)."""

    field: str
    value: str
    rows: int
    scored: int
    hallucinated: int
    mean_score: float | None
    claim_labels: dict[str, int]  # ENT / CON / NIC / unjudged

    @property
    def hallucinated_share(self) -> float | None:
        return self.hallucinated / self.scored if self.scored else None


class Summary(BaseModel):
    rows: int
    scored: int  # rows with a report that did not fail
    hallucinated: int
    answer_labels: dict[str, int]  # ENT / CON / NIC / none (no_claims)
    claim_labels: dict[str, int]  # ENT / CON / NIC / unjudged
    states: dict[str, int]
    problems: list[Problem]
    judges: dict[str, int]
    methods: dict[str, int]
    cost: Cost
    histogram: list[int]  # counts per bin
    histogram_range: tuple[float, float]
    histogram_of: str  # what was binned
    settings: dict[str, str] = Field(default_factory=dict)
    metrics: list[dict[str, Any]] = Field(default_factory=list)  # bench runs: one row per system
    groups: list[GroupStats] = Field(default_factory=list)  # per value of each grouping field

    @property
    def hallucinated_share(self) -> float | None:
        return self.hallucinated / self.scored if self.scored else None


def _scored(rows: list[AuditRow]) -> list[Report]:
    """The reports of the rows that were scored: a report that did not fail."""
    return [r.report for r in rows if r.ok and r.report is not None and r.report.state != "failed"]


def _claim_labels(rows: list[AuditRow]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for r in rows:
        for c in r.report.claims if r.report else []:
            counts[c.label.value if c.label and c.judged else "unjudged"] += 1
    return dict(counts)


def group_stats(rows: list[AuditRow], by: list[str]) -> list[GroupStats]:
    """Per value of each field of ``by``: rows, scored, hallucinated, mean score, claim labels."""
    out = []
    for name in by:
        members: dict[str, list[AuditRow]] = {}
        for r in rows:
            members.setdefault(r.meta.get(name, "(none)"), []).append(r)
        for value, group in sorted(members.items()):
            scored = _scored(group)
            scores = [rep.score for rep in scored if rep.score is not None]
            out.append(
                GroupStats(
                    field=name,
                    value=value,
                    rows=len(group),
                    scored=len(scored),
                    hallucinated=sum(1 for rep in scored if rep.hallucinated),
                    mean_score=sum(scores) / len(scores) if scores else None,
                    claim_labels=_claim_labels(group),
                )
            )
    return out


def summarize(
    rows: list[AuditRow],
    *,
    settings: dict[str, Any] | None = None,
    metrics: list[dict[str, Any]] | None = None,
    by: list[str] | None = None,
) -> Summary:
    """The numbers of the page's header. ``by``: the input fields to aggregate by (default: each
    field with 2 to :data:`MAX_GROUPS` values, such as ``task``)."""
    reports = [r.report for r in rows if r.report is not None]
    scored = _scored(rows)
    problems = []
    for r in rows:
        state = r.report.state if r.report else "failed"
        if not r.ok or state in ("failed", "partial"):
            unjudged = [str(c.id) for c in r.report.claims if not c.judged] if r.report else []
            error = (
                r.error
                or (r.report.error if r.report else None)
                or (f"claims {', '.join(unjudged)} unjudged" if unjudged else "no error given")
            )
            problems.append(Problem(id=r.id, state=state if r.ok else "failed", error=error))
    cost = Cost()
    for rep in reports:
        cost.add(rep.cost)
        cost.seconds += rep.cost.seconds
    gasp = bool(reports) and all(
        rep.method == "gasp" and rep.risk is not None for rep in reports if rep.state != "failed"
    )
    values = [value for value in (rep.risk if gasp else rep.score for rep in scored) if value is not None]
    lo, hi = (min(values, default=0.0), max(values, default=1.0)) if gasp else (0.0, 1.0)
    hist = [0] * BINS
    width = (hi - lo) or 1.0
    for v in values:
        hist[min(BINS - 1, max(0, int((v - lo) / width * BINS)))] += 1
    return Summary(
        rows=len(rows),
        scored=len(scored),
        hallucinated=sum(1 for rep in scored if rep.hallucinated),
        answer_labels=dict(Counter(rep.label.value if rep.label else "none" for rep in scored)),
        claim_labels=_claim_labels(rows),
        states=dict(Counter((r.report.state if r.report else "failed") if r.ok else "failed" for r in rows)),
        problems=problems,
        judges=dict(Counter(rep.judge or "unknown" for rep in reports)),
        methods=dict(Counter(rep.method for rep in reports)),
        cost=cost,
        histogram=hist,
        histogram_range=(lo, hi),
        histogram_of="answer risk (GASP; higher = less grounded)"
        if gasp
        else "answer score (share of claims entailed)",
        settings={str(k): v if isinstance(v, str) else json.dumps(v) for k, v in (settings or {}).items()},
        metrics=metrics or [],
        groups=group_stats(rows, fields_to_group(r.meta for r in rows) if by is None else by),
    )


def bench_context(results: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A bench run's settings (``run.json``) and metrics (``summary.json``) when ``results`` is a
    ``<system>.jsonl`` in a run directory; empty otherwise."""
    settings: dict[str, Any] = {}
    metrics: list[dict[str, Any]] = []
    run = results.parent / "run.json"
    if run.is_file():
        try:
            meta = json.loads(run.read_text(encoding="utf-8"))
            settings = {
                k: meta[k]
                for k in (
                    "dataset",
                    "subset",
                    "split",
                    "limit",
                    "judge",
                    "judge_kwargs",
                    "base_config",
                    "date",
                    "machine",
                )
                if meta.get(k) is not None
            }
        except (ValueError, AttributeError):
            settings = {"run.json": "unreadable"}
    path = results.parent / "summary.json"
    if path.is_file():
        try:
            systems = json.loads(path.read_text(encoding="utf-8")).get("systems", {})
            for name, body in systems.items():
                o = body.get("overall", {}) if isinstance(body, dict) else {}
                ans, span = o.get("answer") or {}, o.get("span") or {}
                metrics.append(
                    {
                        "system": name,
                        "n": o.get("n"),
                        "answer P": ans.get("precision"),
                        "answer R": ans.get("recall"),
                        "answer F1": ans.get("f1"),
                        "AUC": o.get("auc"),
                        "span F1": span.get("f1"),
                        "CON vs NIC": o.get("con_nic_balanced"),
                    }
                )
        except (ValueError, AttributeError):
            metrics = []
    return settings, metrics
