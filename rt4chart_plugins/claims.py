"""How an answer becomes claims: the one place to change it.

- which answer sentences carry no claim (refusals, abstentions, preambles, closing courtesies);
- where a sentence divides into clauses (:func:`clause_spans`), the claims of a judge that judges
  clauses (:func:`clause_claims`), and the clause that holds given words (:func:`clause_with`);
- where a claim stands in its answer sentence (:func:`claim_span`);
- which clauses keep their support when their sentence, read as a whole, is flagged
  (:func:`held_alone`): the ones that hold alone, and when every one does, all but the weakest.

The claims stage (:mod:`rt4chart_plugins.pipeline.claims`) runs these on an answer, and asks a
judge that decomposes (``decomposition="llm"``) for its claims. A judge is asked about the claims
it is given; one that judges a clause within its sentence (the trained verifier) scores the
clauses alone and applies :func:`held_alone` to its scores, and the rule stage asks the claims
stage, not the judge, which clauses of a contradicted sentence hold.
"""

from __future__ import annotations

import re

from rt4chart_plugins.rules.quantities import number_spans
from rt4chart_plugins.text.abstention import attribution_end, is_abstention, is_attribution, says_source_lacks
from rt4chart_plugins.text.lemmas import lemmas as all_lemmas
from rt4chart_plugins.text.words import STOPWORDS
from rt4chart_plugins.types import Claim, Sentence, Span

#: Refusals and meta-remarks carry no verifiable claim (RAGTruth does not count them as hallucinations).
REFUSAL = re.compile(
    r"\b(unable to (answer|determine|provide)|(cannot|can't|can not) (answer|determine|be answered)"
    r"|(do|does|did) not (provide|contain|mention|include|specify|give) (any |enough |sufficient |specific )?"
    r"(information|details|answer)|there is no (information|mention)"
    r"|not (possible|enough information) to (answer|determine)"
    r"|no (relevant )?information (is |was )?(provided|available|given))\b",
    re.IGNORECASE,
)


#: A preamble announces what follows ("Here is a summary of the article in 62 words:", "Based on
#: the given passages, here are the steps to ...:"). It states nothing about the context, and a
#: judge reading it as a claim finds its few words nowhere and flags it: on held-out RAGTruth train
#: rows 7 of 27 preambles were flagged, and dropping them raised the answer AUC of summaries from
#: 0.76 to 0.82. All 119 preambles of the 391 train answers are unannotated, i.e. faithful. Text
#: after a colon is content ("Here is the address: 12 Elm St." is a claim) and is never dropped.
PREAMBLE = re.compile(
    r"^\W*(?:(?:sure|okay|ok|certainly|of course|absolutely)\b[!,.]?\s*)?"
    r"(?:based on the (?:given|provided|above|following)?\s*(?:passages?|information|context|article|text|data|news)"
    r"\b[^,:]*,\s*)?here(?:'s|’s| is| are)\b"
    r"(?:[^:]*:\s*$|\s+(?:a|an|the|my)\s+(?:\w+\s+){0,2}(?:summary|answer|overview|response)\b[^:]*$)",
    re.IGNORECASE,
)


#: A closing courtesy ("I hope this helps!", "Let me know if you have any further questions.")
#: offers help; it says nothing about the context. All 9 of the 391 RAGTruth train answers' closings
#: are unannotated, and the verifier scored "I hope this helps!" just under its threshold, which
#: flagged a faithful answer. Short sentences only, so that content never goes unchecked.
CLOSING = re.compile(
    r"^\W*(?:I hope (?:this|that|these|the above|my (?:answer|response))\b"
    r".*\b(?:helps?|helpful|useful|clarif\w*|answers?)\b"
    r"|(?:please\s+)?let me know if (?:you|there)\b"
    r"|(?:please\s+)?feel free to (?:ask|reach out|contact)\b"
    r"|if you have any (?:other |further |more |additional )?questions\b"
    r"|is there anything else\b)",
    re.IGNORECASE,
)


def is_refusal(sentence: str) -> bool:
    return bool(REFUSAL.search(sentence)) and len(sentence.split()) <= 30


