"""Segmentation with exact character offsets.

Context sentences are the unit of evidence, so each keeps the passage it came from and its offsets
in that passage; answer sentences are how verdicts map back to answer spans. Splitting is done by
sentencex (fast, rule-based, no download; chosen over pysbd, syntok and blingfire, see
docs/design.md), and every returned sentence is re-anchored in the source with a moving cursor, so
a sentence that occurs twice maps to its own occurrence, never to the first.

Structured contexts (a JSON object serialized as text, as in RAGTruth's Data2txt) are split into
one unit per field, rendered ``path.to.field: value`` for the judge while the offsets point at the
``"field": value`` member in the original text, so that evidence points at the real field.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]  # public in json.decoder, absent from its stubs

from sentencex import segment as _sentencex_segment

from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.pipeline.state import RunState, Texts
from rt4chart_plugins.text.english import clean_text
from rt4chart_plugins.types import Sentence

_WORDY = re.compile(r"\w", re.UNICODE)
#: A JSON string value longer than this is split into sentences (reviews, descriptions).
LONG_FIELD_CHARS = 200


def split_sentences(text: str, language: str = "en") -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, whitespace trimmed, empty pieces dropped."""
    spans: list[tuple[int, int]] = []
    cursor = 0
    for piece in _pieces(text, language):
        checkpoint()
        stripped = piece.strip()
        if not stripped:
            continue
        at = text.find(stripped, cursor)
        if at < 0:  # the splitter altered the text; fall back to a whitespace-tolerant search
            loose = _find_loose(text, stripped, cursor)
            if loose is None:
                continue
            start, end = loose
        else:
            start, end = at, at + len(stripped)
        spans.append((start, end))
        cursor = end
    return spans


#: the fallback's sentence ends: terminal punctuation and what follows it up to the next non-space
_FALLBACK_END = re.compile(r"[.!?\u2026]+[\"'\u2019\u201d)\]]*(?=\s|$)|\n\s*\n")


def _pieces(text: str, language: str) -> list[str]:
    """sentencex's sentences; where it panics (its Rust core raises ``PanicException``, which is no
    ``Exception`` and would get past every row handler: seen on text with U+0085), a plain split at
    terminal punctuation and blank lines, so a row is still read instead of killing its batch."""
    try:
        return list(_sentencex_segment(language, text))
    except BaseException as exc:  # noqa: BLE001 - only the splitter's panic is caught, by name
        if type(exc).__name__ != "PanicException":
            raise
    pieces, start = [], 0
    for m in _FALLBACK_END.finditer(text):
        pieces.append(text[start : m.end()])
        start = m.end()
    return [*pieces, text[start:]]


def _find_loose(text: str, piece: str, cursor: int) -> tuple[int, int] | None:
    pattern = r"\s+".join(re.escape(tok) for tok in piece.split())
    m = re.compile(pattern).search(text, cursor)
    return (m.start(), m.end()) if m else None


def segment_answer(answer: str) -> list[Sentence]:
    """Answer sentences with offsets into the answer; pieces with no word character are dropped."""
    out: list[Sentence] = []
    for start, end in split_sentences(answer):
        text = answer[start:end]
        if _WORDY.search(text):
            out.append(Sentence(id=len(out), text=text, start=start, end=end))
    return out


def segment_context(context: str | list[str]) -> list[Sentence]:
    """Context units across all passages, numbered globally in reading order."""
    passages = [context] if isinstance(context, str) else list(context)
    out: list[Sentence] = []
    for p_index, passage in enumerate(passages):
        units = _structured_units(passage)
        if units is None:
            units = _record_in_prose(passage)
        if units is None:
            units = _prose_units(passage, 0, len(passage))
        for start, end, text, field in units:
            if not _WORDY.search(text):
                continue
            out.append(Sentence(id=len(out), text=text, start=start, end=end, passage=p_index, field=field))
    return out


# ---------------------------------------------------------------------------------------------
# Structured (JSON) contexts: a tiny position-tracking walker, because json.loads drops offsets.


@dataclass
class _Leaf:
    path: str
    member_start: int  # start of `"key": value` (or of the value inside an array)
    value_start: int
    value_end: int
    value: object


