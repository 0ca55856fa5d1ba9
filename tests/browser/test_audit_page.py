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