def no_claim_reason(text: str) -> str | None:
    """Why ``text`` (a sentence, or a clause of one) carries no claim: ``abstention`` (the
    answerer does not know, or says the context does not say), ``refusal``, ``preamble`` or
    ``closing``; None when it may state something."""
    if is_abstention(text) or says_source_lacks(text):
        return "abstention"
    if is_refusal(text):
        return "refusal"
    if PREAMBLE.search(text) or is_attribution(text):
        return "preamble"
    if CLOSING.search(text) and len(text.split()) <= 25:
        return "closing"
    return None


def asserted_span(sentence: str) -> tuple[int, int] | None:
    """(start, end) of what ``sentence`` asserts, or None when it asserts nothing.

    The clauses that carry no claim at its start or end are cut off ("The context does not
    provide any information about pricing, but the trial costs 500 dollars." asserts "the trial
    costs 500 dollars"), and so is the connective that joined them ("but", "however"). A sentence
    that abstains and then asserts is judged on what it asserts: neither dropped whole, which would
    pass an invented fact unchecked, nor judged whole, which flags a correct abstention with it.
    An attribution that opens what is left ("Based on the given passages,", "The policy states
    that") is cut off too: it says only that the context says what follows."""
    lacks = says_source_lacks(sentence) and not _SUBORDINATE.match(sentence)  # "Although X doesn't say, Y."
    if is_abstention(sentence) or lacks or PREAMBLE.search(sentence):
        return None
    if CLOSING.search(sentence) and len(sentence.split()) <= 25:
        return None
    pieces = _pieces(sentence)
    # each clause read without the separator that ends it: "I don't know;" is "I don't know"
    free = [bool(no_claim_reason(sentence[a:b].strip().rstrip(",;:–—-").rstrip())) for a, b in pieces]
    kept = [k for k, f in enumerate(free) if not f]
    if not kept:
        return None
    start, end = pieces[kept[0]][0], pieces[kept[-1]][1]
    if (start, end) != (0, len(sentence)):
        lead = _CONNECTIVE.match(sentence, start)
        start = lead.end() if lead and lead.end() < end else start
    # "Based on the given passages, …", "The policy states that …": what follows is the claim
    frame = attribution_end(sentence, start)
    if frame is not None and len(sentence[frame:end].split()) >= 2:
        start = frame
    if start == 0 and end == len(sentence):
        return 0, len(sentence)
    while end > start and sentence[end - 1] in " ,;:–—-":
        end -= 1
    return (start, end) if sentence[start:end].strip() else None


def carries_no_claim(sentence: str) -> bool:
    """A refusal, an abstention ("I don't know.", "The context does not say."), a preamble or a
    closing courtesy: nothing in it can be checked against the context."""
    return asserted_span(sentence) is None


#: the connective that opens what a sentence asserts after an abstaining clause
_CONNECTIVE = re.compile(
    r"\s*(?:(?:but|however|although|though|yet|still|nevertheless|nonetheless|instead|and|so)\b\s*,?\s*)+",
    re.IGNORECASE,
)


_COMPLEMENT = re.compile(r"\s*(?:who|whom|whether|what|where|when|how|which)\b", re.IGNORECASE)


def _pieces(text: str) -> list[tuple[int, int]]:
    """Where ``text`` divides at its clause breaks, every piece kept however short (an abstaining
    "It isn't stated;" is three words), the separator with the piece it ends."""
    cuts = [0] + [m.end() for m in _CLAUSE_BREAK.finditer(text)] + [len(text)]
    pieces: list[tuple[int, int]] = []
    for a, b in zip(cuts, cuts[1:]):
        if not text[a:b].strip():
            continue
        if pieces and (
            len(text[pieces[-1][0] : pieces[-1][1]].split()) < 2  # "Unfortunately," opens the next
            or _COMPLEMENT.match(text, a)  # "doesn't say | who the landlord is": one piece
        ):
            pieces[-1] = (pieces[-1][0], b)
        else:
            pieces.append((a, b))
    return pieces


