"""The served comparison's scores (rt4chart_lab/bench/served.py), on hand-made predictions."""

from rt4chart_lab.bench.served import SERVED, served_metrics, served_table
from rt4chart_lab.bench.systems import select
from rt4chart_lab.data.pairs import PairRow


def _row(i: str, label: str) -> PairRow:
    return PairRow(i, "negation", "c", None, "a", label, i[:-1])


def test_failed_rows_count_apart_and_balanced_accuracy_is_over_the_rows_scored():
    rows = [_row("p1a", "ENT"), _row("p1b", "CON"), _row("p2a", "ENT"), _row("p2b", "NIC"), _row("p1a-noq", "ENT")]
    preds = {"p1a": {"ok": True, "hallucinated": True, "cost": {"seconds": 2.0}},  # a faithful row flagged
             "p1b": {"ok": True, "hallucinated": True, "cost": {"seconds": 4.0}},
             "p2a": {"ok": True, "hallucinated": False, "cost": {"seconds": 3.0}},
             "p2b": {"ok": False, "error": "x"}}
    m = served_metrics(rows, preds)
    assert (m["rows"], m["failed"], m["faithful"], m["faithful_flagged"]) == (4, 1, 2, 1)
    assert m["balanced_accuracy"] == (1.0 + 0.5) / 2 and m["accuracy"] == 2 / 3 and m["seconds_median"] == 3.0
    table = served_table({"openai-served": {"served": m}, "flag-all": {}})
    assert "| openai-served | 4 | 1 | 0.75 | 0.67 | 1 of 2 | 3.00 |" in table and "flag-all" not in table


def test_the_served_systems_are_bench_systems():
    assert [s.name for s in select(",".join(SERVED), "pairs")] == list(SERVED)
    assert all(s.served for s in select(",".join(SERVED), "pairs"))
