"""Judges that answer structured JSON over a chat API, split by job: :mod:`.transport` sends one
request (retries, backoff, circuit breaker, deadline), :mod:`.replies` reads a reply's text into
JSON, :mod:`.verdicts` reads that JSON into claims and verdicts, and :mod:`.judge` asks for the
decomposition and the verification with its cache. A subclass of :class:`ChatJudge` only says how
to send one request; the names below are what the judges and the framework adapters build on."""

from rt4chart_plugins.judges.chat.judge import ChatJudge
from rt4chart_plugins.judges.chat.replies import extract_json_text, json_is_cut, parse_json_loose
from rt4chart_plugins.judges.chat.transport import ChatReply, within
from rt4chart_plugins.judges.prompts import json_instruction, prompt_messages

__all__ = [
    "ChatJudge",
    "ChatReply",
    "extract_json_text",
    "json_instruction",
    "json_is_cut",
    "parse_json_loose",
    "prompt_messages",
    "within",
]
