"""How the audit page scales: file size and time to first paint for 100, 1,000 and 10,000 rows.

    python -m rt4chart_plugins.audit.bench RESULTS.jsonl [--rows 100 1000 10000]
    python -m rt4chart_plugins.audit.bench --screenshot PAGE.html OUT.png [--press j]

The rows of ``RESULTS.jsonl`` (``rt4chart verify`` batch output) are repeated, with new ids, to
each size; each page is written, then opened in Chromium (Debian's, or ``$RT4CHART_CHROMIUM``,
driven by Playwright: the ``test`` extra) and timed: first contentful paint, the page's script
ready (filters live), and one filter applied to every row. A table is printed; nothing is
asserted, numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from rt4chart_plugins.audit.html import write_html
from rt4chart_plugins.audit.rows import AuditRow, load_results
from rt4chart_plugins.errors import InvalidInput, MissingExtra


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


_MEASURE = """() => {
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const ready = performance.getEntriesByName('rt4chart-ready')[0];
  const t = performance.now();
  document.getElementById('f-h').click();
  const filter = performance.now() - t;
  return {fcp: paint ? paint.startTime : null, ready: ready ? ready.startTime : null, filter: filter,
          count: document.getElementById('count').textContent};
}"""


def measure(results: Path, sizes: list[int]) -> list[dict]:
    rows = load_results(results)
    out = []
    with _playwright()() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        for n in sizes:
            path = Path(tmp) / f"audit-{n}.html"
            t = time.perf_counter()
            write_html(repeated(rows, n), path)
            written = time.perf_counter() - t
            page = browser.new_page()
            page.goto(path.as_uri(), wait_until="load")
            page.wait_for_selector("html.ready", state="attached")
            m = page.evaluate(_MEASURE)
            page.close()
            out.append({"rows": n, "MB": path.stat().st_size / 1e6, "write s": written, "first paint ms": m["fcp"],
                        "script ready ms": m["ready"], "filter ms": m["filter"]})
        browser.close()
    return out


def screenshot(page_path: Path, png: Path, press: list[str], width: int, height: int) -> None:
    with _playwright()() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(page_path.resolve().as_uri())
        page.wait_for_selector("html.ready", state="attached")
        for key in press:
            page.keyboard.press(key)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(png), full_page=True)
        browser.close()


def _fmt(v) -> str:
    return "—" if v is None else f"{v:,.0f}" if isinstance(v, int) else f"{v:,.2f}" if v < 100 else f"{v:,.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rt4chart_plugins.audit.bench", description=__doc__.split("\n")[0])
    ap.add_argument("results", nargs="?", type=Path, help="rt4chart verify batch output, repeated to each size")
    ap.add_argument("--rows", type=int, nargs="+", default=[100, 1000, 10000])
    ap.add_argument("--screenshot", nargs=2, type=Path, metavar=("PAGE", "PNG"), help="save PAGE.html as a PNG")
    ap.add_argument("--press", nargs="*", default=[], help="--screenshot: keys pressed first (j: the first flagged claim)")
    ap.add_argument("--size", type=int, nargs=2, default=[1100, 800], metavar=("W", "H"))
    args = ap.parse_args(argv)
    if args.screenshot:
        screenshot(*args.screenshot, args.press, *args.size)
        return 0
    if args.results is None:
        ap.error("give RESULTS.jsonl, or --screenshot PAGE PNG")
    table = measure(args.results, args.rows)
    keys = list(table[0])
    print("| " + " | ".join(keys) + " |\n|" + "---|" * len(keys))
    for row in table:
        print("| " + " | ".join(_fmt(row[k]) for k in keys) + " |")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
