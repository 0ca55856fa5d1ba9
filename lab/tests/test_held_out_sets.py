"""The lab's hand-written dev sets, the first-user set (``first_user.jsonl``) and the minimal pairs
(``pairs.jsonl``), are never trained on: no module that builds training data or trains loads or
names them, and the training data kept in the lab (the reader labels) holds none of their contexts."""

import json
import re
import subprocess
import sys
from pathlib import Path

from rt4chart_lab.data.first_user import load_first_user
from rt4chart_lab.data.pairs import load_pairs

ROOT = Path(__file__).resolve().parents[2]
LAB = ROOT / "lab" / "rt4chart_lab"


#: what names the hand-written dev sets in code
HELD_OUT = re.compile(r"first_user|first-user|pairs\.jsonl|data\.pairs\b|data import[^\n]*\bpairs\b")


def test_no_training_source_reads_the_hand_written_sets():
    """No lab module that the training imports (every module of ``training`` and ``contrastive``,
    the lazily imported generators included, and what they import) loads or names the first-user
    set or the minimal pairs."""
    code = ("import json, sys, pkgutil, importlib\n"
            "import rt4chart_lab.training, rt4chart_lab.contrastive\n"
            "for pkg in (rt4chart_lab.training, rt4chart_lab.contrastive):\n"
            "    for m in pkgutil.iter_modules(pkg.__path__):\n"
            "        importlib.import_module(pkg.__name__ + '.' + m.name)\n"
            "print(json.dumps({n: getattr(m, '__file__', None) for n, m in sys.modules.items()"
            " if n.startswith('rt4chart_lab')}))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT / "lab")
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"rt4chart_lab.training.data", "rt4chart_lab.training.train",
            "rt4chart_lab.contrastive.edits"} <= set(loaded)
    assert "rt4chart_lab.data.first_user" not in loaded and "rt4chart_lab.data.pairs" not in loaded
    assert not [n for n in loaded if n.startswith("rt4chart_lab.bench")], "training imports no benchmark"
    naming = [n for n, f in loaded.items() if f and HELD_OUT.search(Path(f).read_text(encoding="utf-8"))]
    assert not naming, f"training-side modules that name a held-out set: {naming}"


def test_the_committed_reader_labels_hold_no_hand_written_context():
    """The reader labels are the training data kept in the lab: no line's premise or claim carries
    a context of the first-user set or of the minimal pairs."""
    openings = {c[:60] for c in {r.context for r in load_first_user()} | {p.context for p in load_pairs()}}
    hits = []
    for path in sorted((LAB / "data" / "reader_labels").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                text = f"{d.get('premise') or ''}\n{d.get('claim') or ''}"
                hits += [f"{path.name}: {o!r}" for o in openings if o in text]
    assert not hits, hits[:5]
