"""Abstentions: an answer sentence that only says the answerer does not know ("I don't know.",
"I don't know the answer to that based on the provided context.").

It states nothing about the context, so it carries no claim: an answer made only of abstentions
is ``no_claims``, like a refusal, not an entailed claim (a judge reads "I don't know" as neither
supported nor refuted, and the trained verifier scored it ENT). The sentence must be the
abstention and nothing else: "I don't know why, but the trial lasts 14 days" keeps its claim.

The answer's other ways of talking about its source are read here too: a report that the source
lacks something (:func:`says_source_lacks`), and an attribution of what follows to it
(:func:`attribution_end`: "Based on the given passages, …", "The policy states that …").
"""

from __future__ import annotations

import re

_APOSTROPHE = r"['’]"
_NOT_KNOW = (
    rf"(?:I|we)\s+(?:really\s+|honestly\s+)?(?:do\s+not|don{_APOSTROPHE}t|dont)\s+know"
    rf"|I{_APOSTROPHE}?m\s+not\s+(?:sure|certain)|I\s+am\s+not\s+(?:sure|certain)"
    rf"|I\s+have\s+no\s+(?:idea|way\s+of\s+knowing)"
    rf"|I\s+(?:do\s+not|don{_APOSTROPHE}t)\s+have\s+(?:enough\s+|sufficient\s+|any\s+)?(?:the\s+)?"
    rf"(?:information|details|data|knowledge)"
    rf"|I\s+(?:cannot|can{_APOSTROPHE}t|can\s+not)\s+(?:say|tell)"
)
_OBJECT = (
    r"(?:\s+to\s+(?:answer|say|tell))?"
    r"(?:\s+(?:the\s+answer|(?:this|that|the|your)\s+question|that|this|it|for\s+sure|for\s+certain))?"
)
_ABOUT = (
    r"(?:\s+(?:to|for|about|on|regarding)\s+(?:that|this|it|your\s+question|the\s+question|this\s+question"
    r"|that\s+question))?"
)
#: what only ever names a text, never a thing: "the page doesn't cover parking" reports a lack,
#: where "the policy doesn't cover flood damage" states a fact
_TEXT_NOUN = r"(?:context|text|passages?|documents?|information|article|sources?|page|website|site|excerpt)"
#: what stands for the source: a text, or a document that may also be an agreement or a plan (a
#: policy, a booking, a syllabus), read as the source with verbs of saying
_SOURCE_NOUN = (
    rf"(?:{_TEXT_NOUN}|data|policy|leaflet|listing|notice|schedule|timetable|menu|description|sheet|record|"
    r"report|notes?|release\s+notes|fee\s+sheet|terms|rules|recipe|biography|confirmation|booking|syllabus|"
    r"posting|label|ad|advert|advertisement|summary|post|email|letter|brochure|guide|manual|announcement|"
    r"document\s+provided)"
)
_SOURCE = (
    r"(?:,?\s*(?:based\s+on|from|given|according\s+to|with|in)\s+(?:the\s+|this\s+)?"
    r"(?:provided\s+|given\s+|available\s+|above\s+|retrieved\s+)?"
    rf"(?:[\w'’-]+\s+){{0,2}}?{_SOURCE_NOUN})?"
)

#: the whole sentence is an abstention (an optional "Sorry," in front, punctuation after)
ABSTENTION = re.compile(
    rf"^\W*(?:(?:sorry|unfortunately|honestly)\s*,?\s*)?(?:{_NOT_KNOW}){_OBJECT}{_ABOUT}{_SOURCE}\s*[.!]*\s*$",
    re.IGNORECASE,
)


def is_abstention(sentence: str) -> bool:
    """True when the sentence only says that the answerer does not know."""
    return bool(ABSTENTION.match(sentence.strip()))


# ---- "the context does not say": the answer reports that its source lacks something ----------

