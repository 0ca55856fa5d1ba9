"""Edit kinds that flip one function word: negation, quantifier, comparative, modality.

Each turns a sentence the context supports into one the context contradicts (CON) by changing a
single word or two, so the verifier cannot lean on word overlap. Every candidate site has guards
against the idioms where the flip would be ungrammatical or would keep the meaning ("at all",
"no longer", "not only", "the fall", "to better understand"); a sentence with a hypothetical
("if", "unless", "whether") is left alone by the polarity edits, because flipping inside a
condition need not contradict anything.
"""

from __future__ import annotations

import random

from .registry import ContextInfo, edit_kind, pick
from .text import (
    FUNCTION_WORDS, HYPOTHETICAL, Tok, is_participle, match_case, replace, tokens,
)

_NEG_CONTRACTIONS = {
    "isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were", "can't": "can",
    "cannot": "can", "couldn't": "could", "won't": "will", "wouldn't": "would",
    "shouldn't": "should", "hasn't": "has", "haven't": "have", "hadn't": "had",
    "doesn't": "does", "didn't": "did", "don't": "do", "mustn't": "must",
}
#: Negative-polarity words: "did not have any" cannot lose its "not".
_NPI = frozenset("any anyone anybody anything anymore anywhere ever yet either until till".split())
_ADD_NOT = frozenset("is are was were will would should can must".split())
_HAVE = frozenset("has have had".split())
_NO_BLOCK = frozenset(
    "longer one more less matter doubt sooner way fewer other such further later exception means "
    "end".split()
)
_AFTER_NOT_BLOCK = frozenset("only just merely least also".split())
#: Participle forms that usually work as prepositions ("it had, compared to ..."): no "not".
_PREPOSITION_PARTICIPLES = frozenset("not compared based given provided regarding concerning following".split())
_MODALS_TO = frozenset("to will would can could should must may might did does do shall".split())
_PLURAL_DETERMINERS = frozenset("the his her their its these those our my your".split())


def _plural_noun(tok: Tok | None) -> bool:
    """A lower-case content word ending in -s (not -ss): a plural noun, roughly."""
    return (
        tok is not None and tok.is_word and tok.text.islower() and tok.low.endswith("s")
        and not tok.low.endswith("ss") and len(tok.low) > 3 and tok.low not in FUNCTION_WORDS
    )


def _word(toks: list[Tok], i: int) -> str:
    return toks[i].low if 0 <= i < len(toks) else ""


def _article_fixed(text: str, toks: list[Tok], i: int, new: str) -> str:
    """Replace token ``i`` by ``new`` and fix a preceding a/an for the new word's sound."""
    out = replace(text, toks[i].start, toks[i].end, match_case(new, toks[i].text))
    if i > 0 and toks[i - 1].low in ("a", "an"):
        vowel = new[:1].lower() in "aeiou" and not new.lower().startswith(("uni", "use", "one", "eu"))
        article = "an" if vowel or new.lower().startswith(("hour", "honest", "honor", "honour")) else "a"
        out = replace(out, toks[i - 1].start, toks[i - 1].end, match_case(article, toks[i - 1].text))
    return out


