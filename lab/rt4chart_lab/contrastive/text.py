"""Small, dependency-free text helpers for the edit kinds: tokens, case, names, verbs.

Everything here is general English (function words, auxiliaries, common irregular verbs), never
words taken from one example, so the edits behave the same on any domain. The helpers are
deliberately conservative: when a token's role is unclear they say "no", and the edit that asked
returns None rather than guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: Words (letters with inner ' ’ . - & joins), numbers (with inner . , :), or one other character.
TOKEN = re.compile(r"[^\W\d_](?:[\w&]|['’.\-](?=\w))*|\d+(?:[.,:]\d+)*|\S")

FUNCTION_WORDS = frozenset(
    """
    a an the this that these those it its he she they we i you his her hers their theirs our ours
    my mine your yours him them us me who whom whose which what where when why how whatever
    in on at by for from with to of as into onto upon within without through throughout toward
    towards against via per between among amid about around over under above below across along
    after before during since until till while whereas if unless whether because although though
    but and or nor so yet also too either neither both each every all some any many most more much
    few fewer less least several such other another same no not never only just even still already
    there here then now today yesterday tomorrow recently currently meanwhile overall finally
    however therefore thus hence moreover furthermore additionally instead otherwise indeed
    first second third last next according despite unlike like based following including
    is are was were be been being am has have had having do does did done can could will would
    shall should may might must let yes no ok okay well oh hi hello hey thanks please sorry sure
    mr mrs ms dr prof sir madam st
    """.split()
)
#: Words that open a clause with its subject: determiners and subject pronouns.
SUBJECT_STARTERS = frozenset(
    "the a an this that these those it he she they i we you his her its their our my your some many "
    "most several".split()
)
TITLES = frozenset(
    "mr mrs ms dr prof professor sir madam dame lord lady st rev mayor president minister governor "
    "senator judge coach captain general king queen prince princess pope bishop sgt officer chief".split()
)
MONTHS = (
    "January February March April May June July August September October November December".split()
)
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
CALENDAR = frozenset(w.lower() for w in MONTHS + WEEKDAYS)
NAME_CONNECTORS = frozenset("of de van von da del du la le bin al".split())
PERSONAL = frozenset("i me my mine you your yours we us our ours".split())

AUXILIARIES = frozenset(
    "is are was were be been am has have had do does did can could will would shall should may "
    "might must".split()
)
#: Common irregular past forms (simple past or participle), for telling a verb from a noun.
IRREGULAR_PAST = frozenset(
    """
    began begun became become bought brought built caught chose chosen came come cut dealt drew
    drawn drove driven ate eaten fell fallen felt fought found flew flown forgot forgotten froze
    gave given went gone got gotten grew grown hung held heard hid hidden hit hurt kept knew known
    laid led left lent lost made meant met paid put quit ran rang rose risen said sat saw seen sold
    sent set shook shot showed shown shut sang sung sank sunk slept spoke spoken spent split spread
    stood stole stolen struck swore sworn swam swum took taken taught tore torn told thought threw
    thrown understood woke woken wore worn won wrote written withdrew withdrawn overtook beat died
    """.split()
)
#: Words ending in -ed that are not verbs.
NOT_VERBS_ED = frozenset(
    "bed red shed seed need feed speed deed hundred bred indeed naked sacred wicked kindred rugged "
    "ragged beloved embed shred".split()
)
PAST_PARTICIPLES = IRREGULAR_PAST | {"been", "done", "had"}

CAUSAL_MARKERS = re.compile(
    r"\b(because|since|so|therefore|thus|hence|consequently|as a result|due to|owing to|"
    r"thanks to|led to|leads to|lead to|caused|causes|cause|resulted|results in|result of|"
    r"in order to|so that|which is why|that is why|reason)\b",
    re.IGNORECASE,
)
HYPOTHETICAL = re.compile(r"\b(if|unless|whether|suppose|supposing|assuming|imagine)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Tok:
    text: str
    start: int
    end: int

    @property
    def low(self) -> str:
        return self.text.lower()

    @property
    def is_word(self) -> bool:
        return self.text[:1].isalpha()

    @property
    def is_cap(self) -> bool:
        return self.text[:1].isupper()


def tokens(text: str) -> list[Tok]:
    return [Tok(m.group(), m.start(), m.end()) for m in TOKEN.finditer(text)]


def words(text: str) -> list[str]:
    """Lower-cased word tokens."""
    return [t.low for t in tokens(text) if t.is_word]


def content_words(text: str) -> set[str]:
    """Lower-cased words that carry content (not function words, at least 3 letters)."""
    return {w for w in words(text) if len(w) >= 3 and w not in FUNCTION_WORDS}


def match_case(new: str, old: str) -> str:
    """``new`` written in ``old``'s case: UPPER, Capitalized or as given."""
    if len(old) > 1 and old.isupper():
        return new.upper()
    if old[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


def replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def tidy(text: str, like: str = "") -> str:
    """Strip, and collapse double spaces and spaces before , . ; : an edit may have left.

    Each fix is made only when ``like`` (the original) does not show the same pattern: tokenized
    text ("a movie , about") keeps its style, so edited and original differ only by the edit.
    """
    if "  " not in like:
        text = re.sub(r"[ \t]{2,}", " ", text)
    if not re.search(r" [,.;:!?]", like):
        text = re.sub(r" +([,.;:!?])", r"\1", text)
    return text.strip()


def same_text(a: str, b: str) -> bool:
    """Equal up to case and whitespace: an edit that gives this is no edit."""
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def is_verb(tok: str) -> bool:
    """A token that is clearly a finite/past verb form: an auxiliary, an irregular past, or -ed."""
    low = tok.lower()
    if low in AUXILIARIES or low in IRREGULAR_PAST:
        return True
    return low.endswith("ed") and len(low) > 4 and low.isalpha() and low not in NOT_VERBS_ED


def is_past_verb(tok: str) -> bool:
    """A past-tense lexical verb (not an auxiliary): -ed or a common irregular past."""
    low = tok.lower()
    if low in AUXILIARIES:
        return False
    return low in IRREGULAR_PAST or (low.endswith("ed") and len(low) > 4 and low.isalpha() and low not in NOT_VERBS_ED)


def is_participle(tok: str) -> bool:
    low = tok.lower()
    return low in PAST_PARTICIPLES or (low.endswith(("ed", "en")) and len(low) > 4 and low.isalpha())


@dataclass(frozen=True)
class NameSpan:
    """A run of capitalized tokens that looks like a name; ``start``/``end`` exclude a trailing 's."""

    text: str
    start: int
    end: int
    first: int  # index of its first token
    last: int  # index of its last token
    initial: bool  # the span starts the sentence (so its capital letter proves nothing)
    possessive: bool


_CONTRACTION = re.compile(r"^(?P<base>[^'’]+)['’](?P<tail>m|re|ve|ll|d|t|s|nt)$", re.IGNORECASE)


def _name_token(tok: Tok) -> bool:
    """A capitalized word that can be part of a name: "Smith", "Smith's", "O'Neill", not "I'm"."""
    if not (tok.is_word and tok.is_cap) or any(c.isdigit() for c in tok.text):
        return False  # "Q3", "COVID-19", "A9": codes, not names
    m = _CONTRACTION.match(tok.text)
    if m is None:
        return True
    return m.group("tail").lower() == "s" and m.group("base").lower() not in FUNCTION_WORDS


def name_spans(text: str, toks: list[Tok] | None = None) -> list[NameSpan]:
    """Capitalized spans with leading function words/titles and calendar words removed."""
    toks = tokens(text) if toks is None else toks
    out: list[NameSpan] = []
    i = 0
    while i < len(toks):
        if not _name_token(toks[i]):
            i += 1
            continue
        j = i
        while j + 1 < len(toks):
            nxt = toks[j + 1]
            if _name_token(nxt) and not toks[j].text.endswith(("'s", "’s")):
                j += 1
            elif (
                nxt.low in NAME_CONNECTORS and j + 2 < len(toks) and _name_token(toks[j + 2])
                and not toks[j].text.endswith(("'s", "’s"))
            ):
                j += 2
            else:
                break
        first = i
        while first <= j and (toks[first].low in FUNCTION_WORDS or toks[first].low in TITLES
                              or toks[first].low in NAME_CONNECTORS):
            first += 1
        last = j
        while last >= first and (toks[last].low in NAME_CONNECTORS or toks[last].low in CALENDAR):
            last -= 1
        if first <= last:
            span_toks = toks[first : last + 1]
            if not any(t.low in CALENDAR for t in span_toks) and not all(
                len(t.text) == 1 for t in span_toks
            ):
                end = toks[last].end
                possessive = toks[last].text.endswith(("'s", "’s"))
                if possessive:
                    end -= 2
                start = toks[first].start
                initial = all(not t.is_word and not t.text[:1].isdigit() for t in toks[:first])
                out.append(NameSpan(text[start:end], start, end, first, last, initial, possessive))
        i = j + 1
    return out


def as_clause(sentence: str, names: Iterable[str] = ()) -> str | None:
    """A sentence made ready to follow a conjunction: final . dropped, a function word lowered.

    None when it cannot stand as a plain clause (a question, a quote, a list, a discourse opener),
    or when its first word is capitalized and we cannot tell a name ("Obama said") from a common
    noun ("Voters said"): either guess would leave a visible seam. A first word is a name when it
    opens a multi-word capitalized span, is an acronym, or is a word of one of ``names``.
    """
    s = sentence.strip()
    if not s.endswith(".") or s.endswith("..") or any(c in s for c in '?"“”:;()[]{}\n'):
        return None
    s = s[:-1].rstrip()
    toks = tokens(s)
    if len(toks) < 4 or not toks[0].is_word:
        return None
    if toks[0].low in DISCOURSE_OPENERS:
        return None
    if toks[0].low in SUBJECT_STARTERS:
        return s if toks[0].text == "I" else s[0].lower() + s[1:]
    if toks[0].low in FUNCTION_WORDS or not toks[0].is_cap:
        return None  # "As for Brady, ...", "In 2019, ...": not a subject, the join would read badly
    if toks[0].is_cap:
        name_words = {w for name in names for w in name.split()}
        acronym = len(toks[0].text) > 1 and toks[0].text.isupper()
        if not (acronym or toks[1].is_cap or toks[0].text in name_words):
            return None
    if not has_finite_verb(toks) or toks[-1].low in REPORTING_VERBS:
        return None  # a fragment ("HEAT oil in a skillet") or a quote's lead-in ("Johnson exhorted")
    return s


DISCOURSE_OPENERS = frozenset(
    "however but and so also additionally moreover furthermore therefore thus meanwhile overall "
    "finally firstly secondly lastly yes no well oh hi hello still instead then maybe perhaps "
    "probably really actually certainly clearly obviously apparently unfortunately fortunately "
    "hopefully basically anyway now".split()
)


def opens_with_subject(toks: list[Tok], names: Iterable[str] = ()) -> bool:
    """The sentence does not open with a capitalized word we cannot place: an imperative ("Find
    out ...", "Sign up ...") or a discourse word. Function words and names are fine openers."""
    if not toks or not toks[0].is_word:
        return False
    first = toks[0]
    if first.low in DISCOURSE_OPENERS:
        return False
    if first.low in FUNCTION_WORDS or not first.is_cap:
        return True
    name_words = {w for name in names for w in name.split()}
    acronym = len(first.text) > 1 and first.text.isupper()
    return acronym or (len(toks) > 1 and toks[1].is_cap) or first.text in name_words


REPORTING_VERBS = frozenset(
    "said says told added explained wrote noted asked replied stated continued insisted argued "
    "warned exhorted declared announced remarked commented recalled admitted".split()
)


def has_finite_verb(toks: list[Tok]) -> bool:
    """Some token is an auxiliary or past form, or an -s verb right after a name or he/she/it."""
    for i, tok in enumerate(toks):
        if not tok.is_word:
            continue
        prev = toks[i - 1] if i > 0 else None
        after_modifier = prev is not None and (prev.text in {"-", "–"} or prev.low in {"the", "a", "an"})
        if is_verb(tok.text) and not (after_modifier and tok.low not in AUXILIARIES):
            return True  # "sharp - tongued", "the trained model": adjectives, not verbs
        if (
            i > 0 and tok.text.islower() and tok.low.endswith("s") and not tok.low.endswith("ss")
            and tok.low not in FUNCTION_WORDS and (toks[i - 1].is_cap or toks[i - 1].low in {"he", "she", "it"})
        ):
            return True
    return False


def end_punct(sentence: str) -> tuple[str, str] | None:
    """(body, final mark) of a sentence ending in . or !; None otherwise."""
    s = sentence.rstrip()
    if s.endswith((".", "!")) and not s.endswith(".."):
        return s[:-1].rstrip(), s[-1]
    return None


#: Irregular past forms and their -ing forms, for turning "made X before spending Y" around.
_IRREGULAR_ING = dict(
    pair.split(":")
    for pair in """
    took:taking made:making went:going left:leaving became:becoming wrote:writing won:winning
    ran:running gave:giving got:getting came:coming began:beginning lost:losing met:meeting
    sold:selling bought:buying built:building held:holding led:leading found:finding told:telling
    saw:seeing said:saying spent:spending sent:sending kept:keeping brought:bringing
    taught:teaching thought:thinking fought:fighting grew:growing knew:knowing fell:falling
    rose:rising sat:sitting stood:standing spoke:speaking broke:breaking chose:choosing
    drove:driving ate:eating flew:flying heard:hearing paid:paying put:putting set:setting
    shot:shooting sang:singing slept:sleeping swam:swimming threw:throwing wore:wearing
    drew:drawing felt:feeling had:having did:doing died:dying hit:hitting cut:cutting
    quit:quitting struck:striking stole:stealing hid:hiding forgot:forgetting froze:freezing
    shook:shaking withdrew:withdrawing overtook:overtaking understood:understanding dealt:dealing
    meant:meaning lent:lending beat:beating
    """.split()
)
_IRREGULAR_PAST_OF = {ing: past for past, ing in _IRREGULAR_ING.items()}


def gerund_of(past: str) -> str | None:
    """The -ing form of a simple past verb ("defeated" -> "defeating"), or None when unsure."""
    low = past.lower()
    if low in _IRREGULAR_ING:
        return _IRREGULAR_ING[low]
    if not low.isalpha() or len(low) < 5 or low in NOT_VERBS_ED:
        return None
    if low.endswith("ied"):
        return low[:-3] + "ying"
    if low.endswith("eed"):
        return None  # "agreed" -> "agreeing", "needed" -> "needing": not worth the guess
    if low.endswith("ed"):
        return low[:-2] + "ing"  # "moved" -> "moving", "stopped" -> "stopping"
    return None


def past_of(gerund: str) -> str | None:
    """The simple past of an -ing form ("attending" -> "attended"), or None when unsure."""
    low = gerund.lower()
    if low in _IRREGULAR_PAST_OF:
        return _IRREGULAR_PAST_OF[low]
    if not low.isalpha() or not low.endswith("ing") or len(low) < 6 or low in FUNCTION_WORDS:
        return None
    stem = low[:-3]
    if stem.endswith("y") and len(stem) > 2 and stem[-2] not in "aeiou":
        return stem[:-1] + "ied"  # "studying" -> "studied"
    if stem.endswith("ee"):
        return stem + "d"  # "agreeing" -> "agreed"
    return stem + "ed"  # "joining" -> "joined", "moving" -> "moved", "stopping" -> "stopped"