_SUBJECT = (
    rf"(?:(?:the|this|that|these|those|your|its|their)\s+)?(?:(?:provided|given|above|retrieved|available|"
    rf"supplied|original)\s+)?(?:[\w'’-]+\s+){{0,2}}?{_SOURCE_NOUN}|it|this|that|they|there"
)
_NEG = rf"(?:does|do|did|has|have)\s*(?:not|n{_APOSTROPHE}t)|never|fails?\s+to|failed\s+to"
#: verbs of saying: with them, whatever the object, the sentence is about what the source says
_SAY = (
    r"(?:mention|say|state|specify|discuss|address|indicate|tell|clarify|detail|describe|reveal|"
    r"explain|note|report|talk\s+about|go\s+into|touch\s+on|refer\s+to|answer|confirm|list|name)"
)
#: the verbs that only a text does: with them any short subject is the text ("The trial terms
#: don't mention refunds", "The confirmation doesn't say whether pets are allowed")
_ONLY_TEXTS_SAY = r"(?:mention|say|state|specify|clarify|indicate)"
_ANY_SUBJECT = r"(?:[\w'’-]+\s+){1,4}?"
#: verbs of holding: only with an object that is information ("does not include any details")
_HOLD = r"(?:provide|contain|include|give|offer|have|list|share|present|supply)"
_INFO = (
    r"(?:(?:any|enough|sufficient|specific|further|more|additional|much|clear|relevant|such|the|an?)\s+)*"
    r"(?:information|details?|data|mention|word|indication|specifics|answer|figures?|numbers?)"
)
_SAID = (
    r"(?:mentioned|stated|specified|discussed|addressed|indicated|said|explained|detailed|described|"
    r"reported|clarified|known\s+from|clear\s+from)"
)
_COPULA_NOT = rf"(?:is|are|was|were)\s*(?:not|n{_APOSTROPHE}t)|(?:is|are|was|were)\s+never"
_LEAD = r"^\W*(?:(?:sorry|unfortunately|however|but|although|though|while|whereas|yet|still|and|so)\s*,?\s+)*"
_FIND = (
    rf"(?:I|we)\s+(?:could\s*(?:not|n{_APOSTROPHE}t)|can\s*(?:not|n{_APOSTROPHE}t)|cannot|did\s*(?:not|n{_APOSTROPHE}t)|"
    rf"was\s+(?:not\s+)?unable\s+to|am\s+unable\s+to|were\s+unable\s+to|do\s*(?:not|n{_APOSTROPHE}t))\s+"
    rf"(?:find|see|locate|determine|tell|answer|say|confirm)"
)

#: the rest of a clause that reports a lack: anything up to a contrast ("…, but the trial costs
#: 500 dollars"), a semicolon or a new clause after a comma ("…, and it is free"), which assert
_REST = r"(?:(?!;|\b(?:but|however|although|though|yet|whereas|while)\b|,\s*(?:and|so|which|it|they)\b).)*"

#: one clause (or sentence) that only reports what its source lacks
_LACKS = re.compile(
    _LEAD
    + r"(?:"
    # the context does not mention X / doesn't say / does not provide (any) information about X
    + rf"(?:{_SUBJECT})\s+(?:{_NEG})\s+(?:(?:actually|explicitly|directly|clearly|specifically)\s+)?"
    + rf"(?:{_SAY}|{_HOLD}\s+{_INFO})\b{_REST}"
    # the trial terms don't mention X; the recipe doesn't say whether X
    + rf"|{_ANY_SUBJECT}(?:{_NEG})\s+(?:(?:actually|explicitly|directly|clearly|specifically)\s+)?"
    + rf"{_ONLY_TEXTS_SAY}\b{_REST}"
    # the schedule gives no details about X; the biography says nothing about X; the text is silent on X
    + rf"|(?:{_SUBJECT}|{_ANY_SUBJECT})(?:says|mentions|states)\s+(?:nothing|not\s+a\s+word)\b{_REST}"
    + rf"|(?:{_SUBJECT}|{_ANY_SUBJECT})(?:gives|provides|contains|includes|offers|has|lists|says)\s+"
    + rf"(?:no\s+{_INFO}|nothing\s+(?:about|on|regarding|concerning))\b{_REST}"
    + rf"|(?:{_SUBJECT})\s+(?:is|are|was|were)\s+silent\b{_REST}"
    # there is no information / mention of X; no details are given about X; nothing is said about X
    + r"|there(?:['’]s|\s+is|\s+are|\s+was|\s+were)\s+no\s+(?:(?:further|more|specific|additional|relevant)\s+)?"
    + rf"(?:information|mention|details?|data|indication|word|record)\b{_REST}"
    + r"|there(?:['’]s|\s+is)\s+nothing\s+(?:about|on|regarding|concerning)\b"
    + _REST
    + r"|no\s+(?:[\w-]+\s+){0,2}?(?:information|details?|data|mention)\s+"
    + rf"(?:(?:is|are|was|were)\s+)?(?:given|provided|available|mentioned|stated|included|offered|found)\b{_REST}"
    + r"|nothing\s+(?:(?:about|on|regarding|concerning)\s+(?:[\w'’-]+\s+){1,6}?)?(?:is|was)\s+"
    + rf"(?:said|mentioned|stated|specified)\b{_REST}"
    + r"|nothing\s+in\s+(?:the|this|that)\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+\s+"
    + rf"(?:says|mentions|states|specifies)\b{_REST}"
    # that's not something the plan page covers / says
    + r"|(?:that|this|it)(?:['’]s|\s+is)\s+not\s+something\s+(?:the|this|that)\s+(?:[\w'’-]+\s+){0,2}?"
    + rf"{_SOURCE_NOUN}\s+(?:covers|says|mentions|states|addresses|discusses|specifies)\b{_REST}"
    # no software is named in the syllabus: a thing said not to be named in a text
    + r"|no\s+(?:[\w'’-]+\s+){1,3}?(?:is|are|was|were)\s+(?:named|mentioned|stated|specified|listed)\s+"
    + r"in\s+(?:the|this|that)\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+[.!]?\s*"
    # the syllabus is silent on attendance: what is silent, in the present, is the text
    + rf"|{_ANY_SUBJECT}(?:is|are)\s+silent\s+(?:on|about|regarding|as\s+to)\b{_REST}"
    # X is not mentioned / not stated in the context; it isn't covered (a pronoun subject only)
    + rf"|(?:[\w'’-]+\s+){{0,6}}?(?:{_COPULA_NOT})\s+(?:(?:explicitly|directly|clearly|specifically)\s+)?"
    + rf"{_SAID}\b{_REST}"
    + rf"|(?:it|this|that)\s+(?:{_COPULA_NOT})\s+(?:covered|included|given|provided|listed)\b{_REST}"
    # cheques aren't covered anywhere in the fee sheet; it doesn't cover payment methods
    + rf"|(?:[\w'’-]+\s+){{0,6}}?(?:{_COPULA_NOT})\s+(?:covered|included|listed|given|provided)\s+"
    + rf"(?:anywhere\s+)?in\s+(?:the|this|that)\s+(?:[\w'’-]+\s+){{0,2}}?{_SOURCE_NOUN}\b{_REST}"
    + rf"|(?:it|this|that|they|the\s+(?:[\w'’-]+\s+)?{_TEXT_NOUN})\s+(?:{_NEG})\s+cover\b{_REST}"
    # I could not find anything about X in the listing
    + rf"|{_FIND}\b{_REST}"
    # I don't know whether it causes drowsiness; I'm not sure when it opens
    + rf"|(?:{_NOT_KNOW}){_SOURCE}\s+(?:whether|if|what|when|where|who|whom|why|how|which)\b{_REST}"
    # Not mentioned. Not stated in the context.
    + rf"|not\s+{_SAID}\b{_REST}"
    + r")$",
    re.IGNORECASE | re.DOTALL,
)


