"""The page's markup, read back with the standard library's HTML parser (the browser tests in
tests/browser/ check what a reader sees and clicks)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from rt4chart_plugins.audit import load_results
from rt4chart_plugins.audit.html import Page, anchor, html_parts, render_html, report_card, write_html
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
        self.blocks: list[tuple[dict, list[str]]] = []  # the page's data blocks: attributes, text
        self._in_script = False
        self.data_block = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        self.data_block = self._in_script and dict(attrs).get("type") == "application/x-rt4chart"
        if self.data_block:
            self.blocks.append((dict(attrs), []))

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self.data_block:
            self.blocks[-1][1].append(data)
        else:
            (self.scripts if self._in_script else self.text).append(data)

    def executable(self) -> list[dict]:
        return [a for t, a in self.tags if t == "script" and "type" not in a]


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
    assert len(tags.executable()) == 2  # the page's own two; the others are data blocks
    assert not any(t in ("img", "i") for t, _ in tags.tags)  # the page itself uses neither
    assert not any(k.startswith("on") for _, a in tags.tags for k in a)
    assert not any(v.lower().startswith("javascript:") for _, a in tags.tags for v in a.values() if v)
    text = "".join(tags.text)
    assert "<script>window.pwned=1</script>" in text and 'javascript:window.pwned=3' in text
    assert not any("pwned" in s for s in tags.scripts)
    assert not any("<script>" in "".join(text) for _, text in tags.blocks)  # the index holds no markup


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
    assert card.startswith('<div class="rt4c card">') and "<script" not in card and card.count("<mark") == len(audit_rows[1].report.unfaithful_spans)
    assert audit_rows[1].report._repr_html_() == card
    with pytest.raises(InvalidInput):
        render_html(42)


def _decoded(tags: Tags) -> dict[str, object]:
    """The page's data blocks, decoded as its script decodes them."""
    import base64
    import gzip
    import json

    out = {}
    for attrs, text in tags.blocks:
        body = "".join(text)
        out[attrs["id"]] = json.loads(gzip.decompress(base64.b64decode(body)) if attrs["data-enc"] == "gzip" else body)
    return out


def test_a_large_run_keeps_its_first_page_as_markup_and_compresses_the_rest(audit_rows):
    from rt4chart_plugins.audit.pack import CHUNK, PAGE

    many = [(f"r{i}", audit_rows[i % 4].report) for i in range(1100)]
    page = render_html(many)
    tags = parse(page)
    assert sum(1 for t, a in tags.tags if t == "article") == PAGE  # the rest is not markup yet
    blocks = _decoded(tags)
    index = blocks.pop("rt4c-index")
    assert [r[0] for r in index["rows"]] == [anchor(f"r{i}") for i in range(1100)]
    chunks = [blocks[f"rt4c-chunk-{k}"] for k in range(len(blocks))]
    assert [len(c) for c in chunks] == [CHUNK] * 4 + [1100 - PAGE - 4 * CHUNK]
    assert all(m.startswith(f'<article class="row" id="{anchor(f"r{i}")}"')
               for i, m in enumerate((m for c in chunks for m in c), start=PAGE))
    assert "open it with JavaScript on" in "".join(tags.text)
    plain = render_html(many, compress=False)
    assert plain.count("<article") == 1100 and len(page) < len(plain) / 3
    assert render_html(many[:1000]).count("<article") == 1000  # up to 1,000 rows: every row as markup


def test_a_text_cannot_close_the_data_block_it_sits_in(verifier):
    report = verifier.verify(context=["x </script><script>alert(1)</script>"], answer="x")
    page = render_html([("</script><script>alert(2)</script>", report)], compress=False)
    tags = parse(page)
    assert len(tags.executable()) == 2 and len(tags.blocks) == 1
    index = _decoded(tags)["rt4c-index"]
    assert index["rows"][0][0] == anchor("</script><script>alert(2)</script>")


