"""The closed word classes the contrast rule reads: negators, quantifiers, modals, and the two
poles of common scales. Closed-class English words and common antonym pairs, never the words of
one example."""

from __future__ import annotations

import re

from rt4chart_plugins.rules.dates import MONTHS, WEEKDAYS

NEGATORS = frozenset("not no never none nobody nothing neither nor cannot unable instead rather".split())
#: negators whose scope is the word after them ("not allowed", "no fee", "never closes"); a pronoun
#: ("nobody", "nothing") negates a verb further on, so it counts for polarity but never triggers
SCOPED_NEGATORS = frozenset("not no never instead rather".split())
#: verbs that negate the verb after their "to" ("failed to report" = "did not report")
IMPLICATIVE = frozenset("fail fails failed refuse refuses refused declined declines".split())
#: quantifier classes: a claim that generalizes (ALL) what its clause restricts (SOME, ONLY) contradicts it
ALL = frozenset("all every everyone everybody everything anyone anybody always entire".split())
SOME = frozenset("some several few most many majority minority sometimes usually often mostly certain partly".split())
ONLY = frozenset("only solely exclusively limited restricted".split())
#: modality classes: an obligation against an option or a recommendation changes what is required
MUST = frozenset(
    "must required require requires requiring mandatory compulsory obligatory shall enforce enforces enforced".split()
)
MAY = frozenset("may optional allowed permitted voluntary choose chooses".split())
SHOULD = frozenset(
    "should recommended recommend recommends advised advise advises advisable encouraged suggested".split()
)
MODAL_VERBS = frozenset("must may should shall might can could".split())
#: the words that say a claim keeps one thing and no other ("can only be bought in the app"); the
#: words before them that make them say something else ("not only", "if only", "the only"), and
#: the words after them that make "only" mean "merely" ("only 5 euros", "only takes a few minutes")
EXCLUSIVE = frozenset("only solely exclusively".split())
NOT_EXCLUSIVE_BEFORE = frozenset("not if the".split())
MERELY_AFTER = frozenset("one two three four five six seven eight nine ten half few".split())
#: a claim's universal of time, at the grain of the hour ("open at any time") and of the day ("open
#: every day", "always"): a sentence that says which hours, or which days, restricts it
ANY_HOUR = re.compile(
    r"\b(?:at\s+any\s+time|any\s*time|at\s+all\s+times|a?round\s+the\s+clock|24/7|day\s+and\s+night|all\s+day)\b",
    re.IGNORECASE,
)
ANY_DAY = re.compile(
    r"\b(?:every\s+day|(?:seven|7)\s+days\s+a\s+week|all\s+year(?:\s+round)?|year[-\s]round|always)\b", re.IGNORECASE
)
#: what says which days: a day of the week, wherever it stands ("open Monday to Saturday"); a
#: holiday, a month or a season after a preposition of time or an exception ("except in August"),
#: since "March" and "spring" are also a verb and a thing; "May" is left out, being a modal more often
WEEK_WORDS = frozenset([*WEEKDAYS, *(d + "s" for d in WEEKDAYS), "weekday", "weekdays", "weekend", "weekends"])
DAY_WORDS = (
    WEEK_WORDS | (frozenset(MONTHS) - {"may"}) | frozenset("holiday holidays spring summer autumn winter".split())
)
#: what says which hours ("in the morning", "outside peak hours", "during opening hours"), beside a time of day
PART_OF_DAY = frozenset(
    "morning mornings afternoon afternoons evening evenings night nights lunchtime midnight noon peak off-peak".split()
)
HOURS_OF = frozenset("opening office business working".split())
TIME_PREPOSITIONS = frozenset("on at in during from between until till through over before after by".split())
TIME_EXCEPTIONS = frozenset("outside except excluding unless".split())
#: the words a conjunct of a list of alternatives opens with, by kind: "from the driver or with the
#: app", "when the water boils or if the kettle is lifted"; "a playground and a café"
PHRASE_OPENERS = frozenset(
    "from with in on at by via through for to into onto inside outside over under near "
    "when if while once unless whenever wherever".split()
)
DETERMINERS = frozenset("a an the its their his her our your this that these those".split())
#: the words that grant a permission, read as one class across a negation: "Pets are welcome" says
#: what "Pets are not accepted" denies; and the words that deny one without a negator
PERMIT = frozenset("allowed permitted accepted admitted welcome can may".split())
FORBID = frozenset("forbidden prohibited banned".split())
#: the words that say a thing is needed, read as one class across a negation: "Applicants need a
#: forklift licence" says what "A forklift licence is not required" denies. A verb (or "no need")
#: names the thing after it, a participle or an adjective names the thing before it
NEED_VERBS = frozenset("need needs require requires".split())
NEEDED = frozenset("needed required necessary mandatory compulsory obligatory essential".split())
#: a claim aligns with a sentence by a word of permission as by a word they share, whichever word
#: each uses ("Pets are welcome" / "Pets are not accepted"); not by "can" or "may", which most hold
PERMISSION_WORDS = (PERMIT - MODAL_VERBS) | FORBID
PERMISSION_KEY = "(permission)"
#: subjects that stand for something named before ("It still cannot be flown")
PRONOUNS = frozenset("it they he she this these".split())
PRONOUN_QUANTIFIERS = frozenset("everyone everybody everything anyone anybody".split())
#: the words that, opening a sentence, stand for what the sentence before it names ("It has …",
#: "Its battery …"): such a sentence aligns with a claim by that sentence's names too
OPENING_PRONOUNS = frozenset("it they he she its their his her".split())
#: the conjunctions that open a clause with the subject of the clause before it ("…, but no HDMI port")
SUBJECT_SHARING = frozenset("but and yet or".split())
#: the words that join a second pole's clause to the first's ("longest and the Lakeside Loop the shortest")
POLE_JOINS = frozenset("and but while whereas yet".split())

