"""The examples the docs use, shipped in the package so that the docs run from a ``pip install``.

    from rt4chart_plugins import examples

    examples.read("policy/context.txt")   # the text of one example file
    examples.copy("examples")             # every file written under ./examples/ (`rt4chart examples`)

The files (``FILES``):

- ``policy/context.txt`` and ``policy/answer.txt``: a free trial's policy and an answer with a
  contradicted, an entailed and an unsupported clause (the README's example);
- ``samples.jsonl``: a batch, one ``{"id", "context", "question", "answer"}`` a line;
- ``diff/before.jsonl`` and ``diff/after.jsonl``: the same five questions answered before and after
  a change (``rt4chart diff``).

A checkout holds the same files in ``examples/`` and ``docs/samples.jsonl``.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["FILES", "read", "copy"]

FILES = ("policy/context.txt", "policy/answer.txt", "samples.jsonl", "diff/before.jsonl", "diff/after.jsonl")


def read(name: str) -> str:
    """The text of one example file, named as in ``FILES`` (``"policy/context.txt"``)."""
    if name not in FILES:
        raise ValueError(f"no example file {name!r}; the examples are: {', '.join(FILES)}")
    return files(__name__).joinpath(name).read_text(encoding="utf-8")


def copy(folder: str | Path = "examples") -> list[Path]:
    """Write every example file under ``folder`` (made if missing), as ``folder/policy/context.txt``
    and so on; return their paths. A file already there with the same text is left as it is; one
    with other text is refused (``FileExistsError``, naming it) before anything is written."""
    root = Path(folder)
    texts = {root / name: read(name) for name in FILES}
    clash = [p for p, text in texts.items() if p.exists() and (not p.is_file() or p.read_bytes() != text.encode())]
    if clash:
        raise FileExistsError(f"{', '.join(map(str, clash))} already exist(s) with other content; pick another folder")
    for path, text in texts.items():
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode())
    return list(texts)
