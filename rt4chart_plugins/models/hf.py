"""Where a Hugging Face verifier's files are on this machine, and the one step that downloads them.

Loading never downloads: a judge that reached for the network at its first verification would
hang or fail deep in a batch on a machine without access, and a model's weights would become a
silent run-time dependency. ``rt4chart model pull hf:REPO`` is the step that downloads. It pins
what it fetched: the commit (``revision``) and each file's sha256 go into the folder's
``rt4chart-pin.json``, checked on every load (the check is remembered against each file's size and
mtime, so a 1 GB model is hashed once). Looking a name up is local only, in this order:

1. a local directory (``hf:/path/to/model``: what ``save_pretrained`` writes, or an ONNX export);
2. the pinned copy in ``$RT4CHART_MODELS_DIR/hf/`` that ``rt4chart model pull`` made;
3. Hugging Face's own cache (a model another tool downloaded), read with ``local_files_only``.

A name found nowhere fails at once with one line that says what to do.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from rt4chart_plugins.errors import ModelNotAvailable
from rt4chart_plugins.models.store import models_dir, sha256_file

PIN_FILE = "rt4chart-pin.json"
#: what a verifier needs from its repository: config, tokenizer, weights (safetensors preferred)
TOKENIZER_FILES = [
    "config.json",
    "generation_config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "added_tokens.json",
    "vocab.txt",
    "vocab.json",
    "merges.txt",
    "*.model",
]
#: seconds the Hub may take to answer one metadata request before the pull gives up
HUB_TIMEOUT = 20.0


def pinned_dir(repo: str) -> Path:
    """The folder ``rt4chart model pull hf:REPO`` fills."""
    return models_dir() / "hf" / repo.replace("/", "--")


def what_to_do(repo: str) -> str:
    return (
        f"run `rt4chart model pull hf:{repo}` on a machine with access to the Hugging Face Hub (and copy "
        f"{pinned_dir(repo)} here, or set RT4CHART_MODELS_DIR), or pass a local directory: judge='hf:/path/to/model'"
    )


def looks_like_path(name: str) -> bool:
    return name.startswith(("/", "./", "../", "~")) or name.count("/") > 1 or os.sep != "/" and os.sep in name


def locate(name: str) -> tuple[Path, dict[str, Any] | None]:
    """The local folder holding the model ``name`` (a directory or a repo id), and its pin (None for
    a directory the user gave or Hugging Face's cache). Never touches the network."""
    if not name or not name.strip():
        raise ModelNotAvailable("the hf judge needs a model: judge='hf:REPO' or a local directory")
    path = Path(name).expanduser()
    if path.is_dir():
        pin = _read_pin(path)
        if pin is not None:
            check_pin(path, pin)
        return path, pin
    if looks_like_path(name) or path.exists():
        raise ModelNotAvailable(f"hf model directory {path} does not exist (or is not a directory)")
    folder = pinned_dir(name)
    pin = _read_pin(folder)
    if pin is not None:
        check_pin(folder, pin)
        return folder, pin
    cached = _hf_cache(name)
    if cached is not None:
        return cached, None
    raise ModelNotAvailable(f"the hf model {name!r} is not on this machine: {what_to_do(name)}")


def _hf_cache(repo: str) -> Path | None:
    """Hugging Face's own cached snapshot of ``repo``, looked up without the network; None when it
    has none (or huggingface_hub is not installed: an ONNX export needs no more than the core)."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    try:
        found = try_to_load_from_cache(repo, "config.json")
    except Exception:  # noqa: BLE001 - a name the Hub would refuse ("a b") is simply not cached
        return None
    return Path(found).parent if isinstance(found, str) else None


def _read_pin(folder: Path) -> dict[str, Any] | None:
    path = folder / PIN_FILE
    if not path.is_file():
        return None
    try:
        pin = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelNotAvailable(f"unreadable {path} ({exc}): delete {folder} and pull the model again") from None
    if not isinstance(pin, dict) or not isinstance(pin.get("files"), dict):
        raise ModelNotAvailable(f"{path} is not a pin rt4chart wrote: delete {folder} and pull the model again")
    return pin


def check_pin(folder: Path, pin: dict[str, Any]) -> None:
    """Every pinned file is there with its sha256. A file checked once is not hashed again while
    its size and mtime stay the same (``.verified`` beside the pin)."""
    marker = folder / (PIN_FILE + ".verified")
    stamps = {}
    for rel, digest in sorted(pin["files"].items()):
        path = folder / rel
        if not path.is_file():
            raise ModelNotAvailable(
                f"{path} is missing from the pinned hf model: `rt4chart model pull hf:{pin.get('repo', '?')}` again"
            )
        st = path.stat()
        stamps[rel] = f"{digest} {st.st_size} {st.st_mtime_ns}"
    if marker.is_file() and marker.read_text(encoding="utf-8") == json.dumps(stamps, sort_keys=True):
        return
    for rel, digest in sorted(pin["files"].items()):
        if sha256_file(folder / rel) != digest:
            raise ModelNotAvailable(
                f"{folder / rel} does not match its pinned sha256: delete {folder} and "
                f"`rt4chart model pull hf:{pin.get('repo', '?')}` again"
            )
    marker.write_text(json.dumps(stamps, sort_keys=True), encoding="utf-8")


def pull(repo: str, *, revision: str | None = None, progress: bool = True) -> Path:
    """Download ``repo`` (at ``revision``, default its main branch) into :func:`pinned_dir`, and pin
    the commit and each file's sha256. A pin already there for that commit is checked, not fetched
    again."""
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        raise ModelNotAvailable(f"HF_HUB_OFFLINE is set, so hf:{repo} cannot be downloaded here: {what_to_do(repo)}")
    try:
        from huggingface_hub import HfApi, snapshot_download
    except ImportError:
        from rt4chart_plugins.errors import MissingExtra

        raise MissingExtra("huggingface_hub", "hf") from None
    folder = pinned_dir(repo)
    if not progress:
        from huggingface_hub.utils import disable_progress_bars

        disable_progress_bars()
    try:
        info = HfApi().model_info(repo, revision=revision, timeout=HUB_TIMEOUT)
        commit = str(info.sha)
        existing = _read_pin(folder)
        if existing is not None and existing.get("revision") == commit:
            check_pin(folder, existing)
            return folder
        names = [s.rfilename for s in info.siblings or []]
        weights = (
            ["*.safetensors", "*.safetensors.index.json"]
            if any(n.endswith(".safetensors") for n in names)
            else ["pytorch_model*.bin", "pytorch_model.bin.index.json"]
        )
        snapshot_download(
            repo,
            revision=commit,
            local_dir=folder,
            allow_patterns=TOKENIZER_FILES + weights,
            etag_timeout=HUB_TIMEOUT,
        )
    except ModelNotAvailable:
        raise
    except Exception as exc:  # noqa: BLE001 - no network, no such repo, a gated one: one line, what to do
        raise ModelNotAvailable(f"could not download hf:{repo} ({_why(exc)}); {what_to_do(repo)}") from None
    write_pin(folder, repo, commit)
    return folder


def write_pin(folder: Path, repo: str, revision: str) -> dict[str, Any]:
    """Pin what ``folder`` holds as ``repo`` at commit ``revision``: every file's sha256 (an ONNX
    export written later into its ``onnx/`` carries its own checksums)."""
    files = {
        str(p.relative_to(folder)): sha256_file(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not {".cache", "onnx"} & set(p.relative_to(folder).parts) and not p.name.startswith(PIN_FILE)
    }
    pulled = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    pin = {"repo": repo, "revision": revision, "pulled": pulled, "files": files}
    (folder / PIN_FILE).write_text(json.dumps(pin, indent=2) + "\n", encoding="utf-8")
    check_pin(folder, pin)
    return pin


def _why(exc: Exception) -> str:
    """A failed download in a few words."""
    kind = type(exc).__name__
    if kind == "GatedRepoError":
        return "the repository is gated: accept its terms on the Hub and log in with `hf auth login`"
    if kind == "RepositoryNotFoundError":
        return "no such repository, or a private one: check the name, or log in with `hf auth login`"
    if kind == "RevisionNotFoundError":
        return "no such revision"
    if "Connection" in kind or "Timeout" in kind or isinstance(exc, OSError):
        return "the Hugging Face Hub cannot be reached from here"
    text = str(exc).strip()
    return f"{kind}: {text.splitlines()[0][:160]}" if text else kind


def pinned() -> list[dict[str, Any]]:
    """The pins of every hf model pulled into this cache (``rt4chart model list``)."""
    root = models_dir() / "hf"
    out = []
    for pin_path in sorted(root.glob(f"*/{PIN_FILE}")) if root.is_dir() else []:
        try:
            pin = json.loads(pin_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        size = sum(
            (pin_path.parent / f).stat().st_size for f in pin.get("files", {}) if (pin_path.parent / f).is_file()
        )
        out.append({**pin, "size": size, "path": str(pin_path.parent)})
    return out
