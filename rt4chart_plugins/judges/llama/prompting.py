"""Driving a loaded model with ChatML prompts so that what is shared is read once.

Generation is the expensive part on a CPU (a few tokens per second), prompt reading much less so,
and re-reading nothing at all. So every prompt is evaluated from the longest prefix already in the
model's KV cache (:func:`eval_logits`): the instructions and the context of a request are read once,
and each claim after them costs only its own tokens. What is generated is short and, where it can
be, held to a grammar (evidence ids among those shown, claims as '- ' lines).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rt4chart_plugins.errors import JudgeError
from rt4chart_plugins.types import Cost

#: a decomposition: one claim per '- ' line
CLAIM_LINES = r'root ::= ("- " [^\n]+ "\n")+'


def chatml(turns: list[tuple[str, str]], open_assistant: bool = True) -> str:
    """The turns in ChatML, ending with an open assistant turn when the model is to answer."""
    text = "".join(f"<|im_start|>{role}\n{content}<|im_end|>\n" for role, content in turns)
    return text + ("<|im_start|>assistant\n" if open_assistant else "")


def tokens(llm: Any, text: str) -> list[int]:
    """A prompt's tokens, ChatML's special tokens read as such."""
    return llm.tokenize(text.encode(), add_bos=False, special=True)


def cached_prefix(llm: Any, prompt: list[int]) -> int:
    """How many leading tokens are already in the KV cache (at least one is always re-read)."""
    cached = llm.input_ids[: llm.n_tokens]
    prefix = 0
    limit = min(len(cached), len(prompt) - 1)
    while prefix < limit and cached[prefix] == prompt[prefix]:
        prefix += 1
    return prefix


def eval_logits(llm: Any, prompt: list[int], n_ctx: int, cost: Cost) -> np.ndarray:
    """Evaluate ``prompt`` reusing the longest cached prefix; return the last position's logits."""
    if len(prompt) >= n_ctx:
        raise JudgeError(f"prompt of {len(prompt)} tokens exceeds the judge's context of {n_ctx}")
    prefix = cached_prefix(llm, prompt)
    llm.n_tokens = prefix
    llm.eval(prompt[prefix:])
    cost.prompt_tokens += len(prompt) - prefix
    logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),))
    return np.array(logits, dtype=np.float64)


def generate(llm: Any, prompt: list[int], grammar: str | None, max_tokens: int, cost: Cost) -> str:
    """At most ``max_tokens`` greedy tokens after ``prompt``, held to ``grammar`` when given."""
    from llama_cpp import LlamaGrammar

    cost.prompt_tokens += len(prompt) - cached_prefix(llm, prompt)
    out = llm.create_completion(
        prompt=prompt,
        max_tokens=max_tokens,
        temperature=0.0,
        grammar=LlamaGrammar.from_string(grammar, verbose=False) if grammar else None,
        stop=["<|im_end|>", "\n\n"],
    )
    usage = out.get("usage", {})
    cost.completion_tokens += usage.get("completion_tokens", 0)
    return out["choices"][0]["text"]


def ids_grammar(ids: list[int]) -> str:
    """A grammar that allows only the given sentence ids, comma-separated."""
    alternatives = " | ".join(f'"{i}"' for i in sorted(set(ids), key=lambda x: -len(str(x))))
    return f'root ::= id (", " id)*\nid ::= {alternatives}'
