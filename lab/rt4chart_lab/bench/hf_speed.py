"""Pairs per second of a Hugging Face verifier on this machine: PyTorch against its ONNX export.

    python -m rt4chart_lab.bench.hf_speed [--arch deberta-v3-base] [--pairs 64] [--tokens 128 256]

A base-size DeBERTa-v3 (184M parameters: 12 layers, hidden 768, vocabulary 128,100) is built with
random weights from its config (no download: the timing of an architecture does not depend on its
weights), saved with ``save_pretrained``, exported with ``rt4chart model export --int8``, and the
same (premise, claim) pairs are scored by the judge's three runtimes, in batches of 16 as the judge
runs them. Each row also gives the largest difference of P(class) from torch's on those pairs. The
pairs are made to be ``--tokens`` tokens long: the judge's premise picker fills up to the model's
max length less the claim's room, so on long contexts a pair is as long as the budget allows.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from rt4chart_plugins.judges.hf.runtime import load, read_card
from rt4chart_plugins.model_export import export
from rt4chart_lab.hf_toy import build_model

WORDS = ("the free trial lasts days only new users whose identity has been verified can extend it once by "
         "seven priority email support is not part of plan").split()


def pairs(n: int, tokens: int) -> tuple[list[str], list[str]]:
    """``n`` (premise, claim) pairs of about ``tokens`` tokens each (one word is one token here)."""
    rng = np.random.default_rng(0)
    claims = [" ".join(rng.choice(WORDS, 12)) for _ in range(n)]
    premises = [" ".join(rng.choice(WORDS, max(1, tokens - 15))) for _ in range(n)]
    return premises, claims


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rt4chart_lab.bench.hf_speed", description=__doc__)
    parser.add_argument("--arch", default="deberta-v3-base", help="toy architecture (rt4chart_lab.hf_toy)")
    parser.add_argument("--pairs", type=int, default=64, help="pairs timed per runtime and length")
    parser.add_argument("--tokens", type=int, nargs="+", default=[128, 256], help="tokens per pair")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--dir", help="build the model here (default: a temporary folder)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.dir or tmp) / args.arch
        if not (folder / "config.json").is_file():
            build_model(folder, args.arch, max_length=512)
        if not (folder / "onnx" / "model.int8.onnx").is_file():
            export(str(folder), int8=True)
        card = read_card(folder)
        print(f"{args.arch}, {os.cpu_count()} CPUs, batches of {args.batch_size}, {args.pairs} pairs a row\n")
        # the machine's load average is printed with each row: on a shared machine it moves the
        # seconds more than anything measured here
        print("| runtime | tokens a pair | pairs/s | max abs P diff vs torch | load average |")
        print("|---|---|---|---|---|")
        for tokens in args.tokens:
            premises, claims = pairs(args.pairs, tokens)
            reference = None
            for runtime in ("torch", "onnx", "onnx-int8"):
                model = load(card, runtime, max_length=512, prompt=None, verdict_tokens=("0", "1"), device="cpu")
                model.logits(premises[:4], claims[:4], args.batch_size)  # warm-up
                started = time.perf_counter()
                logits, _ = model.logits(premises, claims, args.batch_size)
                rate = len(claims) / (time.perf_counter() - started)
                probs = softmax(logits)
                reference = probs if reference is None else reference
                diff = float(np.abs(probs - reference).max())
                load_avg = os.getloadavg()[0]
                print(f"| {model.runtime} | {tokens} | {rate:.1f} | {diff:.1e} | {load_avg:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
