"""Run one system over the selected rows and keep one prediction record per row.

Records are appended and flushed to ``results/<run>/<system>.jsonl`` as each row finishes, so an
interrupted run keeps what it did. A re-run skips the ids already recorded as ``ok`` and retries
the rows that failed (their old lines are dropped, never duplicated).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rt4chart_lab import jsonl
from rt4chart_plugins.types import Label, Report
from rt4chart_plugins.detector import Detector
from rt4chart_plugins.claims import clause_spans
from rt4chart_plugins.pipeline.aggregate import and_join
from rt4chart_plugins.pipeline.segment import segment_answer
from rt4chart_lab.bench.external import Endpoint, run_external
from rt4chart_lab.bench.systems import System


@dataclass
class RunStats:
    system: str
    total: int
    skipped: int  # already recorded by an earlier run
    ok: int
    failed: int


def _pair(span) -> list[int] | None:
    return [span.start, span.end] if span is not None else None


def record(row_id: str, report: Report) -> dict:
    """The prediction record of one row: what scoring needs, plus each claim's verdict for audit."""
    ok = report.state != "failed"
    probs = [c.probs.get(Label.ENT) for c in report.claims if c.judged and c.probs]
    claim_score = max((1.0 - p for p in probs if p is not None), default=None) if probs else None
    if report.state == "no_claims":  # a refusal or an empty answer: nothing in it is unsupported
        claim_score = 0.0
    claims = [{
        "id": c.id, "text": c.text, "label": c.label.value if c.label else None, "judged": c.judged,
        "span": _pair(c.answer_span), "phrase_span": _pair(c.phrase_span),
        "evidence": sorted({e.passage for e in c.evidence}),
        "evidence_sentence_ids": [e.sentence_id for e in c.evidence],
        "p_ent": c.probs.get(Label.ENT) if c.probs else None, "error": c.error,
        "grounding": c.grounding.model_dump() if c.grounding else None,
    } for c in report.claims]
    return {
        "id": row_id, "ok": ok, "error": report.error, "state": report.state,
        "label": report.label.value if report.label else None,
        "hallucinated": report.hallucinated,
        # higher = more likely hallucinated; GASP's risk is unbounded, which AUC does not mind
        "score": (report.risk if report.risk is not None else 1.0 - report.score) if ok else 0.0,
        "claim_score": claim_score,
        "sentence_scores": sentence_scores(report),
        "spans": [[s.start, s.end] for s in report.unfaithful_spans],
        "phrase_spans": [[s.start, s.end] for s in report.phrase_spans],
        # passage indices cited by any claim (WiCE: the passages are the context sentences)
        "evidence": sorted({e for c in claims for e in c["evidence"]}),
        "claims": claims,
        "cost": report.cost.model_dump(),
        # what the paper's naive loop would have called: one decomposition call per answer sentence,
        # one call per claim per window, one global call per claim
        "naive_calls": len(report.answer_sentences) + len(report.claims) * (len(report.windows) + 1)
        if report.method == "rt4chart" else None,
        "judge": report.judge,
        "notes": report.notes,
    }


def sentence_scores(report: Report) -> list[list[float]] | None:
    """``[start, end, score]`` per answer sentence that got a continuous score (higher = more
    likely hallucinated): GASP's risk, or 1 - P(ENT) of the sentence's least supported claim
    when the judge gives probabilities. None when the detector gives no such score; empty when
    the answer has no claim (a refusal), so that it neither counts nor hides the others."""
    if report.state == "no_claims":
        return []
    by_span: dict[tuple[int, int], float] = {}
    for c in report.claims:
        if c.answer_span is None or not c.judged:
            continue
        if c.grounding is not None:
            value = c.grounding.risk
        elif c.probs and c.probs.get(Label.ENT) is not None:
            value = 1.0 - c.probs[Label.ENT]
        else:
            continue
        key = (c.answer_span.start, c.answer_span.end)
        by_span[key] = max(value, by_span.get(key, value))
    return [[a, b, v] for (a, b), v in sorted(by_span.items())] or None


