"""`solodeck serve`: the live engine (solodeck/engine.py) over HTTP on 127.0.0.1, and the viewer's
play page.

    POST /api            one request (the engine's JSON, docs/engine.md) -> its reply: the position,
                         the legal moves, ... and for analyse the final analysis (the request waits
                         for it; a stop sent meanwhile on another connection ends it at once)
    GET  /api/progress   the running analysis's latest progress reply, or null
    GET  /play.html ...  the viewer's play page (viewer/), no build step, nothing from the network

The same Engine answers every connection: positions made on one are known to all. Only these
routes exist, the server listens on 127.0.0.1 only, and it answers only requests addressed to
127.0.0.1 or localhost (a page elsewhere cannot reach it by a rebound DNS name). A request must say
it is JSON (Content-Type: application/json), which a page of another origin can only send after
asking the server first, and the server never agrees; one that names another origin is refused.
"""
from __future__ import annotations

import json
import queue
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .engine import MAX_REQUEST_BYTES, Engine, RequestError, is_tag, error_reply, parse_request
from .view import VIEWER_FILES, viewer_dir

PAGES = {**VIEWER_FILES, "play.html": "text/html", "play.js": "text/javascript"}
ALLOWED_HOSTS = ("127.0.0.1", "localhost")
MAX_CONNECTIONS = 16     # requests answered at once; more wait for a free slot or get a 503
DRAIN_BYTES = 16 * MAX_REQUEST_BYTES  # a refused body read before its 413 (beyond: the connection is cut)
SOCKET_SECONDS = 30      # a client that sends nothing for this long is dropped


class Router:
    """The engine's replies sent back to the HTTP request that asked: each request gets a private
    id for its stay in the engine, and its own id back in the replies."""

    def __init__(self):
        self.lock = threading.Lock()
        self.count = 0
        self.waiting: dict[str, tuple[queue.Queue, object]] = {}
        self.progress = None
        self.engine = Engine(self.emit)

    def emit(self, reply: dict) -> None:
        with self.lock:
            waiter = self.waiting.get(reply.get("id")) if isinstance(reply.get("id"), str) else None
        own = reply if waiter is None else {**reply, "id": waiter[1]}
        if reply.get("type") == "progress":
            self.progress = own
        elif reply.get("type") == "analysis":
            self.progress = None  # GET /api/progress: null once no analysis runs
        if waiter is not None:
            waiter[0].put(own)

    def ask(self, request) -> dict:
        """The reply to one request (for analyse: the final one)."""
        if not isinstance(request, dict):
            return error_reply(None, "a request is a JSON object with a \"cmd\" field")
        with self.lock:
            self.count += 1
            tag = f"http-{self.count}"
            mailbox: queue.Queue = queue.Queue()
            self.waiting[tag] = (mailbox, request.get("id") if is_tag(request.get("id")) else None)
        try:
            if request.get("cmd") == "analyse":
                self.progress = None
            self.engine.handle({**request, "id": tag})
            while True:
                reply = mailbox.get()
                if request.get("cmd") != "analyse" or reply["type"] in ("analysis", "error"):
                    return reply
        finally:
            with self.lock:
                del self.waiting[tag]


class _Handler(BaseHTTPRequestHandler):
    router: Router
    page = None
    slots: threading.BoundedSemaphore
    timeout = SOCKET_SECONDS  # a silent client is dropped, not waited for

    def handle_one_request(self):
        if not self.slots.acquire(timeout=SOCKET_SECONDS):
            self.close_connection = True
            return
        try:
            super().handle_one_request()
        finally:
            self.slots.release()

    def do_GET(self):  # noqa: N802 (http.server's name)
        if not self._host_allowed():
            return
        route = self.path.split("?", 1)[0].split("#", 1)[0]
        name = "play.html" if route in ("/", "") else route.lstrip("/")
        if name == "api/progress":
            return self._json(200, self.router.progress)
        if name in PAGES:
            return self._send(200, PAGES[name], (self.page / name).read_bytes())
        return self._send(404, "text/plain", f"not found: {route}".encode())

    def do_POST(self):  # noqa: N802
        if not self._host_allowed():
            return
        if self.path.split("?", 1)[0] != "/api":
            return self._send(404, "text/plain", b"not found: POST goes to /api")
        kind = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            return self._json(415, error_reply(None, "a request is JSON: send it with Content-Type: application/json"))
        origin = self.headers.get("Origin")
        port = self.server.server_address[1]
        if origin is not None and origin not in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
            return self._json(403, error_reply(None, "requests from other origins are refused"))
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._json(411, error_reply(None, "a request needs its Content-Length"))
        if not 0 <= length <= MAX_REQUEST_BYTES:
            self._drain(length)
            return self._json(413, error_reply(None, f"request longer than {MAX_REQUEST_BYTES:,} bytes"))
        body = self.rfile.read(length)
        try:
            request = parse_request(body.decode("utf-8"))
        except UnicodeDecodeError:
            return self._json(400, error_reply(None, "not a JSON object: not UTF-8"))
        except RequestError as exc:
            return self._json(400, error_reply(None, str(exc)))
        reply = self.router.ask(request)
        self._json(400 if reply["type"] == "error" else 200, reply)

    def _drain(self, length: int) -> None:
        """Read and drop a refused body (up to DRAIN_BYTES): a reply sent while the client is
        still writing would reach it as a broken pipe instead of the status. The connection is
        closed after the reply: whatever was not read is not a request."""
        left = min(max(length, 0), DRAIN_BYTES)
        while left > 0 and (chunk := self.rfile.read(min(left, 1 << 16))):
            left -= len(chunk)
        self.close_connection = True

    def _host_allowed(self) -> bool:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]")
        if host in ALLOWED_HOSTS:
            return True
        self._send(403, "text/plain", b"this server answers requests to 127.0.0.1 or localhost only")
        return False

    def _json(self, status, data) -> None:
        self._send(status, "application/json", json.dumps(data, separators=(",", ":")).encode())

    def _send(self, status, kind, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002: quiet, the address is printed once
        pass


def make_server(port: int = 0, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """A server (not yet serving) with its own engine; port 0 picks a free port."""
    handler = type("EngineHandler", (_Handler,), {"router": Router(), "page": viewer_dir(),
                                                   "slots": threading.BoundedSemaphore(MAX_CONNECTIONS)})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(port: int = 0) -> ThreadingHTTPServer:
    """Start a server in a daemon thread (tests, scripts); ``server.shutdown()`` stops it."""
    server = make_server(port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def serve(port: int = 0) -> int:
    server = make_server(port)
    host, bound = server.server_address[:2]
    print(f"solodeck engine on http://{host}:{bound}/ (POST /api; the play page at /); Ctrl-C stops it", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.RequestHandlerClass.router.engine.close()
        server.server_close()
    return 0
