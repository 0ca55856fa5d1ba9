"""What an hf judge's options name, checked when the verifier is built, before any row.

A verifier is built long before its judge loads (``Verifier("hf:…")`` loads nothing, and a Ray job
checks its detector on the driver and loads it in each worker). A model that is missing, has no
tokenizer or no weights, whose weights are cut short, or a runtime that does not exist, would
otherwise fail every row, or every actor, with a raw library error. All of it can be read from the
folder without loading anything: its config, the names of its files and each safetensors file's
header (eight bytes and a JSON index saying how long the file must be).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rt4chart_plugins.errors import InvalidInput, ModelNotAvailable
from rt4chart_plugins.judges.hf.runtime import RUNTIMES, ModelCard, choose_runtime, read_card
from rt4chart_plugins.models.hf import locate

#: files any one of which gives transformers a tokenizer to build a fast one from
TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "vocab.json", "spiece.model", "sentencepiece.bpe.model")
#: the weights ``save_pretrained`` writes (one file, or shards with their index)
WEIGHT_FILES = (
    "model.safetensors",
    "model.safetensors.index.json",
    "pytorch_model.bin",
    "pytorch_model.bin.index.json",
)
#: a safetensors header larger than this is no header (the format caps it at 100 MB)
_MAX_HEADER = 100_000_000


def refused_options(options: Mapping[str, Any]) -> Exception | None:
    """The registry's check of an hf judge's options: the error its first row would meet, now, in
    one line; None when the model can be loaded as far as its files tell. The registry has already
    checked that ``model`` is given (a required option) and is a string or a path."""
    runtime = options.get("runtime", "auto")
    if runtime not in RUNTIMES:
        return InvalidInput(f"runtime: one of {', '.join(RUNTIMES)}, not {runtime!r}")
    try:
        directory, _ = locate(str(options["model"]))
        card = read_card(directory, labels=options.get("labels"), kind=options.get("kind", "auto"))
        check_files(card, choose_runtime(card, runtime))
    except (InvalidInput, ModelNotAvailable) as exc:
        return exc
    return None


def check_files(card: ModelCard, runtime: str) -> None:
    """Raise :class:`ModelNotAvailable` when the folder lacks what ``runtime`` loads: a tokenizer,
    the weights (each safetensors file whole, by its header), or the exported graph."""
    if runtime != "torch":
        folder = card.export_dir or card.directory
        if not (folder / "tokenizer.json").is_file():
            raise ModelNotAvailable(f"{folder} holds no tokenizer.json beside its ONNX graph: export it again")
        return
    folder = card.directory
    names = {p.name for p in folder.iterdir()} if folder.is_dir() else set()
    if not names & set(TOKENIZER_FILES) and not any(n.endswith(".model") for n in names):
        raise ModelNotAvailable(
            f"{folder} holds no tokenizer (tokenizer.json, or the vocabulary files it is built from): "
            "save the model's tokenizer there too (tokenizer.save_pretrained)"
        )
    if not names & set(WEIGHT_FILES):
        raise ModelNotAvailable(
            f"{folder} holds no weights ({', '.join(WEIGHT_FILES[::2])}): save or pull the model again"
        )
    for path in sorted(folder.glob("*.safetensors")):
        problem = safetensors_problem(path)
        if problem:
            raise ModelNotAvailable(f"{path} is damaged ({problem}): save or pull the model again")


def safetensors_problem(path: Path) -> str | None:
    """What is wrong with a safetensors file's layout, read from its header alone; None when the
    header is valid and the file is exactly as long as it says. A byte flipped inside the tensors
    is not seen here (a pulled model's pin hashes every file for that)."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(8)
            if len(head) < 8:
                return "shorter than a header"
            length = int.from_bytes(head, "little")
            if length > min(size - 8, _MAX_HEADER):
                return "its header length is past the end of the file"
            header = json.loads(fh.read(length))
    except OSError as exc:
        return f"unreadable: {exc}"
    except (ValueError, UnicodeDecodeError):
        return "its header is not JSON"
    if not isinstance(header, dict):
        return "its header is not a JSON object"
    ends = []
    for name, tensor in header.items():
        if name == "__metadata__":
            continue
        offsets = tensor.get("data_offsets") if isinstance(tensor, dict) else None
        if not (isinstance(offsets, list) and len(offsets) == 2 and all(isinstance(o, int) for o in offsets)):
            return f"tensor {name!r} has no data offsets"
        ends.append(offsets[1])
    expected = 8 + length + max(ends, default=0)
    if expected != size:
        return f"{size} bytes where its header says {expected}"
    return None
