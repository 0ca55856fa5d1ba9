"""The compare view of two real runs in Chromium: answers before | after, the worst change first,
changed claims marked and stepped through, filters, permalinks and both themes."""

from __future__ import annotations

import pytest

from rt4chart_plugins.audit import diff_reports
from rt4chart_plugins.audit.compare import write_compare_html
from rt4chart_plugins.audit.html import anchor
from audit_samples import CON_CONTEXT

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def diff(runs):
    return diff_reports(*runs)


@pytest.fixture(scope="module")
def compare_file(tmp_path_factory, diff):
    return write_compare_html(diff, tmp_path_factory.mktemp("compare") / "diff.html")


def _ids(page) -> list[str]:
    return page.locator("#rows > .row").evaluate_all("rows => rows.map(r => r.id)")


def test_answers_side_by_side_worst_change_first(open_page, compare_file, diff):
    seen = open_page(compare_file, wait=True)
    page = seen.page
    assert _ids(page) == [anchor(r.id) for r in diff.rows] and diff.rows[0].id == "broke"
    broke = page.locator(f"#{anchor('broke')}")
    assert broke.locator("h2 .chg").text_content() == "newly hallucinated"
    assert "score 1.00 → 0.50 (-0.50)" in broke.locator("h2").text_content()
    before, after = broke.locator(".side.before"), broke.locator(".side.after")
    assert before.locator(".answer").text_content() == "The free trial lasts 14 days. Only verified users are eligible."
    assert after.locator("mark.CON").all_text_contents() == ["The free trial lasts 30 days."]
    assert before.locator("mark").count() == 0
    changed = after.locator("li.claim.changed")
    assert changed.count() == 1 and changed.locator(".chg").text_content() == "new unfaithful"
    assert "The free trial lasts 30 days." in changed.text_content()
    assert after.locator("li.claim:not(.changed)").count() == 1  # the unchanged claim, unmarked
    assert broke.locator(".ctx").count() == 1  # one context: both runs read the same
    # a claim the new answer dropped is marked on the side before
    dropped = page.locator(f"#{anchor('policy')} .side.before li.claim.changed.fixed")
    assert dropped.count() == 1 and "priority email support" in dropped.text_content()
    # a row in one run only, a row that failed after, a row matched by its context and question
    assert page.locator(f"#{anchor('gone')} .side.after").text_content().endswith("not in the run after")
    assert "JudgeError: the endpoint timed out" in page.locator(f"#{anchor('failing')} .side.after").text_content()
    assert "matched by context and question (ids r-old and r-new)" in page.locator(f"#{anchor('r-new')} .warn").text_content()
    assert not seen.errors and seen.requests == [compare_file.resolve().as_uri()]


def test_j_steps_through_the_changed_claims_and_lights_their_evidence(open_page, compare_file, diff):
    page = open_page(compare_file, wait=True).page
    page.keyboard.press("j")
    sel = page.locator("li.claim.sel")
    assert sel.count() == 1 and "The free trial lasts 30 days." in sel.text_content()
    assert sel.evaluate("e => e.closest('.side').classList.contains('after')")
    lit = page.locator(f"#{anchor('broke')} .ctx .hl")
    assert lit.count() == 1 and lit.text_content().endswith(CON_CONTEXT[0])
    partner = page.locator(f"#{anchor('broke')} .side.before li.claim.pair")
    assert partner.count() == 1 and "The free trial lasts 14 days." in partner.text_content()
    steps = sum(1 for r in diff.rows for c in r.claims if c.change.value != "unchanged")
    visited = ["broke"]
    for _ in range(steps - 1):
        page.keyboard.press("j")
        visited.append(page.locator("li.claim.sel").evaluate("e => e.closest('.row').id")[4:])
    assert visited == [r.id for r in diff.rows for c in r.claims if c.change.value != "unchanged"]
    page.keyboard.press("j")  # round again
    assert page.locator("li.claim.sel").evaluate("e => e.closest('.row').id") == anchor("broke")


def test_filter_by_change_sort_by_score_change_and_permalinks(open_page, compare_file, diff):
    page = open_page(compare_file, wait=True).page
    page.select_option("#f-change", "fixed")
    assert _ids(page) == [anchor("fixed")] and page.locator("#count").text_content().startswith("1 of 8 rows")
    page.select_option("#f-change", "")
    page.select_option("#f-sort", "delta")
    scored = sorted((r for r in diff.rows if r.score_change is not None), key=lambda r: r.score_change)
    assert _ids(page)[: len(scored)][0] == anchor(scored[0].id) == anchor("broke")
    assert _ids(page)[len(scored) - 1] == anchor("fixed")  # the largest gain last among the scored
    linked = open_page(compare_file, fragment=f"#{anchor('fixed')}", wait=True, viewport={"width": 900, "height": 300})
    target = linked.page.locator(f"#{anchor('fixed')}")
    assert "target" in target.get_attribute("class")
    title = target.locator("h2").bounding_box()
    bar = linked.page.locator("nav.controls").bounding_box()
    assert bar["y"] + bar["height"] <= title["y"] < 300


def test_the_compare_view_reads_in_both_themes(open_page, compare_file):
    from legibility import BACKGROUND_LUMINANCE, low_contrast

    for scheme in ("light", "dark"):
        page = open_page(compare_file, wait=True, color_scheme=scheme).page
        page.keyboard.press("j")
        assert (page.evaluate(BACKGROUND_LUMINANCE) < 0.05) == (scheme == "dark")
        assert low_contrast(page) == [], scheme
