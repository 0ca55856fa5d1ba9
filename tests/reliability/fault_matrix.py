"""The fault matrix: every way an OpenAI-compatible judge endpoint misbehaves, through
``Verifier.verify_many``, with what comes out.

``python tests/reliability/fault_matrix.py`` prints the table quoted in docs/reliability.md;
``test_fault_matrix.py`` asserts each row's expectation. One definition serves both.
"""

from __future__ import annotations

import json
import math
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fault_server import Act, FaultServer, free_port  # noqa: E402

from rt4chart_plugins import Report, Verifier  # noqa: E402
from rt4chart_plugins.errors import JudgeUnavailable  # noqa: E402
from rt4chart_plugins.judges.openai_compat import OpenAIJudge  # noqa: E402

CONTEXT = ["The trial lasts 14 days.", "Only verified users are eligible."]
ROWS = [{"id": f"r{i}", "context": CONTEXT,
         "answer": f"The trial lasts 14 days. It costs {i} dollars."} for i in range(4)]
#: the judge's transport settings in the matrix: short waits so that it runs in seconds
JUDGE = {"max_retries": 2, "backoff": 0.05, "timeout": 1.0, "breaker_after": 6, "concurrency": 2}
#: requests a clean run of ROWS makes: per row one decomposition and one verification
CLEAN_REQUESTS = 2 * len(ROWS)


def _verify(payload: dict) -> bool:
    user = next(m["content"] for m in payload["messages"] if m["role"] == "user")
    return not user.startswith("Answer sentences:")


def once_per_request(act: Act) -> Callable:
    """Every distinct request fails its first try and succeeds on the retry."""
    seen: set[str] = set()

    def fault(n: int, p: dict) -> Act | None:
        key = json.dumps(p, sort_keys=True)
        if key in seen:
            return None
        seen.add(key)
        return act
    return fault


def first(k: int, act: Act) -> Callable:
    return lambda n, p: act if n < k else None


def every_verify(act: Callable[[dict], Act]) -> Callable:
    return lambda n, p: act(p) if _verify(p) else None


def every_decompose(act: Callable[[dict], Act]) -> Callable:
    return lambda n, p: None if _verify(p) else act(p)


