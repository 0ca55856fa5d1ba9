"""``rt4chart model export hf:…``: a verifier as an ONNX graph, optionally int8, checked against torch.

On 2 CPU cores onnxruntime runs an encoder faster than PyTorch eager, and its int8 graph
(weights quantized per channel, activations per batch) faster again (docs/judges.md has the
table). The export folder is self-contained: ``model.onnx`` (and ``model.int8.onnx``), the fast
tokenizer's ``tokenizer.json``, the model's ``config.json`` and ``export.json`` (the inputs, the
max length, each graph's sha256, and how far its logits were from torch's on check pairs). The
judge finds it in the model folder's ``onnx/`` (or given as the folder itself) and needs neither
torch nor transformers to run it.

The fp32 graph must give torch's logits within :data:`FP32_TOLERANCE`, or the export fails; the
int8 graph's distance is measured and written down, not held to a bound: quantization moves
logits by design, and what it costs in verdicts is a benchmark's question.
"""

from __future__ import annotations

import json
import logging
import shutil
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from rt4chart_plugins.errors import ModelNotAvailable
from rt4chart_plugins.judges.hf.runtime import EXPORT_FILE, GRAPHS, Loaded, _load_onnx, _load_torch, read_card
from rt4chart_plugins.models import sha256_file
from rt4chart_plugins.models.hf import locate

#: the largest |logit difference| allowed between the fp32 graph and torch on the check pairs
FP32_TOLERANCE = 1e-3
#: the check pairs: short and long, so that padding and truncation are both exercised
CHECK_PAIRS = [
    ("The free trial lasts 14 days.", "The trial lasts 30 days."),
    (
        "Only new users whose identity has been verified can start the free trial. " * 3,
        "All users can start the trial without verification.",
    ),
    ("Priority email support is not part of the trial.", "The trial includes priority email support."),
    ("x", "y"),
]


def export(
    name: str, out: str | Path | None = None, *, int8: bool = False, max_length: int | None = None
) -> tuple[Path, dict[str, Any]]:
    """Export the model ``name`` (a folder or a pulled repo id) to ``out`` (default: its folder's
    ``onnx/``); returns the folder and what ``export.json`` says. The tracer's and the quantizer's
    warnings (about Python control flow frozen into the graph, and a pre-processing hint) are
    silenced: the check against torch is what says whether the graph is the model."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        logging.disable(logging.WARNING)
        try:
            return _export(name, out, int8=int8, max_length=max_length)
        finally:
            logging.disable(logging.NOTSET)


def _export(name: str, out: str | Path | None, *, int8: bool, max_length: int | None) -> tuple[Path, dict[str, Any]]:
    directory, pin = locate(name)
    card = read_card(directory)
    loaded = _load_torch(card, max_length=max_length, prompt=None, verdict_tokens=("0", "1"), device="cpu")
    target = Path(out) if out else directory / "onnx"
    target.mkdir(parents=True, exist_ok=True)
    torch = loaded.extra["torch"]
    _, sample = next(loaded.encoder.batches([p for p, _ in CHECK_PAIRS[:2]], [c for _, c in CHECK_PAIRS[:2]], 2))
    names = list(sample)
    wrapper = _wrapper(loaded, names)
    graph = target / GRAPHS["onnx"]
    try:
        torch.onnx.export(
            wrapper,
            tuple(torch.from_numpy(sample[n]) for n in names),
            str(graph),
            input_names=names,
            output_names=["logits"],
            opset_version=17,
            dynamo=False,
            dynamic_axes={n: {0: "batch", 1: "sequence"} for n in names} | {"logits": {0: "batch"}},
        )
    except Exception as exc:  # noqa: BLE001 - an architecture the exporter cannot trace: say which
        raise ModelNotAvailable(f"could not export {directory} to ONNX ({type(exc).__name__}: {exc})") from None
    graphs = {"onnx": GRAPHS["onnx"]}
    if int8:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        # per-channel, reduced-range weights, as the trained verifier's int8 graph (lab/docs/training.md)
        quantize_dynamic(
            str(graph),
            str(target / GRAPHS["onnx-int8"]),
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,
        )
        graphs["onnx-int8"] = GRAPHS["onnx-int8"]
    else:
        (target / GRAPHS["onnx-int8"]).unlink(missing_ok=True)  # a stale int8 graph would not match this one
    loaded.extra["tokenizer"].backend_tokenizer.save(str(target / "tokenizer.json"))
    if (directory / "config.json").resolve() != (target / "config.json").resolve():
        shutil.copyfile(directory / "config.json", target / "config.json")
    meta: dict[str, Any] = {
        "kind": card.kind,
        "inputs": names,
        "max_length": loaded.encoder.max_length,
        "pad_id": int(loaded.extra["tokenizer"].pad_token_id or 0),
        "pad_token": str(loaded.extra["tokenizer"].pad_token),
        "graphs": graphs,
        "sha256": {k: sha256_file(target / v) for k, v in graphs.items()},
        "source": {"model": name, "revision": (pin or {}).get("revision")},
    }
    (target / EXPORT_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    meta["check"] = check(loaded, target)
    (target / EXPORT_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    if meta["check"]["onnx"] > FP32_TOLERANCE:
        raise ModelNotAvailable(
            f"the exported graph's logits are {meta['check']['onnx']:.2g} from torch's (> {FP32_TOLERANCE}): "
            f"{graph} is not the model; not using it"
        )
    return target, meta


def check(loaded: Loaded, folder: Path) -> dict[str, float]:
    """The largest |logit difference| between torch and each exported graph on :data:`CHECK_PAIRS`."""
    card = read_card(folder)
    premises, claims = [p for p, _ in CHECK_PAIRS], [c for _, c in CHECK_PAIRS]
    reference = _all_logits(loaded, premises, claims)
    out = {}
    for runtime in card.export["graphs"] if card.export else {}:
        graph = _load_onnx(card, runtime, max_length=loaded.encoder.max_length, prompt=None, verdict_tokens=("0", "1"))
        out[runtime] = float(np.max(np.abs(_all_logits(graph, premises, claims) - reference)))
    return out


def _all_logits(loaded: Loaded, premises: list[str], claims: list[str]) -> np.ndarray:
    return np.concatenate([loaded.run(arrays) for _, arrays in loaded.encoder.batches(premises, claims, len(claims))])


def _wrapper(loaded: Loaded, names: list[str]) -> Any:
    """The model as a module of positional input arrays (``names``, in order) that returns its
    logits (a seq2seq verifier's at the first decoded token)."""
    import torch

    model = loaded.extra["model"]
    seq2seq, start = loaded.card.kind == "seq2seq", int(loaded.extra["decoder_start"])

    class Logits(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = model

        def forward(self, *arrays: Any) -> Any:
            kwargs = dict(zip(names, arrays))
            if seq2seq:
                kwargs["decoder_input_ids"] = kwargs["input_ids"][:, :1] * 0 + start
                return self.inner(**kwargs).logits[:, 0, :]
            return self.inner(**kwargs).logits

    return Logits().eval()
