"""A software authenticator for the passkey service's tests: real keys (ECDSA P-256), real CBOR, real signatures.

What a browser and an authenticator hand a relying party, made by hand: `create` answers registration
options as `navigator.credentials.create` would (attestation `none`), `get` answers sign-in options as
`navigator.credentials.get` would, each as the JSON the page's script sends. `origin` is what the browser
would write in the client data; `rp_id`, the RP id the authenticator signs for (the options' own unless
given): a test can make either wrong.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: user present, user verified, attested credential data


class Authenticator:
    """One authenticator holding passkeys: credential id -> (key, RP id, user handle), and one sign counter."""

    def __init__(self, *, counts: bool = True) -> None:
        self.keys: dict[bytes, tuple[ec.EllipticCurvePrivateKey, str, str]] = {}
        self.counter = 0
        self.counts = counts  # an authenticator that keeps no counter always says 0

    def create(self, options: str, origin: str, rp_id: str | None = None) -> str:
        asked = json.loads(options)
        rp = rp_id or asked["rp"]["id"]
        key = ec.generate_private_key(ec.SECP256R1())
        credential = secrets.token_bytes(32)
        self.keys[credential] = (key, rp, asked["user"]["id"])
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        attested = bytes(16) + struct.pack(">H", len(credential)) + credential + cose
        data = self._data(rp, UP | UV | AT) + attested
        client = self._client("webauthn.create", asked["challenge"], origin)
        return json.dumps({
            "id": bytes_to_base64url(credential), "rawId": bytes_to_base64url(credential), "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client),
                "attestationObject": bytes_to_base64url(cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": data})),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        })

    def get(self, options: str, origin: str, credential: bytes | None = None, rp_id: str | None = None) -> str:
        """An assertion by `credential` (the one passkey held, when None)."""
        asked = json.loads(options)
        chosen = credential or next(iter(self.keys))
        key, rp, handle = self.keys[chosen]
        data = self._data(rp_id or asked.get("rpId") or rp, UP | UV)
        client = self._client("webauthn.get", asked["challenge"], origin)
        signature = key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return json.dumps({
            "id": bytes_to_base64url(chosen), "rawId": bytes_to_base64url(chosen), "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client), "authenticatorData": bytes_to_base64url(data),
                "signature": bytes_to_base64url(signature), "userHandle": handle,
            },
            "clientExtensionResults": {},
        })

    def _data(self, rp_id: str, flags: int) -> bytes:
        if self.counts:
            self.counter += 1
        return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", self.counter if self.counts else 0)

    @staticmethod
    def _client(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}).encode()


def challenge_of(options: str) -> bytes:
    return base64url_to_bytes(json.loads(options)["challenge"])


def tampered(answer: str, **response: Any) -> str:
    """An answer with some of its `response` fields replaced."""
    data = json.loads(answer)
    data["response"].update(response)
    return json.dumps(data)
