"""A 10,000-row audit in Chromium: a page a fraction of its markup's size whose first page paints
from markup, and whose filters, search, sorting, keys and permalinks reach every row of the
compressed rest. (How fast, at 10,000 and 100,000 rows, is the lab's page benchmark.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rt4chart_plugins.audit import write_html
from rt4chart_plugins.audit.html import anchor
from rt4chart_plugins.audit.pack import PAGE

pytestmark = pytest.mark.browser

N = 10_000


@pytest.fixture(scope="module")
def large(tmp_path_factory, audit_rows):
    """10,000 rows cycling through the five real reports, each with an id of its own."""
    rows = [(f"{audit_rows[i % 5].id}-{i}", audit_rows[i % 5]) for i in range(N)]
    batch = [r.model_copy(update={"id": row_id}) for row_id, r in rows]
    tmp = tmp_path_factory.mktemp("large")
    return write_html(batch, tmp / "large.html"), write_html(batch, tmp / "markup.html", compress=False), batch


def test_a_10000_row_page_is_small_and_paints_its_first_page_from_markup(open_page, large):
    path, markup, batch = large
    size, full = path.stat().st_size, markup.stat().st_size
    assert size < full / 5 and size < 3_000_000, (size, full)
    seen = open_page(path)
    page = seen.page
    parsed = page.evaluate("() => document.querySelectorAll('#rows > .row').length")
    assert parsed == PAGE  # the browser parsed one page of rows, not 10,000
    page.wait_for_selector("html.ready", state="attached")
    paint = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0].startTime")
    ready = page.evaluate("() => performance.getEntriesByName('rt4chart-ready')[0].startTime")
    assert paint > 0 and ready > 0
    print(f"\n10,000 rows: {size / 1e6:.2f} MB (markup {full / 1e6:.1f} MB), first paint {paint:.0f} ms, "
          f"script ready {ready:.0f} ms")
    assert page.locator("#count").text_content() == f"{N} of {N} rows · page 1 of {N // PAGE}"
    assert not seen.errors and seen.requests == [path.resolve().as_uri()]


def test_filters_search_sort_keys_and_links_reach_the_compressed_rows(open_page, large):
    path, _, batch = large
    page = open_page(path, wait=True).page
    hallucinated = sum(1 for r in batch if r.report and r.report.hallucinated)
    page.check("#f-h")
    expect(page.locator("#count")).to_contain_text(f"{hallucinated} of {N} rows")
    page.uncheck("#f-h")
    page.fill("#f-q", "record-9998 ")  # a row deep in the compressed chunks, by its text
    expect(page.locator("#count")).to_contain_text(f"1 of {N} rows")
    assert page.locator(f"#{anchor('record-9998')}").is_visible()
    page.fill("#f-q", "")
    expect(page.locator("#count")).to_contain_text(f"{N} of {N} rows")
    page.select_option("#f-sort", "score-desc")
    expect(page.locator("#count")).to_contain_text("page 1 of")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("k")  # the last flagged claim: among the lowest scores, on the last pages
    selected = page.locator("li.claim.sel")
    expect(selected).to_have_count(1)
    assert selected.evaluate("e => e.closest('.row').id").startswith(("row-con-", "row-policy-", "row-record-"))
    assert not page.locator("#count").text_content().endswith(f"page 1 of {N // PAGE}")
    linked = open_page(path, fragment=f"#{anchor('policy-9995')}", wait=True).page
    row = linked.locator(f"#{anchor('policy-9995')}")
    expect(row).to_be_visible()
    assert "target" in row.get_attribute("class") and linked.locator("mark").count() > 0
    row.locator("li.claim.CON").first.click()  # a compressed row's claims light their evidence like any other
    assert linked.locator(f"#{anchor('policy-9995')} .ctx .hl").count() >= 1