def floor_record(row_id: str, answer: str) -> dict:
    """The floor: every answer flagged, the whole answer as its span, no judge."""
    whole = [[0, len(answer)]] if answer else []
    return {"id": row_id, "ok": True, "error": None, "state": "verified", "label": "NIC", "hallucinated": True,
            "score": 1.0, "claim_score": None, "spans": whole, "phrase_spans": whole, "evidence": [],
            "claims": [{"id": 0, "text": answer, "label": "NIC", "judged": True, "span": whole[0] if whole else None,
                        "phrase_span": None, "evidence": [], "evidence_sentence_ids": [], "p_ent": None,
                        "error": None}],
            "cost": {"judge_calls": 0, "cache_hits": 0, "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0},
            "judge": "none", "notes": []}


def oracle_record(row) -> dict:
    """The ceiling of sentence- and clause-level verdicts: the answer sentences that overlap a gold
    span (``spans``) and their clauses that do (``phrase_spans``), labelled CON when a Conflict span
    touches them, else NIC. It shows how much span F1 a perfect detector loses to the granularity
    of its verdicts alone, since gold spans are phrases and a sentence is mostly faithful words."""
    claims, spans, phrases = [], [], []
    for k, s in enumerate(segment_answer(row.answer)):
        gold = [g for g in row.labels if g.overlaps(s.start, s.end)]
        label = "CON" if any(g.kind == "conflict" for g in gold) else "NIC" if gold else "ENT"
        if gold:
            spans.append([s.start, s.end])
            phrases += [[s.start + a, s.start + b] for a, b in clause_spans(s.text)
                        if any(g.overlaps(s.start + a, s.start + b) for g in gold)]
        claims.append({"id": k, "text": s.text, "label": label, "judged": True, "span": [s.start, s.end],
                       "phrase_span": None, "evidence": [], "evidence_sentence_ids": [],
                       "p_ent": 0.0 if gold else 1.0, "error": None})
    flagged = [c for c in claims if c["label"] != "ENT"]
    return {"id": row.id, "ok": True, "error": None, "state": "verified" if claims else "no_claims",
            "label": and_join([Label(c["label"]) for c in claims]).value,
            "hallucinated": bool(flagged), "score": len(flagged) / len(claims) if claims else 0.0,
            "claim_score": 1.0 if flagged else 0.0,
            "sentence_scores": [[*c["span"], 1.0 - c["p_ent"]] for c in claims],
            "spans": spans, "phrase_spans": phrases, "evidence": [], "claims": claims,
            "cost": {"judge_calls": 0, "cache_hits": 0, "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0},
            "judge": "none", "notes": ["reads the gold labels: a ceiling, not a detector"]}


def load_records(path: Path) -> dict[str, dict]:
    """Records by id; a line cut by an interruption is ignored; a later line for an id wins."""
    return {str(rec["id"]): rec for rec in jsonl.records(path)}


def _keep_ok(path: Path) -> set[str]:
    """Rewrite ``path`` with its ok records only; return their ids."""
    records = load_records(path)
    keep = {k: v for k, v in records.items() if v.get("ok")}
    if path.exists():
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text("".join(json.dumps(v) + "\n" for v in keep.values()), encoding="utf-8")
        tmp.replace(path)
    return set(keep)


def run_system(system: System, rows: Sequence, out_path: Path, *,
               make_verifier: Callable[[System], Detector] | None = None, concurrency: int = 1,
               progress: bool = True, endpoint: Callable[[], Endpoint] | None = None) -> RunStats:
    """Predict every row not yet recorded as ok. ``rows`` are dataset rows with ``id`` and
    ``verify_input()``; ``make_verifier`` builds the system's verifier (not called for the floor
    or when nothing is left to do)."""
    from tqdm import tqdm

    out_path.parent.mkdir(parents=True, exist_ok=True)
    done = _keep_ok(out_path)
    todo = [r for r in rows if r.id not in done]
    ok = failed = 0
    bar = tqdm(total=len(todo), desc=system.name, unit="row", disable=not progress)
    with open(out_path, "a", encoding="utf-8") as out:

        def write(rec: dict) -> None:
            nonlocal ok, failed
            out.write(json.dumps(rec) + "\n")
            out.flush()
            ok, failed = (ok + 1, failed) if rec["ok"] else (ok, failed + 1)
            bar.update(1)

        if system.floor:
            for r in todo:
                write(floor_record(r.id, r.verify_input()["answer"]))
        elif system.oracle:
            for r in todo:
                write(oracle_record(r))
        elif system.external and todo:
            assert endpoint is not None, "an external system needs an endpoint"
            ep = endpoint()
            for r in todo:
                data = r.verify_input()
                context = data["context"] if isinstance(data["context"], str) else "\n".join(data["context"])
                write(asyncio.run(run_external(system.name, ep, r.id, context, data.get("question"), data["answer"])))
        elif todo:
            assert make_verifier is not None, "an RT4CHART system needs make_verifier"
            verifier = make_verifier(system)
            verifier.verify_many([r.verify_input() for r in todo], concurrency=concurrency,
                                 on_result=lambda i, report: write(record(todo[i].id, report)))
    bar.close()
    return RunStats(system=system.name, total=len(rows), skipped=len(rows) - len(todo), ok=ok, failed=failed)
