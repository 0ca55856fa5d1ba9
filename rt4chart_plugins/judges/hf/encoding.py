"""(premise, claim) pairs as the model's input ids, in batches of similar length.

One tokenizer path for PyTorch and ONNX alike: the fast tokenizer's own ``tokenizers.Tokenizer``
(what ``tokenizer.json`` holds), so that an exported graph reads exactly the ids the PyTorch model
read, and the ONNX judge needs no transformers. A classifier reads the pair as its authors trained
it, premise first (``tokenizer(premise, hypothesis)``); a seq2seq verifier reads one prompt made
from a template (MiniCheck-Flan-T5: ``premise: … hypothesis: …``). Pairs longer than the model's
max length are cut, the longer side first, so a run-on claim never fails a row.

Pairs are run in batches sorted by length, so that little of a batch is padding; their results are
put back in the caller's order.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from rt4chart_plugins.text.english import clean_text

#: the seq2seq prompt of MiniCheck-Flan-T5 (its authors' inference code)
DEFAULT_PROMPT = "premise: {premise} hypothesis: {claim}"


class PairEncoder:
    """``tokenizer``: a ``tokenizers.Tokenizer``; ``inputs``: the names the model takes
    (``input_ids``, ``attention_mask``, and ``token_type_ids`` for BERT and DeBERTa)."""

    def __init__(
        self,
        tokenizer: Any,
        max_length: int,
        inputs: list[str],
        *,
        pad_id: int,
        pad_token: str,
        prompt: str | None = None,
    ):
        self.max_length = max_length
        self.inputs = inputs
        self.prompt = prompt  # None: a classifier's (premise, claim) pair
        self._tok = copy.deepcopy(tokenizer)
        self._tok.no_padding()
        self._tok.enable_truncation(max_length, strategy="longest_first")
        self._tok.enable_padding(pad_id=pad_id, pad_token=pad_token)
        self._count = copy.deepcopy(tokenizer)
        self._count.no_padding()
        self._count.no_truncation()

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Tokens each text takes alone, without special tokens: the premise budget's unit."""
        return [len(e.ids) for e in self._count.encode_batch([clean_text(t) for t in texts], add_special_tokens=False)]

    def _items(self, premises: list[str], claims: list[str]) -> list[Any]:
        premises, claims = [clean_text(p) for p in premises], [clean_text(c) for c in claims]
        if self.prompt is None:
            return list(zip(premises, claims))
        return [self.prompt.format(premise=p, claim=c) for p, c in zip(premises, claims)]

    def batches(
        self, premises: list[str], claims: list[str], size: int, between: Callable[[], None] | None = None
    ) -> Iterator[tuple[list[int], dict[str, np.ndarray]]]:
        """(the pairs' positions, their int64 input arrays) per batch of at most ``size`` pairs,
        the shortest first."""
        items = self._items(premises, claims)
        lengths = [len(e.ids) for e in self._count.encode_batch(items)]
        order = sorted(range(len(items)), key=lambda i: lengths[i])
        for start in range(0, len(order), size):
            if between is not None:
                between()
            where = order[start : start + size]
            encoded = self._tok.encode_batch([items[i] for i in where])
            arrays = {
                "input_ids": np.asarray([e.ids for e in encoded], dtype=np.int64),
                "attention_mask": np.asarray([e.attention_mask for e in encoded], dtype=np.int64),
                "token_type_ids": np.asarray([e.type_ids for e in encoded], dtype=np.int64),
            }
            yield where, {k: v for k, v in arrays.items() if k in self.inputs}
