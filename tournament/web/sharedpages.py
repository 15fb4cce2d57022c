"""An event's public pages drawn once a change for every reader without a session, not once a phone (T-142).

When a result comes in, every phone showing the round or the standings
reloads (web/follow.py): two hundred phones meant two hundred reads and
renders of the same page (issue 33: 14 ms of CPU a phone a change). A reader
without a session (the crowd) sees exactly what any other such reader sees
at the same head of the event's log, so the page is kept per worker by its
address (path and query) and that head, and sent again as it was drawn: the
cost a reader is one small read of the head. A signed-in reader's page marks
their own row, so it is drawn for them, as before. The page's own CSRF token
and one-time form keys (receipts) differ per reader: they are drawn as marks
and each reader's own put in place of them.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from litestar import MediaType, Request, Response
from litestar.response import Template
from litestar.utils.scope.state import ScopeState

from tournament import service
from tournament.web.auth import secret_of
from tournament.web.common import reading
from tournament.web.receipts import form_key

KEPT = 256  # pages kept per worker (a few tens of KiB each)
CSRF_MARK = f"csrf-{secrets.token_hex(16)}"  # drawn where a reader's own token goes; nothing a page shows can equal it
FORM_MARK = f"form-{secrets.token_hex(16)}"



class Kept:
    """A worker's pages (`app.state.pages`), by event, path, query and the hash of the log's head."""

    def __init__(self) -> None:
        self.pages: OrderedDict[tuple[str, str, str, str], str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str, str, str]) -> str | None:
        with self.lock:
            found = self.pages.get(key)
            if found is not None:
                self.pages.move_to_end(key)
            return found

    def put(self, key: tuple[str, str, str, str], body: str) -> None:
        with self.lock:
            self.pages[key] = body
            while len(self.pages) > KEPT:
                self.pages.popitem(last=False)


def shared_page(request: Request[Any, Any, Any], event_id: str, draw: Callable[[], Template]) -> Response[Any]:
    """The page `draw` makes: for a reader without a session, as drawn once at the event's head for all of them."""
    if secret_of(request) is not None:
        return draw()
    with reading(request) as session:
        head = service.get_event(session, event_id).last_hash  # NotFound, as the page would say
    key = (event_id, request.url.path, request.url.query, head)  # the hash: an event made again anew is another
    kept: Kept = request.app.state.pages
    body = kept.get(key)
    if body is None:
        body = _render(request, draw())
        kept.put(key, body)
    return Response(_fill(request, body), media_type=MediaType.HTML)


def _render(request: Request[Any, Any, Any], template: Template) -> str:
    """`template` drawn as Litestar would, with marks where the reader's CSRF token and form keys go."""
    engine = request.app.template_engine
    assert engine is not None and template.template_name is not None, "the app has its templates; a page names one"
    state = ScopeState.from_scope(request.scope)
    token, state.csrf_token = state.csrf_token, CSRF_MARK
    try:
        context = {**template.context, "request": request, "form_key": lambda *_: FORM_MARK,
                   "csrf_input": f'<input type="hidden" name="_csrf_token" value="{CSRF_MARK}" />'}
        drawn: str = engine.get_template(template.template_name).render(**context)
        return drawn
    finally:
        state.csrf_token = token


def _fill(request: Request[Any, Any, Any], body: str) -> str:
    """The kept page with this reader's CSRF token and a new key for each form."""
    if CSRF_MARK in body:
        token = ScopeState.from_scope(request.scope).csrf_token
        body = body.replace(CSRF_MARK, token if isinstance(token, str) else "")
    if FORM_MARK in body:
        body = re.sub(FORM_MARK, lambda _: form_key(), body)
    return body
