"""Edit kinds that move or add material: role_swap, entity_swap, event_order, added_clause,
causal_link.

The first three keep every word of the sentence (or swap in a word of the same context) and change
who did what, or in which order: contradictions (CON) that no overlap score can see. The last two
add content the context does not state, a clause from another document or a causal link between
two true facts: baseless (NIC). All work on simple, recognisable patterns only (precision over
recall): a capitalized name, a past-tense verb, a pronoun subject.
"""

from __future__ import annotations

import random

from .registry import ContextInfo, edit_kind, pick
from .text import (
    CAUSAL_MARKERS, FUNCTION_WORDS, HYPOTHETICAL, PERSONAL, NameSpan, Tok, as_clause, content_words,
    end_punct, gerund_of, has_finite_verb, is_participle, is_past_verb, is_verb, name_spans, past_of,
    tokens, words,
)

#: Asymmetric transitive verbs whose subject and object are usually of one type (people, teams,
#: firms): swapping them states the reverse relation. Symmetric ones (married, met, played) and
#: type-changing ones (joined, signed, visited) are left out.
_ROLE_VERBS = frozenset(
    """
    beat defeated replaced succeeded hired fired sacked sued acquired bought interviewed praised
    criticized criticised accused attacked killed shot arrested invited appointed endorsed
    overtook outscored eliminated thanked congratulated nominated coached mentored trained
    outplayed outvoted overthrew deposed blamed supported funded paid emailed called contacted
    informed warned told taught followed preceded knocked helped asked reminded convinced
    persuaded advised urged encouraged assured texted messaged
    beats defeats replaces succeeds hires fires sacks sues acquires buys interviews praises
    criticizes criticises accuses attacks kills arrests invites appoints endorses overtakes
    eliminates thanks congratulates nominates coaches mentors trains blames supports funds pays
    emails calls contacts informs warns tells teaches follows precedes helps asks reminds
    convinces persuades advises urges encourages assures texts messages
    """.split()
)
_CLAUSE_OPENERS = frozenset("and but when after before while that then as because since where so".split())
_SUBJECT_PRONOUNS = frozenset("he she they it we i".split())


def _clause_start(toks: list[Tok], first: int) -> bool:
    """Token ``first`` opens a clause: sentence start, after , ; : ( or a conjunction."""
    if first == 0:
        return True
    prev = toks[first - 1]
    return prev.text in {",", ";", ":", "(", '"', "“", "—", "–"} or prev.low in _CLAUSE_OPENERS


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a) if a else 0.0