#: comparatives: "A is longer than B". Each row is (one pole's forms, the other pole's forms); read
#: only with a "than", since "more oxygen" or "a higher payload" compares nothing named
COMPARATIVES: tuple[tuple[str, str], ...] = (
    ("more", "less fewer"),
    ("higher", "lower"),
    ("larger bigger greater", "smaller"),
    ("longer", "shorter"),
    ("taller", "shorter"),
    ("older", "younger newer"),
    ("faster", "slower"),
    ("heavier", "lighter"),
    ("cheaper", "dearer costlier pricier"),
    ("louder", "quieter"),
    ("warmer hotter", "colder cooler"),
    ("wider", "narrower"),
    ("stronger", "weaker"),
    ("better", "worse"),
    ("earlier", "later"),
)
#: other two-place relations, read without "than": "A before B" = "B after A", "A beat B"; a
#: sequence adverb ("A, and then B", "A; twenty minutes later B") is read as "before"
RELATIONS: tuple[tuple[str, str], ...] = (
    ("before then afterwards subsequently", "after"),
    ("beat beats defeated defeat", "lost"),
    ("bought", "sold"),
)
#: one-place scales: "the museum is open" / "closed", "the longest trail" / "the shortest"; only
#: the opposite pole about the same thing contradicts
STATES: tuple[tuple[str, str], ...] = (
    ("open opens", "closed closes shut"),
    (
        "increase increased increases rose rise rises risen grew grow grows",
        "decrease decreased decreases fell fall falls fallen shrank shrink shrinks",
    ),
    ("include included includes", "exclude excluded excludes"),
    ("accept accepted accepts", "reject rejected rejects"),
    ("allowed permitted", "forbidden prohibited banned"),
    ("north northern", "south southern"),
    ("east eastern", "west western"),
    ("inside indoors", "outside outdoors"),
    ("maximum", "minimum"),
    ("highest", "lowest"),
    ("largest biggest greatest", "smallest"),
    ("longest", "shortest"),
    ("tallest", "shortest"),
    ("oldest", "youngest newest"),
    ("fastest", "slowest"),
    ("heaviest", "lightest"),
    ("cheapest", "dearest"),
    ("loudest", "quietest"),
    ("warmest hottest", "coldest coolest"),
    ("best", "worst"),
    ("earliest", "latest"),
    ("true", "false"),
    ("present", "absent"),
)
TIME_UNITS = frozenset("seconds minutes hours days weeks months years decades moment".split())
PHRASAL = frozenset("look looks looked looking".split())  # "look after" is not about time


