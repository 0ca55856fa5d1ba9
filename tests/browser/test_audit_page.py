"""The audit page in a real Chromium, read and clicked through the DOM."""

from __future__ import annotations

import pytest

from rt4chart_plugins.audit import write_html
from rt4chart_plugins.audit.html import anchor
from audit_samples import XSS_ANSWER, XSS_CONTEXT

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page_file(tmp_path_factory, audit_rows):
    path = tmp_path_factory.mktemp("audit") / "audit.html"
    write_html(audit_rows, path)
    return path


def _unfaithful(rows) -> int:
    return sum(len(r.report.unfaithful_spans) for r in rows if r.report)


def test_highlighted_spans_are_the_reports_unfaithful_spans(open_page, page_file, audit_rows):
    seen = open_page(page_file)
    page = seen.page
    assert page.locator("mark").count() == _unfaithful(audit_rows) > 0
    for row in audit_rows:
        if row.report and row.report.answer:
            marks = page.locator(f"#{anchor(row.id)} .answer mark")
            assert marks.count() == len(row.report.unfaithful_spans)
            assert marks.all_text_contents() == [s.text for s in row.report.unfaithful_spans]
    assert page.locator("mark.CON").count() >= 1 and page.locator("mark.NIC").count() >= 1
    assert not seen.errors and not seen.dialogs


def test_clicking_a_con_claim_highlights_and_shows_the_sentence_it_cites(open_page, page_file, audit_rows):
    con = next(r.report for r in audit_rows if r.id == "con")
    [claim] = [c for c in con.claims if c.label.value == "CON"]
    page = open_page(page_file).page
    assert page.locator(".hl").count() == 0
    page.click(f"#{anchor('con')} li.claim.CON")
    lit = page.locator(f"#{anchor('con')} .ctx .hl")
    assert lit.count() == len(claim.evidence) >= 1
    assert lit.first.text_content().endswith(claim.evidence[0].text)
    assert lit.first.is_visible() and page.locator("li.claim.sel").count() == 1
    assert page.locator(f"#{anchor('con')} mark.sel").count() == 1  # its span in the answer too
    words = page.locator(f"#{anchor('con')} li.claim.sel .words").text_content()
    assert words.startswith("Contradicted by the context, confidence ")
    # a claim in the JSON record lights up its field's row
    page.click(f"#{anchor('record')} li.claim.CON")
    assert page.locator(f"#{anchor('record')} tr.hl th").all_text_contents() == ["attributes.HasTV"]


def test_hallucinated_only_hides_the_faithful_rows(open_page, page_file, audit_rows):
    page = open_page(page_file).page
    ids = {r.id: bool(r.report and r.report.hallucinated) for r in audit_rows}
    assert all(page.locator(f"#{anchor(i)}").is_visible() for i in ids)
    page.check("#f-h")
    for row_id, hallucinated in ids.items():
        assert page.locator(f"#{anchor(row_id)}").is_visible() == hallucinated, row_id
    assert page.locator("#count").text_content().startswith(f"{sum(ids.values())} of {len(ids)} rows")
    page.uncheck("#f-h")
    page.select_option("#f-state", "failed")
    assert [i for i in ids if page.locator(f"#{anchor(i)}").is_visible()] == ["broken"]
    page.select_option("#f-state", "")
    page.fill("#f-q", "harbor diner")
    from playwright.sync_api import expect

    expect(page.locator("#count")).to_contain_text(f"1 of {len(ids)} rows")  # the search waits for typing to pause
    assert page.locator(f"#{anchor('record')}").is_visible()


