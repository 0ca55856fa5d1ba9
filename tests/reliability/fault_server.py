"""A misbehaving OpenAI-compatible server on 127.0.0.1, for the fault matrix.

A real HTTP server (stdlib ``http.server`` in a thread) speaking ``/v1/chat/completions``. When
it behaves, it answers like a careful judge would: decomposition requests get one claim per
answer sentence, verification requests get ENT citing the context sentence that contains the
claim, else NIC. Each test picks a *fault*: a function of the request's number that returns what
to do instead (an HTTP status with headers, a hang, a reset connection, a body that is not what
the client expects), or None to answer normally. Every request is logged with its arrival time,
so tests can count attempts and measure the waits between them.
"""

from __future__ import annotations

import json
import re
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable


@dataclass
class Act:
    """What the server does with one request instead of answering it well."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: str | None = None  # the raw HTTP body; None: a normal completion whose content is ``content``
    content: str | None = "__good__"  # the message content; "__good__": the well-behaved answer
    choices: bool = True  # False: an empty ``choices`` list
    hang: float = 0.0  # seconds to sleep before acting
    reset: bool = False  # close the connection with no response (a TCP reset)
    trickle: float = 0.0  # seconds between the body's bytes, once the headers are sent
    content_type: str = "application/json"
    finish_reason: str = "stop"


Fault = Callable[[int, dict], "Act | None"]

_CTX = re.compile(r"^\[(\d+)\] (.*)$")
_CLAIM = re.compile(r"^\((\d+)\) (.*?)(?:   \[provisional:.*)?$")


def good_content(payload: dict) -> str:
    """The answer of a careful judge to one request (decompose or verify)."""
    user = next(m["content"] for m in payload["messages"] if m["role"] == "user")
    lines = user.splitlines()
    if user.startswith("Answer sentences:"):
        claims = [{"sentence": int(m.group(1)), "text": m.group(2)}
                  for m in map(_CTX.match, lines) if m]
        return json.dumps({"claims": claims})
    context, claims, section = {}, [], None
    for line in lines:
        if line == "Context:":
            section = "context"
        elif line == "Claims:":
            section = "claims"
        elif section == "context" and (m := _CTX.match(line)):
            context[int(m.group(1))] = m.group(2)
        elif section == "claims" and (m := _CLAIM.match(line)):
            claims.append((int(m.group(1)), m.group(2)))
    verdicts = []
    for cid, text in claims:
        key = text.lower().rstrip(".").strip()
        hit = [i for i, s in context.items() if key and key in s.lower()]
        if hit:
            verdicts.append({"claim": cid, "label": "ENT", "evidence": hit[:1], "phrase": None, "reason": "stated"})
        else:
            verdicts.append({"claim": cid, "label": "NIC", "evidence": [], "phrase": text, "reason": "not stated"})
    return json.dumps({"verdicts": verdicts})


class FaultServer:
    """``with FaultServer(fault) as server: server.url`` (``…/v1``); ``server.log`` the requests.
    ``port``: the port to listen on (a server that comes back, at the same URL); 0 picks one."""

    def __init__(self, fault: Fault | None = None, port: int = 0):
        self.fault: Fault = fault or (lambda n, payload: None)
        self.log: list[tuple[float, dict]] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                payload = json.loads(self.rfile.read(length) or b"{}")
                with outer._lock:
                    n = len(outer.log)
                    outer.log.append((time.monotonic(), payload))
                act = outer.fault(n, payload) or Act()
                if act.hang:
                    time.sleep(act.hang)
                if act.reset:
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.close_connection = True
                    return
                if act.body is not None:
                    body = act.body
                else:
                    content = good_content(payload) if act.content == "__good__" else act.content
                    choices = [{"index": 0, "finish_reason": act.finish_reason,
                                "message": {"role": "assistant", "content": content}}] if act.choices else []
                    body = json.dumps({"id": f"r{n}", "object": "chat.completion", "created": 0,
                                       "model": payload.get("model", "m"), "choices": choices,
                                       "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
                data = body.encode("utf-8")
                self.send_response(act.status)
                self.send_header("Content-Type", act.content_type)
                self.send_header("Content-Length", str(len(data)))
                for k, v in act.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                try:
                    if act.trickle:
                        for i in range(len(data)):
                            self.wfile.write(data[i:i + 1])
                            self.wfile.flush()
                            time.sleep(act.trickle)
                    else:
                        self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout)
                    pass

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def times(self) -> list[float]:
        return [t for t, _ in self.log]

    def __enter__(self) -> "FaultServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


def free_port() -> int:
    """A port nothing listens on (for the endpoint that is down)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