def poles_of(rows: tuple[tuple[str, str], ...], offset: int) -> dict[str, list[tuple[int, int]]]:
    out: dict[str, list[tuple[int, int]]] = {}
    for axis, (plus, minus) in enumerate(rows, start=offset):
        for sign, forms in ((1, plus), (-1, minus)):
            for w in forms.split():
                out.setdefault(w, []).append((axis, sign))
    return out


COMPARATIVE = poles_of(COMPARATIVES, 0)
RELATION = poles_of(RELATIONS, len(COMPARATIVES))
STATE = poles_of(STATES, len(COMPARATIVES) + len(RELATIONS))
#: scale and modality words that also say what a sentence is about ("permitted", "closed",
#: "longer"): they count for alignment, never as the compared things
LEXICAL = frozenset(COMPARATIVE) | frozenset(RELATION) | frozenset(STATE) | (MUST | MAY | SHOULD) - MODAL_VERBS
#: adverbs that say nothing about what is claimed ("it still cannot be flown")
ADVERBS = frozenset("still already now even ever again yet just longer".split())
MARKERS = NEGATORS | ALL | SOME | ONLY | MUST | MAY | SHOULD | LEXICAL | ADVERBS | frozenset("can could than".split())
#: the ways English says a price is nothing: "is free", "enter free", "for free", "free of charge",
#: "at no cost", "pay nothing"; "free" only as what is said of a thing, not before a noun ("a free
#: agent", "free trade"), and not "free of sugar", "free to leave", "feel free", "sugar-free"
NO_PRICE = re.compile(
    r"(?<![\w-])(?<!feel )free(?![\w-])"
    r"(?=\s*(?:$|[.,;:!?)]|of\s+charge\b|(?:for|with|on|at|in|if|when|and|or|but|until|during|before|after|every|each)\b))"
    r"|\b(?:at\s+)?no\s+(?:extra\s+|additional\s+)?(?:cost|charge|fee)\b|\b(?:pays?|costs?)\s+nothing\b",
    re.IGNORECASE,
)
#: the ways English says a price comes on top of another: "costs extra", "charged separately",
#: "at an extra charge", "an additional fee"; and the words that put a thing inside a price
EXTRA_PRICE = re.compile(
    r"\b(?:costs?|charged?|paid|pay)\s+(?:extra|separately)\b|\b(?:extra|additional)\s+(?:cost|charge|fee)s?\b",
    re.IGNORECASE,
)
INCLUDED = frozenset("included includes include".split())
#: the words that waive a price, read as saying free where the sentence speaks of a price; the
#: words of a price; and the words a claim gives a price with ("Students pay a joining fee")
WAIVED = frozenset("waived waive waives exempt".split())
PRICE_WORDS = frozenset("fee fees charge charges price prices cost costs fare fares".split())
PAY_WORDS = frozenset("pay pays paid charged costs cost".split())
#: the share of the claim's words its aligned context sentence must hold: half, since a claim
#: often names what its context sentence calls "it"
MIN_ALIGNMENT = 0.5
MIN_SHARED = 2
#: the share of a claim's words (its amounts aside) that a sentence must hold before the claim's
#: amount is read as given to one of the sentence's pieces: that reading is finer than alignment
BOUND_ALIGNMENT = 0.75
#: how far a marker's scope reaches, in words
SCOPE = 3
