"""``summary.json`` (every number, machine-readable) and ``table.md`` (the same, for people)."""

from __future__ import annotations

import json
from pathlib import Path


def _f(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def _row(cells: list[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _table(header: list[str], rows: list[list[object]]) -> list[str]:
    return [_row(header), _row(["---"] * len(header)), *(_row(r) for r in rows)]


def _ci(value: float | None, block: dict, key: str) -> str:
    """``0.646 [0.55, 0.73]``: the value and its bootstrap interval, where there is one."""
    interval = (block.get("intervals") or {}).get(key)
    return _f(value) + (f" [{interval[0]:.2f}, {interval[1]:.2f}]" if value is not None and interval else "")


COST_HEADER = ["s median", "s p90", "calls/row", "naive calls/row", "tokens/row", "peak MB"]


def _cost_cells(m: dict) -> list[str]:
    c = m["cost"]
    return [_f(c["seconds_median"], 2), _f(c["seconds_p90"], 2), _f(c["judge_calls_mean"], 1),
            _f(c.get("naive_calls_mean"), 1), _f(c["tokens_mean"], 0), _f(m.get("peak_rss_mb"), 0)]


#: the table's heading for each dataset in RAGTruth's row form
_TITLES = {"ragtruth": "RAGTruth", "records": "Records dev", "extra": "The extra/ sets"}


def ragtruth_markdown(summary: dict) -> str:
    systems = summary["systems"]
    title = _TITLES.get(summary["meta"].get("dataset"), "RAGTruth")
    lines = [f"### {title} — {summary['meta']['selection']} (judge: {summary['meta']['judge']})", ""]
    lines += _table(
        ["system", "n", "unjudged", "ans P", "ans R", "ans F1", "AUC", "AUC claim", "AUC sent", "span P", "span R", "span F1",
         "phrase P", "phrase R", "phrase F1", *COST_HEADER],
        [[name, m["overall"]["n"], m["overall"]["unjudged"],
          *(_f(m["overall"]["answer"][k]) for k in ("precision", "recall", "f1")),
          _f(m["overall"]["auc"]), _f(m["overall"]["auc_claim"]), _f(m["overall"].get("auc_sentence")),
          *(_f(m["overall"]["span"][k]) for k in ("precision", "recall", "f1")),
          *(_f(m["overall"]["phrase_span"][k]) for k in ("precision", "recall", "f1")),
          *_cost_cells(m)] for name, m in systems.items()],
    )
    lines += ["", "Per task type:", ""]
    lines += _table(
        ["system", "task", "n", "positives", "ans P", "ans R", "ans F1", "AUC", "AUC sent", "span P", "span R", "span F1", "phrase F1"],
        [[name, task, b["n"], b["positives"], *(_f(b["answer"][k]) for k in ("precision", "recall", "f1")),
          _f(b["auc"]), _f(b.get("auc_sentence")), *(_f(b["span"][k]) for k in ("precision", "recall", "f1")), _f(b["phrase_span"]["f1"])]
         for name, m in systems.items() for task, b in m["by_task"].items()],
    )
    lines += ["", "With 95 % bootstrap intervals (the rows resampled 1,000 times). CON vs NIC: balanced accuracy "
              "on the gold spans whose claim was flagged, chance 0.5:", ""]
    lines += _table(
        ["system", "task", "ans F1", "AUC", "span F1", "CON vs NIC"],
        [[name, task, _ci(b["answer"]["f1"], b, "f1"), _ci(b["auc"], b, "auc"), _ci(b["span"]["f1"], b, "span_f1"),
          _ci(b.get("con_nic_balanced"), b, "con_nic")]
         for name, m in systems.items() for task, b in [("all", m["overall"]), *m["by_task"].items()]],
    )
    lines += ["", "Gold span type vs. the label of the overlapping claim(s):", ""]
    lines += _table(
        ["system", "gold", "CON", "NIC", "ENT", "none"],
        [[name, kind, *(m["confusion"][kind][k] for k in ("CON", "NIC", "ENT", "none"))]
         for name, m in systems.items() for kind in ("conflict", "baseless")],
    )
    return "\n".join(lines) + "\n"


def wice_markdown(summary: dict) -> str:
    systems = summary["systems"]
    lines = [f"### WiCE — {summary['meta']['selection']} (judge: {summary['meta']['judge']})", ""]

    def mix(m: dict, gold: str) -> str:
        d = m["labels_by_gold"].get(gold)
        return "/".join(str(d[k]) for k in ("ENT", "CON", "NIC", "none")) if d else "–"

    lines += _table(
        ["system", "n", "unjudged", "label acc", "acc n", "supported ENT/CON/NIC/none",
         "partially ENT/CON/NIC/none", "not_supported ENT/CON/NIC/none", "evid P", "evid R", "evid F1", *COST_HEADER],
        [[name, m["n"], m["unjudged"], _f(m["label_accuracy"]), m["label_accuracy_n"], mix(m, "supported"),
          mix(m, "partially_supported"), mix(m, "not_supported"),
          *(_f(m["evidence"][k]) for k in ("precision", "recall", "f1")), *_cost_cells(m)]
         for name, m in systems.items()],
    )
    return "\n".join(lines) + "\n"


def pairs_markdown(summary: dict) -> str:
    systems = summary["systems"]
    lines = [f"### Minimal pairs — {summary['meta']['selection']} (judge: {summary['meta']['judge']})", ""]
    lines += _table(
        ["system", "n", "unjudged", "label acc", "halluc. vs faithful", "worst category", "same label w/o question",
         *COST_HEADER],
        [[name, m["n"], m["unjudged"], _f(m["label_accuracy"]), _f(m["binary_accuracy"]),
          f"{m['worst_category']} {_f(m['by_category'][m['worst_category']]['label_accuracy'])}" if m["worst_category"] else "n/a",
          f"{_f(m['question_invariance'])} ({m['question_pairs']})", *_cost_cells(m)]
         for name, m in systems.items()],
    )
    lines += ["", "Per category (3-way label accuracy / hallucinated-vs-faithful accuracy):", ""]
    cats = sorted({c for m in systems.values() for c in m["by_category"]})
    lines += _table(["category", "n", *systems],
                    [[c, next(m["by_category"][c]["n"] for m in systems.values() if c in m["by_category"]),
                      *(f"{_f(m['by_category'][c]['label_accuracy'], 2)} / {_f(m['by_category'][c]['binary_accuracy'], 2)}"
                        if c in m["by_category"] else "–" for m in systems.values())] for c in cats])
    lines += ["", "Gold label (rows) vs. predicted label (columns):", ""]
    lines += _table(["system", "gold", "ENT", "CON", "NIC", "none"],
                    [[name, g, *(m["confusion"][g][p] for p in ("ENT", "CON", "NIC", "none"))]
                     for name, m in systems.items() for g in ("ENT", "CON", "NIC")])
    return "\n".join(lines) + "\n"


def first_user_markdown(summary: dict) -> str:
    from rt4chart_lab.bench.first_user import PREDICTED, TARGETS
    from rt4chart_lab.data.first_user import HALLUCINATED

    systems = summary["systems"]

    def share(block: dict | None) -> str:
        return f"{_f(block['share'])} ({block['right']}/{block['n']})" if block else "–"

    def target(name: str) -> str:
        return f"≥ {TARGETS[name]:.2f}" if name in TARGETS else ""

    meta = summary["meta"]
    title = "First-user set" if meta["dataset"] == "first-user" else f"{meta['dataset']} (scored as the first-user set)"
    lines = [f"### {title} — {meta['selection']} (judge: {meta['judge']})", ""]
    lines += _table(
        ["system", "n", "unjudged", "invented facts caught", "halluc. vs faithful", "balanced acc",
         "halluc. flagged", "faithful kept", "answers/s", *COST_HEADER],
        [[name, m["n"], m["unjudged"], share(m["invented_caught"]), _f(m["binary_accuracy"]),
          _f(m["balanced_accuracy"]), share(m["hallucinated_flagged"]), share(m["faithful_kept"]),
          _f(m["cost"].get("answers_per_s"), 1), *_cost_cells(m)] for name, m in systems.items()],
    )
    lines += ["", "Per group, the share right: flagged (CON or NIC) for a hallucinated group, not flagged "
              "(ENT or no claims) for a faithful one. Targets are the default judge's:", ""]
    groups = list(dict.fromkeys(g for m in systems.values() for g in m["by_group"]))
    rows = [[g, next(m["by_group"][g]["n"] for m in systems.values() if g in m["by_group"]),
             "flagged" if g in HALLUCINATED else "not flagged",
             target(g), *(share(m["by_group"].get(g)) for m in systems.values())] for g in groups]
    rows.append(["**invented facts caught**", next(iter(systems.values()))["invented_caught"]["n"] if systems else 0,
                 "flagged", target("invented facts caught"), *(share(m["invented_caught"]) for m in systems.values())])
    rows.append(["**halluc. vs faithful**", next(iter(systems.values()))["n"] if systems else 0, "either",
                 target("hallucinated vs faithful"), *(_f(m["binary_accuracy"]) for m in systems.values())])
    lines += _table(["group", "n", "right when", "target", *systems], rows)
    lines += ["", "Gold label (rows) vs. the answer's predicted label (columns):", ""]
    lines += _table(["system", "gold", *PREDICTED],
                    [[name, g, *(m["confusion"][g][p] for p in PREDICTED)]
                     for name, m in systems.items() for g in ("ENT", "NONE", "CON", "NIC") if g in m["confusion"]])
    return "\n".join(lines) + "\n"


def write_report(run_dir: Path, summary: dict) -> str:
    """Write ``summary.json`` and ``table.md`` into ``run_dir``; return the Markdown."""
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    meta = summary["meta"]
    md = {"wice": wice_markdown, "pairs": pairs_markdown, "first-user": first_user_markdown}.get(
        meta.get("scored_as", meta["dataset"]), ragtruth_markdown)(summary)
    (run_dir / "table.md").write_text(md, encoding="utf-8")
    return md
