"""The trained verifier's artifact: an ONNX cross-encoder, its tokenizer and a manifest.

Training (``rt4chart train-verifier``) writes the three files; the judge loads them. The manifest
records the checksum of the model file, which is verified on load, so a corrupted or half-copied
artifact fails with an error naming the command that rebuilds it instead of giving wrong labels.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from rt4chart_plugins.errors import ModelNotAvailable
from rt4chart_plugins.judges.trained.decision import Decision
from rt4chart_plugins.models import sha256_file
from rt4chart_plugins.rules.text import clean_text

ARTIFACT_DIR = Path(__file__).resolve().parent / "artifact"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
MANIFEST_FILE = "manifest.json"
LABELS = ("ENT", "CON", "NIC")
REBUILD = "rt4chart train-verifier"


class Manifest(BaseModel):
    """What the artifact is and how it was made (written by training, read by the judge)."""

    version: str
    sha256: str  # of model.onnx
    labels: tuple[str, ...] = LABELS
    max_length: int = Field(description="tokens per (claim, premise) pair")
    premise_budget: int = Field(description="tokens of context sentences per premise")
    threshold: float = Field(description="support at or above which a claim is ENT (fitted on train rows)")
    combine: dict[str, float] = Field(
        default_factory=lambda: {"coverage": 0.0, "fact": 0.0},
        description="the earlier decision's weights of word coverage and of the number/name check beside "
                    "the encoder's P(ENT); used only when ``decision`` is None (decision.legacy_probs)")
    question: str = Field("always", description="how the premise reads the question: 'always' (what the "
                          "artifact was trained on up to v1), or only for an 'elliptical' claim (premise.py)")
    decision: Decision | None = Field(
        None, description="the fitted logistic regression that labels a claim (decision.py)")
    base_model: str
    quantized: bool
    training: dict[str, Any] = Field(default_factory=dict)
    validation: dict[str, Any] = Field(default_factory=dict)


def load_manifest(directory: Path | None = None, *, check: bool = True) -> tuple[Path, Manifest]:
    """The artifact's directory and manifest, its model file checked against the manifest."""
    directory = Path(directory) if directory else ARTIFACT_DIR
    manifest_path, model_path = directory / MANIFEST_FILE, directory / MODEL_FILE
    missing = [p.name for p in (manifest_path, model_path, directory / TOKENIZER_FILE) if not p.exists()]
    if missing:
        raise ModelNotAvailable(
            f"the trained verifier is missing {', '.join(missing)} in {directory}; "
            f"rebuild it with `{REBUILD}` (the lab, with its train extra: `pip install -e 'lab[train]'`)"
        )
    try:
        manifest = Manifest.model_validate(json.loads(manifest_path.read_text()))
    except (ValueError, OSError) as exc:
        raise ModelNotAvailable(f"unreadable {manifest_path} ({exc}); rebuild it with `{REBUILD}`") from exc
    if check:
        digest = sha256_file(model_path)
        if digest != manifest.sha256:
            raise ModelNotAvailable(
                f"{model_path} is corrupt (sha256 {digest[:12]}…, manifest says {manifest.sha256[:12]}…); "
                f"rebuild it with `{REBUILD}`"
            )
    return directory, manifest


def load_tokenizer(path: Path, max_length: int):
    """The WordPiece tokenizer, padding per batch. Truncation cuts the longer of claim and premise
    first: that is the premise for any ordinary claim, and a run-on answer "sentence" longer than
    the whole budget is cut too instead of failing the verification."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path))
    tok.no_padding()
    tok.enable_truncation(max_length, strategy="longest_first")
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    return tok


def token_counter(path: Path):
    """Tokens each text takes without special tokens or truncation: the premise budget's unit,
    shared by training and inference."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path))
    tok.no_padding()
    tok.no_truncation()
    return lambda texts: [len(e.ids) for e in tok.encode_batch(list(texts), add_special_tokens=False)]


def encode(tok, claims: list[str], premises: list[str]) -> dict[str, Any]:
    """int64 arrays for a batch of (claim, premise) pairs, as the ONNX graph and training expect."""
    import numpy as np

    # the tokenizer refuses a lone surrogate (a TypeError); it reads U+FFFD in its place
    batch = tok.encode_batch([(clean_text(c), clean_text(p)) for c, p in zip(claims, premises)])
    return {
        "input_ids": np.asarray([e.ids for e in batch], dtype=np.int64),
        "attention_mask": np.asarray([e.attention_mask for e in batch], dtype=np.int64),
        "token_type_ids": np.asarray([e.type_ids for e in batch], dtype=np.int64),
    }
