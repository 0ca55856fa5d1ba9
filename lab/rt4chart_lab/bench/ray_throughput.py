"""``rt4chart bench-ray``: rows per second of plain ``verify_many`` and of ``verify_dataset`` on a
local Ray cluster with 1 and with 2 actors, on the same RAGTruth rows, the fixed cost of starting
a job, and from those a projection for a large corpus on N nodes.

The rows are the first ``--rows`` of RAGTruth in file order (default 2,000), with the trained
judge. Each Ray run is timed twice: on one row (the fixed cost: the actor pool starting and each
actor loading its judge) and on every row; its steady rate is rows / (wall - fixed). Ray itself is
started once, before, and its start is reported apart. The projection assumes what the measured
runs show: actors of a node scale as its CPUs do, nodes as their count does (no shared state but
the driver, which only writes lines), and an API judge is bound by its rate limit once enough
requests are in flight.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from rt4chart_lab.data.datasets import load_ragtruth, resolve_data_dir


def requests_per_row(report: dict) -> float:
    """The requests an API judge would send for a row the trained judge scored: one decomposition
    (``decomposition="llm"``), one verification per window, one more for the global pass when
    there are several windows (the pipeline's structure; salvage retries not counted)."""
    windows = max(1, len(report.get("windows") or []))
    return 1 + windows + (1 if windows > 1 else 0)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="rt4chart bench-ray", description=__doc__.split("\n\n")[0])
    p.add_argument("--data-dir", default=None, help="the shared benchmark data (default $RT4CHART_DATA_DIR)")
    p.add_argument("--rows", type=int, default=2000, help="RAGTruth rows, the first in file order (default 2000)")
    p.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray cluster (default 2)")
    p.add_argument("--corpus", type=float, default=1e6, help="rows of the projected corpus (default 10^6)")
    p.add_argument("--nodes", default="1,10,50", help="node counts of the projection (default 1,10,50)")
    p.add_argument("--node-cpus", type=int, default=2, help="CPUs a projected node has (default 2, as measured)")
    p.add_argument("--node-price", type=float, default=0.10, help="$ per node-hour in the projection (default 0.10)")
    p.add_argument("--api-rate", type=float, default=50.0, help="an API judge's rate limit, requests/s (default 50)")
    p.add_argument("--json", default=None, help="also write the numbers to this JSON file")
    args = p.parse_args(argv)
    if args.rows < 1 or args.cpus < 1:
        p.error("--rows and --cpus must be positive")

    from rt4chart_plugins import Verifier

    rows = [r.verify_input() for r in load_ragtruth(resolve_data_dir(args.data_dir), limit=args.rows)]
    n = len(rows)
    out: dict = {"rows": n, "cpus": args.cpus, "load_before": os.getloadavg()[0]}

    verifier = Verifier()
    verifier.prepare()
    t = time.perf_counter()
    reports = verifier.verify_many(rows)
    out["plain"] = {"seconds": time.perf_counter() - t}
    out["requests_per_row"] = sum(requests_per_row(r.model_dump(mode="json")) for r in reports) / n

    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    from rt4chart_plugins.distributed import verify_dataset

    t = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    out["ray_start"] = time.perf_counter() - t
    ray.data.DataContext.get_current().enable_progress_bars = False
    items = [{"id": r["id"], "input": json.dumps(r)} for r in rows]
    for workers in (1, 2):
        t = time.perf_counter()
        verify_dataset(ray.data.from_items(items[:1]), workers=workers).take_all()
        fixed = time.perf_counter() - t
        t = time.perf_counter()
        got = verify_dataset(ray.data.from_items(items), workers=workers).take_all()
        wall = time.perf_counter() - t
        assert len(got) == n and all(g["ok"] for g in got), "a row failed"
        out[f"ray{workers}"] = {"seconds": wall, "fixed": fixed}
    ray.shutdown()
    out["load_after"] = os.getloadavg()[0]
    print(render(out, args))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)
    return 0


def render(out: dict, args: argparse.Namespace) -> str:
    n = out["rows"]
    lines = [f"{n} RAGTruth rows, trained judge, local Ray cluster of {out['cpus']} CPUs "
             f"(load average {out['load_before']:.1f} before, {out['load_after']:.1f} after)", "",
             "| run | wall s | rows/s | fixed s | steady rows/s |", "|---|---:|---:|---:|---:|",
             f"| verify_many | {out['plain']['seconds']:.1f} | {n / out['plain']['seconds']:.2f} | – | – |"]
    for w in (1, 2):
        r = out[f"ray{w}"]
        steady = n / max(r["seconds"] - r["fixed"], 1e-9)
        lines.append(f"| Ray, {w} actor{'s' * (w > 1)} | {r['seconds']:.1f} | {n / r['seconds']:.2f} | "
                     f"{r['fixed']:.1f} | {steady:.2f} |")
    lines += ["", f"Ray's own start: {out['ray_start']:.1f} s."]
    one = out["ray1"]
    per_actor = n / max(one["seconds"] - one["fixed"], 1e-9)
    fixed = one["fixed"] + out["ray_start"]
    lines += ["", f"Projection for {args.corpus:.0f} rows, trained judge: {per_actor:.2f} rows/s an actor, one actor "
              f"per CPU, {args.node_cpus} CPUs a node at ${args.node_price:.2f}/node-hour, plus {fixed:.0f} s to start:",
              "", "| nodes | wall | node-hours | cost $ |", "|---:|---:|---:|---:|"]
    for nodes in (int(x) for x in args.nodes.split(",")):
        seconds = args.corpus / (per_actor * args.node_cpus * nodes) + fixed
        hours = seconds / 3600 * nodes
        lines.append(f"| {nodes} | {seconds / 3600:.1f} h | {hours:.0f} | {hours * args.node_price:.2f} |")
    q = out["requests_per_row"]
    api = args.corpus * q / args.api_rate
    lines += ["", f"API judge at {args.api_rate:.0f} requests/s shared by every actor: {q:.2f} requests a row "
              f"(one decomposition, one per window, one global pass when there are several windows), so "
              f"{args.corpus:.0f} rows take {api / 3600:.1f} h whatever the node count, once actors × "
              f"rows in flight cover rate × latency (50 req/s at 2 s latency: 100 requests in flight)."]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
