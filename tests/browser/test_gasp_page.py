"""A real GASP report on the audit page: each sentence's risk, and the chunk that mattered lit in
the context when the sentence is selected. Uses GASP's 98 MB scorer (a ``model`` test)."""

from __future__ import annotations

import pytest

from rt4chart_plugins.audit import write_html
from rt4chart_plugins.audit.html import anchor

pytestmark = pytest.mark.browser

CONTEXT = [
    "Harlow Bay is a fishing village on the northern coast with about nine hundred residents.",
    "Every August the village holds a regatta in which crews race wooden rowing boats to Gull Island.",
    "The lighthouse at the harbour mouth was built in 1871 and is now a small museum.",
    "A ferry leaves for the mainland twice a day, except in winter storms.",
    "The school of Harlow Bay has forty pupils and two teachers.",
]
ANSWER = ("Every August the village holds a regatta in which crews race wooden rowing boats to Gull Island. "
          "The mayor collects antique clocks and breeds silver pheasants in his garden.")


def test_gasp_sentences_show_risk_and_light_their_chunk(open_page, tmp_path, smollm2):
    from rt4chart_plugins.gasp import GaspDetector

    report = GaspDetector("smollm2-135m", chunks=5).verify(context=CONTEXT, answer=ANSWER)
    assert report.method == "gasp" and len(report.claims) == 2
    path = write_html([("gasp", report)], tmp_path / "gasp.html")
    page = open_page(path).page
    items = page.locator(f"#{anchor('gasp')} li.claim")
    assert items.count() == 2
    for i, claim in enumerate(report.claims):
        assert f"risk {claim.grounding.risk:.2f} (flagged above {claim.grounding.threshold:.2f})" in items.nth(i).text_content()
    assert page.locator("mark").count() == len(report.unfaithful_spans)
    copied = report.claims[0]
    chunk = report.windows[copied.grounding.supporting_chunk]
    items.nth(0).click()
    lit = page.locator(f"#{anchor('gasp')} .ctx .hl")
    assert lit.count() == (len(copied.evidence) or chunk.last - chunk.first + 1) >= 1
    assert "The chunk that mattered" in items.nth(0).text_content()
    assert any("regatta" in t for t in lit.all_text_contents())
