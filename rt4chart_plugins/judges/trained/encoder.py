"""The trained verifier's artifact: an ONNX cross-encoder, its tokenizer and a manifest.

Training (``rt4chart train-verifier``) writes the three files; the judge loads them. The manifest
records the checksum of the model file, which is verified on load, so a corrupted or half-copied
artifact fails with an error naming the command that rebuilds it instead of giving wrong labels.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.errors import ModelNotAvailable
from rt4chart_plugins.judges.trained.decision import Decision
from rt4chart_plugins.models import sha256_file
from rt4chart_plugins.text.english import clean_text

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
    question: str = Field(
        "always",
        description="how the premise reads the question: 'always' (what the "
        "artifact was trained on up to v1), or only for an 'elliptical' claim (premise.py)",
    )
    decision: Decision = Field(description="the fitted logistic regressions that label a claim (decision.py)")
    base_model: str
    quantized: bool
    training: dict[str, Any] = Field(default_factory=dict)
    validation: dict[str, Any] = Field(default_factory=dict)


def read_manifest(directory: Path | None = None, *, check: bool = True) -> tuple[Path, dict[str, Any]]:
    """The artifact's directory and its manifest as JSON, not yet validated (a refit reads an
    artifact from before today's schema this way), its model file checked against it."""
    directory = Path(directory) if directory else ARTIFACT_DIR
    manifest_path = directory / MANIFEST_FILE
    missing = [p.name for p in (manifest_path, directory / MODEL_FILE, directory / TOKENIZER_FILE) if not p.exists()]
    if missing:
        raise ModelNotAvailable(
            f"the trained verifier is missing {', '.join(missing)} in {directory}; "
            f"rebuild it with `{REBUILD}` (the lab, with its train extra: `pip install -e 'lab[train]'`)"
        )
    try:
        raw = json.loads(manifest_path.read_text())
    except (ValueError, OSError) as exc:
        raise ModelNotAvailable(f"unreadable {manifest_path} ({exc}); rebuild it with `{REBUILD}`") from exc
    if check:
        _check_model(directory, str(raw.get("sha256", "")))
    return directory, raw


def load_manifest(directory: Path | None = None, *, check: bool = True) -> tuple[Path, Manifest]:
    """The artifact's directory and manifest, its model file checked against the manifest."""
    directory, raw = read_manifest(directory, check=False)
    try:
        manifest = Manifest.model_validate(raw)
    except ValueError as exc:
        raise ModelNotAvailable(f"unreadable {directory / MANIFEST_FILE} ({exc}); rebuild it with `{REBUILD}`") from exc
    if check:
        _check_model(directory, manifest.sha256)
    return directory, manifest


def _check_model(directory: Path, sha256: str) -> None:
    model_path = directory / MODEL_FILE
    digest = sha256_file(model_path)
    if digest != sha256:
        raise ModelNotAvailable(
            f"{model_path} is corrupt (sha256 {digest[:12]}…, manifest says {sha256[:12]}…); "
            f"rebuild it with `{REBUILD}`"
        )


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


#: pairs run between two checks of the row's deadline (a pair takes a few milliseconds)
RUN_CHUNK = 32


class PairScorer:
    """The ONNX session, run on one (claim, premise) pair at a time by ``workers`` single-threaded runs
    in parallel (a session's ``run`` is thread-safe).

    One pair a run, because the int8 graph quantizes its activations per tensor
    (``DynamicQuantizeLinear``): in a batch, a pair's logits depend on the other pairs and on their
    padding. Batched, some pairs changed their top class, so a claim's verdict changed with the
    other sentences of its answer. Alone, a pair's logits depend on the claim and its premise and
    nothing else. Parallel runs rather than one run on every core: for these short sequences
    single-threaded runs side by side score pairs faster than one run on all the threads
    (lab/docs/benchmarks.md, "Speed of the offline default").

    Since a pair's logits are its own, the last ``memo`` pairs' logits are kept: a claim meets the
    same premise in overlapping windows and again in the global pass when windows are set, and a
    sentence that several answers to one context share meets it again in each."""

    def __init__(self, model_path: Path, tokenizer: Any, workers: int, memo: int = 4096):
        from concurrent.futures import ThreadPoolExecutor

        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])
        self.tokenizer = tokenizer
        self.workers = max(1, workers)
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="rt4chart-encoder")
        self._memo: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self._memo_size = memo
        self._memo_lock = threading.Lock()

    def logits(self, claims: list[str], premises: list[str]) -> tuple[list[list[float]], int, int]:
        """The (ENT, CON, NIC) logits of each pair, in order; the tokens run for them; and how
        many pairs were read back instead of run."""
        keys = list(zip(claims, premises))
        known: dict[tuple[str, str], list[float]] = {}
        with self._memo_lock:  # a pair read back becomes the most recently used
            for k in keys:
                if k in self._memo:
                    self._memo.move_to_end(k)
                    known[k] = self._memo[k]
        todo = [k for k in dict.fromkeys(keys) if k not in known]
        tokens = 0
        if todo:
            pairs = [_one(x) for x in _encoded(self.tokenizer, [c for c, _ in todo], [p for _, p in todo])]
            fresh: list[list[float]] = []
            for start in range(0, len(pairs), RUN_CHUNK):  # the row's deadline is checked between chunks
                checkpoint()
                chunk = pairs[start : start + RUN_CHUNK]
                fresh += (
                    [self._run(x) for x in chunk]
                    if len(chunk) == 1 or self.workers == 1
                    else list(self._pool.map(self._run, chunk))
                )
            tokens = sum(x["input_ids"].shape[1] for x in pairs)
            with self._memo_lock:
                for k, v in zip(todo, fresh):
                    known[k] = self._memo[k] = v
                while len(self._memo) > self._memo_size:
                    self._memo.popitem(last=False)
        return [known[k] for k in keys], tokens, len(keys) - len(todo)

    def forget(self) -> None:
        """Drop the kept logits (a benchmark that times the same answers twice starts cold)."""
        with self._memo_lock:
            self._memo.clear()

    def _run(self, inputs: dict[str, Any]) -> list[float]:
        return self.session.run(["logits"], inputs)[0][0].astype(float).tolist()


