"""A pass-through HTTP proxy that records every request body and response body, byte for byte.

Put in front of a real server (llama.cpp's OpenAI-compatible one), it shows what each client
actually sent: the property that "five clients send the same request" is checked on the bytes that
reached the server, not on what the code meant to send.
"""

from __future__ import annotations

import http.client
import http.server
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class Exchange:
    path: str
    request: bytes
    status: int
    response: bytes


@dataclass
class Recording:
    exchanges: list[Exchange] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self) -> list[Exchange]:
        """The exchanges recorded since the last call."""
        with self.lock:
            out, self.exchanges = self.exchanges, []
        return out


@contextmanager
def recording_proxy(target: str) -> Iterator[tuple[str, Recording]]:
    """A proxy on loopback forwarding to ``target`` (a base URL such as ``http://127.0.0.1:8000/v1``);
    yields the proxy's base URL (same path) and the recording."""
    parsed = urllib.parse.urlsplit(target)
    recording = Recording()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _forward(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() not in ("host", "content-length", "connection", "accept-encoding")}
            conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=1800)
            try:
                conn.request(self.command, self.path, body=body or None, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
                status, resp_headers = resp.status, resp.getheaders()
            finally:
                conn.close()
            if self.command == "POST":
                with recording.lock:
                    recording.exchanges.append(Exchange(self.path, body, status, data))
            self.send_response(status)
            for key, value in resp_headers:
                if key.lower() not in ("content-length", "transfer-encoding", "connection"):
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _forward  # noqa: N815 - http.server's names

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{parsed.path}", recording
    finally:
        server.shutdown()
        server.server_close()