def says_source_lacks(text: str) -> bool:
    """True when ``text`` (a sentence or one of its clauses) only reports that the context, or the
    document it stands for, does not say something: "The policy does not mention student
    discounts.", "The context does not say.", "No information is given about refunds." It
    states nothing the context could support or refute, so it carries no claim. A clause that
    asserts beside it ("…, but the trial costs 500 dollars") is read on its own
    (:func:`rt4chart_plugins.claims.asserted_span`)."""
    return bool(_LACKS.match(text.strip().rstrip(",;:–—-")))


# ---- "the policy states that": the answer attributes what follows to its source ---------------

#: the source, named: "the given passages", "the policy", "this article", "the information provided"
_NAMED_SOURCE = (
    rf"(?:the|this|these|that)\s+(?:(?:provided|given|above|following|available|retrieved|supplied|original)\s+)?"
    rf"(?:[\w'’-]+\s+){{0,2}}?{_SOURCE_NOUN}(?:\s+(?:provided|given|above|available))?"
)
#: verbs of saying that take a that-clause ("states that"); "says" also takes one without "that"
_SAYS_THAT = (
    r"(?:says?|said|states?|stated|mentions?|mentioned|notes?|noted|indicates?|indicated|explains?|explained|"
    r"reports?|reported|confirms?|confirmed|specifies|specified|clarifies|clarified|adds?|added|shows?|showed|"
    r"suggests?|suggested|highlights?|highlighted)"
)
_ATTRIBUTION = re.compile(
    r"\W*(?:"
    # Based on the given passages, …; According to the policy, …; As stated in the article, …
    rf"(?:based\s+on|according\s+to|as\s+(?:stated|mentioned|noted|described|explained|indicated|reported|"
    rf"specified|shown)\s+(?:in|by))\s+{_NAMED_SOURCE}\s*(?:,\s*|$)"
    # The policy states that …; It does say that …; The page says …
    rf"|(?:{_NAMED_SOURCE}|it)\s+(?:(?:also|further|clearly|explicitly|does|do|did)\s+)*"
    rf"(?:{_SAYS_THAT}\s+that|says?|said)(?:\s+|$)"
    r")",
    re.IGNORECASE,
)


def attribution_end(text: str, at: int = 0) -> int | None:
    """Where an attribution that opens ``text`` at ``at`` ends ("Based on the given passages, ",
    "The policy states that "), or None. It says only that the context says what follows, which is
    what verification checks, so it holds no claim of its own (:func:`rt4chart_plugins.claims.asserted_span`
    cuts it off what a sentence asserts). A negated one ("The policy does not state that …")
    reports a lack instead (:func:`says_source_lacks`)."""
    m = _ATTRIBUTION.match(text, at)
    return m.end() if m else None


def is_attribution(text: str) -> bool:
    """True when ``text`` (a clause) is only an attribution: "According to the policy", "as stated
    in the article", "The policy states that"."""
    text = text.strip().rstrip(",;:.!–—-").rstrip()
    return bool(text) and attribution_end(text) == len(text)