def _cut(p: dict) -> Act:
    from fault_server import good_content

    text = good_content(p)
    return Act(content=text[: len(text) * 2 // 3])


def _out_of_range(p: dict) -> Act:
    from fault_server import good_content

    data = json.loads(good_content(p))
    for v in data["verdicts"]:
        v["evidence"] = [99]
    return Act(content=json.dumps(data))


@dataclass
class Fault:
    name: str
    fault: Callable | None  # None: nobody listens on the port
    expect: str  # "same": the clean run's reports; "unjudged": rows partial/failed with a readable
    # error; "failed": every row failed with its reason; "nic": every claim NIC (an ENT without
    # existing evidence); "stopped": JudgeUnavailable; "clauses": every row verified on the answer's
    # clauses, a note saying so (a decomposition that cannot be read)
    max_attempts: int | None = None  # the most requests the endpoint may see
    max_seconds: float | None = None  # the longest the batch may take (a deadline must cut a hang)
    says: str | None = None  # what every unjudged claim's or failed row's error, or the stop's, must say
    min_gap: float = 0.0  # the least wait before the first retry (Retry-After)
    fresh: Callable | None = None  # builds a stateful fault anew for each run (replaces ``fault``)


FAULTS: list[Fault] = [
    Fault("clean", lambda n, p: None, "same", CLEAN_REQUESTS),
    Fault("429 with Retry-After: 1", first(1, Act(status=429, headers={"Retry-After": "1"}, body='{"error": "slow down"}')),
          "same", CLEAN_REQUESTS + 1, min_gap=1.0),
    Fault("429 without Retry-After", first(2, Act(status=429, body='{"error": "slow down"}')), "same", CLEAN_REQUESTS + 2),
    Fault("500 twice", first(2, Act(status=500, body='{"error": "oops"}')), "same", CLEAN_REQUESTS + 2),
    Fault("502 once", first(1, Act(status=502, body="bad gateway")), "same", CLEAN_REQUESTS + 1),
    Fault("503 once", first(1, Act(status=503, body='{"error": "unavailable"}')), "same", CLEAN_REQUESTS + 1),
    Fault("hang past the timeout, once", first(1, Act(hang=2.5)), "same", CLEAN_REQUESTS + 1),
    Fault("connection reset, once", first(1, Act(reset=True)), "same", CLEAN_REQUESTS + 1),
    Fault("intermittent 500 (each request's first try)", lambda n, p: None, "same", 2 * CLEAN_REQUESTS,
          fresh=lambda: once_per_request(Act(status=500, body='{"error": "flaky"}'))),
    Fault("malformed HTTP body", every_verify(lambda p: Act(body="<html>not json</html>")), "unjudged"),
    Fault("prose instead of JSON", every_verify(lambda p: Act(content="I think the claims look fine to me.")),
          "unjudged"),
    Fault("reply trickled a byte every 0.5 s, once", first(1, Act(trickle=0.5)), "same", CLEAN_REQUESTS + 1,
          max_seconds=30),
    Fault("reply trickled a byte every 0.5 s, always", lambda n, p: Act(trickle=0.5), "stopped",
          JUDGE["breaker_after"] + JUDGE["concurrency"], max_seconds=30, says="no complete reply within 1 s"),
    Fault("200 text/html instead of JSON", every_verify(lambda p: Act(body="<html>proxy login</html>",
                                                                      content_type="text/html")), "unjudged",
          says="no chat completion"),
    Fault("truncated JSON", every_verify(_cut), "unjudged", says="cut off"),
    Fault("cut off at max_tokens (finish_reason length)", every_verify(lambda p: Act(finish_reason="length")),
          "unjudged", says="cut off"),
    Fault("truncated decomposition", every_decompose(_cut), "clauses", 3 * len(ROWS)),
    Fault("wrong keys", every_verify(lambda p: Act(content='{"results": [{"id": 0, "verdict": "ENT"}]}')), "unjudged"),
    Fault("unknown labels", every_verify(lambda p: Act(content='{"verdicts": [{"claim": 0, "label": "MAYBE"}, '
                                                               '{"claim": 1, "label": "PROBABLY"}]}')), "unjudged"),
    Fault("out-of-range evidence ids", every_verify(_out_of_range), "nic"),
    Fault("empty choices", every_verify(lambda p: Act(choices=False)), "unjudged"),
    Fault("null content", every_verify(lambda p: Act(content=None)), "unjudged"),
    Fault("401 unauthorized", lambda n, p: Act(status=401, body='{"error": {"message": "bad key"}}'), "stopped",
          JUDGE["concurrency"]),
    Fault("403 forbidden", lambda n, p: Act(status=403, body='{"error": {"message": "no"}}'), "stopped",
          JUDGE["concurrency"]),
    Fault("404 no such model", lambda n, p: Act(status=404, body='{"error": {"message": "model not found"}}'),
          "stopped", JUDGE["concurrency"]),
    Fault("connection reset, always", lambda n, p: Act(reset=True), "stopped",
          JUDGE["breaker_after"] + JUDGE["concurrency"], says="Server disconnected"),
    Fault("always 500 (endpoint down)", lambda n, p: Act(status=500, body="{}"), "stopped",
          JUDGE["breaker_after"] + JUDGE["concurrency"]),
    Fault("nothing listening", None, "stopped"),
]


@dataclass
class Outcome:
    fault: Fault
    reports: list[Report | None]
    error: str | None  # the batch-level error (JudgeUnavailable), if raised
    attempts: int
    seconds: float
    first_gap: float | None  # seconds between the first request and its retry (the same payload)


def run(fault: Fault) -> Outcome:
    started = time.perf_counter()
    if fault.fault is None:
        url, server = f"http://127.0.0.1:{free_port()}/v1", None
    else:
        server = FaultServer(fault.fresh() if fault.fresh else fault.fault).__enter__()
        url = server.url
    judge = OpenAIJudge("m", base_url=url, api_key="k", cache=False, **JUDGE)
    error = None
    try:
        reports: list[Report | None] = list(Verifier(judge).verify_many(ROWS, concurrency=2))
    except JudgeUnavailable as exc:
        reports, error = list(getattr(exc, "reports", [])), str(exc)
    finally:
        if server is not None:
            server.__exit__(None, None, None)
    log = server.log if server else []
    retry = next((t for t, p in log[1:] if p == log[0][1]), None) if log else None
    gap = retry - log[0][0] if retry is not None else None
    return Outcome(fault, reports, error, judge.attempts, time.perf_counter() - started, gap)


def comparable(report: Report) -> dict:
    """A report without what differs between runs of the same input: time, tokens, calls, and
    the judge's name (it holds the server's port)."""
    return report.model_dump(exclude={"cost": True, "judge": True})


def describe(outcome: Outcome) -> str:
    if outcome.error:
        done = sum(r is not None for r in outcome.reports)
        why = outcome.error.split(" ", 1)[1].split(";")[0]  # without the judge's name (it holds the port)
        return f"stopped, {done} of {len(ROWS)} rows scored: {why[:60]}…"
    states = sorted({r.state for r in outcome.reports if r})
    labels = sorted({str(c.label) for r in outcome.reports if r for c in r.claims if c.judged})
    errors = sorted({re.sub(r"openai:\S+: ", "", c.error or "")[:48]
                     for r in outcome.reports if r for c in r.claims if not c.judged})
    failed = sorted({re.sub(r"openai:\S+: ", "", r.error or "")[:48]
                     for r in outcome.reports if r and not r.claims and r.error})
    what = (f"labels {', '.join(labels)}" if labels else f"claims unjudged: {errors[0]}…" if errors
            else f"{failed[0]}…" if failed else "no claims")
    return f"{len(outcome.reports)} rows {'/'.join(states)}; {what}"


def check(outcome: Outcome, clean: list[Report] | None) -> list[str]:
    """What is wrong with an outcome (empty: the row of the matrix holds)."""
    f, problems = outcome.fault, []
    for r in outcome.reports:
        if r is None:
            continue
        Report.model_validate_json(r.model_dump_json())  # serializes
        if r.state == "failed" and (r.score, r.hallucinated) != (None, None):
            problems.append("a failed row with a score")
        if r.score is not None and not math.isfinite(r.score):
            problems.append("a NaN score")
        if r.state == "failed" and not r.error:
            problems.append("a failed row with no error")
        if any(c.label is not None and c.label.value == "ENT" and not c.evidence for c in r.claims):
            problems.append("an ENT claim with no evidence")
    if f.max_seconds is not None and outcome.seconds > f.max_seconds:
        problems.append(f"took {outcome.seconds:.0f} s, over {f.max_seconds:.0f} s")
    if f.max_attempts is not None and outcome.attempts > f.max_attempts:
        problems.append(f"{outcome.attempts} attempts, over {f.max_attempts}")
    if f.min_gap and (outcome.first_gap is None or outcome.first_gap < f.min_gap):
        problems.append(f"the retry came {outcome.first_gap}s after, under Retry-After {f.min_gap}s")
    if f.expect == "stopped":
        if outcome.error is None:
            problems.append("the batch was not stopped")
        elif f.name != "nothing listening" and sum(r is not None for r in outcome.reports) > 0:
            problems.append("rows were scored after a fatal error")
    elif outcome.error is not None:
        problems.append(f"stopped: {outcome.error}")
    elif len(outcome.reports) != len(ROWS):
        problems.append(f"{len(outcome.reports)} reports for {len(ROWS)} rows")
    elif f.expect == "same" and clean is not None:
        if [comparable(r) for r in outcome.reports] != [comparable(r) for r in clean]:
            problems.append("reports differ from the clean run")
    elif f.expect == "unjudged":
        for r in outcome.reports:
            unjudged = [c for c in r.claims if not c.judged]
            if r.state not in ("partial", "failed") or not unjudged or not all(c.error for c in unjudged):
                problems.append(f"a row {r.state} with {len(unjudged)} unjudged claims (errors: {[c.error for c in unjudged]})")
                break
    elif f.expect == "failed":
        if any(r.state != "failed" or r.claims or not r.error for r in outcome.reports):
            problems.append("a row not failed with its reason, or with claims made up from a cut reply")
    elif f.expect == "clauses":
        if any(r.state != "verified" or not any("clauses" in n for n in r.notes) for r in outcome.reports):
            problems.append("a row not verified on the answer's clauses, or without the note saying so")
    elif f.expect == "nic":
        if any(c.label is None or c.label.value != "NIC" or c.evidence for r in outcome.reports for c in r.claims):
            problems.append("a claim kept a label without existing evidence")
    errors = [c.error for r in outcome.reports if r for c in r.claims if not c.judged]
    errors += [r.error for r in outcome.reports if r and r.state == "failed" and not r.claims]
    errors += [outcome.error] if outcome.error else []
    if f.says and not all(f.says in (e or "") for e in errors):
        problems.append(f"an error that does not say {f.says!r}")
    return problems


def main() -> int:
    clean = None
    print("| fault | outcome | attempts | wall s | holds |")
    print("|---|---|---:|---:|---|")
    bad = 0
    for fault in FAULTS:
        outcome = run(fault)
        if fault.name == "clean":
            clean = outcome.reports
        problems = check(outcome, clean)
        bad += bool(problems)
        print(f"| {fault.name} | {describe(outcome)} | {outcome.attempts} | {outcome.seconds:.1f} | "
              f"{'yes' if not problems else 'NO: ' + '; '.join(problems)} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
