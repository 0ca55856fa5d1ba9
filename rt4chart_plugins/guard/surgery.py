"""Text surgery: an answer with some of its spans taken out, and markers put in, still readable.

The guard never writes a fact. Everything here works on a mask over the answer's own characters
(kept or not), a set of positions whose letter is capitalized (a sentence whose first clause went
starts with its next one), and strings inserted at positions (markers). So the output is always
the answer's characters, in order, with some left out, one letter's case changed where a sentence
now starts, and markers added: what the property tests check.

A dropped clause takes its comma or conjunction with it: a clause after the first takes the
separator before it (", and no verification is needed" goes whole); the first clause of a
sentence takes the separator and the conjunction after it, so the next clause opens the sentence.
A sentence left with no word goes whole, and the whitespace around a removed piece is closed up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

#: words that join a clause to the one before it: dropped with the clause before them when that
#: clause opened its sentence ("X, and Y" without X is "Y")
_JOINER = re.compile(
    r"(?:(?:and|but|or|nor|so|yet|then|while|whereas|although|though|because|since|plus|also|"
    r"however|moreover|furthermore|additionally|as well as)\b[,]?\s*)+",
    re.IGNORECASE,
)
#: a joiner right before a later clause, with the separator before it: it goes with the clause
#: ("pricing, but [the trial costs 500 dollars]" is "pricing", not "pricing, but")
_JOINER_BEFORE = re.compile(
    r"(?:\s*(?:[,;:]|\s[–—-]))?\s*\b(?:and|but|or|nor|so|yet|then|plus|also|however|whereas|while)\b,?\s*\Z",
    re.IGNORECASE,
)
#: a subordinator that opens a sentence: once the clause it tied its own to is gone, it goes too
#: ("Although the leaflet doesn't say, [the trial costs 500 dollars]" is "The leaflet doesn't say")
_SUBORDINATOR = re.compile(r"(?:although|though|while|whereas|even though)\b,?\s*", re.IGNORECASE)
#: a clause that only says something about what came before it: without its head it says nothing
_RELATIVE = re.compile(r"(?:which|who|whom|whose|where)\b", re.IGNORECASE)
#: what may stand between two clauses
_SEPARATOR_BEFORE = re.compile(r"(?:\s*(?:[,;:]|\s[–—-]))?\s*\Z")
_COMMA_AFTER = re.compile(r"\s*,(?=\s)")
_SEPARATOR_AFTER = re.compile(r"\s*(?:[,;:]|[–—-]\s)?\s*")
#: a sentence's closing punctuation (and the quote or bracket after it), never removed alone
_CLOSING = re.compile(r"[.!?…]+[\"'”’)\]]*\s*\Z")
#: a list item's marker, which opens the line rather than the sentence
_LIST_MARKER = re.compile(r"\s*(?:[-*•]|\d{1,3}[.)])\s+")
_WORD = re.compile(r"\w")


@dataclass
class Edit:
    """An answer as the guard will show it: which characters stay, which letters are capitalized,
    which markers go where (before the character at that position; ``len(text)`` is the end)."""

    text: str
    keep: list[bool] = field(default_factory=list)
    upper: set[int] = field(default_factory=set)
    inserts: dict[int, list[str]] = field(default_factory=dict)
    trailer: str = ""  # text after the answer: flag's quoted notes

    def __post_init__(self) -> None:
        if not self.keep:
            self.keep = [True] * len(self.text)

    def insert(self, position: int, marker: str) -> None:
        self.inserts.setdefault(max(0, min(position, len(self.text))), []).append(marker)

    def kept(self, start: int, end: int) -> bool:
        """Whether every word of ``[start, end)`` is still there, but the joiner it may open with
        ("and verified new users can…" keeps its claim when its "and" went with the clause before)."""
        start, end = max(0, start), min(end, len(self.text))
        joiner = _JOINER.match(self.text, start, end)
        if joiner and joiner.end() < end:
            start = joiner.end()
        return all(self.keep[i] for i in range(start, end) if _WORD.match(self.text[i]))

    def render(self) -> str:
        out: list[str] = []
        for i, char in enumerate(self.text):
            out.extend(self.inserts.get(i, ()))
            if self.keep[i]:
                up = char.upper()
                out.append(up if i in self.upper and len(up) == 1 else char)
        out.extend(self.inserts.get(len(self.text), ()))
        return "".join(out) + self.trailer


def body(text: str, start: int, end: int) -> tuple[int, int]:
    """The part of the sentence ``[start, end)`` a clause may be cut from: without the list
    marker that opens it and the closing punctuation that ends it."""
    start = max(0, start)
    end = min(len(text), end)
    piece = text[start:end]
    marker = _LIST_MARKER.match(piece)
    lead = marker.end() if marker else len(piece) - len(piece.lstrip())
    closing = _CLOSING.search(piece)
    tail = len(piece) - closing.start() if closing else len(piece) - len(piece.rstrip())
    b0, b1 = start + lead, end - tail
    return (b0, b1) if b0 < b1 else (start, start)


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def drop(text: str, sentences: Sequence[tuple[int, int]], spans: Iterable[tuple[int, int]]) -> Edit:
    """``text`` with ``spans`` taken out, clause by clause, sentence by sentence (``sentences``:
    the answer's sentences as ``(start, end)``). Spans outside every sentence are taken out as
    they are."""
    edit = Edit(text)
    n = len(text)
    wanted = _merge((max(0, a), min(n, b)) for a, b in spans if min(n, b) > max(0, a))
    if not wanted:
        return edit
    bounds = sorted((max(0, a), min(n, b)) for a, b in sentences if min(n, b) > max(0, a))
    covered: list[tuple[int, int]] = []
    for s0, s1 in bounds:
        inside = [(max(a, s0), min(b, s1)) for a, b in wanted if a < s1 and b > s0]
        if inside:
            _cut_sentence(edit, s0, s1, inside)
            covered.extend(inside)
    for a, b in wanted:  # what lies outside every sentence
        for i in range(a, b):
            if not any(c0 <= i < c1 for c0, c1 in bounds):
                edit.keep[i] = False
    close_up(edit)
    return edit


def _cut_sentence(edit: Edit, s0: int, s1: int, spans: list[tuple[int, int]]) -> None:
    text = edit.text
    b0, b1 = body(text, s0, s1)
    cuts = _merge((max(a, b0), min(b, b1)) for a, b in spans if min(b, b1) > max(a, b0))
    left = _kept_words(text, b0, b1, cuts)
    if not left:
        for i in range(s0, s1):
            edit.keep[i] = False
        return
    first_letter = next((i for i in range(b0, b1) if text[i].isalpha()), None)
    for x, y in cuts:
        before_kept = any(_WORD.match(text[i]) for i in range(b0, x) if not _in(i, cuts))
        if before_kept:
            if not _kept_words(text, y, b1, cuts):  # the sentence's last clause went
                _unsubordinate(edit, b0, x)
            joiner = _JOINER_BEFORE.search(text, b0, x)
            if joiner:
                x = joiner.start()
            elif sep := _SEPARATOR_BEFORE.search(text, b0, x):
                x = sep.start()
                after = _COMMA_AFTER.match(text, y, b1)
                if "," in sep.group() and after:  # an inserted clause goes with both its commas
                    y = after.end()
        else:  # the clause opened the sentence: the next one opens it now, without its joiner
            y = _SEPARATOR_AFTER.match(text, y, b1).end()  # type: ignore[union-attr]
            joiner = _JOINER.match(text, y, b1)
            if joiner:
                y = joiner.end()
            if _RELATIVE.match(text, y, b1):  # "which is close to the station" says nothing alone
                for i in range(s0, s1):
                    edit.keep[i] = False
                return
            if first_letter is not None and text[first_letter].isupper():
                start = next((i for i in range(y, b1) if text[i].isalpha()), None)
                if start is not None and text[start].islower():
                    edit.upper.add(start)
        for i in range(x, y):
            edit.keep[i] = False


def _unsubordinate(edit: Edit, b0: int, x: int) -> None:
    """The subordinator opening ``[b0, x)``, dropped when the main clause it led to is gone, with
    the next word capitalized where the sentence began with a capital."""
    opener = _SUBORDINATOR.match(edit.text, b0, x)
    if not opener or not edit.text[b0].isupper() or opener.end() >= x:
        return
    for i in range(b0, opener.end()):
        edit.keep[i] = False
    if edit.text[opener.end()].islower():
        edit.upper.add(opener.end())


def _in(i: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= i < b for a, b in spans)


def _kept_words(text: str, b0: int, b1: int, cuts: list[tuple[int, int]]) -> bool:
    """Whether the body keeps a word that is more than a joiner."""
    kept = "".join(c if not _in(i, cuts) else " " for i, c in enumerate(text[b0:b1], start=b0))
    words = re.findall(r"\w[\w'’-]*", kept)
    joiners = {"and", "but", "or", "nor", "so", "yet", "then", "also", "plus", "while", "whereas"}
    return any(w.lower() not in joiners for w in words)


def close_up(edit: Edit) -> None:
    """Close the gaps removals left: no doubled spaces, no space before punctuation, no blank
    line where a line's every word went, nothing hanging at the start or the end."""
    _empty_lines(edit)
    before: list[bool] = []
    while before != edit.keep:  # closing one gap may join two
        before = list(edit.keep)
        _close_gaps(edit)


def _close_gaps(edit: Edit) -> None:
    text, keep = edit.text, edit.keep
    n = len(text)
    i = 0
    while i < n:
        if keep[i]:
            i += 1
            continue
        j = i
        while j < n and not keep[j]:
            j += 1
        left = i - 1
        while left >= 0 and not keep[left]:
            left -= 1
        right = j
        # the whitespace runs on either side of the gap
        wl = left
        while wl >= 0 and keep[wl] and text[wl].isspace():
            wl -= 1
        wr = right
        while wr < n and keep[wr] and text[wr].isspace():
            wr += 1
        has_left_space, has_right_space = wl < left, wr > right
        if left < 0 or wl < 0:  # at the start: no leading whitespace
            _drop(keep, 0, wr)
        elif right >= n or wr >= n:  # at the end: no trailing whitespace
            _drop(keep, wl + 1, n)
        elif has_left_space and has_right_space:
            if text[right:wr].count("\n") > text[wl + 1 : left + 1].count("\n"):
                _drop(keep, wl + 1, left + 1)
            else:
                _drop(keep, right, wr)
        elif has_left_space and text[wr] in ".,;:!?)]…":
            _drop(keep, wl + 1, left + 1)
        elif not has_left_space and not has_right_space and text[wl] in ",;:" and text[wr] in ".,;:!?":
            keep[wl] = False  # "A, [gone]." is "A."
        i = j


def _drop(keep: list[bool], a: int, b: int) -> None:
    for k in range(max(0, a), min(len(keep), b)):
        keep[k] = False


def _empty_lines(edit: Edit) -> None:
    """A line that had words and has none left goes with its line break (a list item's marker
    with it), unless it closed a sentence begun on an earlier line that keeps words: then its
    closing punctuation and its line break stay ("lasts 14 days;\nThe trial lasts 30 days.\nVerified"
    without its second clause is "lasts 14 days.\nVerified", not "lasts 14 daysVerified")."""
    text, keep = edit.text, edit.keep
    start = 0
    for line in text.splitlines(keepends=True):
        end = start + len(line)
        had = _WORD.search(line)
        if had and not any(keep[i] and _WORD.match(text[i]) for i in range(start, end)):
            body_end = start + len(line.rstrip("\r\n"))
            closing = [i for i in range(start, body_end) if keep[i] and text[i] in _CLOSERS]
            if closing and _open_before(edit, start):
                _drop(keep, start, closing[0])
                _drop(keep, closing[-1] + 1, body_end)
            else:
                _drop(keep, start, end)
        start = end


#: the characters that close a sentence (and the quote or bracket after them)
_CLOSERS = frozenset(".!?…\"'”’)]")


def _open_before(edit: Edit, position: int) -> bool:
    """Whether the text kept before ``position`` ends inside a sentence: its last kept character
    (whitespace aside) is no sentence's closing punctuation."""
    for i in range(position - 1, -1, -1):
        if edit.keep[i] and not edit.text[i].isspace():
            return edit.text[i] not in ".!?…"
    return False


def mark_after(edit: Edit, start: int, end: int, marker: str) -> None:
    """Put ``marker`` right after the words of ``[start, end)``, before its closing punctuation
    ("lasts 14 days [1]."), with a space when the text has none there."""
    text = edit.text
    end = min(end, len(text))
    piece = text[start:end]
    closing = _CLOSING.search(piece)
    at = start + closing.start() if closing and closing.start() > 0 else end
    while at > start and text[at - 1].isspace():
        at -= 1
    edit.insert(at, marker if marker.startswith(" ") else " " + marker)
