"""The audit page's benchmark (``rt4chart_lab.bench.page``) end to end at small sizes, in the
system's Chromium: every page it writes opens, its script gets ready and a filter redraws the
count; and the docs' screenshot of the compare view is made."""

from __future__ import annotations

import json

from rt4chart_plugins import cli
from rt4chart_lab.bench import page as bench

CONTEXT = ["The free trial lasts 14 days.", "Only verified users are eligible."]


def _run(tmp_path, name, answers):
    samples = tmp_path / f"{name}-samples.jsonl"
    samples.write_text("".join(json.dumps({"id": f"q{i}", "context": CONTEXT, "answer": a}) + "\n"
                               for i, a in enumerate(answers)))
    out = tmp_path / f"{name}.jsonl"
    assert cli.main(["verify", str(samples), "-o", str(out), "--judge", "trained", "-q"]) == 0
    return out


def test_the_table_has_a_row_per_view_layout_and_size(tmp_path, capsys):
    before = _run(tmp_path, "before", ["The free trial lasts 14 days.", "Only verified users are eligible."])
    after = _run(tmp_path, "after", ["The free trial lasts 30 days.", "Only verified users are eligible."])
    assert bench.main([str(before), "--compare", str(after), "--rows", "10", "1200", "--markup-up-to", "1200"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("audit", "markup", "10"), ("compare", "markup", "10"), ("audit", "compressed", "1,200"),
        ("audit", "markup", "1,200"), ("compare", "compressed", "1,200"), ("compare", "markup", "1,200")]
    for r in rows:
        assert float(r[3]) > 0 and r[5] != "—" and r[6] != "—"  # a size, a first paint, a ready script
    sizes = {(r[0], r[1], r[2]): float(r[3].replace(",", "")) for r in rows}
    assert sizes["audit", "compressed", "1,200"] < sizes["audit", "markup", "1,200"] / 3


def test_the_docs_screenshot_of_the_compare_view(tmp_path):
    png = bench.diff_example(tmp_path / "diff.png", width=900, height=600)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(png.read_bytes()[16:20], "big") == 900  # the IHDR width