def test_the_index_gives_each_row_its_facts_for_filters_and_sorting(audit_rows):
    index = _decoded(parse(render_html(audit_rows)))["rt4c-index"]
    rows = {r[0]: dict(zip(index["keys"], r)) for r in index["rows"]}
    con = next(r.report for r in audit_rows if r.id == "con")
    entry = rows[anchor("con")]
    assert (entry["h"], entry["s"], entry["l"], entry["sc"]) == (1, "verified", " CON ", round(con.score, 4))
    assert entry["cf"] == round(min(c.probs[c.label] for c in con.claims), 4) and entry["n"] == 1
    assert rows[anchor("broken")]["sc"] is None and rows[anchor("broken")]["s"] == "failed"
    assert rows[anchor("refusal")]["n"] == 0 and rows[anchor("refusal")]["k"] is None


def test_the_histogram_shows_its_counts_and_axes(audit_rows):
    s = summarize(as_rows(audit_rows))
    tags = parse(render_html(audit_rows))
    svg = "".join(tags.text)
    counts = [a for t, a in tags.tags if t == "text" and a.get("class") == "count"]
    assert len(counts) == len(s.histogram) and sum(s.histogram) == 4
    assert [a for t, a in tags.tags if t == "line" and a.get("class") == "axis"]  # both axes drawn
    assert "0.0" in svg and "1.0" in svg and "answer score" in svg  # the bins' edges and the axis' title


def test_aggregates_per_task_and_the_sort_control(tmp_path, audit_rows):
    rows = as_rows(audit_rows)
    rows = [r.model_copy(update={"meta": {"task": "QA" if i % 2 else "Summary"}}) for i, r in enumerate(rows)]
    s = summarize(rows)
    assert [(g.value, g.rows, g.hallucinated) for g in s.groups] == [
        ("QA", 2, sum(1 for r in rows[1::2] if r.report and r.report.hallucinated)),
        ("Summary", 3, sum(1 for r in rows[::2] if r.ok and r.report and r.report.hallucinated))]
    page = render_html(rows)
    assert "<td>task = QA</td><td>2</td>" in page and 'class="groups"' in page
    tags = parse(page)
    sorts = [a["value"] for t, a in tags.tags if t == "option"][-4:]
    assert sorts == ["", "score", "score-desc", "conf"]
    assert "change" not in sorts and summarize(rows, by=[]).groups == []


def test_a_baseline_gives_each_row_its_change(runs):
    before, after = runs
    page = render_html(after, baseline=before)
    index = _decoded(parse(page))["rt4c-index"]
    rows = {r[0]: dict(zip(index["keys"], r)) for r in index["rows"]}
    assert rows[anchor("broke")]["k"] == "newly_hallucinated" and rows[anchor("broke")]["d"] == -0.5
    assert rows[anchor("new")]["k"] == "only_after"
    assert '<option value="change">' in page and "was 1.00 (-0.50)" in page



def test_a_claim_a_rule_decided_says_which_check_and_what_the_judge_had_said(audit_rows):
    text = " ".join(parse(render_html(audit_rows)).text)
    assert "Decided by the contrast check (quantifier)" in text  # the policy's "all users"
    assert "Decided by the records check (yes/no field)" in text  # "has TVs" against HasTV False


def test_a_page_is_made_the_same_from_its_keywords_or_one_page_value(tmp_path, audit_rows):
    """render_html's keywords, write_html's and html_parts' Page are one set of options."""
    page = Page(title="Run 7 <audit>", settings={"judge": "trained"}, compress=False)
    whole = render_html(audit_rows, title="Run 7 <audit>", settings={"judge": "trained"}, compress=False)
    assert "".join(html_parts(audit_rows, page)) == whole and "Run 7 &lt;audit&gt;" in whole
    written = write_html(audit_rows, tmp_path / "a.html", title="Run 7 <audit>", settings={"judge": "trained"}, compress=False)
    assert written.read_text(encoding="utf-8") == whole
    with pytest.raises(TypeError, match="not both"):
        list(html_parts(audit_rows, page, title="other"))
    with pytest.raises(TypeError):
        write_html(audit_rows, tmp_path / "b.html", titel="typo")
