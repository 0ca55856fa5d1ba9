"""The CLI batch against a misbehaving endpoint, and killed with SIGKILL at random points: a
re-run always gives every input id exactly once, equal to an uninterrupted run."""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rt4chart_plugins.cli as cli
from fault_server import Act, FaultServer

pytest.importorskip("openai")

CONTEXT = ["The trial lasts 14 days.", "Only verified users are eligible.", "Le café coûte 3 €."]


def rows(n):
    return [{"id": f"r{i}", "context": CONTEXT,
             "answer": f"The trial lasts 14 days. Row {i} costs {i} € ({'é' * (i % 7)})."} for i in range(n)]


def write_jsonl(path, items):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in items), encoding="utf-8")


def cli_args(url, inp, out, *extra):
    return ["verify", str(inp), "-o", str(out), "-q", "--judge", "openai", "--base-url", url, "--api-key", "k",
            "--model", "m", "--no-cache", *extra]


def by_id(path):
    out = {}
    for line in Path(path).read_text(encoding="utf-8").split("\n"):
        if line:
            row = json.loads(line)
            assert row["id"] not in out, f"{row['id']} twice"
            if row.get("report"):
                row["report"].pop("cost")
                row["report"].pop("judge")  # holds the server's port
            out[row["id"]] = row
    return out


def test_a_401_stops_the_batch_with_one_message_and_a_rerun_resumes(tmp_path, capsys):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(inp, rows(6))
    with FaultServer(lambda n, p: Act(status=401, body='{"error": {"message": "invalid key"}}')) as bad:
        assert cli.main(cli_args(bad.url, inp, out)) == 1
        assert len(bad.log) <= 2  # the requests already in flight, not one per row
    err = capsys.readouterr().err
    assert err.count("refused the request") == 1 and "6 row(s) left" in err and "401" in err
    assert by_id(out) == {}
    with FaultServer() as good:
        assert cli.main(cli_args(good.url, inp, out)) == 0
    assert sorted(by_id(out)) == sorted(f"r{i}" for i in range(6))


def test_timeout_and_max_retries_bound_a_hanging_endpoint(tmp_path, capsys):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(inp, rows(1))
    with FaultServer(lambda n, p: Act(hang=3.0)) as server:
        started = time.perf_counter()
        assert cli.main(cli_args(server.url, inp, out, "--timeout", "0.3", "--max-retries", "1")) == 1
        elapsed = time.perf_counter() - started
        attempts = len(server.log)
    assert attempts == 4  # decomposition and verification, each tried twice
    assert elapsed < 4 * 0.3 + 3.0
    row = by_id(out)["r0"]
    assert not row["ok"] and "Timeout" in row["error"] + json.dumps(row["report"])


def _run_cli(url, inp, out):
    code = ("import sys; from rt4chart_plugins.cli import main; "
            f"sys.exit(main({cli_args(url, inp, out, '--concurrency', '4')!r}))")
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


@pytest.mark.slow
def test_kill_9_at_random_points_then_rerun_equals_an_uninterrupted_run(tmp_path):
    inp = tmp_path / "in.jsonl"
    write_jsonl(inp, rows(120))
    rng = random.Random(int(os.environ.get("RT4CHART_KILL_SEED", "0")))
    with FaultServer(lambda n, p: Act(hang=0.005)) as server:
        reference = tmp_path / "reference.jsonl"
        started = time.perf_counter()
        assert _run_cli(server.url, inp, reference).wait(timeout=300) == 0
        took = time.perf_counter() - started
        expected = by_id(reference)
        assert len(expected) == 120
        partial = []  # rows on disk at each kill: the kills must land mid-batch to prove anything
        for trial in range(2):
            out = tmp_path / f"killed-{trial}.jsonl"
            for _ in range(2):  # killed twice, then let run
                proc = _run_cli(server.url, inp, out)
                time.sleep(rng.uniform(0.3, 1.0) * took)
                if proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(timeout=60)
                    partial.append(out.read_bytes().count(b"\n") if out.exists() else 0)
                proc.wait(timeout=60)
            assert _run_cli(server.url, inp, out).wait(timeout=300) == 0
            assert by_id(out) == expected, f"trial {trial}"
            assert list(by_id(out)) == [f"r{i}" for i in range(120)]  # input order
        assert any(0 < n < 120 for n in partial), partial


def test_a_line_cut_anywhere_even_inside_a_character_is_redone(tmp_path):
    inp, full = tmp_path / "in.jsonl", tmp_path / "full.jsonl"
    write_jsonl(inp, rows(8))
    with FaultServer() as server:
        assert cli.main(cli_args(server.url, inp, full)) == 0
        expected = by_id(full)
        data = full.read_bytes()
        rng = random.Random(1)
        cuts = [data.index("é".encode()) + 1] + [rng.randrange(1, len(data)) for _ in range(4)]
        for cut in cuts:
            out = tmp_path / f"cut-{cut}.jsonl"
            out.write_bytes(data[:cut])
            assert cli.main(cli_args(server.url, inp, out)) == 0
            assert by_id(out) == expected, cut
