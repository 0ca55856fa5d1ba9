"""A row's deadline, and a caller's own timeout, stop the row's work: with the trained judge on a
context long enough to take seconds. What is bounded here is whether the work stops, with
margins far above the machine's noise; how long work takes is the scale benchmark's."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from rt4chart_plugins import Verifier

SHORT = {"context": "The trial lasts 14 days.", "answer": "The trial lasts 14 days."}
#: the rows' deadline: the short row takes about 0.01 s and the long one several seconds on an idle
#: machine; at 0.5 s, the short row missed it once on 2 cores shared by four busy processes
DEADLINE = 1.5


def _long_row(chars: int = 400_000, sentences: int = 300) -> dict:
    rng = random.Random(0)
    vocab = ["".join(rng.choice("bcdfgklmnprstvz") + rng.choice("aeiou") for _ in range(3)) for _ in range(3000)]
    context = []
    while sum(map(len, context)) < chars:
        context.append(" ".join(rng.sample(vocab, 12)).capitalize() + f" costs {rng.randint(2, 999)} dollars.")
    answer = " ".join(s.replace("dollars", "euros") for s in rng.sample(context, sentences))
    return {"context": " ".join(context), "answer": answer}


@pytest.fixture(scope="module")
def long_row():
    return _long_row()


def test_a_row_past_its_deadline_fails_alone_with_its_reason(long_row):
    verifier = Verifier(deadline=DEADLINE)
    verifier.verify(**SHORT)  # loads the model and the units' registry: no row's own work
    started = time.perf_counter()
    # one row at a time: rows in flight together share the cores, and a deadline counts wall time
    long, short = verifier.verify_many([long_row, SHORT], concurrency=1)
    assert time.perf_counter() - started < 15  # the long row alone takes longer, on an idle machine
    assert long.state == "failed" and f"passed its deadline of {DEADLINE:g} s while" in long.error
    assert short.state == "verified" and short.label.value == "ENT"


def test_a_callers_timeout_fires_on_time_and_stops_the_rows_work(long_row):
    """A framework's own timeout (asyncio's wait_for around our coroutine) could not fire while
    the rules ran on the event loop, and work in a thread ran on after it fired."""
    verifier = Verifier()
    verifier.verify(**SHORT)

    async def main():
        started = time.perf_counter()
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(verifier.averify(**long_row), 1.0)
        fired = time.perf_counter() - started
        cpu = time.process_time()
        await asyncio.sleep(2.0)  # what this process computes while nothing is asked of it
        return fired, time.process_time() - cpu

    fired, cpu_after = asyncio.run(main())
    assert fired < 4.0
    assert cpu_after < 0.5  # the row's threads stopped at their next checkpoint


def test_the_cli_takes_the_deadline(tmp_path, long_row, capsys):
    import json

    import rt4chart_plugins.cli as cli

    Verifier().verify(**SHORT)  # the model and the units' registry, loaded once per process
    (tmp_path / "in.jsonl").write_text(json.dumps({"id": "long", **long_row}) + "\n" + json.dumps({"id": "short", **SHORT}) + "\n")
    assert cli.main(["verify", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "out.jsonl"), "-q", "--deadline", str(DEADLINE),
                     "--concurrency", "1"]) == 1
    rows = {r["id"]: r for r in map(json.loads, (tmp_path / "out.jsonl").read_text().splitlines())}
    assert f"deadline of {DEADLINE:g} s" in rows["long"]["error"] and rows["short"]["ok"], rows["short"]
    assert cli.main(["verify", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "o2.jsonl"), "--deadline", "0"]) == 2
    assert "deadline" in capsys.readouterr().err