_WS = re.compile(r"\s*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}


class _NotJson(Exception):
    pass


Unit = tuple[int, int, str, "str | None"]


def _prose_units(passage: str, start: int, end: int) -> list[Unit]:
    """The sentences of ``passage[start:end]``, with offsets into the passage."""
    return [
        (start + a, start + b, passage[start + a : start + b], None) for a, b in split_sentences(passage[start:end])
    ]


#: the openings of a JSON object that prose around it may hold (``{``), tried in turn for a record
RECORD_CANDIDATES = 8
_RECORD_START = re.compile(r"\{\s*(?:\}|\")")


def _record_in_prose(passage: str) -> list[Unit] | None:
    """JSON objects with text before or after them ("Here is the record: {…} That is all."): the
    text's sentences and one unit per field, in order; None when no object is found. Read as prose
    whole, the record's fields were no fields, and the record checks never saw the claims that a
    field contradicts. At most :data:`RECORD_CANDIDATES` openings that are no record are tried."""
    decoder = json.JSONDecoder()
    units: list[Unit] = []
    prose_from = at = tries = 0  # where the text after the last record starts; where to look on
    while tries < RECORD_CANDIDATES and (m := _RECORD_START.search(passage, at)):
        record = None
        try:
            value, end = decoder.raw_decode(passage, m.start())
            if isinstance(value, dict) and value:
                record = _record_units(passage, m.start(), end)
        except (ValueError, RecursionError):
            pass
        if record is None:
            tries, at = tries + 1, m.start() + 1
            continue
        units += _prose_units(passage, prose_from, m.start()) + record
        prose_from = at = end
    return units + _prose_units(passage, prose_from, len(passage)) if units else None


def _structured_units(passage: str) -> list[Unit] | None:
    """One unit per JSON leaf field, or None when the passage is not a JSON object/array."""
    head = passage.lstrip()[:1]
    if head not in ("{", "["):
        return None
    try:
        json.loads(passage)
    except (ValueError, RecursionError):  # deeper than the parser goes: read as text
        return None
    return _record_units(passage, passage.find(head), len(passage))


def _record_units(passage: str, start: int, end: int) -> list[Unit] | None:
    """One unit per leaf field of the JSON value that fills ``passage[start:end]`` (valid JSON,
    checked by the caller), or None when it is nested too deeply to walk."""
    if _depth(passage[start:end]) > MAX_JSON_DEPTH:
        return None
    leaves: list[_Leaf] = []
    try:
        stop = _walk(passage, start, "", leaves, start)
    except (_NotJson, IndexError, RecursionError):
        return None
    if passage[stop:end].strip():
        return None
    units: list[Unit] = []
    for leaf in leaves:
        # a key or a value may escape a lone surrogate ("\\ud800"), which decoding turns into one:
        # no tokenizer takes it and no report with it serializes, so it is replaced as in the input
        units.extend(
            (start, end, clean_text(text), clean_text(field) if field is not None else None)
            for start, end, text, field in _leaf_units(passage, leaf)
        )
    return units


#: a JSON context nested deeper than this is read as plain text: no record is that deep, and the
#: walker below recurses once per level
MAX_JSON_DEPTH = 64


def _depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text (brackets inside strings counted too: an upper bound)."""
    depth = deepest = 0
    for ch in text:
        if ch in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "}]":
            depth -= 1
    return deepest


def _skip_ws(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


def _walk(text: str, pos: int, path: str, leaves: list[_Leaf], member_start: int) -> int:
    """Parse one JSON value at ``pos``; record leaves; return the position after it."""
    ch = text[pos]
    if ch == "{":
        pos = _skip_ws(text, pos + 1)
        if text[pos] == "}":
            return pos + 1
        while True:
            if text[pos] != '"':
                raise _NotJson
            key_start = pos
            key, pos = scanstring(text, pos + 1)
            pos = _skip_ws(text, pos)
            if text[pos] != ":":
                raise _NotJson
            pos = _skip_ws(text, pos + 1)
            child = f"{path}.{key}" if path else key
            pos = _skip_ws(text, _walk(text, pos, child, leaves, key_start))
            if text[pos] == ",":
                pos = _skip_ws(text, pos + 1)
                continue
            if text[pos] == "}":
                return pos + 1
            raise _NotJson
    if ch == "[":
        start = pos
        pos = _skip_ws(text, pos + 1)
        if text[pos] == "]":
            return pos + 1
        items: list[_Leaf] = []
        index = 0
        flat = True  # every item a scalar (not an object or array)
        end = pos
        while True:
            item_leaves: list[_Leaf] = []
            item_path = f"{path}[{index}]"
            pos = _skip_ws(text, _walk(text, pos, item_path, item_leaves, pos))
            flat = flat and len(item_leaves) == 1 and item_leaves[0].path == item_path
            items.extend(item_leaves)
            index += 1
            if text[pos] == ",":
                pos = _skip_ws(text, pos + 1)
                continue
            if text[pos] == "]":
                end = pos + 1
                break
            raise _NotJson
        short = all(not isinstance(leaf.value, str) or len(leaf.value) <= LONG_FIELD_CHARS for leaf in items)
        if flat and short:  # a flat list of short scalars: one unit
            joined = ", ".join(_render(leaf.value) for leaf in items)
            leaves.append(_Leaf(path, member_start, start, end, joined))
        else:
            leaves.extend(items)
        return end
    if ch == '"':
        value, end = scanstring(text, pos + 1)
        leaves.append(_Leaf(path, member_start, pos, end, value))
        return end
    m = _NUMBER.match(text, pos)
    if m:
        leaves.append(_Leaf(path, member_start, pos, m.end(), json.loads(m.group())))
        return m.end()
    for word, value in _LITERALS.items():
        if text.startswith(word, pos):
            leaves.append(_Leaf(path, member_start, pos, pos + len(word), value))
            return pos + len(word)
    raise _NotJson


def _render(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    return str(value)


def _leaf_units(text: str, leaf: _Leaf) -> list[tuple[int, int, str, str | None]]:
    """A long free-text field (a review) becomes one unit per sentence; anything else one unit."""
    value = leaf.value
    raw = text[leaf.value_start + 1 : leaf.value_end - 1]
    if isinstance(value, str) and len(value) > LONG_FIELD_CHARS and raw == value:
        base = leaf.value_start + 1
        spans = split_sentences(value)
        if len(spans) > 1:
            return [(base + s, base + e, f"{leaf.path}: {value[s:e]}", leaf.path) for s, e in spans]
    return [(leaf.member_start, leaf.value_end, f"{leaf.path}: {_render(value)}", leaf.path)]


async def read_texts(state: RunState) -> Texts:
    """The first stage: the answer's sentences and the context's units, each with its offsets."""
    return Texts(
        answer_sentences=await asyncio.to_thread(segment_answer, state.answer),
        context_sentences=await asyncio.to_thread(segment_context, state.context),
    )