#: Where a sentence divides into clauses: commas, semicolons, dashes and the usual conjunctions
#: and relative pronouns. The separator stays with the clause it opens.
_CLAUSE_BREAK = re.compile(
    r"[,;]\s+|\s+[–—-]\s+|\s+(?=(?:and|but|while|whereas|which|who|although|though|because|so that|as well as)\s)",
    re.IGNORECASE,
)
MIN_CLAUSE_WORDS = 4


def clause_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the clauses of ``text``, whitespace and trailing punctuation trimmed; a piece
    shorter than :data:`MIN_CLAUSE_WORDS` words joins the clause before it (or after it, when first)."""
    numbers = number_spans(text)  # "three and a half million" is one amount, not two clauses
    cuts = (
        [0]
        + [m.end() for m in _CLAUSE_BREAK.finditer(text) if not any(a < m.start() < b for a, b in numbers)]
        + [len(text)]
    )
    pieces = [(a, b) for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]
    merged: list[list[int]] = []
    for a, b in pieces:
        if merged and (
            len(text[a:b].split()) < MIN_CLAUSE_WORDS
            or len(text[merged[-1][0] : merged[-1][1]].split()) < MIN_CLAUSE_WORDS
        ):
            merged[-1][1] = b
        else:
            merged.append([a, b])
    out = []
    for a, b in merged:
        piece = text[a:b]
        lead = len(piece) - len(piece.lstrip())
        body = piece.strip().rstrip(",;.!?–—- ")
        if body:
            out.append((a + lead, a + lead + len(body)))
    return out


def clause_with(claim: str, clauses: list[tuple[int, int]], words_said: str) -> str | None:
    """The one clause of ``claim`` in which ``words_said`` stand (a contrast's words: "all",
    "no verification"); None when the claim is a single clause, or the words are not found in one
    clause (then the other ways of finding the phrase apply)."""
    if len(clauses) < 2 or not words_said.strip():
        return None
    starts = [m.start() for m in re.finditer(_words_pattern(words_said), claim, re.IGNORECASE)]
    hits = {(a, b) for a, b in clauses for i in starts if a <= i < b}
    if len(hits) != 1:
        return None
    a, b = hits.pop()
    return claim[a:b]


def holds_words(text: str, words_said: str) -> bool:
    """Whether ``text`` writes ``words_said`` (a contrast's words), whatever the spacing and
    punctuation between them."""
    return bool(words_said.strip()) and re.search(_words_pattern(words_said), text, re.IGNORECASE) is not None


def _words_pattern(words_said: str) -> str:
    return r"\b" + r"\W+".join(map(re.escape, words_said.split())) + r"\b"


def clause_claims(sentences: list[Sentence]) -> list[tuple[int, str]]:
    """(sentence id, text) of each clause of each sentence, its words as the answer writes them (so
    its span is where they stand); a one-clause sentence is one claim, whole. The claims of a judge
    that judges clauses within their sentence (``Judge.clause_claims``): it cannot write, so the
    clauses are where the sentence divides."""
    claims: list[tuple[int, str]] = []
    for s in sentences:
        spans = clause_spans(s.text)
        claims += [(s.id, s.text[a:b]) for a, b in spans] if len(spans) > 1 else [(s.id, s.text)] * len(spans)
    return claims


#: what opens a clause that continues its sentence's subject: a conjunction or a relative pronoun
_JOINER = re.compile(
    r"^\W*(?:(?:and|but|or|while|whereas|which|who|that|although|though|because|so that|as well as|also|then|yet)"
    r"\b\W*)+",
    re.IGNORECASE,
)
#: auxiliaries and modals: a subject ends before them
_RELATIVE = re.compile(r"^\W*(?:which|who|that)\b", re.IGNORECASE)
_SUBORDINATE = re.compile(r"^\W*(?:although|though|even though|while|whereas)\b", re.IGNORECASE)
_AUXILIARIES = frozenset(
    "is are was were be been has have had can could will would may might must should shall does do did "
    "isn't aren't wasn't weren't hasn't haven't hadn't can't couldn't won't wouldn't doesn't don't didn't".split()
)
_SUBJECT_WORDS = 8


def _verbal(word: str, following: str = "") -> bool:
    """Whether ``word`` reads as a finite verb: an auxiliary or a modal; a word that is only ever a
    verb ("get"); or an -s / -ed form that is a noun as well ("lasts", "offers") unless an
    auxiliary follows it ("accounts can"), which makes it the subject's noun."""
    low, after = word.lower().strip(",;:"), following.lower().strip(",;:.")
    if low in _AUXILIARIES:
        return True
    lemmas = all_lemmas(low)
    if "VERB" not in lemmas:
        return False
    if low.endswith("ed"):  # "included 5 reports", "opened in 2010"; not "verified new users"
        return not after or after in STOPWORDS or after[:1].isdigit()
    if not {"NOUN", "ADJ", "ADV", "ADP"} & set(lemmas):
        return True
    inflected = any(lemma != low for found in lemmas.values() for lemma in found)
    return inflected and low.endswith("s") and after not in _AUXILIARIES


def has_verb(clause: str) -> bool:
    """Whether a word of ``clause`` reads as a finite verb (:func:`_verbal`). One without ("and
    popularity among consumers") continues a phrase of its sentence and says nothing read alone."""
    words = clause.split()
    return any(_verbal(w, words[k + 1] if k + 1 < len(words) else "") for k, w in enumerate(words))


def subject_of(sentence: str) -> str | None:
    """The words before the first finite verb of ``sentence`` ("The free trial" of "The free trial
    lasts 14 days"), or None when none is found within :data:`_SUBJECT_WORDS` words."""
    words = sentence.split()
    for k, w in enumerate(words[: _SUBJECT_WORDS + 1]):
        if k and _verbal(w, words[k + 1] if k + 1 < len(words) else ""):
            return " ".join(words[:k])
    return None


def with_subject(sentence: str, clause: str) -> str:
    """A clause as it reads on its own, with what it shares with its sentence: "and includes
    unlimited storage" of "The free trial lasts 14 days and includes unlimited storage." reads
    "The free trial includes unlimited storage". A clause that has its own subject, or the
    sentence's first clause, reads as written (without its joining word)."""
    body = _JOINER.sub("", clause).strip()
    if not body or sentence.startswith(clause):
        return clause
    if _RELATIVE.match(clause):  # "which offers free parking" is about the words before it, not the subject
        return body
    first = body.split()
    subject = subject_of(sentence) if _verbal(first[0], first[1] if len(first) > 1 else "") else None
    return f"{subject} {body}" if subject else body


def by_sentence(claims: list[Claim]) -> list[list[Claim]]:
    """The claims in order, those of one answer sentence (its clauses) together; a claim of no
    sentence (``sentence_id`` -1) stands alone."""
    groups: list[list[Claim]] = []
    for claim in claims:
        if groups and claim.sentence_id >= 0 and groups[-1][-1].sentence_id == claim.sentence_id:
            groups[-1].append(claim)
        else:
            groups.append([claim])
    return groups


def judged_text(group: list[Claim]) -> str:
    """What a judge that reads a clause within its sentence reads for one group of
    :func:`by_sentence`: the sentence its clauses make up, or the one claim's own text."""
    return group[0].sentence if len(group) > 1 and group[0].sentence else " ".join(c.text for c in group)


def held_alone(supports: list[float], bar: float, *, weakest_falls: bool) -> list[bool]:
    """Which clauses of a flagged sentence keep their support: those whose support, read alone,
    reaches ``bar``. ``weakest_falls``: the sentence as a whole is what the context does not
    state, so when every clause holds alone, the weakest does not (the first of equals)."""
    held = [s >= bar for s in supports]
    if weakest_falls and held and all(held):
        held[supports.index(min(supports))] = False
    return held


def claim_span(claim: Claim, sentence: Sentence | None) -> Span | None:
    """Where the claim stands in the answer: its own words, when it quotes a part of its sentence
    (a clause), else the whole sentence it was decomposed from."""
    if sentence is None:
        return None
    at = sentence.text.find(claim.text) if claim.text and claim.text != sentence.text else -1
    if at < 0:
        return Span(start=sentence.start, end=sentence.end, text=sentence.text)
    return Span(start=sentence.start + at, end=sentence.start + at + len(claim.text), text=claim.text)
