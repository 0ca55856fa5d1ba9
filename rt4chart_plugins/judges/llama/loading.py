"""Finding and loading the embedded judge's GGUF model, and naming it for the cache.

Apart from the judge because loading is slow and shared: judges that differ only in cache or
thresholds join the one model loaded for that file and those settings
(:mod:`rt4chart_plugins.llama_runtime.loaded`), and with it its lock, since a loaded model holds
one sequence. The name says which weights answered, so that the cache never serves one model's
verdicts to another.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rt4chart_plugins.errors import JudgeError
from rt4chart_plugins.judges import prompts
from rt4chart_plugins.judges.llama.scoring import first_tokens
from rt4chart_plugins.llama_runtime.build import require_llama_cpp
from rt4chart_plugins.llama_runtime.loaded import shared_llama


@dataclass
class JudgeModel:
    """A loaded judge model: the model, the lock that serializes it, the token ids of the answers
    read off its logits, and the name that identifies its weights in the cache."""

    llm: Any
    lock: threading.Lock
    yes: list[int]
    no: list[int]
    path: Path
    name: str


def judge_model_name(model: str, explicit_path: str | Path | None) -> str:
    """The name of the weights that ``model`` (or the file ``explicit_path``, or
    ``$RT4CHART_MODEL_PATH`` for the default model, as :func:`rt4chart_plugins.models.locate` reads
    it) stands for, known without loading them: the judge's name before it loads is the one after."""
    from rt4chart_plugins import models

    explicit = explicit_path or (os.environ.get("RT4CHART_MODEL_PATH") if model == models.DEFAULT_MODEL else None)
    if explicit:
        path = Path(explicit).expanduser()
        return f"llama.cpp:{path.name}:{path.stat().st_size}" if path.is_file() else f"llama.cpp:{path.name}"
    spec = models.MODELS.get(model)
    return f"llama.cpp:{model}:{spec.sha256[:12]}" if spec else f"llama.cpp:{model}"


def load_judge_model(
    model: str, explicit_path: str | Path | None, *, n_ctx: int, n_threads: int, seed: int
) -> JudgeModel:
    """The model ``model`` (or the file ``explicit_path``) loaded with these settings, or the one
    already loaded with them. Only ChatML-templated instruct models are accepted: the readout
    prompts are laid out in ChatML."""
    require_llama_cpp()  # missing or unsafe here: said before the model is pulled
    from rt4chart_plugins import models

    path = models.locate(model, explicit_path)
    name = judge_model_name(model, explicit_path)
    llm, lock = shared_llama(path, n_ctx=n_ctx, n_threads=n_threads, n_batch=512, seed=seed, logits_all=False)
    if "<|im_start|>" not in (llm.metadata.get("tokenizer.chat_template") or ""):
        raise JudgeError(f"{path.name}: only ChatML-templated instruct models are supported as judges")
    return JudgeModel(
        llm, lock, first_tokens(llm, prompts.READOUT_YES), first_tokens(llm, prompts.READOUT_NO), path, name
    )
