"""How the audit page and the compare view scale: file size, time to write, first paint, script
ready and one filter, at 100 to 100,000 rows, in Chromium; and the docs' screenshots.

    python -m rt4chart_lab.bench.page RESULTS.jsonl [--rows 100 1000 10000 100000] [--compare AFTER.jsonl]
    python -m rt4chart_lab.bench.page --screenshot PAGE.html OUT.png [--press j] [--size W H]
    python -m rt4chart_lab.bench.page --diff-example OUT.png

The rows of ``RESULTS.jsonl`` (``rt4chart verify`` batch output) are repeated, with new ids, to
each size; each page is written as the product writes it (past 1,000 rows, the rows after the
first page compressed) and, up to ``--markup-up-to`` rows, also with every row as markup, for
comparison. ``--compare AFTER.jsonl``: a second run of the same rows, repeated the same way; the
compare view of the two is measured too. Each page is opened in Chromium (Debian's, or
``$RT4CHART_CHROMIUM``, driven by Playwright) and timed: first contentful paint, the page's
script ready (filters live), and one filter over every row until the count is redrawn. A table is
printed; nothing is asserted, numbers depend on the machine.

``--diff-example`` verifies ``examples/diff/`` (the same five questions answered before and after
a change) with the default judge, writes their compare view and saves its top, the first changed
claim selected, as the docs' screenshot.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rt4chart_plugins.audit.compare import write_compare_html
from rt4chart_plugins.audit.diff import diff_reports
from rt4chart_plugins.audit.html import write_html
from rt4chart_plugins.audit.rows import AuditRow, load_results
from rt4chart_plugins.errors import InvalidInput, MissingExtra

ROOT = Path(__file__).resolve().parents[3]


def chromium() -> str:
    path = os.environ.get("RT4CHART_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise InvalidInput("no Chromium found: apt-get install -y chromium, or set $RT4CHART_CHROMIUM")
    return path


def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise MissingExtra("playwright", "test") from exc
    return sync_playwright


def repeated(rows: list[AuditRow], n: int) -> list[AuditRow]:
    """``n`` rows cycling through ``rows``, each with an id of its own."""
    if not rows:
        raise InvalidInput("the results file has no rows")
    return [rows[i % len(rows)].model_copy(update={"id": f"{rows[i % len(rows)].id}~{i}"}) for i in range(n)]


_MEASURE = """async () => {
  // the paint entry is recorded after the frame is shown: on a busy machine, after the script
  // is ready, so it is awaited (buffered), for 10 s at most
  const paint = await new Promise(done => {
    const fcp = list => list.getEntriesByName('first-contentful-paint')[0];
    if (fcp(performance)) return done(fcp(performance));
    new PerformanceObserver((list, o) => { if (fcp(list)) { o.disconnect(); done(fcp(list)); } })
      .observe({type: 'paint', buffered: true});
    setTimeout(() => done(null), 10000);
  });
  const ready = performance.getEntriesByName('rt4chart-ready')[0];
  const count = document.getElementById('count');
  const redrawn = new Promise(done => new MutationObserver((_, o) => { o.disconnect(); done(); })
    .observe(count, {childList: true, characterData: true, subtree: true}));
  const t = performance.now();
  document.getElementById('f-h').click();
  await redrawn;
  return {fcp: paint ? paint.startTime : null, ready: ready ? ready.startTime : null,
          filter: performance.now() - t, count: count.textContent};
}"""


def _open(browser: Any, path: Path) -> dict[str, Any]:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(path.as_uri(), wait_until="load", timeout=600_000)
    page.wait_for_selector("html.ready", state="attached", timeout=600_000)
    m = page.evaluate(_MEASURE)
    page.close()
    return m


def measure(results: Path, sizes: list[int], *, after: Path | None = None, markup_up_to: int = 10_000) -> list[dict]:
    rows = load_results(results)
    later = load_results(after) if after else None
    out = []
    with _playwright()() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        for n in sizes:
            some = repeated(rows, n)
            layouts = [("compressed" if n > 1000 else "markup", None)]
            if n > 1000 and n <= markup_up_to:
                layouts.append(("markup", False))
            pages: list[tuple[str, str, Any]] = [("audit", name, lambda path, c=c: write_html(some, path, compress=c))
                                                 for name, c in layouts]
            if later is not None:
                diff = diff_reports(some, repeated(later, n))
                pages += [("compare", name, lambda path, c=c: write_compare_html(diff, path, compress=c))
                          for name, c in layouts]
            for view, layout, write in pages:
                path = Path(tmp) / f"{view}-{layout}-{n}.html"
                t = time.perf_counter()
                write(path)
                written = time.perf_counter() - t
                m = _open(browser, path)
                out.append({"view": view, "layout": layout, "rows": n, "MB": path.stat().st_size / 1e6,
                            "write s": written, "first paint ms": m["fcp"], "script ready ms": m["ready"],
                            "filter ms": m["filter"]})
                path.unlink()
        browser.close()
    return out


def screenshot(page_path: Path, png: Path, press: list[str], width: int, height: int) -> None:
    """The top ``width`` × ``height`` of the page (rows off screen are not laid out, so the
    viewport is the picture), after pressing ``press``."""
    with _playwright()() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(page_path.resolve().as_uri())
        page.wait_for_selector("html.ready", state="attached")
        for key in press:
            page.keyboard.press(key)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(png))
        browser.close()


def diff_example(png: Path, *, width: int = 1100, height: int = 1250) -> Path:
    """The docs' compare view: ``examples/diff/`` verified before and after, the first changed
    claim selected (``j``)."""
    import json

    from rt4chart_plugins import Verifier

    verifier = Verifier()
    runs = []
    for name in ("before", "after"):
        rows = [json.loads(line) for line in (ROOT / "examples" / "diff" / f"{name}.jsonl").read_text().splitlines()
                if line.strip()]
        runs.append([AuditRow(id=r["id"], ok=True, meta={"task": r["task"]},
                              report=verifier.verify(context=r["context"], answer=r["answer"], question=r["question"]))
                     for r in rows])
    diff = diff_reports(runs[0], runs[1], names=("before.jsonl", "after.jsonl"))
    with tempfile.TemporaryDirectory() as tmp:
        page = write_compare_html(diff, Path(tmp) / "diff.html")
        screenshot(page, png, ["j"], width, height)
    return png


def _fmt(v) -> str:
    if isinstance(v, str):
        return v
    return "—" if v is None else f"{v:,}" if isinstance(v, int) else f"{v:,.2f}" if v < 100 else f"{v:,.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rt4chart_lab.bench.page", description=__doc__.split("\n")[0])
    ap.add_argument("results", nargs="?", type=Path, help="rt4chart verify batch output, repeated to each size")
    ap.add_argument("--rows", type=int, nargs="+", default=[100, 1000, 10000, 100000])
    ap.add_argument("--compare", type=Path, metavar="AFTER", help="a second run of the same rows: also measure the "
                                                                  "compare view")
    ap.add_argument("--markup-up-to", type=int, default=10_000,
                    help="also measure the page with every row as markup, up to this many rows")
    ap.add_argument("--screenshot", nargs=2, type=Path, metavar=("PAGE", "PNG"), help="save PAGE.html as a PNG")
    ap.add_argument("--diff-example", type=Path, metavar="PNG", help="the docs' screenshot of the compare view")
    ap.add_argument("--press", nargs="*", default=[], help="--screenshot: keys pressed first (j: the first flagged claim)")
    ap.add_argument("--size", type=int, nargs=2, default=[1100, 800], metavar=("W", "H"))
    args = ap.parse_args(argv)
    if args.screenshot:
        screenshot(*args.screenshot, args.press, *args.size)
        return 0
    if args.diff_example:
        print(diff_example(args.diff_example))
        return 0
    if args.results is None:
        ap.error("give RESULTS.jsonl, --screenshot PAGE PNG or --diff-example PNG")
    table = measure(args.results, args.rows, after=args.compare, markup_up_to=args.markup_up_to)
    keys = list(table[0])
    print("| " + " | ".join(keys) + " |\n|" + "---|" * len(keys))
    for row in table:
        print("| " + " | ".join(_fmt(row[k]) for k in keys) + " |")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
