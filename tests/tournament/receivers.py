"""Real receivers for the messages' tests and bench: an SMTP server (aiosmtpd) and a Web Push endpoint that checks
each request's VAPID signature (an ES256 JWT against the server's public key) and decrypts its payload with the
subscription's own keys (RFC 8291, aes128gcm, through http_ece), as a push service and a browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# E-mail ---------------------------------------------------------------------------------------------------------


@dataclass
class Mail:
    id: str  # the Message-ID
    to: str
    subject: str
    text: str
    at: float
    unsubscribe: str = ""  # the List-Unsubscribe header


class SmtpReceiver:
    def __init__(self, delay: float = 0) -> None:
        self.mails: list[Mail] = []
        self.lock = threading.Lock()
        self.delay = delay  # seconds before each DATA is answered: a slow server

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        if self.delay:
            import asyncio

            await asyncio.sleep(self.delay)
        parsed = message_from_bytes(envelope.content)
        body = parsed.get_payload(decode=True) or b""
        mail = Mail(
            str(parsed["Message-ID"]), str(parsed["To"]), str(parsed["Subject"]), body.decode(), time.monotonic(), " ".join(str(parsed["List-Unsubscribe"] or "").split()),
        )
        with self.lock:
            self.mails.append(mail)
        return "250 OK"


@contextmanager
def smtp_server(delay: float = 0) -> Iterator[tuple[str, SmtpReceiver]]:
    """An SMTP server on a free local port (answering each DATA after `delay` seconds): its `--smtp` URL and what
    it received."""
    import socket

    from aiosmtpd.controller import Controller

    with socket.socket() as probe:  # aiosmtpd's controller checks its server by connecting to the port it was given
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    receiver = SmtpReceiver(delay)
    controller = Controller(receiver, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}?from=desk@spring-open.example", receiver
    finally:
        controller.stop()


# Web Push -------------------------------------------------------------------------------------------------------


@dataclass
class Browser:
    """A browser's push subscription: its own key pair and auth secret (RFC 8291), at an endpoint."""

    endpoint: str
    private: Any
    auth: bytes

    @property
    def p256dh(self) -> str:
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        return b64(self.private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))

    @property
    def auth_text(self) -> str:
        return b64(self.auth)


@dataclass
class Push:
    id: str
    title: str
    body: str
    url: str
    topic: str
    at: float
    endpoint: str


@dataclass
class PushEndpoint:
    """The push service's side: a URL per browser; `answers` (endpoint name -> statuses) to refuse some first."""

    base: str
    vapid: str | None = None  # the server's public key, base64url: every request must be signed by it
    browsers: dict[str, Browser] = field(default_factory=dict)
    received: list[Push] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    answers: dict[str, list[int]] = field(default_factory=dict)
    decrypt: bool = True  # the bench reads only the Topic header (the message's id), as a push service would
    delay: float = 0.0  # seconds each request takes (the kill test's senders die mid-batch)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def browser(self, name: str) -> Browser:
        from cryptography.hazmat.primitives.asymmetric import ec

        made = Browser(f"{self.base}/push/{name}", ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.browsers[name] = made
        return made

    def ids(self) -> list[str]:
        with self.lock:
            return [p.id for p in self.received]


def check_vapid(header: str, vapid: str, audience: str) -> str | None:
    """RFC 8292: `vapid t=JWT, k=KEY`; the key is the server's, the JWT's ES256 signature is the key's, its `aud`
    the push service's origin, `exp` within a day. None if all is right, else what is wrong."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    if not header.startswith("vapid "):
        return f"not a VAPID Authorization: {header[:40]!r}"
    parts = dict(p.strip().split("=", 1) for p in header[6:].split(","))
    if parts.get("k") != vapid:
        return "signed with another key than the server's"
    token = parts.get("t", "")
    head, claims, signature = token.split(".")
    if json.loads(unb64(head)) != {"typ": "JWT", "alg": "ES256"}:
        return f"not ES256: {unb64(head)!r}"
    raw = unb64(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(vapid))
    try:
        key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                   f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return "the JWT's signature is wrong"
    said = json.loads(unb64(claims))
    if said.get("aud") != audience or not time.time() < said.get("exp", 0) <= time.time() + 24 * 3600 or not said.get("sub"):
        return f"bad claims {said}"
    return None


@contextmanager
def push_endpoint(vapid: str | None = None, *, decrypt: bool = True) -> Iterator[PushEndpoint]:
    """A Web Push endpoint on a free local port, in threads."""
    import http_ece

    holder: dict[str, PushEndpoint] = {}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args: Any) -> None:
            pass

        def do_POST(self) -> None:
            ep = holder["ep"]
            length = int(self.headers.get("content-length", "0"))
            try:
                body = self.rfile.read(length)
            except OSError:
                body = b""
            if len(body) < length:  # the sender died mid-request (the kill test): nothing was delivered
                self.close_connection = True
                return
            if ep.delay:
                time.sleep(ep.delay)
            name = self.path.rsplit("/", 1)[-1]
            status = 201
            with ep.lock:
                queued = ep.answers.get(name)
                if queued:
                    status = queued.pop(0)
            if status == 201:
                status = self._take(ep, name, body, http_ece)
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def _take(self, ep: PushEndpoint, name: str, body: bytes, ece: Any) -> int:
            now = time.monotonic()
            topic = self.headers.get("topic", "")
            if not ep.decrypt:
                with ep.lock:
                    ep.received.append(Push(topic, "", "", "", topic, now, name))
                return 201
            wrong = check_vapid(self.headers.get("authorization", ""), ep.vapid or "", ep.base) if ep.vapid else "no key to check"
            browser = ep.browsers.get(name)
            if wrong is None and browser is None:
                wrong = f"no browser {name}"
            if wrong is None and self.headers.get("content-encoding") != "aes128gcm":
                wrong = f"content-encoding {self.headers.get('content-encoding')}"
            if wrong is not None:
                with ep.lock:
                    ep.problems.append(wrong)
                return 403
            assert browser is not None
            plain = ece.decrypt(body, private_key=browser.private, auth_secret=browser.auth, version="aes128gcm")
            said = json.loads(plain)
            with ep.lock:
                ep.received.append(Push(said["id"], said["title"], said["body"], said["url"], topic, now, name))
            return 201

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    holder["ep"] = PushEndpoint(f"http://127.0.0.1:{server.server_address[1]}", vapid, decrypt=decrypt)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield holder["ep"]
    finally:
        server.shutdown()
        server.server_close()