def _encoded(tok, claims: list[str], premises: list[str]):
    # the tokenizer refuses a lone surrogate (a TypeError); it reads U+FFFD in its place
    pairs = [(clean_text(c), clean_text(p)) for c, p in zip(claims, premises)]
    return tok.encode_batch(_within_reach(tok, pairs))


#: characters per token of the pair's length above which a pair's sides are counted and may be cut
_CHARS_PER_TOKEN = 4


def _within_reach(tok, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each pair with its long sides cut past what the pair can keep of them, so that encoding a
    pair costs what the pair keeps.

    Truncating a pair, the tokenizer keeps the pieces it cuts off as "overflowing" encodings and
    pairs every piece of the claim with every piece of the premise: a 3,000-word unpunctuated
    sentence against a 6,000-word one made millions of them (3.9 GB; docs/reliability.md,
    "Memory against sentence length"). Counted alone, a side costs pieces in proportion to its
    length, and the pair of cut sides has at most a few.

    The encoded pair stays the same token for token. Each cut falls where a token ends, so a cut
    side starts with the same tokens (a word cut after one of its pieces splits into the same
    pieces up to there; a character that makes several tokens, a Hangul syllable, is kept whole).
    A cut side keeps at least ``max_length`` tokens, more than longest-first truncation keeps of
    either side, and which side is the longer, which that truncation reads when both are long,
    stays as it was (``_cut``)."""
    max_length = (tok.truncation or {}).get("max_length")
    if not max_length:
        return pairs
    reach = _CHARS_PER_TOKEN * max_length
    long = [(a, b) for a, b in pairs if len(a) > reach or len(b) > reach]
    if not long:
        return pairs
    texts = list(dict.fromkeys(t for pair in long for t in pair))
    ends = dict(zip(texts, (_token_ends(e) for e in tok.encode_batch(texts, add_special_tokens=False))))
    cut = set(long)
    return [_cut(a, b, ends, max_length) if (a, b) in cut else (a, b) for a, b in pairs]


def _token_ends(e) -> list[int]:
    """Where each token of a text ends (characters), the pieces truncation cut off included."""
    return [end for piece in (e, *e.overflowing) for _, end in piece.offsets[: sum(piece.attention_mask)]]


def _cut(a: str, b: str, ends: dict[str, list[int]], max_length: int) -> tuple[str, str]:
    """Both sides cut to at least ``max_length`` tokens, the longer of them (by all its tokens)
    still the longer, and sides of as many tokens still as long as each other."""
    swap = len(ends[a]) > len(ends[b])
    first, second = (b, a) if swap else (a, b)
    first_cut, kept = _fit(first, ends[first], max_length)
    longer = len(ends[second]) > len(ends[first])
    second_cut, kept_second = _fit(second, ends[second], max(max_length, kept + longer))
    if not longer and kept_second != kept:  # a tie that a many-token character broke: cut both alike
        first_cut, kept = _fit(first, ends[first], kept_second)
        if kept != kept_second:
            return a, b
    return (second_cut, first_cut) if swap else (first_cut, second_cut)


def _fit(text: str, ends: list[int], tokens: int) -> tuple[str, int]:
    """The text cut where its first ``tokens`` tokens end, and how many tokens the cut keeps."""
    if tokens >= len(ends):
        return text, len(ends)
    cut = max(ends[:tokens])
    kept = tokens
    while kept < len(ends) and ends[kept] <= cut:
        kept += 1
    return text[:cut], kept


def _one(e) -> dict[str, Any]:
    """One encoded pair as a batch of one, its padding (from the batch it was encoded in) cut off."""
    import numpy as np

    n = sum(e.attention_mask)
    return {
        "input_ids": np.asarray([e.ids[:n]], dtype=np.int64),
        "attention_mask": np.asarray([e.attention_mask[:n]], dtype=np.int64),
        "token_type_ids": np.asarray([e.type_ids[:n]], dtype=np.int64),
    }


def encode(tok, claims: list[str], premises: list[str]) -> dict[str, Any]:
    """int64 arrays for a batch of (claim, premise) pairs, as the ONNX graph and training expect."""
    import numpy as np

    batch = _encoded(tok, claims, premises)
    return {
        "input_ids": np.asarray([e.ids for e in batch], dtype=np.int64),
        "attention_mask": np.asarray([e.attention_mask for e in batch], dtype=np.int64),
        "token_type_ids": np.asarray([e.type_ids for e in batch], dtype=np.int64),
    }