def test_a_hostile_context_runs_nothing_and_reads_as_text(open_page, tmp_path, verifier):
    report = verifier.verify(context=XSS_CONTEXT, answer=XSS_ANSWER, question='<b onmouseover="window.pwned=5">Q</b>')
    path = write_html([('x"><img src=x onerror=window.pwned=6>', report)], tmp_path / "xss.html")
    seen = open_page(path)
    page = seen.page
    page.hover(".q")
    for link in page.locator("a").all():
        link.click()
    page.wait_for_timeout(300)
    assert page.evaluate("window.pwned") is None
    assert not seen.dialogs and not seen.errors
    assert seen.requests == [path.resolve().as_uri()]  # the page itself, nothing else
    assert page.locator("#rows img, #rows script, header img, #rows a[href^='javascript']").count() == 0
    text = page.locator("#rows").text_content()
    for payload in ("<script>window.pwned=1</script>", '<img src=x onerror="window.pwned=2">',
                    'href="javascript:window.pwned=3"', "<script>window.pwned=4</script>",
                    '<b onmouseover="window.pwned=5">Q</b>'):
        assert payload in text, payload
    assert page.evaluate("document.documentElement.classList.contains('ready')")  # the page's own script ran


def test_without_javascript_every_row_is_listed(open_page, tmp_path, audit_rows):
    many = [(f"r{i}", r.report) for i in range(60) for r in audit_rows[:1]] + audit_rows
    path = write_html(many, tmp_path / "many.html")
    page = open_page(path, javascript=False).page
    rows = page.locator("#rows > .row")
    assert rows.count() == len(many) and all(r.is_visible() for r in rows.all()[::7])
    assert page.locator("mark").count() == 60 * len(audit_rows[0].report.unfaithful_spans) + _unfaithful(audit_rows)
    assert not page.locator("nav.controls").is_visible()
    assert page.locator(f"#{anchor('con')} li.claim.CON .why").text_content().count("Evidence: [0]") == 1
    # with it, the same page shows one page of 50 rows
    scripted = open_page(path).page
    assert sum(r.is_visible() for r in scripted.locator("#rows > .row").all()) == 50


def test_keyboard_moves_between_flagged_claims_across_pages_and_permalinks_open_a_row(open_page, tmp_path, audit_rows):
    many = [(f"r{i}", audit_rows[2].report) for i in range(55)] + audit_rows  # 55 refusals first: no flag
    path = write_html(many, tmp_path / "nav.html")
    page = open_page(path).page
    page.keyboard.press("j")
    sel = page.locator("li.claim.sel")
    assert sel.count() == 1 and "flagged" in sel.get_attribute("class")
    assert page.locator("#count").text_content().endswith("page 2 of 2")  # it turned the page
    first = sel.evaluate("e => e.closest('.row').id")
    page.keyboard.press("j")
    page.keyboard.press("k")
    assert page.locator("li.claim.sel").evaluate("e => e.closest('.row').id") == first
    linked = open_page(path, fragment=f"#{anchor('record')}").page
    assert linked.locator(f"#{anchor('record')}").is_visible()
    assert "target" in linked.locator(f"#{anchor('record')}").get_attribute("class")
    assert not linked.locator(f"#{anchor('r0')}").is_visible()


def _ids(page) -> list[str]:
    return page.locator("#rows > .row").evaluate_all("rows => rows.map(r => r.id)")


def test_rows_sort_by_score_and_by_confidence(open_page, tmp_path, audit_rows):
    from rt4chart_plugins.audit.html import row_confidence

    rows = [(f"{r.id}{i}", r.report) for i in range(3) for r in audit_rows if r.report]  # 12 rows, ties included
    path = write_html(rows + [r for r in audit_rows if r.report is None], tmp_path / "sort.html")
    page = open_page(path, wait=True).page
    order = list(range(len(rows)))
    assert _ids(page)[: len(rows)] == [anchor(rows[i][0]) for i in order]
    page.select_option("#f-sort", "score")
    by_score = sorted(order, key=lambda i: (rows[i][1].score, i))
    assert _ids(page) == [anchor(rows[i][0]) for i in by_score] + [anchor("broken")]  # unscored last
    page.select_option("#f-sort", "score-desc")
    assert _ids(page)[: len(rows)] == [anchor(rows[i][0]) for i in sorted(order, key=lambda i: (-rows[i][1].score, i))]
    page.select_option("#f-sort", "conf")
    conf = [row_confidence(r) for _, r in rows]
    by_conf = sorted((i for i in order if conf[i] is not None), key=lambda i: (conf[i], i))
    assert _ids(page)[: len(by_conf)] == [anchor(rows[i][0]) for i in by_conf]
    page.check("#f-h")  # a filter keeps the order
    assert _ids(page) == [anchor(rows[i][0]) for i in by_conf if rows[i][1].hallucinated]


