"""A price for what the context says is free: "Students pay a joining fee of 20 euros" against
"The joining fee of 20 euros is waived for students".

A sentence that calls something free says it of someone or something: of whom its "for" names
("waived for students", "free for children under 6"), or, with no "for" after it, of what its
clause says before it ("Children under 6 travel free"). A claim that gives a price to exactly
that contradicts it; one that gives the waived thing its price ("The joining fee is 20 euros")
does not, since the fee is not whom the waiver is for.
"""

from __future__ import annotations

from rt4chart_plugins.rules.contrast.checks import Contrast
from rt4chart_plugins.rules.contrast.lexicon import NO_PRICE, PAY_WORDS, PRICE_WORDS, WAIVED
from rt4chart_plugins.rules.contrast.reading import Span, clause_of, conditional, content, negated_at, negators, tokens
from rt4chart_plugins.rules.quantities import quantities

#: how far after a word that says free its "for" may stand ("free of charge for children")
_FOR_REACH = 3
#: where the list of whom a "for" names ends
_NAMED_UNTIL = frozenset("; but while whereas although though except unless".split())


def _free_at(sentence: Span) -> list[tuple[int, int]]:
    """(first token, token after the last) of each place ``sentence`` says a price is nothing:
    "free", "at no cost", "pays nothing"; "waived" or "exempt" where the sentence speaks of a price."""
    found = []
    for m in NO_PRICE.finditer(sentence.text):
        found.append((len(tokens(sentence.text[: m.start()])), len(tokens(sentence.text[: m.end()]))))
    waived = [(j, j + 1) for j, t in enumerate(sentence.low) if t in WAIVED]
    if waived and (PRICE_WORDS & set(sentence.low) or any(q.kind == "currency" for q in quantities(sentence.text))):
        found += waived
    return found


def free_for(sentence: Span) -> list[set[str]]:
    """The words of whom or what each of ``sentence``'s "free" is said: what its "for" names, else
    what its clause says before it. A negated or conditional "free" says nothing."""
    out = []
    for a, b in _free_at(sentence):
        if negated_at(sentence, a) or conditional(sentence.low, a):
            continue
        start, end = clause_of(sentence.low, a)
        after = sentence.low[b : min(end, b + _FOR_REACH)]
        if "for" in after:
            # whom it names runs on through a list's commas ("for people aged 65 and over, pregnant
            # women and people with a chronic illness"), to a semicolon or a contrast
            f = b + after.index("for")
            stop = next((k for k in range(f + 1, len(sentence.low)) if sentence.low[k] in _NAMED_UNTIL), None)
            out.append(set(content(sentence.toks[f + 1 : stop])))
        else:
            out.append(set(content(sentence.toks[start:a])))
    return out


def _price_at(claim: Span) -> int:
    """The position of the claim's first word of price: a verb of paying, or an amount of money."""
    at = next((i for i, t in enumerate(claim.low) if t in PAY_WORDS), len(claim.low))
    for q in quantities(claim.text):
        if q.kind == "currency" and q.value > 0:
            k = claim.text.find(q.text)
            if k >= 0:
                at = min(at, len(tokens(claim.text[:k])))
    return at if at < len(claim.low) else -1


def everyone_else(sentence: Span) -> bool:
    """Whether ``sentence``'s subject is all but those just named ("Everyone else pays 18 euros",
    "All other visitors pay …", "Others pay …")."""
    head = sentence.low[:3]
    return "else" in head or bool({"other", "others"} & set(head))


def priced_where_free(claim: Span, sentence: Span, before: Span | None) -> Contrast | None:
    """The claim gives a price to what ``sentence`` says is free: its subject (what it says before
    its price) is all among the words the sentence's "free" is said of. A sentence that prices
    everyone else (:func:`everyone_else`) calls free what the sentence ``before`` it does. A
    negated claim, and one that calls anything free itself, are left alone. The contrast cites the
    sentence that says free."""
    if before is not None and everyone_else(sentence):
        sentence = before
    if not (NO_PRICE.search(sentence.text) or WAIVED & set(sentence.low)):
        return None  # most sentences call nothing free: asked first, as the cheapest
    if NO_PRICE.search(claim.text) or negators(claim.low):
        return None
    p = _price_at(claim)
    if p <= 0:
        return None
    subject = set(content(claim.toks[:p]))
    if subject and any(subject <= holder for holder in free_for(sentence)):
        return Contrast("price", sentence.unit, sentence.text, claim.toks[p])
    return None
