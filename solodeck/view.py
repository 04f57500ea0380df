"""`solodeck view HINTS.json`: the reference hint viewer (viewer/) served on 127.0.0.1.

The page is static (viewer/index.html, viewer.js, viewer.css: no build step, nothing fetched
from the network). This module serves it with the standard library's http.server, beside the
hint file (GET /hints.json, read afresh on each request so a rewritten file shows on reload) and
the package's JSON Schemas (GET /schema/hints-v1.schema.json, ...). The page validates the file
itself, so a file that breaks the schema is served as it is and the page says what is wrong.

Only these fixed routes are served: nothing else on the machine is reachable through the server.
"""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path

from .errors import SolodeckError
from .hints import read_hints, validate_hints

VIEWER_FILES = {"index.html": "text/html", "viewer.js": "text/javascript", "viewer.css": "text/css"}


def viewer_dir() -> Path:
    """The page's folder: the copy installed in the package, else viewer/ of a source checkout."""
    installed = Path(str(resources.files("solodeck"))) / "viewer"
    if (installed / "index.html").exists():
        return installed
    return Path(__file__).resolve().parent.parent / "viewer"


def schema_text(name: str) -> bytes | None:
    """A schema shipped in solodeck/schema/ by file name, or None (only hints-v*.schema.json)."""
    if not (name.startswith("hints-v") and name.endswith(".schema.json") and "/" not in name):
        return None
    path = resources.files("solodeck").joinpath("schema", name)
    return path.read_bytes() if path.is_file() else None


def schema_problem(data) -> str | None:
    """The first place where ``data`` breaks its version's schema, as one line, or None.

    The page reports the same (and more) itself; the command line says it too, so a person who
    never opens the page still learns that the file is broken."""
    try:
        validate_hints(data)
    except SolodeckError as exc:
        return str(exc)
    return None


class _Handler(BaseHTTPRequestHandler):
    hints_path: Path  # set on the subclass made for each server
    page: Path

    def do_GET(self):  # noqa: N802 (http.server's name)
        route = self.path.split("?", 1)[0].split("#", 1)[0]
        if route in ("/", "/index.html"):
            route = "/index.html"
        name = route.lstrip("/")
        if name in VIEWER_FILES:
            return self._send(200, VIEWER_FILES[name], (self.page / name).read_bytes())
        if name == "hints.json":
            try:
                return self._send(200, "application/json", self.hints_path.read_bytes())
            except OSError as exc:  # removed since the server started: the page shows this
                return self._send(404, "text/plain", f"{self.hints_path}: {exc.strerror}".encode())
        if name.startswith("schema/"):
            text = schema_text(name[len("schema/"):])
            if text is not None:
                return self._send(200, "application/schema+json", text)
        return self._send(404, "text/plain", f"not found: {route}".encode())

    def _send(self, status, kind, body: bytes):
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")  # a rewritten hint file shows on reload
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 (http.server's name): quiet, the address is printed once
        pass


def make_server(hints_path, port: int = 0, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """A server (not yet serving) for the viewer and ``hints_path``; port 0 picks a free port.

    The file must exist and be JSON (SolodeckError otherwise: the CLI's one-line error); a file
    that breaks the schema is served, the page shows what is wrong."""
    path = Path(hints_path)
    read_hints(path)
    handler = type("HintViewerHandler", (_Handler,), {"hints_path": path.resolve(), "page": viewer_dir()})
    return ThreadingHTTPServer((host, port), handler)


def address(server) -> str:
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"


def serve_in_thread(hints_path, port: int = 0):
    """Start a server in a daemon thread (tests, scripts); returns it (``server.shutdown()`` stops it)."""
    server = make_server(hints_path, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