@pytest.mark.parametrize("width", [1200, 560])  # at 560 px the bar wraps onto several lines
def test_a_permalink_lands_with_the_title_below_the_sticky_bar(open_page, tmp_path, audit_rows, width):
    many = [(f"r{i}", audit_rows[i % 4].report) for i in range(120)]
    path = write_html(many, tmp_path / "links.html")
    for target in ("r50", "r73"):  # the first row of page 2, one in its middle
        page = open_page(path, fragment=f"#{anchor(target)}", wait=True, viewport={"width": width, "height": 700}).page
        page.wait_for_function("() => window.scrollY > 0")
        title = page.locator(f"#{anchor(target)} h2").bounding_box()
        bar = page.locator("nav.controls").bounding_box()
        assert bar["y"] == 0 and title["y"] >= bar["y"] + bar["height"], (target, title, bar)
        assert title["y"] + title["height"] <= 700  # on screen
        assert "page 2 of 3" in page.locator("#count").text_content()


def test_the_page_is_dark_when_the_reader_prefers_it_and_readable_in_both(open_page, page_file):
    from legibility import BACKGROUND_LUMINANCE, low_contrast

    for scheme, dark in (("light", False), ("dark", True)):
        page = open_page(page_file, wait=True, color_scheme=scheme).page
        page.click(f"#{anchor('con')} li.claim.CON")  # a selected claim and its lit evidence
        assert (page.evaluate(BACKGROUND_LUMINANCE) < 0.05) == dark, scheme
        assert low_contrast(page) == [], scheme


@pytest.mark.parametrize("host, scheme", [("background:#1e1e1e;color:#d4d4d4", "light"),
                                          ("background:#111827;color:#e5e7eb", "dark"),
                                          ("background:#ffffff;color:#1f2937", "dark"),
                                          ("background:#ffffff;color:#1f2937", "light")])
def test_the_notebook_card_reads_on_a_dark_and_a_light_notebook(open_page, tmp_path, audit_rows, host, scheme):
    """A notebook's theme is its own, whatever the system's: the card is read on both."""
    from legibility import low_contrast
    from rt4chart_plugins.audit.html import report_card

    policy = next(r.report for r in audit_rows if r.id == "policy")
    path = tmp_path / "notebook.html"
    path.write_text(f'<!DOCTYPE html><html><body style="{host}"><div class="output">{report_card(policy)}</div>'
                    "</body></html>", encoding="utf-8")
    page = open_page(path, color_scheme=scheme).page
    assert page.locator(".rt4c.card mark").count() == len(policy.unfaithful_spans)
    assert low_contrast(page, ".rt4c.card") == []


def test_a_hostile_row_in_the_compressed_part_runs_nothing(open_page, tmp_path, verifier, audit_rows):
    report = verifier.verify(context=XSS_CONTEXT, answer=XSS_ANSWER)
    rows = [(f"r{i}", audit_rows[0].report) for i in range(60)] + [('x"><img src=x onerror=window.pwned=7>', report)]
    path = write_html(rows, tmp_path / "packed.html", compress=True)
    assert "pwned" not in path.read_text(encoding="utf-8").split("</main>")[1].split("<script>")[0]  # compressed
    seen = open_page(path, fragment="#" + anchor('x"><img src=x onerror=window.pwned=7>'), wait=True)
    page = seen.page
    row = page.locator(".row.target")
    assert row.count() == 1 and "<script>window.pwned=4</script>" in row.text_content()
    for link in row.locator("a").all():
        link.click()
    page.wait_for_timeout(300)
    assert page.evaluate("window.pwned") is None and not seen.dialogs and not seen.errors
    assert seen.requests == [path.resolve().as_uri()]
    assert page.locator("#rows img, #rows script").count() == 0
