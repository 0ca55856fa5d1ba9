"""A Hugging Face verifier loaded to run: its config read, its graph on PyTorch or onnxruntime.

Reading a model's ``config.json`` is cheap and needs nothing installed, so the judge reads it when
it is built: a model whose classes cannot be read, or a kind it does not know, is refused at once.
Loading the weights is what costs, and waits for the first verification.

Two runtimes give the same logits (``tests/unit/judges/test_hf_judge.py`` holds them to it):

- **torch** (the ``[hf]`` extra): transformers' ``AutoModelFor…`` on the CPU, or on a GPU when
  torch sees one;
- **onnx**: the graph ``rt4chart model export`` wrote (fp32, or int8 with ``--int8``), on
  onnxruntime, a core dependency: a judge that reads an export needs neither torch nor
  transformers.

Each returns raw logits per pair: a classifier's over its classes, a seq2seq verifier's over the
vocabulary at the first decoded token (the verdict is read off two of them).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from rt4chart_plugins.errors import InvalidInput, MissingExtra, ModelNotAvailable
from rt4chart_plugins.judges.hf.encoding import DEFAULT_PROMPT, PairEncoder
from rt4chart_plugins.judges.hf.labels import LabelMap, LabelsOption, label_map
from rt4chart_plugins.models import sha256_file

Kind = Literal["classifier", "seq2seq"]
Runtime = Literal["auto", "torch", "onnx", "onnx-int8"]
RUNTIMES = ("auto", "torch", "onnx", "onnx-int8")
EXPORT_FILE = "export.json"
#: the graphs ``rt4chart model export`` writes, by runtime
GRAPHS = {"onnx": "model.onnx", "onnx-int8": "model.int8.onnx"}
#: the longest pair read by default: longer costs quadratically and the premise picker rarely needs it
DEFAULT_MAX_LENGTH = 512
#: a seq2seq verifier's answers, "not supported" then "supported" (MiniCheck-Flan-T5's: it reads the
#: first token of each, ids 3 and 209 in T5's vocabulary)
DEFAULT_VERDICT_TOKENS = ("0", "1")


@dataclass
class ModelCard:
    """What a model folder says about itself, read without loading anything."""

    directory: Path
    config: dict[str, Any]
    kind: Kind
    labels: LabelMap
    export: dict[str, Any] | None = None  # export.json of an ONNX export, in this folder or in onnx/
    export_dir: Path | None = None

    @property
    def model_max_length(self) -> int:
        return int(self.config.get("max_position_embeddings") or self.config.get("n_positions") or DEFAULT_MAX_LENGTH)


def read_card(directory: Path, *, labels: LabelsOption = None, kind: str = "auto") -> ModelCard:
    """The folder's config and export, the model's kind and the meaning of its classes; refused
    with what to do when they cannot be read."""
    export_dir = next((d for d in (directory, directory / "onnx") if (d / EXPORT_FILE).is_file()), None)
    export = _read_json(export_dir / EXPORT_FILE) if export_dir else None
    config_path = (export_dir or directory) / "config.json"
    if not config_path.is_file():
        raise ModelNotAvailable(f"{directory} holds no config.json: not a Hugging Face model folder")
    config = _read_json(config_path)
    found: Kind = "seq2seq" if config.get("is_encoder_decoder") else "classifier"
    if kind not in ("auto", "classifier", "seq2seq"):
        raise InvalidInput(f"kind: 'auto', 'classifier' or 'seq2seq', not {kind!r}")
    chosen: Kind = found if kind == "auto" else kind  # type: ignore[assignment]
    if chosen == "seq2seq":
        if labels is not None:
            raise InvalidInput("labels: a seq2seq verifier answers with tokens; set verdict_tokens instead")
        meanings = LabelMap(("NOT", "ENT"))
    else:
        id2label = config.get("id2label") or {}
        num = int(config.get("num_labels") or len(id2label) or 2)
        meanings = label_map({int(k): v for k, v in id2label.items()}, num, labels)
    return ModelCard(directory, config, chosen, meanings, export, export_dir)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelNotAvailable(f"unreadable {path} ({exc})") from None
    if not isinstance(data, dict):
        raise ModelNotAvailable(f"{path} is not a JSON object")
    return data


@dataclass
class Loaded:
    """A model ready to score pairs: ``run`` maps input arrays to logits (rows: pairs)."""

    card: ModelCard
    encoder: PairEncoder
    run: Callable[[dict[str, np.ndarray]], np.ndarray]
    runtime: str  # "torch (cpu)", "torch (cuda)", "onnx", "onnx-int8"
    verdict_ids: tuple[int, int] | None = None  # seq2seq: the "no" and "yes" token ids
    extra: dict[str, Any] = field(default_factory=dict)

    def logits(
        self, premises: list[str], claims: list[str], batch_size: int, between: Callable[[], None] | None = None
    ) -> tuple[np.ndarray, int]:
        """Logits per pair, in the caller's order (a classifier's classes, a seq2seq verifier's
        (no, yes) tokens), and the tokens read."""
        width = len(self.card.labels.meaning) if self.verdict_ids is None else 2
        out = np.zeros((len(claims), width), dtype=np.float64)
        tokens = 0
        for where, arrays in self.encoder.batches(premises, claims, batch_size, between):
            got = self.run(arrays)
            if self.verdict_ids is not None:
                got = got[:, list(self.verdict_ids)]
            out[where] = got
            tokens += int(arrays["attention_mask"].sum()) if "attention_mask" in arrays else arrays["input_ids"].size
        return out, tokens


def choose_runtime(card: ModelCard, runtime: str) -> str:
    """The runtime to use: ``auto`` takes an exported graph when the folder has one (the int8 one
    if it was exported with ``--int8``), else torch."""
    if runtime not in RUNTIMES:
        raise InvalidInput(f"runtime: one of {', '.join(RUNTIMES)}, not {runtime!r}")
    graphs = (card.export or {}).get("graphs", {})
    if runtime == "auto":
        return "onnx-int8" if "onnx-int8" in graphs else "onnx" if "onnx" in graphs else "torch"
    if runtime != "torch" and runtime not in graphs:
        raise ModelNotAvailable(
            f"{card.directory} has no {runtime} graph: write it with "
            f"`rt4chart model export hf:{card.directory}{' --int8' if runtime == 'onnx-int8' else ''}`"
        )
    return runtime


def load(
    card: ModelCard,
    runtime: str,
    *,
    max_length: int | None,
    prompt: str | None,
    verdict_tokens: tuple[str, str],
    device: str | None,
) -> Loaded:
    chosen = choose_runtime(card, runtime)
    if chosen == "torch":
        return _load_torch(card, max_length=max_length, prompt=prompt, verdict_tokens=verdict_tokens, device=device)
    return _load_onnx(card, chosen, max_length=max_length, prompt=prompt, verdict_tokens=verdict_tokens)


def _max_length(card: ModelCard, tokenizer_max: int | None, asked: int | None) -> int:
    limits = [card.model_max_length, DEFAULT_MAX_LENGTH if asked is None else asked]
    if tokenizer_max and tokenizer_max < 10**6:
        limits.append(tokenizer_max)
    return max(16, min(limits))


def _verdict_ids(tokenizer: Any, tokens: tuple[str, str]) -> tuple[int, int]:
    """The first token of each verdict word, as the model writes it first."""
    ids = []
    for word in tokens:
        got = tokenizer.encode(word, add_special_tokens=False).ids
        if not got:
            raise InvalidInput(f"verdict_tokens: {word!r} is no token of this model's tokenizer")
        ids.append(got[0])
    if ids[0] == ids[1]:
        raise InvalidInput(f"verdict_tokens: {tokens} begin with the same token; give two words the model tells apart")
    return ids[0], ids[1]


def _load_torch(
    card: ModelCard, *, max_length: int | None, prompt: str | None, verdict_tokens: tuple[str, str], device: str | None
) -> Loaded:
    try:
        import torch
        import transformers
    except ImportError:
        raise MissingExtra("transformers and torch (or an ONNX export: `rt4chart model export`)", "hf") from None
    directory = card.directory
    try:
        tok = transformers.AutoTokenizer.from_pretrained(str(directory), local_files_only=True)
        cls = (
            transformers.AutoModelForSeq2SeqLM
            if card.kind == "seq2seq"
            else transformers.AutoModelForSequenceClassification
        )
        model = cls.from_pretrained(str(directory), local_files_only=True)
    except ImportError:
        raise
    except Exception as exc:  # noqa: BLE001 - OSError, ValueError, a SafetensorError, a TypeError (no tokenizer)
        first = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
        raise ModelNotAvailable(f"cannot load the hf model in {directory}: {first}") from None
    if not getattr(tok, "is_fast", False):
        raise ModelNotAvailable(
            f"{directory} has a slow (Python) tokenizer only; this judge needs a fast one (tokenizer.json)"
        )
    where = device or ("cuda" if torch.cuda.is_available() else "cpu")
    model = model.eval().to(where)
    backend = tok.backend_tokenizer
    length = _max_length(card, getattr(tok, "model_max_length", None), max_length)
    # only what the model's forward takes: a T5 tokenizer may name token_type_ids, which T5 refuses
    takes = inspect.signature(model.forward).parameters
    inputs = [n for n in tok.model_input_names if n in ("input_ids", "attention_mask", "token_type_ids") and n in takes]
    encoder = PairEncoder(
        backend,
        length,
        inputs,
        pad_id=tok.pad_token_id or 0,
        pad_token=tok.pad_token or "[PAD]",
        prompt=(prompt or DEFAULT_PROMPT) if card.kind == "seq2seq" else None,
    )
    verdict = _verdict_ids(backend, verdict_tokens) if card.kind == "seq2seq" else None
    start = getattr(model.config, "decoder_start_token_id", None) or 0

    def run(arrays: dict[str, np.ndarray]) -> np.ndarray:
        with torch.inference_mode():
            tensors = {k: torch.from_numpy(v).to(where) for k, v in arrays.items()}
            if card.kind == "seq2seq":
                ids = tensors["input_ids"]
                tensors["decoder_input_ids"] = torch.full((ids.shape[0], 1), start, dtype=ids.dtype, device=where)
                return model(**tensors).logits[:, 0, :].float().cpu().numpy()
            return model(**tensors).logits.float().cpu().numpy()

    loaded = Loaded(card, encoder, run, f"torch ({where})", verdict)
    loaded.extra.update(tokenizer=tok, model=model, torch=torch, decoder_start=start)
    return loaded


def _load_onnx(
    card: ModelCard, runtime: str, *, max_length: int | None, prompt: str | None, verdict_tokens: tuple[str, str]
) -> Loaded:
    import onnxruntime as ort
    from tokenizers import Tokenizer

    assert card.export is not None and card.export_dir is not None
    export, folder = card.export, card.export_dir
    graph = folder / export["graphs"][runtime]
    if not graph.is_file() or sha256_file(graph) != export.get("sha256", {}).get(runtime):
        raise ModelNotAvailable(f"{graph} is missing or does not match {folder / EXPORT_FILE}: export it again")
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    session = ort.InferenceSession(str(graph), providers=["CPUExecutionProvider"])
    inputs = [i.name for i in session.get_inputs()]
    length = min(int(export["max_length"]), max_length or int(export["max_length"]))
    encoder = PairEncoder(
        tok,
        length,
        inputs,
        pad_id=int(export["pad_id"]),
        pad_token=str(export["pad_token"]),
        prompt=(prompt or DEFAULT_PROMPT) if card.kind == "seq2seq" else None,
    )
    verdict = _verdict_ids(tok, verdict_tokens) if card.kind == "seq2seq" else None

    def run(arrays: dict[str, np.ndarray]) -> np.ndarray:
        return np.asarray(session.run(None, {k: arrays[k] for k in inputs})[0], dtype=np.float32)

    return Loaded(card, encoder, run, runtime, verdict)
