"""The pages' stylesheet and script, served from `/static/` (package data under `tournament/output/static/`).

They are files, not inline `<style>` and `<script>`, so the Content-Security-Policy
allows no inline code at all (tournament/web/headers.py). Each page links them as
`/static/NAME?v=HASH`, HASH from the file's content: a browser may keep a file for
a year, and a new version of the file is a new address, so nobody runs a stale script.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from litestar import Router
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

PREFIX = "/static"
KEEP = 365 * 24 * 3600  # seconds: the address changes with the content
DIRECTORY = Path(__file__).resolve().parents[1] / "output" / "static"  # the package is installed as files, never zipped


@cache
def url(name: str) -> str:
    """The address of a static file, with its content's hash (a Jinja global: `{{ static("headjudge.css") }}`)."""
    digest = hashlib.sha256((DIRECTORY / name).read_bytes()).hexdigest()[:16]
    return f"{PREFIX}/{name}?v={digest}"


def router() -> Router:
    return create_static_files_router(
        path=PREFIX, directories=[DIRECTORY], cache_control=CacheControlHeader(public=True, max_age=KEEP, immutable=True),
    )
