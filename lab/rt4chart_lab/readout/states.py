"""The embedded judge's hidden state at the verdict position, for many statements about one document.

The judge's support question (``prompts.readout_support``) is asked once per statement, after a
shared prefix that holds the instructions and the document. The prefix is read once into the KV
cache with embeddings off; then, for each statement, the cache is cut back to the prefix, the
question is read with embeddings on, and the last position yields both the final hidden state
(after the output norm: the vector the LM head reads) and the Yes/No logits, so the readout
costs no pass beyond the one the prompt-only judge runs.

llama.cpp marks every token of a batch as an output while embeddings are on, which would run the
LM head over the whole document; toggling embeddings per batch (``llama_set_embeddings``) keeps
that cost on the short question only. The high-level ``Llama`` API has no such call, so this
module drives the context and batch objects directly (pinned llama-cpp-python 0.3.36), like
``gasp/scorer.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rt4chart_plugins.errors import InvalidInput, JudgeError
from rt4chart_plugins.judges import prompts
from rt4chart_plugins.judges.llama.scoring import first_tokens
from rt4chart_plugins.judges.llama.scoring import p_yes as yes_probability
from rt4chart_plugins.llama_runtime.loaded import DirectLlama


@dataclass
class States:
    """Per statement: the final hidden state at the verdict position and the judge's P(Yes)."""

    hidden: np.ndarray  # (n, d) float32
    p_yes: np.ndarray  # (n,) P(Yes) / (P(Yes) + P(No)) from the same position's logits
    tokens_read: int  # prompt tokens the model processed (prefix once, each question once)
    passes: int  # forward passes over new text: the prefix, then one per statement


def chatml_prefix(document: str) -> str:
    """Everything before the statement: system turn, and the user turn up to the document's end."""
    return f"<|im_start|>system\n{prompts.READOUT_SYSTEM}<|im_end|>\n<|im_start|>user\n{document}"


def chatml_question(statement: str) -> str:
    """The judge's global support question about one statement, and the open assistant turn."""
    user = prompts.readout_support(statement, None, prompts.READOUT_NOTES["global_search"])
    return f"{user}<|im_end|>\n<|im_start|>assistant\n"


class StateReader(DirectLlama):
    """A ChatML GGUF model loaded with embeddings available. Instances with the same file and
    window share the loaded model and its lock (one statement at a time on a 2-core machine)."""

    def __init__(self, model_path: str | Path, *, n_ctx: int = 4096, n_threads: int | None = None,
                 n_batch: int = 512):
        super().__init__(model_path, n_ctx=n_ctx, n_threads=n_threads, n_batch=n_batch)
        self._yes: list[int] = []
        self._no: list[int] = []

    def _params(self) -> dict[str, Any]:
        from llama_cpp import LLAMA_POOLING_TYPE_NONE

        return {**super()._params(), "embedding": True, "pooling_type": LLAMA_POOLING_TYPE_NONE}

    def load(self) -> Any:
        if self._llm is not None:
            return self._llm
        llm = super().load()
        if "<|im_start|>" not in (llm.metadata.get("tokenizer.chat_template") or ""):
            self._llm = None
            raise JudgeError(f"{self.model_path.name}: the readout needs a ChatML-templated instruct model")
        self._yes = first_tokens(llm, prompts.READOUT_YES)
        self._no = first_tokens(llm, prompts.READOUT_NO)
        return llm

    @property
    def dim(self) -> int:
        return self.load().n_embd()

    def tokenize(self, text: str) -> list[int]:
        return self.load().tokenize(text.encode("utf-8"), add_bos=False, special=True)

    def _decode(self, tokens: list[int], n_past: int, embeddings: bool) -> None:
        import llama_cpp

        llm = self._llm
        ctx, batch = llm._ctx, llm._batch
        llama_cpp.llama_set_embeddings(ctx.ctx, embeddings)
        for i in range(0, len(tokens), self.n_batch):
            chunk = tokens[i: i + self.n_batch]
            batch.set_batch(batch=chunk, n_past=n_past + i, logits_all=False)
            for j in range(len(chunk)):  # with embeddings on, llama.cpp outputs every token anyway
                batch.batch.logits[j] = embeddings or i + j == len(tokens) - 1
            ctx.decode(batch)

    def read(self, prefix: list[int], questions: list[list[int]]) -> States:
        """Hidden states and P(Yes) for ``prefix + q`` for every ``q`` in ``questions``."""
        import llama_cpp

        if not prefix:
            raise InvalidInput("the readout prompt needs a prefix")
        if any(not q for q in questions):
            raise InvalidInput("every statement needs a question to read")
        llm = self.load()
        longest = len(prefix) + max((len(q) for q in questions), default=0)
        if longest > llm.n_ctx():
            raise InvalidInput(f"{longest} tokens do not fit the judge's {llm.n_ctx()}-token window")
        d, vocab = llm.n_embd(), llm.n_vocab()
        hidden = np.zeros((len(questions), d), dtype=np.float32)
        p_yes = np.zeros(len(questions), dtype=np.float64)
        with self._lock:
            llm._ctx.kv_cache_seq_rm(-1, 0, -1)
            self._decode(prefix, 0, embeddings=False)
            for k, q in enumerate(questions):
                llm._ctx.kv_cache_seq_rm(-1, len(prefix), -1)
                self._decode(q, len(prefix), embeddings=True)
                emb = llama_cpp.llama_get_embeddings_ith(llm._ctx.ctx, -1)
                hidden[k] = np.ctypeslib.as_array(emb, shape=(d,))
                logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llm._ctx.ctx, -1), shape=(vocab,))
                p_yes[k] = yes_probability(np.asarray(logits, dtype=np.float64), self._yes, self._no)
            llama_cpp.llama_set_embeddings(llm._ctx.ctx, False)
            llm.n_tokens = 0  # the high-level object must not believe its cache is still valid
        return States(hidden=hidden, p_yes=p_yes, tokens_read=len(prefix) + sum(map(len, questions)),
                      passes=1 + len(questions))


def document_prefix(reader: StateReader, sentences: list, question: str | None,
                    reserve: int = 256) -> tuple[list[int], int]:
    """The prefix tokens for a document and how many of its sentences it holds: all of them
    unless the judge's window (less ``reserve`` tokens for the longest question) forces a cut."""
    kept = len(sentences)
    while True:
        tokens = reader.tokenize(chatml_prefix(prompts.readout_context(sentences[:kept], question)))
        if len(tokens) + reserve <= reader.n_ctx or kept == 0:
            return tokens, kept
        over = len(tokens) + reserve - reader.n_ctx
        kept = max(0, kept - max(1, over // 40))  # about 40 tokens a sentence: few re-tokenizations
