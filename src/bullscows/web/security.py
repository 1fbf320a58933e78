"""The web app's guards, as plain ASGI middleware: security headers on every response, a
bound on the size of a request's body, and no state-changing request from another site.

A request that changes anything (any method but GET, HEAD and OPTIONS) is refused with 403
when the browser says it comes from another origin: forms of other sites cannot act on a
game, and the JSON API takes only ``application/json`` bodies, which no cross-site form can
send without the browser asking first. ``Sec-Fetch-Site`` decides where the browser sends it
(every current one does); else ``Origin``, which the pages' ``Referrer-Policy: same-origin``
lets a browser send on a plain form post. A refused page post gets a page, not JSON.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from html import escape
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Bodies larger than this are refused (413); an uploaded tree file may be larger.
MAX_BODY = 64 * 1024
MAX_UPLOAD = 4 * 1024 * 1024
UPLOAD_PATHS = ("/tree/upload", "/api/tree/check")

HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    (b"cache-control", b"no-store"),
]  # fmt: skip
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
REFUSED = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
           'content="width=device-width, initial-scale=1"><title>Refused · bullscows</title>'
           '<link rel="stylesheet" href="/static/style.css"></head><body><main id="main">'
           '<p class="error" role="alert">{message}</p><p><a href="/">Back to the start</a></p>'
           "</main></body></html>")  # fmt: skip


class Guard:
    """Security headers, the body bound and the same-origin rule around ``app``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        limit = MAX_UPLOAD if scope["path"] in UPLOAD_PATHS else MAX_BODY

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in present]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        if scope["method"] not in SAFE_METHODS and (site := _cross_site(headers)):
            await _refuse(send_guarded, 403, f"a request from another site ({site}) may not "
                          "change a game: only this site's own pages and programs may",
                          html=not scope["path"].startswith("/api/"))  # fmt: skip
            return
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            await _refuse(send_guarded, 413, f"a request may carry at most {limit:,} bytes")
            return
        chunks: list[bytes] = []
        received, more = 0, True
        while more:  # the whole body, read here within the bound, then handed on
            message = await receive()
            if message["type"] != "http.request":
                return
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > limit:
                await _refuse(send_guarded, 413, f"a request may carry at most {limit:,} bytes")
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body, handed = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal handed
            if handed:
                return await receive()
            handed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send_guarded)


def _cross_site(headers: dict[str, str]) -> str:
    """What says the request comes from another origin than the one it is sent to (a header
    and its value, quoted), or ``""`` when nothing does.

    >>> _cross_site({"sec-fetch-site": "same-origin", "origin": "null"})
    ''
    >>> _cross_site({"origin": "https://evil.example", "host": "127.0.0.1:8000"})
    "Origin: 'https://evil.example'"
    """
    site = headers.get("sec-fetch-site")
    if site is not None:
        return "" if site in ("same-origin", "none") else f"Sec-Fetch-Site: {site[:40]!r}"
    origin = headers.get("origin")
    if origin is None:
        return ""  # not a browser's cross-site request: programs send neither header
    if origin != "null" and origin.split("://", 1)[-1] == headers.get("host", ""):
        return ""
    return f"Origin: {origin[:60]!r}"


async def _refuse(send: Send, status: int, message: str, html: bool = False) -> None:
    """Refuse with ``{"error": message}``, or (``html``) a short page saying it."""
    if html:
        body = REFUSED.format(message=escape(message)).encode()
        kind = b"text/html; charset=utf-8"
    else:
        body, kind = json.dumps({"error": message}).encode(), b"application/json"
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", kind),
                    (b"content-length", str(len(body)).encode())],
    })  # fmt: skip
    await send({"type": "http.response.body", "body": body})
