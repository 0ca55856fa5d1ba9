"""``rt4chart bench-nli``: the NLI table. Accuracy of trained-verifier artifacts on the NLI sets
that are never trained on (:data:`rt4chart_lab.data.nli.REPORT`), so that an artifact's grasp of
language is measured on data no one here wrote.

Each (premise, hypothesis) pair is verified the way a user's answer is: ``Verifier`` with the
trained judge (its decision, threshold and every rule) on context = premise, answer = hypothesis,
the answer's label read as the prediction ("verifier"). ``--encoder`` adds the encoder alone: the
argmax of its three logits on (hypothesis, premise), no decision and no rules. A 3-way set is
scored on ENT / CON / NIC; a 2-way set on entailed versus not (CON and NIC both count as "not").

    rt4chart bench-nli --artifact shipped --artifact PATH/TO/ARTIFACT [--limit 1000] [--encoder]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from rt4chart_lab.data.datasets import resolve_data_dir
from rt4chart_lab.data.nli import ENT, NIC, REPORT, CON, NliPair, read_split

_LABEL = {"ENT": ENT, "CON": CON, "NIC": NIC}


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of an accuracy of ``hits`` in ``n``."""
    if not n:
        return 0.0, 0.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return centre - half, centre + half


def sample(pairs: list[NliPair], limit: int | None, seed: int = 13) -> list[NliPair]:
    """The same ``limit`` pairs in every run (a fixed seed), all of them without a limit."""
    return pairs if not limit or len(pairs) <= limit else random.Random(seed).sample(pairs, limit)


def _correct(pred: int, gold: int, scoring: str) -> bool:
    if scoring == "2way":
        return (pred == ENT) == (gold == ENT)
    return pred == gold


def verifier_predictions(artifact: str | None, pairs: list[NliPair]) -> list[int]:
    from rt4chart_plugins.verifier import Verifier

    kwargs = {} if artifact in (None, "shipped") else {"artifact_dir": artifact}
    v = Verifier("trained", judge_kwargs=kwargs)
    reports = v.verify_many([{"context": p.premise, "answer": p.hypothesis} for p in pairs])
    return [_LABEL.get(str(r.label), NIC) for r in reports]


def encoder_predictions(artifact: str | None, pairs: list[NliPair]) -> list[int]:
    from rt4chart_plugins.judges.trained import encoder

    directory, manifest = encoder.load_manifest(None if artifact in (None, "shipped") else Path(artifact))
    tok = encoder.load_tokenizer(directory / encoder.TOKENIZER_FILE, manifest.max_length)
    scorer = encoder.PairScorer(directory / encoder.MODEL_FILE, tok, 2)
    logits, _, _ = scorer.logits([p.hypothesis for p in pairs], [p.premise for p in pairs])
    return [max(range(3), key=row.__getitem__) for row in logits]


def run(artifacts: list[str], *, limit: int | None, data_dir: str | None, encoder_too: bool,
        log=print) -> str:
    nli_dir = resolve_data_dir(data_dir) / "nli"
    columns = [(a, "verifier") for a in artifacts] + ([(a, "encoder") for a in artifacts] if encoder_too else [])
    head = "| set | pairs | " + " | ".join(f"{Path(a).name if a != 'shipped' else 'shipped'} ({m})"
                                           for a, m in columns) + " |"
    lines = [head, "|" + "---|" * (len(columns) + 2)]
    for title, split, scoring in REPORT:
        path = nli_dir / split.folder / f"{split.split}.jsonl.gz"
        if not path.exists():
            log(f"  {title}: {path} is missing, skipped", file=sys.stderr)
            continue
        pairs = sample(read_split(nli_dir, split), limit)
        cells = []
        for artifact, mode in columns:
            started = time.time()
            preds = (verifier_predictions if mode == "verifier" else encoder_predictions)(artifact, pairs)
            hits = sum(_correct(p, q.label, scoring) for p, q in zip(preds, pairs))
            acc = hits / len(pairs)
            lo, hi = wilson(hits, len(pairs))
            cells.append(f"{acc:.3f} [{lo:.2f}, {hi:.2f}]")
            log(f"  {title}, {artifact} ({mode}): {acc:.3f} on {len(pairs)} pairs, {time.time() - started:.0f}s",
                file=sys.stderr)
        lines.append(f"| {title} | {len(pairs)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="rt4chart bench-nli", description=__doc__.splitlines()[0])
    p.add_argument("--artifact", action="append", default=None,
                   help="a trained-verifier artifact directory, or 'shipped' (repeatable; default: shipped)")
    p.add_argument("--limit", type=int, default=1000, help="pairs per set, drawn with a fixed seed (0: all)")
    p.add_argument("--encoder", action="store_true", help="also score the encoder alone (argmax of its logits)")
    p.add_argument("--data-dir", help="the shared data directory (default: ../shared/data or $RT4CHART_DATA_DIR)")
    args = p.parse_args(argv)
    print(run(args.artifact or ["shipped"], limit=args.limit or None, data_dir=args.data_dir,
              encoder_too=args.encoder, log=lambda *a, **k: print(*a, **k, flush=True)))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
