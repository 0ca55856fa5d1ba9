"""Where pulled models live on this machine, and the checksum both pullers pin them by.

Shared by the GGUF models (:mod:`.gguf`) and the Hugging Face verifiers (:mod:`.hf`): one cache
folder (``$RT4CHART_MODELS_DIR``, else the user cache), one way to hash a file.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from platformdirs import user_cache_dir


def models_dir() -> Path:
    env = os.environ.get("RT4CHART_MODELS_DIR")
    return Path(env) if env else Path(user_cache_dir("rt4chart")) / "models"


def sha256_file(path: Path, chunk: int = 1 << 22) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            digest.update(block)
    return digest.hexdigest()
