"""A run's rows in, one way for the local loop and the Ray job: JSONL and Parquet files read,
each row named by the one id rule, a repeated id refused, each row fingerprinted.

**Ids.** A row's id is its ``id``: a string, or an integer written as its digits (``5`` is
``"5"``). Anything else (a float, ``true``, a list) fails that row with the reason. A row without
one (missing, null or blank) is named ``line-N``, N its line in its file; where another row names
itself that, it is ``line-N.1`` (then ``.2``…), so that a name given never takes an id a row
gives. A repeated id fails the repeat (``ID@line-N``, or ``ID@FILE`` across the Ray job's files).
A byte-order mark at the start of any line is dropped (files saved "with BOM", then joined).

**Lines.** JSONL is split on ``\\n`` only, never with ``str.splitlines``: that also splits inside
a JSON string at U+2028, U+2029 or U+0085, which JSON writes unescaped, and one row would become
two broken ones.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from rt4chart_plugins.detector import read_input
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.text.english import clean_text
from rt4chart_plugins.types import VerifyInput

BOM = b"\xef\xbb\xbf"
#: a row may carry its input as JSON text in this column instead of as columns: Arrow wants one
#: type per column, and a context is a string in one row and a list of passages in another
INPUT_COLUMN = "input"


class InputRow(NamedTuple):
    """One input row: its id, the row or why it cannot be read, and its fingerprint (None when
    it cannot be read)."""

    id: str
    row: VerifyInput | Exception
    fingerprint: str | None = None


class Read(NamedTuple):
    """One row as read, before it is named: where it is, its id if it gives one (or why its id is
    refused), the row or why it cannot be read."""

    source: Path
    line: int  # its line in its file (a Parquet file's rows are numbered from 1)
    id: str | None
    row: VerifyInput | Exception


def explicit_id(value: object) -> str | None:
    """A row's own id by the one rule: a string (None when blank) or an integer, as its digits;
    :class:`InvalidInput` for anything else."""
    if value is None:
        return None
    if isinstance(value, str):
        return clean_text(value) if value.strip() else None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    kind = "a boolean" if isinstance(value, bool) else f"a {type(value).__name__}"
    raise InvalidInput(f"id must be a string or an integer, got {kind} ({json.dumps(value, default=str)})")


def fingerprint(row: VerifyInput, settings: str = "") -> str:
    """What a row's result depends on, hashed: its context, question and answer, and the run's
    settings (:func:`rt4chart_plugins.runs.spec.detector_settings`, and an action's own)."""
    payload = json.dumps([settings, row.context, row.question, row.answer])  # ASCII: lone surrogates too
    return hashlib.sha256(payload.encode("ascii")).hexdigest()[:32]


def jsonl_lines(data: bytes) -> list[bytes]:
    """JSONL lines: split on ``\\n`` only (the module's docstring says why)."""
    return data.split(b"\n")


def read_jsonl(path: Path) -> list[Read]:
    """Each non-blank line of a JSONL file: its id and the row, or the error that prevents reading it."""
    reads: list[Read] = []
    path = Path(path)  # once: a Path made per row cost more than the row's JSON
    for number, raw in enumerate(jsonl_lines(path.read_bytes()), start=1):
        while raw.startswith(BOM):
            raw = raw[len(BOM) :]
        if not raw.strip():
            continue
        row_id: str | None = None
        row: VerifyInput | Exception
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            row = InvalidInput(f"line {number} is not valid UTF-8 (byte {exc.start}: {exc.reason})")
        else:
            try:
                data = json.loads(line)
                if isinstance(data, dict):
                    row_id = explicit_id(data.get("id"))
                row = read_input(data)  # refuses what is no JSON object, in verify_many's words
            except RecursionError:
                row = InvalidInput(f"line {number} is nested too deeply")
            except (ValueError, ValidationError) as exc:  # InvalidInput is a ValueError
                row = exc
        reads.append(Read(path, number, row_id, row))
    return reads


def plain_cell(value: Any) -> Any:
    """A cell as JSON would have it: Arrow's lists come back as numpy arrays, its nulls as NaN."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, list):
        return [plain_cell(v) for v in value]
    return value


def parse_record(record: Mapping[str, Any]) -> tuple[str, VerifyInput | Exception]:
    """(id, the validated input or the error that prevents validating it) of a table's row (a
    Parquet row, a Ray batch's), by the one id rule (a row needs an id here) and the one wording
    of a bad row."""
    data = {k: plain_cell(v) for k, v in record.items()}
    raw_id = data.get("id")
    row_id = "" if raw_id is None else str(raw_id)
    try:
        row_id = explicit_id(raw_id) or ""
        if isinstance(data.get(INPUT_COLUMN), str):
            loaded = json.loads(data[INPUT_COLUMN])
            data = {**loaded, "id": row_id} if isinstance(loaded, dict) else loaded  # read_input refuses a non-object
        row = read_input(data)
        if not row_id:
            raise InvalidInput("the row has no id")
        return row_id, row
    except (ValueError, ValidationError) as exc:  # InvalidInput is a ValueError
        return row_id, exc


def read_parquet(path: Path) -> list[Read]:
    """A Parquet file's rows as read, which need an ``id`` column; a row that does not validate is a failed row."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    if "id" not in table.column_names:
        raise InvalidInput(f"{path}: a Parquet input needs an id column; it has {', '.join(table.column_names)}")
    reads = []
    for number, record in enumerate(table.to_pylist(), start=1):
        _, row = parse_record(record)
        try:
            given = explicit_id(record.get("id"))
        except InvalidInput:
            given = None  # the row fails, saying why, under the name an id-less row gets
        reads.append(Read(path, number, given, row))
    return reads


def name_rows(reads: Iterable[Read], settings: str = "") -> list[tuple[Path, InputRow]]:
    """The rows named by the one rule (the module's docstring), each with its fingerprint."""
    reads = list(reads)
    given = {r.id for r in reads if r.id is not None}
    first: dict[str, Read] = {}
    named: list[tuple[Path, InputRow]] = []
    for read in reads:
        row = read.row
        if read.id is None:
            row_id, k = f"line-{read.line}", 0
            while row_id in given or row_id in first:
                k += 1
                row_id = f"line-{read.line}.{k}"
        else:
            row_id = read.id
            if row_id in first:
                earlier = first[row_id]
                if earlier.source == read.source:
                    row = InvalidInput(f"duplicate id {row_id!r} (line {read.line}): line {earlier.line} has it")
                    row_id = f"{row_id}@line-{read.line}"
                else:
                    row = InvalidInput(f"duplicate id {row_id!r}: also in {earlier.source}")
                    row_id = f"{row_id}@{read.source}"
        first.setdefault(row_id, read)
        mark = fingerprint(row, settings) if isinstance(row, VerifyInput) else None
        named.append((read.source, InputRow(row_id, row, mark)))
    return named


def read_rows(path: Path, settings: str = "") -> list[InputRow]:
    """The rows of one JSONL file, named, with their fingerprints."""
    return [row for _, row in name_rows(read_jsonl(Path(path)), settings)]


def read_inputs(files: Iterable[Path], settings: str = "") -> list[InputRow]:
    """Every row of JSONL and Parquet files, named by the one rule across all of them (an id two
    files give fails the second: ``ID@FILE``)."""
    reads: list[Read] = []
    for path in files:
        reads += read_parquet(path) if Path(path).suffix == ".parquet" else read_jsonl(path)
    return [row for _, row in name_rows(reads, settings)]


__all__ = [
    "BOM",
    "INPUT_COLUMN",
    "InputRow",
    "Read",
    "explicit_id",
    "fingerprint",
    "jsonl_lines",
    "name_rows",
    "parse_record",
    "plain_cell",
    "read_inputs",
    "read_jsonl",
    "read_parquet",
    "read_rows",
]