@edit_kind("negation", "CON")
def negation(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Add or remove one negation: the commonest contradiction, and one word overlap misses.

    Adds "not" after an auxiliary (is/was/will/can/has + participle, ...) or removes it (with
    its contraction forms and "never"), or drops "no" in "has no X". Leaves the sentence alone when
    a negative-polarity word would be stranded ("did not have any") or a condition scopes it.
    """
    if HYPOTHETICAL.search(sentence):
        return None
    toks = tokens(sentence)
    lows = [t.low.replace("’", "'") for t in toks]
    has_npi = any(w in _NPI for w in lows)
    cands: list[str] = []
    for i, tok in enumerate(toks):
        low = lows[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if low == "n't" and i > 0 and not has_npi:  # tokenized text: "is n't", "ca n't", "wo n't"
            prev = toks[i - 1]
            base = match_case({"ca": "can", "wo": "will"}.get(prev.low, prev.low), prev.text)
            cands.append(sentence[: prev.start] + base + sentence[tok.end :])
        elif low in _NEG_CONTRACTIONS and not has_npi and i > 0:
            cands.append(replace(sentence, tok.start, tok.end, match_case(_NEG_CONTRACTIONS[low], tok.text)))
        elif (
            low in _ADD_NOT | _HAVE | {"does", "did", "do"} and nxt is not None and nxt.low == "not"
            and not has_npi and i > 0 and _word(toks, i + 2) not in _AFTER_NOT_BLOCK
            and i + 2 < len(toks) and toks[i + 2].is_word
        ):
            cands.append(sentence[: tok.end] + sentence[nxt.end :])
        elif low == "never" and i > 0 and not has_npi and nxt is not None and nxt.is_word:
            cands.append(sentence[: toks[i - 1].end] + sentence[tok.end :])
        elif (
            low == "no" and i > 0 and lows[i - 1] in {"is", "are", "was", "were", "has", "have", "had"}
            and nxt is not None and nxt.is_word and nxt.low not in _NO_BLOCK and nxt.text.islower()
        ):
            cands.append(sentence[: tok.start] + sentence[nxt.start :])
        elif low in _ADD_NOT and i > 0 and nxt is not None and nxt.is_word:
            if nxt.low in {"not", "never", "no", "n't"} | _AFTER_NOT_BLOCK or lows[i - 1] == "not":
                continue
            if low == "can":
                cands.append(replace(sentence, tok.start, tok.end, match_case("cannot", tok.text)))
            else:
                cands.append(sentence[: tok.end] + " not" + sentence[tok.end :])
        elif (
            low in _HAVE and i > 0 and nxt is not None and is_participle(nxt.text)
            and nxt.low not in _PREPOSITION_PARTICIPLES
        ):
            cands.append(sentence[: tok.end] + " not" + sentence[tok.end :])
    return pick(rng, cands)


@edit_kind("quantifier", "CON")
def quantifier(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Swap a quantifier for one that excludes it: all/every -> no/none, some/many -> no/few, ...

    Only swaps whose result is incompatible with the original (all -> some is skipped: "all"
    entails "some"); "only" -> "also" works because "also" presupposes what "only" denies.
    """
    toks = tokens(sentence)
    cands: list[str] = []
    for i, tok in enumerate(toks):
        low, prev = tok.low, _word(toks, i - 1)
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        nxt_low = nxt.low if nxt is not None else ""
        if tok.is_cap and i > 0:
            continue  # a capitalized quantifier mid-sentence is part of a name
        if low == "all" and prev not in {"at", "after", "above", "for", "by", "once", "of"}:
            if nxt_low == "of":
                cands.append(replace(sentence, tok.start, tok.end, match_case("none", tok.text)))
            elif nxt_low in _PLURAL_DETERMINERS and _plural_noun(toks[i + 2] if i + 2 < len(toks) else None):
                cands.append(replace(sentence, tok.start, tok.end, match_case("none of", tok.text)))
            elif _plural_noun(nxt):
                cands.append(replace(sentence, tok.start, tok.end, match_case("no", tok.text)))
        elif low == "every" and nxt is not None and nxt.is_word and nxt.text.islower() and nxt_low not in {
            "time", "day", "year", "week", "month", "night", "morning", "evening", "weekend", "season",
            "hour", "minute", "other", "now", "so", "single", "bit",
        }:
            cands.append(replace(sentence, tok.start, tok.end, match_case("no", tok.text)))
        elif low == "each" and nxt_low == "of":
            cands.append(replace(sentence, tok.start, tok.end, match_case("none", tok.text)))
        elif low == "none" and nxt_low == "of":
            cands.append(replace(sentence, tok.start, tok.end, match_case("all", tok.text)))
        elif low == "some" and prev not in {"for", "to"}:
            if nxt_low == "of":
                cands.append(replace(sentence, tok.start, tok.end, match_case("none", tok.text)))
            elif _plural_noun(nxt):
                cands.append(replace(sentence, tok.start, tok.end, match_case("no", tok.text)))
        elif low in {"most", "many"} and prev not in {"the", "at", "one", "how", "among", "a", "great", "so"}:
            if nxt_low == "of" or _plural_noun(nxt):
                cands.append(replace(sentence, tok.start, tok.end, match_case("few", tok.text)))
        elif low == "few" and prev not in {"a", "quite", "the", "very", "so", "too", "only"} and _plural_noun(nxt):
            cands.append(replace(sentence, tok.start, tok.end, match_case("many", tok.text)))
        elif low in {"least", "most"} and prev == "at" and nxt is not None and (
            nxt.text[:1].isdigit() or nxt.text in "$£€" or nxt_low in _NUMBER_WORDS
        ):
            other = "most" if low == "least" else "least"
            cands.append(replace(sentence, tok.start, tok.end, other))
        elif low == "always" and prev not in {"not", "almost"}:
            cands.append(replace(sentence, tok.start, tok.end, match_case("never", tok.text)))
        elif low in {"rarely", "seldom"} and prev not in {"not", "only", "very"}:
            cands.append(replace(sentence, tok.start, tok.end, match_case("often", tok.text)))
        elif low in {"often", "usually", "frequently"} and nxt_low not in {"not", "never"} and prev not in {
            "not", "more", "most", "how", "as", "so", "too", "very", "less", "quite",
        }:
            cands.append(replace(sentence, tok.start, tok.end, match_case("rarely", tok.text)))
        elif (
            low == "only" and i > 0 and prev not in {"the", "an", "a", "his", "her", "their", "its", "our",
                                                   "my", "your", "not", "if"}
            and nxt_low in {"to", "for", "in", "on", "at", "by", "with", "from", "through", "via"}
        ):  # "available only in Europe" -> "also in Europe": "also" presupposes elsewhere
            cands.append(replace(sentence, tok.start, tok.end, "also"))
    return pick(rng, cands)


_NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten eleven twelve".split())

_OPPOSITE = {
    "higher": "lower", "lower": "higher", "highest": "lowest", "lowest": "highest",
    "larger": "smaller", "smaller": "larger", "largest": "smallest", "smallest": "largest",
    "bigger": "smaller", "biggest": "smallest", "greater": "smaller",
    "longer": "shorter", "shorter": "longer", "longest": "shortest", "shortest": "longest",
    "older": "younger", "younger": "older", "oldest": "youngest", "youngest": "oldest",
    "faster": "slower", "slower": "faster", "fastest": "slowest", "slowest": "fastest",
    "stronger": "weaker", "weaker": "stronger", "strongest": "weakest", "weakest": "strongest",
    "heavier": "lighter", "warmer": "colder", "colder": "warmer", "hotter": "colder",
    "cheaper": "more expensive", "richer": "poorer", "poorer": "richer", "easier": "harder",
    "better": "worse", "worse": "better", "best": "worst", "worst": "best",
    "before": "after", "after": "before",
    "increase": "decrease", "increases": "decreases", "increased": "decreased", "increasing": "decreasing",
    "decrease": "increase", "decreases": "increases", "decreased": "increased", "decreasing": "increasing",
    "rose": "fell", "rise": "fall", "rises": "falls", "rising": "falling",
    "fell": "rose", "fall": "rise", "falls": "rises", "falling": "rising", "grew": "shrank",
    "first": "last", "last": "first", "above": "below", "below": "above",
    "maximum": "minimum", "minimum": "maximum", "majority": "minority", "minority": "majority",
    "less": "more", "fewer": "more",
}
#: Movement verbs flip only when a measure follows ("rose by", "fell 5%"): "rose to fame", "fell
#: ill", "fall in love" and "grew up" must stay.
_MOVES = frozenset("rose rise rises rising fell fall falls falling grew".split())
_MOVE_NEXT = frozenset("by from sharply slightly steadily significantly dramatically".split())
_AFTER_IDIOMS = frozenset(
    "named called modeled modelled modelling look looks looked looking take takes took taken "
    "asked ask go goes went run ran chase chased sought lust lusted".split()
)
_TIME_NOUNS = frozenset(
    "year week month night season summer winter spring autumn fall weekend decade century "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)


def _comparative_site(toks: list[Tok], i: int) -> str | None:
    """The replacement for the comparative at token ``i``, or None where the flip is unsafe."""
    tok = toks[i]
    low, prev = tok.low, _word(toks, i - 1)
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    nxt_low = nxt.low if nxt is not None else ""
    after = _word(toks, i + 2)
    if tok.is_cap and i > 0:
        return None  # "Best Picture", "First Minister": a name
    if nxt is not None and nxt.text in "-–":
        return None  # "first-ever" split by the tokenizer is still a compound
    if low == "more":
        if prev in {"no", "any", "once", "the", "even", "much", "far", "what's", "some"} or nxt_low in {"or", ""}:
            return None
        if nxt is None or not (nxt.is_word or nxt.text[:1].isdigit()):
            return None
        return "fewer" if _plural_noun(nxt) else "less"
    if low in {"less", "fewer"}:
        if prev in {"no", "more", "none", "much", "far", "even"} or nxt is None or not nxt.is_word:
            return None
        return "more"
    if low in {"earlier", "later"}:
        return ("later" if low == "earlier" else "earlier") if nxt_low == "than" else None
    if low in {"most", "least"}:
        if prev == "the" and nxt is not None and nxt.is_word and nxt.text.islower() and nxt_low not in FUNCTION_WORDS:
            return "least" if low == "most" else "most"
        return None
    if low not in _OPPOSITE:
        return None
    if low in {"lower", "better"} and prev in _MODALS_TO:
        return None  # a verb: "to lower taxes", "to better understand"
    if nxt_low == "known" or (low == "best" and prev == "at"):
        return None
    if low == "after" and prev in _AFTER_IDIOMS:
        return None  # "named after", "look after": not a time
    if low in {"before", "after"}:
        if nxt is None or not (nxt.is_word or nxt.text[:1].isdigit()) or nxt_low == "all":
            return None
        if prev in {"ever", "never", "than"}:
            return None  # "never before seen"
    if low in {"above", "below"} and (nxt is None or not (nxt.is_word or nxt.text[:1].isdigit()) or nxt_low == "all"):
        return None
    if low == "first" and (prev == "at" or nxt_low in {"of", "and", ""} or (nxt is not None and not nxt.is_word)):
        return None
    nxt_base = nxt_low[:-2] if nxt_low.endswith(("'s", "’s")) else nxt_low
    if low == "last" and (prev in {"at", "will", "to", "would", "can", "could", "may", "might"} | {""}
                          or nxt_base in _TIME_NOUNS | {"but", "time", ""}):
        return None
    if low in _MOVES:
        measured = nxt_low in _MOVE_NEXT or nxt_low[:1].isdigit() or (
            nxt_low == "to" and (after[:1].isdigit() or after in {"$", "£", "€"})
        )
        if low in {"rise", "rises"} and nxt_low in {"in", "of"}:
            measured = True
        if not measured:
            return None
        if low in {"fall", "falls"} and prev in {"the", "in", "this", "last", "next"}:
            return None
    nouns = {"increase", "decrease", "rise", "fall"}
    if low in nouns and prev in {"the", "this", "that"} and nxt_low not in {"in", "of"}:
        return None
    return _OPPOSITE[low]


@edit_kind("comparative", "CON")
def comparative(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Flip a comparison or direction: more/less, higher/lower, before/after, rose/fell, first/last.

    A reversed comparison keeps every content word and states the opposite, the contradiction a
    bag-of-words judge cannot see.
    """
    toks = tokens(sentence)
    cands: list[str] = []
    for i, tok in enumerate(toks):
        if not tok.is_word:
            continue
        new = _comparative_site(toks, i)
        if new is not None:
            cands.append(_article_fixed(sentence, toks, i, new))
    return pick(rng, cands)


_MIGHT_BLOCK = frozenset("have not n't also well just even still actually perhaps possibly".split())
_SUBORDINATORS = frozenset(
    "when whenever whether if that which who whom because although though while since unless until "
    "where so as".split()
)


def _clause_begin(toks: list[Tok], i: int) -> int:
    """Index just after the last , ; : before token ``i`` (0 when none)."""
    for j in range(i - 1, -1, -1):
        if toks[j].text in {",", ";", ":"}:
            return j + 1
    return 0


@edit_kind("modality", "CON")
def modality(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Flip an obligation or a hedge: must -> need not, required -> optional, might -> will certainly.

    "will" -> "might" is not offered: what will happen also might, so it can be entailed; the
    other direction overstates a hedged context, which the context contradicts.
    """
    if HYPOTHETICAL.search(sentence):
        return None
    toks = tokens(sentence)
    cands: list[str] = []
    for i, tok in enumerate(toks):
        low, prev = tok.low, _word(toks, i - 1)
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        nxt_low = nxt.low if nxt is not None else ""
        if i == 0 or nxt is None or not nxt.is_word:
            continue
        if low == "must" and nxt_low not in {"have", "not", "n't", "also"}:
            cands.append(replace(sentence, tok.start, tok.end, "need not"))
        elif low in {"required", "obliged", "obligated", "allowed", "permitted"} and nxt_low == "to" and prev in {
            "is", "are", "was", "were",
        }:
            cands.append(sentence[: toks[i - 1].end] + " not" + sentence[toks[i - 1].end :])
        elif (
            low == "might" and nxt_low not in _MIGHT_BLOCK and not nxt_low.endswith("ly")
            and not any(t.low in _SUBORDINATORS for t in toks[_clause_begin(toks, i) : i])
        ):  # a main-clause hedge only: "even when he might doubt" is no claim of possibility
            cands.append(replace(sentence, tok.start, tok.end, "will certainly"))
        elif low == "needs" and nxt_low == "to" and prev not in _MODALS_TO:
            cands.append(replace(sentence, tok.start, tok.end, "does not need"))
        elif low == "has" and nxt_low == "to" and prev not in _MODALS_TO and _word(toks, i + 2) not in {"be", "do"}:
            cands.append(replace(sentence, tok.start, tok.end, "does not have"))
        elif low == "had" and nxt_low == "to" and prev not in _MODALS_TO and _word(toks, i + 2) not in {"be", "do"}:
            cands.append(replace(sentence, tok.start, tok.end, "did not have"))
        elif low in {"need", "have"} and nxt_low == "to" and prev in {"i", "you", "we", "they"}:
            cands.append(replace(sentence, tok.start, tok.end, f"do not {low}"))
    for i in range(1, len(toks)):
        tok, prev = toks[i], toks[i - 1].low
        nxt_low = _word(toks, i + 1)
        if prev not in {"is", "are", "was", "were", "be", "been"} or nxt_low in {"to", "by"}:
            continue
        if tok.low in {"mandatory", "compulsory", "obligatory", "required"}:
            cands.append(replace(sentence, tok.start, tok.end, "optional"))
        elif tok.low == "optional":
            cands.append(replace(sentence, tok.start, tok.end, "mandatory"))
    return pick(rng, cands)
