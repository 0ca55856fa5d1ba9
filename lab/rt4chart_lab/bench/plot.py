"""``plot.png``: answer-level precision / recall / F1 and span F1 per system, overall and per task.

Drawn with matplotlib's Agg backend (no screen needed). matplotlib is the ``bench`` extra; without
it the plot is skipped with a note rather than failing a run that took an hour.
"""

from __future__ import annotations

from pathlib import Path


def write_plot(run_dir: Path, summary: dict) -> str | None:
    """Write ``run_dir/plot.png`` for a RAGTruth summary; returns a note when it cannot."""
    if summary["meta"]["dataset"] != "ragtruth":
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return 'plot skipped: matplotlib is not installed (pip install "rt4chart-plugins[bench]")'
    systems = summary["systems"]
    groups = ["overall", *sorted({t for m in systems.values() for t in m["by_task"]})]
    metrics = [("precision", "answer P"), ("recall", "answer R"), ("f1", "answer F1"), ("span", "span F1")]
    fig, axes = plt.subplots(1, len(groups), figsize=(4.2 * len(groups), 4.2), sharey=True, squeeze=False)
    width = 0.8 / max(1, len(systems))
    for ax, group in zip(axes[0], groups):
        for k, (name, m) in enumerate(systems.items()):
            block = m["overall"] if group == "overall" else m["by_task"].get(group)
            if block is None:
                continue
            values = [block["answer"][key] if key != "span" else block["span"]["f1"] for key, _ in metrics]
            xs = [i + (k - (len(systems) - 1) / 2) * width for i in range(len(metrics))]
            ax.bar(xs, [v or 0.0 for v in values], width, label=name)
        ax.set_xticks(range(len(metrics)), [label for _, label in metrics], fontsize=8)
        n = (m["overall"] if group == "overall" else m["by_task"].get(group, {})).get("n", "?")
        ax.set_title(f"{group} (n={n})")
        ax.set_ylim(0, 1)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("score")
    axes[0][-1].legend(fontsize=7, loc="upper right")
    fig.suptitle(f"RAGTruth {summary['meta']['selection']} — judge: {summary['meta']['judge']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(run_dir / "plot.png", dpi=110)
    plt.close(fig)
    return None