@edit_kind("role_swap", "CON")
def role_swap(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Swap subject and object of "X <verb> Y" where X and Y are names: the reverse relation.

    Only a clause-opening name, a verb from a list of asymmetric transitive verbs (past or
    present: "beat", "helps"), and a name right after it; possessives ("X's team"), coordinations
    ("X and its team") and shared tokens ("Smith beat Will Smith") are skipped.
    """
    toks = tokens(sentence)
    spans = name_spans(sentence, toks)
    cands: list[str] = []
    for x, y in zip(spans, spans[1:]):
        if y.first != x.last + 2 or toks[x.last + 1].low not in _ROLE_VERBS:
            continue
        if x.possessive or y.possessive or not _clause_start(toks, x.first):
            continue
        after = toks[y.last + 1] if y.last + 1 < len(toks) else None
        if after is not None and after.is_word and (after.low not in FUNCTION_WORDS or after.low in {"and", "or"}):
            continue  # "beat Australian wild card X" (an adjective), "praised X and its team"
        if {w.lower() for w in x.text.split()} & {w.lower() for w in y.text.split()}:
            continue
        out = sentence[: x.start] + y.text + sentence[x.end : y.start] + x.text + sentence[y.end :]
        cands.append(out)
    return pick(rng, cands)


def _abbreviates(a: str, b: str) -> bool:
    """One is an acronym whose letters start with the other's initials ("MENA", "Middle East")."""
    for short, long in ((a, b), (b, a)):
        initials = "".join(w[0] for w in long.split() if w[:1].isalpha()).upper()
        if short.isupper() and " " not in short and len(initials) > 1 and short.startswith(initials):
            return True
    return False


def _slots(toks: list[Tok], span: NameSpan) -> set[str]:
    out: set[str] = set()
    if span.first > 0 and toks[span.first - 1].is_word:
        out.add(f"L:{toks[span.first - 1].low}")
    if span.last + 1 < len(toks) and toks[span.last + 1].is_word:
        out.add(f"R:{toks[span.last + 1].low}")
    return out


@edit_kind("entity_swap", "CON")
def entity_swap(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Replace a name with another name of the same context: an intrinsic hallucination.

    The replacement must fill the same slot somewhere in the context (same word before or after
    it, e.g. "in Paris"/"in Lyon", "Smith said"/"Jones said"), so a person is not swapped for a
    city; and no context sentence that mentions the replacement may contain most of the edited
    sentence's content, which would make the swap true ("Smith and Jones won the award").
    """
    if not info.names:
        return None
    toks = tokens(sentence)
    low_sentence = sentence.lower()
    sentence_words = set(words(sentence))
    known = set(info.names)
    multiword = [n for n in info.names if " " in n]
    cands: list[str] = []
    for span in name_spans(sentence, toks):
        if span.initial and span.first == span.last and span.text not in known:
            continue
        own_tokens = set(span.text.split())
        around = {toks[k].text for k in (span.first - 1, span.last + 1) if 0 <= k < len(toks)}
        if around & {"-", "–", "/"}:
            continue  # part of a compound ("Stratford - upon - Avon")
        slots = _slots(toks, span)
        for name in info.names:
            if name.lower() in low_sentence or {w.lower() for w in name.split()} & sentence_words:
                continue
            if any(own_tokens | set(name.split()) <= set(full.split()) for full in multiword):
                continue  # "Weinstein" and "Warren" of "Warren Weinstein": one person
            a, b = name.lower(), span.text.lower()
            if a[:5] == b[:5] or a in b or b in a or _abbreviates(name, span.text):
                continue  # "Ukraine"/"Ukrainians", "IP"/"LAN-IP", "MENA"/"Middle East": one thing
            # only a shared content word types the slot ("Smith said"/"Jones said", "the Go-there
            # node"/"the Endpoint node"); prepositions do not: "interest in Cady"/"in Evanston"
            shared = slots & info.slots.get(name, frozenset())
            if not any(slot[2:] not in FUNCTION_WORDS for slot in shared):
                continue
            if abs(len(name.split()) - len(span.text.split())) > 1:
                continue
            out = sentence[: span.start] + name + sentence[span.end :]
            name_words = set(words(name))
            rest = content_words(out) - name_words
            if any(
                name in unit and _overlap(rest, content_words(unit) - name_words) >= 0.6 for unit in info.sentences
            ):
                continue
            cands.append(out)
    return pick(rng, cands)


def _verb_form(toks: list[Tok], i: int, after_subject: int) -> str | None:
    """"past" / "aux" / "pres" for a verb at token ``i``, or None. A present "-s" form counts only
    right after the subject ("Stoick saves"), where a plural noun cannot stand."""
    if i >= len(toks) or not toks[i].is_word:
        return None
    if is_past_verb(toks[i].text):
        return "past"
    if is_verb(toks[i].text):
        return "aux"
    low = toks[i].low
    plural_like = low.endswith("s") and not low.endswith("ss") and len(low) > 3
    if i == after_subject and plural_like and low not in FUNCTION_WORDS and toks[i].text.islower():
        return "pres"
    return None


def _simple_predicate(toks: list[Tok], start: int, end: int) -> bool:
    """Tokens ``start:end`` hold one verb group at their head and no other verb, so the span is one
    event ("graduated from Yale"), not a report of one ("said Baker had left")."""
    verbs = [i for i in range(start, end) if toks[i].is_word and is_verb(toks[i].text)]
    return bool(verbs) and verbs == list(range(start, start + len(verbs)))


def _swap_gerund(body: str, toks: list[Tok], verb_at: int, mark: str) -> str | None:
    """ "He made 144 appearances before spending a season at Gateshead" -> "He spent a season at
    Gateshead before making 144 appearances"; passives too ("was treated before being flown")."""
    links = [i for i, t in enumerate(toks) if t.low in {"before", "after"}]
    if len(links) != 1:
        return None
    k = links[0]
    if not (verb_at + 1 < k < len(toks) - 1) or not _simple_predicate(toks, verb_at, k):
        return None
    v1, v2 = toks[verb_at], toks[k + 1]
    if v1.low in {"was", "were"}:
        if v2.low != "being" or not (k + 2 < len(toks) and is_participle(toks[k + 2].text)):
            return None
        if not is_participle(toks[verb_at + 1].text) or verb_at + 1 >= k:
            return None
        first, second = "being", v1.low  # swap the participle phrases, keep the auxiliaries
        p1 = body[toks[verb_at + 1].start : toks[k].start].rstrip()
        p2 = body[toks[k + 2].start :]
        return body[: v1.start] + second + " " + p2 + " " + toks[k].text + " " + first + " " + p1 + mark
    if v2.low == "being" or not is_past_verb(v1.text):
        return None
    gerund, past = gerund_of(v1.text), past_of(v2.text)
    if gerund is None or past is None:
        return None
    p1 = body[v1.end : toks[k].start].rstrip()
    p2 = body[v2.end :]
    return body[: v1.start] + past + p2 + " " + toks[k].text + " " + gerund + p1 + mark


def _subject(text: str, toks: list[Tok], at: int) -> int | None:
    """End index (exclusive) of a pronoun or name subject starting at token ``at``, or None."""
    if at >= len(toks):
        return None
    if toks[at].low in _SUBJECT_PRONOUNS:
        return at + 1
    for span in name_spans(text, toks):
        if span.first == at and not span.possessive:
            return span.last + 1
    return None


@edit_kind("event_order", "CON")
def event_order(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Reverse the order of two events of one subject: the same facts in a false sequence.

    Four patterns, all with a pronoun or name subject and verbs on both sides:
    "S V1 ... before/after he V2 ..." -> "S V2 ... before/after he V1 ...";
    "S V1-ed ... before/after V2-ing ..." -> "S V2-ed ... before/after V1-ing ...";
    "S (first) V1 ... (, and) then V2 ..." -> "S (first) V2 ... and then V1 ...";
    "After/Before he V1 ..., he V2 ..." -> "After/Before he V2 ..., he V1 ...".
    """
    parts = end_punct(sentence)
    if parts is None or HYPOTHETICAL.search(sentence):
        return None
    body, mark = parts
    toks = tokens(body)
    if len(toks) < 6:
        return None
    cands: list[str] = []
    commas = [i for i, t in enumerate(toks) if t.text in {",", ";"}]
    # 3: After/Before he V1 ..., he V2 ...
    if toks[0].low in {"after", "before"} and len(commas) == 1:
        c = commas[0]
        s1 = _subject(body, toks, 1)
        s2 = _subject(body, toks, c + 1)
        if s1 is not None and s2 is not None and s1 < c and s2 < len(toks):
            same = toks[1].low == toks[c + 1].low or toks[c + 1].low in _SUBJECT_PRONOUNS - {"i", "we"}
            if same and is_verb(toks[s1].text) and is_verb(toks[s2].text) and s1 + 1 < c:
                p1 = body[toks[s1].start : toks[c].start]
                p2 = body[toks[s2].start :]
                cands.append(body[: toks[s1].start] + p2 + body[toks[c].start : toks[s2].start] + p1 + mark)
    subj = _subject(body, toks, 0)
    if subj is not None and subj < len(toks):
        verb_at = subj + 1 if toks[subj].low == "first" else subj
        if verb_at < len(toks) and _verb_form(toks, verb_at, subj) is not None:
            # 1: S V1 ... before/after PRON V2 ...
            links = [i for i, t in enumerate(toks) if t.low in {"before", "after"}]
            if len(links) == 1 and not commas and verb_at == subj:
                k = links[0]
                if k + 2 < len(toks) and k > verb_at + 1 and toks[k + 1].low in _SUBJECT_PRONOUNS:
                    pron, subj_low = toks[k + 1].low, toks[0].low
                    agrees = pron == subj_low if subj_low in _SUBJECT_PRONOUNS else pron in {"he", "she", "it", "they"}
                    if agrees and is_verb(toks[k + 2].text) and _simple_predicate(toks, verb_at, k):
                        p1 = body[toks[verb_at].start : toks[k].start].rstrip()
                        p2 = body[toks[k + 2].start :]
                        cands.append(body[: toks[verb_at].start] + p2 + " " + toks[k].text + " "
                                     + toks[k + 1].text + " " + p1 + mark)
        # 4: S V1-ed ... before/after V2-ing ... -> S V2-ed ... before/after V1-ing ...
        if verb_at == subj and not commas:
            out = _swap_gerund(body, toks, subj, mark)
            if out is not None:
                cands.append(out)
        # 2: S (first) V1 ... (, and) then (S) V2 ...
        thens = [i for i, t in enumerate(toks) if t.low == "then"]
        form = _verb_form(toks, verb_at, subj)
        if len(thens) == 1 and len(commas) <= 1 and form is not None:
            k = thens[0]
            j = k - 1
            if j > verb_at and toks[j].low == "and":
                j -= 1
            if j > verb_at and toks[j].text == ",":
                j -= 1
            sep_start = toks[j + 1].start if j + 1 < k else toks[k].start
            ok_commas = not commas or (j < commas[0] < k)
            v2 = k + 1
            again = v2 < len(toks) and toks[v2].low == toks[0].low and toks[0].low in _SUBJECT_PRONOUNS
            if again:
                v2 += 1  # "they achieved X and then they achieved Y"
            if (j > verb_at and v2 < len(toks) and ok_commas and j + 1 < k
                    and _verb_form(toks, v2, v2) == form and _simple_predicate(toks, verb_at, j + 1)):
                p1 = body[toks[verb_at].start : sep_start].rstrip()
                p2 = body[toks[v2].start :]
                then = " and then " + (toks[k + 1].text + " " if again else "")
                cands.append(body[: toks[verb_at].start] + p2 + then + p1 + mark)
    return pick(rng, cands)


_JOINERS_NIC = (", and ", "; ", ", while ")


def _same_style(clause: str, base: str) -> bool:
    """Same surface style, so a joined clause does not stand out: both tokenized ("a movie , about")
    or neither, and no lower-cased sentence (XSum style) joined to a normally cased one. ``clause``
    is the other sentence as written, before it was made a clause."""
    tokenized = (" , " in clause or " 's" in clause) == (" , " in base or " 's" in base)
    lowered = clause == clause.lower() and base != base.lower()
    return tokenized and not lowered


def _fit_case(clause: str, base: str) -> str:
    """A lower-cased base (XSum style) gets a lower-cased clause."""
    return clause.lower() if base == base.lower() else clause


@edit_kind("added_clause", "NIC")
def added_clause(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Append a clause taken from another document's sentence: content this context cannot support.

    The clause must be mostly new to this context (at least 60% of its content words absent from
    it), a plain declarative clause with no first/second person, and of the same surface style as
    the sentence, so that only its content, not its look, makes it baseless.
    """
    parts = end_punct(sentence)
    if parts is None or len(sentence.split()) > 35 or not info.foreign:
        return None
    body, mark = parts
    if not has_finite_verb(tokens(body)):
        return None  # a fragment ("Born in 1987.") does not take a coordinated clause
    pool = list(info.foreign)
    rng.shuffle(pool)
    for other in pool[:12]:
        clause = as_clause(other)
        if clause is None or not 4 <= len(clause.split()) <= 20 or not _same_style(other, body):
            continue
        if set(words(clause)) & PERSONAL:
            continue
        fresh = content_words(clause)
        novel = fresh - info.words
        if len(fresh) < 3 or len(novel) < 2 or len(novel) / len(fresh) < 0.6:
            continue
        return body + rng.choice(_JOINERS_NIC) + _fit_case(clause, body) + mark
    return None


_CAUSAL_JOINERS = (" because ", ", so ", ", which is why ")


@edit_kind("causal_link", "NIC")
def causal_link(sentence: str, info: ContextInfo, rng: random.Random) -> str | None:
    """Join the sentence to another, unrelated-looking fact of the context by a causal link.

    Both facts are in the context, the cause is not: a baseless inference, the subtlest NIC. The
    other sentence must be at least two sentences away from where this one sits in the context,
    share little content with it, and neither (nor this one's place in the context) may carry a
    causal marker already.
    """
    parts = end_punct(sentence)
    if parts is None or len(sentence.split()) > 30 or CAUSAL_MARKERS.search(sentence):
        return None
    if HYPOTHETICAL.search(sentence) or not info.sentences:
        return None
    body, mark = parts
    if not has_finite_verb(tokens(body)):
        return None
    mine = content_words(sentence)
    if len(mine) < 2:
        return None
    scores = [_overlap(mine, content_words(s)) for s in info.sentences]
    best = max(range(len(scores)), key=scores.__getitem__)
    here = best if scores[best] >= 0.5 else None
    if here is not None and CAUSAL_MARKERS.search(info.sentences[here]):
        return None
    order = list(range(len(info.sentences)))
    rng.shuffle(order)
    for j in order:
        if here is not None and abs(j - here) < 2:
            continue
        other = info.sentences[j]
        if CAUSAL_MARKERS.search(other) or HYPOTHETICAL.search(other):
            continue
        clause = as_clause(other, info.names)
        if clause is None or not 4 <= len(clause.split()) <= 25 or not _same_style(other, body):
            continue
        if set(words(clause)) & PERSONAL:
            continue
        theirs = content_words(clause)
        if len(theirs) < 2 or _overlap(theirs, mine) >= 0.5 or _overlap(mine, theirs) >= 0.5:
            continue
        return body + rng.choice(_CAUSAL_JOINERS) + _fit_case(clause, body) + mark
    return None
