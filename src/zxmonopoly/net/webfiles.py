"""The browser's page as the lobby serves it (docs/network.md, "A browser's seat"): plain
HTML, CSS and JavaScript modules from net/web/, no framework and no build step.

``GET /r/ROOM`` is the page (the same for every room: it reads the room from its path and
the code from its fragment, which the browser never sends); ``GET /web/NAME`` its files.
Only the files of net/web/ are served, read once when the lobby starts; each answer says
what it is and forbids the rest (a Content-Security-Policy of this origin's scripts, styles
and connections only, no framing, no referrer).
"""

from __future__ import annotations

from importlib import resources

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from . import lobbywire as w

#: The page's files by name, and their types.
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
PAGE = "index.html"
FILES_PATH = "/web/"


def read_files() -> dict[str, bytes]:
    """net/web/'s files (the page's), by name."""
    folder = resources.files("zxmonopoly.net").joinpath("web")
    return {entry.name: entry.read_bytes() for entry in folder.iterdir()
            if entry.is_file() and any(entry.name.endswith(s) for s in TYPES)}


class WebFiles:
    """The page's answers to plain HTTP requests (None: not the page's)."""

    def __init__(self) -> None:
        self.files = read_files()

    def answer(self, request: Request) -> Response | None:
        """The page, one of its files, or None for any other path."""
        path = request.path.split("?", 1)[0]
        if path.startswith(w.PAGE_PATH):
            try:
                w.check_room(path[len(w.PAGE_PATH):])
            except w.LobbyError:
                return _response(404, "Not Found", b"no such room's page\n", ".txt")
            return self._file(PAGE, request)
        if path.startswith(FILES_PATH):
            name = path[len(FILES_PATH):]
            if name in self.files and name != PAGE:
                return self._file(name, request)
            return _response(404, "Not Found", b"no such file\n", ".txt")
        return None

    def _file(self, name: str, request: Request) -> Response:
        host = request.headers.get("Host", "")
        suffix = name[name.rfind("."):]
        return _response(200, "OK", self.files[name], suffix, host)


def _response(status: int, reason: str, body: bytes, suffix: str, host: str = "") -> Response:
    # connect-src names the page's own WebSocket, ws: and wss:, besides 'self' (which
    # older browsers take for http(s) only).
    sockets = f" ws://{host} wss://{host}" if host and all(c not in host for c in " ;'\"") \
        else ""
    policy = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
              f"connect-src 'self'{sockets}; base-uri 'none'; form-action 'none'; "
              "frame-ancestors 'none'")
    headers = Headers([
        ("Content-Type", TYPES.get(suffix, "text/plain; charset=utf-8")),
        ("Content-Length", str(len(body))),
        ("Cache-Control", "no-cache"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Content-Security-Policy", policy),
    ])
    return Response(status, reason, headers, body)
