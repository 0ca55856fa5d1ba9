"""Reading a chat judge's reply text into JSON, and saying what is wrong with it.

Small judges rarely answer with clean JSON: they write a sentence of prose first, fence the JSON,
leave a trailing comma, or write labelled lines instead. All of that is salvaged here, once, so
that one reply gives the same data whichever client fetched it. What is never salvaged is a reply
cut off before its JSON ends: repairing it would turn half a claim ("The sto") into a claim.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from json_repair import repair_json

from rt4chart_plugins.judges.chat.transport import ChatReply

#: the problem of a reply cut off before its JSON ends
CUT = "the judge's reply was cut off before its JSON ended"

#: an integer as written anywhere in a reply ("3", "[3]", "S3")
INT = re.compile(r"-?\d+")


@dataclass
class Answer:
    """A request's reply as read: its JSON (None when there is none), and what is wrong with it."""

    data: object | None
    problem: str | None = None  # None: complete, and it validated
    cut: bool = False  # the reply ends before its JSON does: nothing of it is used


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)(?:```|$)", re.DOTALL)


def extract_json_text(text: str) -> str:
    """The JSON part of a chat reply: small models often write a sentence of prose and then the
    JSON, fenced or not. Returns the fenced block, or the text from the first ``{``/``[`` on."""
    stripped = (text or "").strip()
    if not stripped or stripped[0] in "{[":
        return stripped
    fenced = _FENCE.search(stripped)
    if fenced and fenced.group(1).strip()[:1] in ("{", "["):
        return fenced.group(1).strip()
    starts = [i for i in (stripped.find("{"), stripped.find("[")) if i >= 0]
    return stripped[min(starts) :] if starts else stripped


#: one verdict of a reply written as labelled lines instead of JSON ("Claim (0): …", "Label: CON",
#: "Evidence: [0]", "Phrase: …", "Reason: …"), as small models write when asked for JSON in the prompt
_LABELLED = re.compile(
    r"^\W*Claim\s*\(?(?P<claim>\d+)\)?\s*[:.)-].*?^\W*Label\s*:\s*\W*(?P<label>[A-Za-z_]+)"
    r"(?:(?:(?!^\W*Claim\s*\(?\d).)*?^\W*Evidence\s*:\s*(?P<evidence>[^\n]*))?"
    r"(?:(?:(?!^\W*Claim\s*\(?\d).)*?^\W*Phrase\s*:\s*(?P<phrase>[^\n]*))?"
    r"(?:(?:(?!^\W*Claim\s*\(?\d).)*?^\W*Reason\s*:\s*(?P<reason>[^\n]*))?",
    re.IGNORECASE | re.MULTILINE | re.DOTALL,
)


def _parse_labelled(text: str) -> dict | None:
    """Verdicts written as labelled lines, as ``{"verdicts": [...]}``; None when there are none.
    The same reply then gives the same verdicts whichever client fetched it."""
    verdicts = []
    for m in _LABELLED.finditer(text or ""):
        phrase = (m.group("phrase") or "").strip().strip("\"'") or None
        verdicts.append(
            {
                "claim": int(m.group("claim")),
                "label": m.group("label"),
                "evidence": INT.findall(m.group("evidence") or ""),
                "phrase": phrase,
                "reason": (m.group("reason") or "").strip() or None,
            }
        )
    return {"verdicts": verdicts} if verdicts else None


def parse_json_loose(text: str) -> object | None:
    """Parse a judge's JSON: prose and fences around it are cut, truncation repaired if possible;
    a reply of labelled lines instead of JSON is read as its verdicts."""
    raw = text
    text = extract_json_text(text)
    try:
        return json.loads(text)
    except (ValueError, TypeError):
        pass
    labelled = _parse_labelled(raw)
    if labelled is not None:
        return labelled
    try:
        repaired = repair_json(text or "", return_objects=True)
    except Exception:  # json_repair is best-effort; anything it cannot handle is unparseable
        return None
    return repaired if repaired not in ("", None) else None


def json_is_cut(text: str) -> bool:
    """Whether a reply's JSON ends before it is closed: a string, an object or an array left open
    (``{"claims": [{"sentence": 0, "text": "The sto``). Repairing it would make "The sto" a claim,
    or a verdict of what the judge had not finished saying."""
    body = extract_json_text(text)
    if body[:1] not in ("{", "["):
        return False
    depth, in_string, escaped = 0, False, False
    for ch in body:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return False  # closed: what follows is prose
    return True


def read_reply(reply: ChatReply, check: Callable[[object], str | None]) -> Answer:
    """A reply's JSON and what is wrong with it: cut off (by the server, or before its JSON is
    closed), unparseable, or failing ``check``. Nothing of a cut reply is used."""
    if reply.cut or json_is_cut(reply.text):
        return Answer(None, CUT, cut=True)
    data = parse_json_loose(reply.text)
    if data is None:
        return Answer(None, "the judge's reply holds no JSON")
    return Answer(data, check(data))
