"""Loaders for the shared benchmark data, read in place (never copied into the project).

RAGTruth rows come from ``ragtruth/ragtruth.jsonl``; a subset is a file of ids, one a line
(``subsets/test-150.txt``, ``subsets/dev-60.txt``, or any path). WiCE rows come from
``wice/dev.jsonl``. The ``extra/`` sets share RAGTruth's row form. See ``../shared/data/README.md``
for the schema.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path

from rt4chart_plugins.errors import InvalidInput

NAMED_SUBSETS = ("test-150", "dev-60")
#: the ``extra/`` sets with faithful and hallucinated answers (every row may be tuned on)
EXTRA_SETS = ("xsumfaith", "summedits", "dialfact_testsmall", "begin", "faithdial_audit")
#: read only when named: every one of its answers is hallucinated, so it has no AUC
EXTRA_ONE_CLASS = ("wice_nst_train",)


@dataclass(frozen=True)
class GoldSpan:
    start: int
    end: int
    label_type: str  # "Evident Conflict", "Subtle Baseless Info", ...

    @property
    def kind(self) -> str:
        """``conflict`` (contradicted) or ``baseless`` (not in context)."""
        return "conflict" if "conflict" in self.label_type.lower() else "baseless"

    def overlaps(self, start: int, end: int) -> bool:
        """Whether this span shares a character with ``[start, end)`` (an answer sentence, a claim)."""
        return self.start < end and start < self.end


@dataclass(frozen=True)
class RagTruthRow:
    id: str
    task_type: str  # QA, Summary, Data2txt
    split: str
    context: str
    answer: str
    question: str | None
    hallucinated: bool
    labels: tuple[GoldSpan, ...] = field(default_factory=tuple)

    def verify_input(self) -> dict:
        return {"id": self.id, "context": self.context, "answer": self.answer, "question": self.question}


@dataclass(frozen=True)
class WiceRow:
    id: str
    claim: str
    label: str  # supported, partially_supported, not_supported
    context_sentences: tuple[str, ...]
    evidence_sentence_ids: tuple[int, ...]

    task_type = "WiCE"

    def verify_input(self) -> dict:
        # the claim is a one-claim answer, its cited page's sentences are the passages
        return {"id": self.id, "context": list(self.context_sentences), "answer": self.claim}


#: the shared data beside the checkout this lab is in
CHECKOUT_DATA = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"


def resolve_data_dir(data_dir: str | Path | None = None) -> Path:
    """``data_dir`` if given; else ``$RT4CHART_DATA_DIR``; else ``shared/data`` beside the
    checkout this lab is in, or beside the current directory. Raises :class:`InvalidInput` naming
    what was tried."""
    tried: list[str] = []
    candidates: list[Path] = []
    if data_dir is not None:
        candidates = [Path(data_dir)]
    else:
        if os.environ.get("RT4CHART_DATA_DIR"):
            candidates.append(Path(os.environ["RT4CHART_DATA_DIR"]))
        candidates.append(CHECKOUT_DATA)
        candidates.append(Path.cwd() / ".." / "shared" / "data")
    for c in candidates:
        tried.append(str(c))
        if c.is_dir():
            return c.resolve()
    raise InvalidInput(f"benchmark data directory not found (tried: {', '.join(tried) or 'nothing'}); "
                       "pass --data-dir or set $RT4CHART_DATA_DIR")


def subset_ids(data_dir: Path, subset: str | Path) -> list[str]:
    """Ids of a named subset (``test-150``, ``dev-60``) or of an id file at a path, in file order."""
    path = data_dir / "ragtruth" / "subsets" / f"{subset}.txt" if str(subset) in NAMED_SUBSETS else Path(subset)
    if not path.is_file():
        raise InvalidInput(f"subset {subset!s}: no id file at {path} (named subsets: {', '.join(NAMED_SUBSETS)})")
    ids = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if len(set(ids)) != len(ids):
        raise InvalidInput(f"subset {subset!s} lists an id twice")
    return ids


def _select(rows: dict[str, object], ids: list[str] | None, what: str, subset: object) -> list:
    if ids is None:
        return list(rows.values())
    missing = [i for i in ids if i not in rows]
    if missing:
        raise InvalidInput(f"subset {subset!s}: {len(missing)} id(s) not in {what}, e.g. {missing[0]!r}")
    return [rows[i] for i in ids]


def load_ragtruth(data_dir: str | Path, subset: str | Path | None = None, *, split: str | None = None,
                  limit: int | None = None) -> list[RagTruthRow]:
    """RAGTruth rows: the subset's ids in order (all rows if ``subset`` is None), keeping only
    ``split`` if given, then the first ``limit``."""
    data_dir = Path(data_dir)
    path = data_dir / "ragtruth" / "ragtruth.jsonl"
    rows = {r.id: r for r in _read_rows(path)}
    ids = subset_ids(data_dir, subset) if subset is not None else None
    selected: list[RagTruthRow] = _select(rows, ids, str(path), subset)
    if split is not None:
        selected = [r for r in selected if r.split == split]
    if limit is not None:
        selected = selected[:limit]
    if not selected:
        raise InvalidInput(f"no RAGTruth rows selected (subset={subset}, split={split}, limit={limit})")
    return selected


def _read_rows(path: Path, task_type: str | None = None) -> list[RagTruthRow]:
    """The rows of a file in RAGTruth's form; ``task_type`` replaces each row's own."""
    rows: list[RagTruthRow] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            d = json.loads(line)
            labels = tuple(GoldSpan(int(x["start"]), int(x["end"]), str(x["label_type"])) for x in d.get("labels") or [])
            rows.append(RagTruthRow(
                id=d["id"], task_type=task_type or d["task_type"], split=d["split"], context=d["context"],
                answer=d["answer"], question=d.get("question"), hallucinated=bool(d["hallucinated"]), labels=labels,
            ))
    return rows


def extra_dir(data_dir: Path) -> Path:
    """The folder holding the ``extra/`` set folders: ``data_dir/extra`` or ``data_dir`` itself."""
    data_dir = Path(data_dir)
    return data_dir / "extra" if (data_dir / "extra").is_dir() else data_dir


def set_path(data_dir: Path, name: str) -> Path:
    """The rows file of the ``extra/`` set ``name``."""
    return extra_dir(data_dir) / name / f"{name}.jsonl"


def load_extra(data_dir: str | Path, subset: str | None = None, *, limit: int | None = None,
               seed: int = 0) -> list[RagTruthRow]:
    """Rows of the ``extra/`` sets: those named in ``subset`` (comma-separated), or every set of
    :data:`EXTRA_SETS`; ``limit`` rows of each, a sample drawn with ``seed`` (the files are sorted
    by source, so their first rows are one source's). Each row's task type is its set's name, so
    that the per-task table reads per set. They are the data to choose between candidates on:
    human-annotated, not RAGTruth, and open to tuning (a candidate trained with the ``extra``
    source has read them)."""
    names = subset.split(",") if subset else list(EXTRA_SETS)
    known = EXTRA_SETS + EXTRA_ONE_CLASS
    if unknown := [n for n in names if n not in known]:
        raise InvalidInput(f"no extra set {unknown[0]!r}: use {', '.join(known)} (comma-separated), or all")
    rows: list[RagTruthRow] = []
    for name in names:
        path = set_path(Path(data_dir), name)
        if not path.is_file():
            raise InvalidInput(f"extra set {name}: no file at {path}")
        chosen = _read_rows(path, task_type=name)
        if limit is not None and limit < len(chosen):
            chosen = random.Random(f"{seed}:{name}").sample(chosen, limit)
        rows += chosen
    return rows


def load_wice(data_dir: str | Path, subset: str | Path | None = None, *, limit: int | None = None) -> list[WiceRow]:
    """WiCE claims (``wice/dev.jsonl``): all, or those of an id file ``subset``, then the first ``limit``.

    The file holds each claim once per chunk of its cited page (918 lines, 306 claims), each chunk
    with its own gold evidence, so a row is one (claim, chunk): ``dev02986#0``, ``#1``, …. A subset
    may list either form; a bare claim id selects all of its chunks."""
    data_dir = Path(data_dir)
    path = data_dir / "wice" / "dev.jsonl"
    rows: dict[str, WiceRow] = {}
    chunks: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            d = json.loads(line)
            row_id = f"{d['id']}#{len(chunks.setdefault(d['id'], []))}"
            chunks[d["id"]].append(row_id)
            rows[row_id] = WiceRow(id=row_id, claim=d["claim"], label=d["label"],
                                    context_sentences=tuple(d["context_sentences"]),
                                    evidence_sentence_ids=tuple(int(i) for i in d["evidence_sentence_ids"]))
    if subset is not None and str(subset) in NAMED_SUBSETS:
        raise InvalidInput(f"subset {subset} is a RAGTruth subset; for WiCE give a file of ids or no subset")
    ids = subset_ids(data_dir, subset) if subset is not None else None
    if ids is not None:
        ids = [c for i in ids for c in chunks.get(i, [i])]
    selected: list[WiceRow] = _select(rows, ids, str(path), subset)
    if limit is not None:
        selected = selected[:limit]
    if not selected:
        raise InvalidInput("no WiCE rows selected")
    return selected
