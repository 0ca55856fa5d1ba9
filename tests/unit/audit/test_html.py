"""The page's markup, read back with the standard library's HTML parser (the browser tests in
tests/browser/ check what a reader sees and clicks)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from rt4chart_plugins.audit import load_results
from rt4chart_plugins.audit.html import anchor, render_html, report_card, write_html
from rt4chart_plugins.audit.summary import summarize
from rt4chart_plugins.audit.rows import as_rows
from rt4chart_plugins.errors import InvalidInput
from audit_samples import XSS_ANSWER, XSS_CONTEXT



class Tags(HTMLParser):
    """Every start tag with its attributes, and the text, as a browser's parser sees them."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        (self.scripts if self._in_script else self.text).append(data)


def parse(page: str) -> Tags:
    t = Tags()
    t.feed(page)
    return t


def test_one_mark_per_unfaithful_span_coloured_by_label(audit_rows):
    tags = parse(render_html(audit_rows))
    marks = [a for tag, a in tags.tags if tag == "mark"]
    assert len(marks) == sum(len(r.report.unfaithful_spans) for r in audit_rows if r.report)
    con = next(r.report for r in audit_rows if r.id == "con")
    assert con.claims[0].label.value == "CON" and any(m["class"] == "CON" for m in marks)
    # the CON claim's evidence sentence is an element the claim points at
    items = [a for tag, a in tags.tags if tag == "li" and "claim" in a.get("class", "")]
    ids = {a["id"] for _, a in tags.tags if "id" in a}
    assert all(ev in ids for a in items for ev in a["data-ev"].split())
    assert any(a["data-ev"] for a in items if "CON" in a["class"])


def test_text_from_the_inputs_never_becomes_markup(verifier):
    report = verifier.verify(context=XSS_CONTEXT, answer=XSS_ANSWER, question='<b onmouseover="x()">Q</b>')
    tags = parse(render_html([("a\"><script>x()</script>", report)], settings={"<i>k</i>": "<i>v</i>"}))
    assert [t for t, _ in tags.tags].count("script") == 2  # the page's own two
    assert not any(t in ("img", "i") for t, _ in tags.tags)  # the page itself uses neither
    assert not any(k.startswith("on") for _, a in tags.tags for k in a)
    assert not any(v.lower().startswith("javascript:") for _, a in tags.tags for v in a.values() if v)
    text = "".join(tags.text)
    assert "<script>window.pwned=1</script>" in text and 'javascript:window.pwned=3' in text
    assert not any("pwned" in s for s in tags.scripts)


def test_the_page_allows_no_request_and_only_its_own_scripts(audit_rows):
    tags = parse(render_html(audit_rows))
    csp = next(a["content"] for t, a in tags.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in csp and csp.count("'sha256-") == 2 and "unsafe-inline" not in csp.split("script-src")[1]
    assert not any(t in ("link", "img", "iframe") or "src" in a for t, a in tags.tags if t != "script")


def test_a_json_context_is_a_field_table_with_the_cited_field_marked(audit_rows):
    tags = parse(render_html([r for r in audit_rows if r.id == "record"]))
    rows = [a for t, a in tags.tags if t == "tr" and "sent" in a.get("class", "")]
    cited = [a for a in rows if "cited" in a["class"]]
    record = next(r.report for r in audit_rows if r.id == "record")
    assert len(rows) == len(record.context_sentences) and len(cited) == 1
    assert "attributes.HasTV" in "".join(tags.text)


def test_the_summary_counts_rows_labels_problems_and_the_histogram(audit_rows):
    s = summarize(as_rows(audit_rows))
    assert (s.rows, s.scored) == (5, 4)
    assert s.hallucinated == sum(1 for r in audit_rows if r.report and r.report.hallucinated)
    assert [p.id for p in s.problems] == ["broken"] and "answer" in s.problems[0].error
    assert sum(s.histogram) == 4 and s.answer_labels.get("none") == 1  # the refusal
    page = render_html(audit_rows)
    assert f'href="#{anchor("broken")}"' in page and f'id="{anchor("broken")}"' in page


def test_gasp_sentences_show_their_risk_and_chunk():
    from rt4chart_plugins.types import ClaimVerdict, Grounding, Label, Report, Sentence, Span, Window

    ctx = [Sentence(id=i, text=t, start=0, end=len(t), passage=i) for i, t in enumerate(["A is 1.", "B is 2."])]
    g = Grounding(gap=-0.1, jsd_empty=0.0, drop=0.0, jsd_loo=0.0, risk=2.5, threshold=1.0, supporting_chunk=1)
    claim = ClaimVerdict(id=0, text="C is 3.", sentence_id=0, label=Label.NIC, grounding=g,
                         answer_span=Span(start=0, end=7, text="C is 3."))
    report = Report(label=Label.NIC, hallucinated=True, score=0.0, state="verified", claims=[claim],
                    unfaithful_spans=[Span(start=0, end=7, text="C is 3.")], answer="C is 3.",
                    context_sentences=ctx, windows=[Window(index=0, first=0, last=0), Window(index=1, first=1, last=1)],
                    method="gasp", risk=2.5, judge="gasp-smollm2")
    page = render_html([report])
    assert "risk 2.50 (flagged above 1.00)" in page and "The chunk that mattered: 1" in page
    assert 'data-ev="s0-1"' in page and "GASP" in page


def test_a_bench_file_and_a_card(tmp_path, audit_rows):
    results = tmp_path / "r.jsonl"
    results.write_text("".join(r.model_dump_json() + "\n" for r in audit_rows))
    out = write_html(load_results(results), tmp_path / "audit.html")
    assert out.read_text(encoding="utf-8").count('<article class="row"') == 5
    card = report_card(audit_rows[1].report)
    assert "<script" not in card and card.count("<mark") == len(audit_rows[1].report.unfaithful_spans)
    assert audit_rows[1].report._repr_html_() == card
    with pytest.raises(InvalidInput):
        render_html(42)
