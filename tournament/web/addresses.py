"""Where phones reach `tournament serve`: the stored public address, or this machine's own on its network.

Sign-in links and QR codes must name an address a phone can open; 127.0.0.1
is the phone itself. `serve --public-url` stores one for every worker and
for `slips --tokens`; without it, the address this machine's default route
leaves by is used, with a warning.
"""

from __future__ import annotations

import socket

ALL = ("0.0.0.0", "::", "")  # --host values that listen on every interface
LOOPBACK = ("127.0.0.1", "::1", "localhost")
PROBE = ("192.0.2.1", 9)  # TEST-NET-1: a socket "connected" to it sends nothing, but learns its source address


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback: first the one its default route leaves by, then any
    other its host name resolves to."""
    found = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            found.append(probe.getsockname()[0])
    except OSError:  # no route at all (a machine with no network)
        pass
    try:
        named = [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        named = []
    for address in named:
        if isinstance(address, str) and address not in found:
            found.append(address)
    return [a for a in found if not a.startswith("127.")]


def detected(port: int) -> str | None:
    """This machine's address on its network, as a URL with `port`; None when it has none."""
    found = lan_addresses()
    return f"http://{found[0]}:{port}" if found else None


def for_phones(host: str, port: int, stored: str | None) -> tuple[str, str | None]:
    """The address the sign-in links use, and a warning when the organiser should check it (None: no need).

    A stored `--public-url` wins; else a server on every interface uses this machine's network address; a
    server on one address uses it; a server on loopback only cannot be reached by phones, and says so."""
    if stored:
        return stored, None
    if host in LOOPBACK:
        return f"http://127.0.0.1:{port}", (
            "serving on this machine only (--host 127.0.0.1): phones cannot open its sign-in links; "
            "serve --host 0.0.0.0 to serve the venue's network, with --public-url if phones reach it by another address"
        )
    if host in ALL:
        found = detected(port)
        if found is None:
            return f"http://127.0.0.1:{port}", "this machine has no network address: phones cannot open its sign-in links"
        return found, (
            f"no --public-url: sign-in links and QR codes use {found}, this machine's address on its network; "
            "if phones cannot open it, serve --public-url URL (kept for next time)"
        )
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}", None
