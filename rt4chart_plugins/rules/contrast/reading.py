"""How the contrast rule reads a sentence: its words and stems, its clauses, which words a negator
or a modal bears on, and what a clause is about (its subject)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.rules.contrast.lexicon import (
    ALL,
    EXTRA_PRICE,
    IMPLICATIVE,
    LEXICAL,
    MARKERS,
    MODAL_VERBS,
    NEGATORS,
    ONLY,
    PERMISSION_KEY,
    PERMISSION_WORDS,
    PRONOUNS,
    SCOPE,
    SUBJECT_SHARING,
)
from rt4chart_plugins.text.lemmas import lemmas
from rt4chart_plugins.text.words import STOPWORDS, stem

TOKEN = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*|\d+(?:[.,:]\d+)*%?|[,;]")
#: where a sentence divides into clauses; "and" alone joins noun phrases too often to cut at it
CLAUSE_BREAK = re.compile(
    r"[,;:]\s+|\s+[–—]\s+|\s+(?=(?:but|while|whereas|although|though|yet|except)\s)", re.IGNORECASE
)
#: a claim's conjuncts and clauses ("has a sports hall and is open on public holidays", "had baked
#: professionally before she won") are also compared one by one
CONJUNCT = re.compile(
    r",?\s+and\s+(?=(?:is|are|was|were|has|have|had|can|will|does|do)\b)"
    r"|,\s+|\s+(?=(?:before|after|when|because|while|although|but)\s)",
    re.IGNORECASE,
)


def tokens(text: str) -> list[str]:
    """Words, commas and semicolons, with contracted negations split off ("can't" → "can",
    "not"), case kept: a capitalized word inside a sentence is a name."""
    out: list[str] = []
    for t in TOKEN.findall(text.replace("’", "'")):
        low = t.lower()
        if low.endswith("n't"):
            out += [{"won't": "will", "can't": "can", "shan't": "shall"}.get(low, t[:-3]), "not"]
        elif low == "cannot":
            out += [t[:3], "not"]
        else:
            out.append(t)
    return out


def as_written(text: str, toks: Sequence[str]) -> str:
    """The words of ``text`` that :func:`tokens` read as ``toks``, as ``text`` writes them: "don't
    need" for "not need" (a contracted negation is read as "do", "not"); the tokens joined by spaces
    where they are not found."""
    parts = [r"(?:not|n['’]t)" if t.lower() == "not" else re.escape(t) for t in toks]
    m = re.search(r"\s*".join(parts), text, re.IGNORECASE) if parts else None
    if m is None:
        return " ".join(toks)
    start = m.start()
    if toks[0].lower() == "not":  # "n't need" → "don't need"
        while start > 0 and (text[start - 1].isalpha() or text[start - 1] in "'’"):
            start -= 1
    return text[start : m.end()]


def is_content(token: str) -> bool:
    low = token.lower()
    return low not in STOPWORDS and low not in MARKERS and len(low) > 1


def content(toks: Sequence[str]) -> list[str]:
    """The words that say what a sentence is about: not function words, not the markers above."""
    return [stem(t) for t in toks if is_content(t)]


def names(toks: Sequence[str]) -> list[str]:
    """Capitalized words after the first, and words with digits: the things a sentence compares."""
    return [
        stem(t)
        for i, t in enumerate(toks)
        if is_content(t) and ((i > 0 and t[:1].isupper()) or any(ch.isdigit() for ch in t))
    ]


@dataclass
class Span:
    """One sentence, clause or claim, read once."""

    unit: int
    text: str
    toks: list[str]
    low: list[str]
    words: set[str]  # content words
    keys: set[str]  # what it is aligned by: its content words and its scale and modality words


def clauses(text: str) -> list[str]:
    cuts = [0] + [m.end() for m in CLAUSE_BREAK.finditer(text)] + [len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]


def span(unit: int, text: str) -> Span:
    checkpoint()  # read once per sentence of a context and per claim: where a long one is stopped
    toks = tokens(text)
    low = [t.lower() for t in toks]
    # a word a prefix negates is also about its plain word: "non-refundable" aligns with "refunded"
    words = set(content(toks)) | {stem(word) for _, word in negated_by_prefix(low)}
    keys = words | {stem(t) for t in low if t in LEXICAL} | ({PERMISSION_KEY} if PERMISSION_WORDS & set(low) else set())
    if EXTRA_PRICE.search(text):  # "costs extra" is said on the scale of "included": it aligns by it
        keys.add(stem("included"))
    return Span(unit, text.strip(), toks, low, words, keys)


def clause_of(low: Sequence[str], i: int) -> tuple[int, int]:
    """The token range of the clause (between commas or semicolons) around position ``i``."""
    a = max((k for k, t in enumerate(low[:i]) if t in ",;"), default=-1) + 1
    b = next((k for k in range(i, len(low)) if low[k] in ",;"), len(low))
    return a, b


CONDITIONAL = frozenset("if unless whether until".split())


def conditional(low: Sequence[str], i: int) -> bool:
    """Whether position ``i`` lies in an "if", "unless" or "until" clause, which asserts nothing."""
    a, _ = clause_of(low, i)
    return any(t in CONDITIONAL for t in low[a:i])


def gerund(word: str) -> bool:
    """ "brushing", "getting" (a stem shorter than the word), not "bring" or "thing"."""
    return word.endswith("ing") and stem(word) != word


def negators(low: Sequence[str]) -> list[int]:
    """Positions of the negators that count. "Not ... until" ("not plastered until approved" =
    "plastered only after"), "not only", "not just", a negated quantifier ("not all" = "some") and
    a negated gerund ("not brushing your teeth is bad") negate no statement; "failed to",
    "refused to" do."""
    out = []
    for i, t in enumerate(low):
        if t not in NEGATORS and t not in IMPLICATIVE:
            continue
        after = list(low[i + 1 : i + 2])
        if (t == "rather" and after != ["than"]) or (t == "instead" and after != ["of"]) or conditional(low, i):
            continue
        if t in IMPLICATIVE and after == ["to"]:
            out.append(i)
        elif t in NEGATORS and not (
            t == "not"
            and (
                "until" in low[i + 1 : i + 2 + SCOPE]
                or after
                and (after[0] in ONLY | ALL | {"just"} or gerund(after[0]))
            )
        ):
            out.append(i)
    return out


#: the prefixes that negate the adjective or participle they are joined to ("non-refundable", "unlimited")
_NEGATING_PREFIX = re.compile(r"(?:non-?|un)(?P<word>[a-z]{4,})")


#: what a predicate adjective follows: a prefixed word is read as a negation only when it is said of
#: its subject ("tickets are non-refundable"), not when it names a kind of thing ("unused data")
_COPULAS = frozenset("is are was were be been being remain remains stay stays".split())


def negated_by_prefix(low: Sequence[str]) -> list[tuple[int, str]]:
    """(position, the plain word) of each lower-cased word that a prefix negates, said of its subject
    within three words of a copula: "are non-refundable" is "are not refundable", "is free and
    unlimited" "is not limited". The rest must be an adjective or an inflected verb ("unless",
    "understand" are no such word)."""
    out = []
    for k, t in enumerate(low):
        m = _NEGATING_PREFIX.fullmatch(t)
        if not m or t in MARKERS or t in CONDITIONAL or not _COPULAS & set(low[max(0, k - 3) : k]):
            continue
        word = m.group("word")
        known = lemmas(word)
        if "ADJ" in known or any(lemma != word for lemma in known.get("VERB", ())):
            out.append((k, word))
    return out


def negated_after(span: Span, j: int) -> bool:
    """Whether a negator of the same clause stands within :data:`SCOPE` words after position ``j``:
    "likely to be unable to attend" says with "likely" what "unlikely to attend" says."""
    _, b = clause_of(span.low, j)
    return any(j < k <= min(b - 1, j + SCOPE) for k in negators(span.low))


def negated_at(span: Span, j: int) -> bool:
    """Whether a negator of the same clause stands within :data:`SCOPE` words before position ``j``."""
    a, _ = clause_of(span.low, j)
    return any(max(a, j - SCOPE - 1) <= k < j for k in negators(span.low))


def scope_word(span: Span, i: int) -> int:
    """The position of the first word after ``i`` that says something (a content, scale or
    modality word), skipping auxiliaries; -1 when the clause ends first."""
    for k in range(i + 1, min(len(span.low), i + 2 + SCOPE)):
        t = span.low[k]
        if t in ",;":
            return -1
        if k == i + 1 and span.low[i] == "no" and t in ("longer", "one"):
            continue  # "no longer supports", "no one may operate"
        if is_content(span.toks[k]) or t in LEXICAL:
            return k
    return -1


def subject(span: Span, k: int) -> tuple[set[str], set[str]]:
    """(the content words of the clause before position ``k``, all the clause's words)."""
    a, b = clause_of(span.low, k)
    return set(content(span.toks[a:k])), set(content(span.toks[a:b])) | {stem(t) for t in span.low[a:b] if t in LEXICAL}


def same_subject(claim: Span, i: int, sentence: Span, j: int) -> bool:
    """Whether the claim's clause at ``i`` and the sentence's at ``j`` are about the same thing:
    one's subject is all in the other's clause, or the sentence's is a pronoun ("It still cannot
    be flown"). "White-tailed deer do not have a black tip" is not about "mule deer have a black tip"."""
    mine, my_clause = subject(claim, i)
    theirs, their_clause = subject(sentence, j)
    a, _ = clause_of(sentence.low, j)
    # a clause that a conjunction opens after a comma ("…, but no HDMI port") has the subject of
    # the clause before it
    while a > 1 and sentence.low[a] in SUBJECT_SHARING:
        a, _ = clause_of(sentence.low, a - 2)
    # an empty subject stands for something named before when it is a pronoun, or when the clause
    # opens the sentence ("Cannot be flown in high winds."); not after a comma ("…, rather than branching")
    pronoun = bool(PRONOUNS & set(sentence.low[a:j])) or a == 0
    # a clause that a conjunction opens with no subject of its own ("…, Monday to Saturday, and
    # closed on Sundays") is said of the sentence's first subject, however many phrases come between
    own = clause_of(sentence.low, j)[0]
    elided = not theirs and own > 1 and sentence.low[own] in SUBJECT_SHARING
    if elided and mine and mine <= set(content(sentence.toks[: clause_of(sentence.low, 0)[1]])):
        return True
    return (not theirs and pronoun) or bool(mine) and mine <= their_clause or bool(theirs) and theirs <= my_clause


def bears_on(toks: Sequence[str], i: int, *, before: bool = True) -> set[str]:
    """What the marker at ``i`` bears on: the words after it, and for an adjective or participle
    ("aprons are optional") also the words before it."""
    after = set(content(toks[i + 1 : i + 1 + SCOPE]))
    if not before or toks[i].lower() in MODAL_VERBS:
        return after
    return set(content(toks[max(0, i - SCOPE) : i])) | after


def first(low: Sequence[str], words: frozenset) -> int:
    return next((i for i, t in enumerate(low) if t in words), -1)
