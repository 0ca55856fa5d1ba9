"""Abstentions: an answer sentence that only says the answerer does not know ("I don't know.",
"I don't know the answer to that based on the provided context.").

It states nothing about the context, so it carries no claim: an answer made only of abstentions
is ``no_claims``, like a refusal, not an entailed claim (a judge reads "I don't know" as neither
supported nor refuted, and the trained verifier scored it ENT). The sentence must be the
abstention and nothing else: "I don't know why, but the trial lasts 14 days" keeps its claim.
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
_SOURCE = (
    r"(?:,?\s*(?:based\s+on|from|given|according\s+to|with|in)\s+(?:the\s+|this\s+)?"
    r"(?:provided\s+|given\s+|available\s+|above\s+|retrieved\s+)?"
    r"(?:context|information|passages?|documents?|text|sources?|data))?"
)

#: the whole sentence is an abstention (an optional "Sorry," in front, punctuation after)
ABSTENTION = re.compile(
    rf"^\W*(?:(?:sorry|unfortunately|honestly)\s*,?\s*)?(?:{_NOT_KNOW}){_OBJECT}{_ABOUT}{_SOURCE}\s*[.!]*\s*$",
    re.IGNORECASE,
)


def is_abstention(sentence: str) -> bool:
    """True when the sentence only says that the answerer does not know."""
    return bool(ABSTENTION.match(sentence.strip()))
