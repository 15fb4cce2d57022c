"""The pages' stylesheet and script, served from `/static/` (package data under `tournament/output/static/`).

They are files, not inline `<style>` and `<script>`, so the Content-Security-Policy
allows no inline code at all (tournament/web/headers.py). Each page links them as
`/static/NAME?v=HASH`, HASH from the file's content: a browser may keep a file for
a year, and a new version of the file is a new address, so nobody runs a stale script.

The stylesheet is one file to the browser but two at the source: the referee's
rules for a game's drawing (referee/templates/felt.css, which `referee show`
inlines too), then the site's own (headjudge.css), so neither copies the other.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from litestar import Response, Router, get
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

import referee

PREFIX = "/static"
KEEP = 365 * 24 * 3600  # seconds: the address changes with the content
DIRECTORY = Path(__file__).resolve().parents[1] / "output" / "static"  # the package is installed as files, never zipped
STYLESHEET = "headjudge.css"
FELT = Path(referee.__file__).resolve().parent / "templates" / "felt.css"
CACHING = CacheControlHeader(public=True, max_age=KEEP, immutable=True)


@cache
def content(name: str) -> bytes:
    """A static file's bytes as served: the stylesheet with the referee's drawing rules before the site's."""
    own = (DIRECTORY / name).read_bytes()
    return FELT.read_bytes() + b"\n" + own if name == STYLESHEET else own


@cache
def digest(name: str) -> str:
    return hashlib.sha256(content(name)).hexdigest()[:16]


@cache
def url(name: str) -> str:
    """The address of a static file, with its content's hash (a Jinja global: `{{ static("headjudge.css") }}`)."""
    return f"{PREFIX}/{name}?v={digest(name)}"


@get(f"{PREFIX}/{STYLESHEET}", cache_control=CACHING, include_in_schema=False, sync_to_thread=False)
def stylesheet() -> Response[bytes]:
    return Response(content(STYLESHEET), media_type="text/css", headers={"etag": f'"{digest(STYLESHEET)}"'})


def router() -> Router:
    files = create_static_files_router(path=PREFIX, directories=[DIRECTORY], cache_control=CACHING)
    return Router(path="/", route_handlers=[stylesheet, files])
