"""The permission matrix on every state-changing route (issue 35, T-175): each route is taken from the Litestar
app's own route table, so a new one cannot be left out; it is sent as every role that may not take it, and as
nobody, and each refusal (401 or 403, with a JSON error under /api) changes nothing in the database. The organiser
token acts as the organiser until the server has an organiser of its own, and is then refused everywhere (T-230)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from httpx import Response
from litestar.testing import TestClient
from sqlalchemy.orm import Session

from tests.tournament.webkit import ORGANISER_TOKEN, client, database, everything, make_event
from tournament import service
from tournament.web import create_app
from tournament.web.auth import COOKIE
from tournament.web.guard import ACTION, changing_routes, unguarded

README = Path(__file__).parents[2] / "tournament" / "README.md"


def sessions(db_url: str) -> dict[str, str | None]:
    """A session secret for each role: a player, each staff role (of this event, or of every event), a judge of
    another event, a judge revoked after signing in, the organiser token's session made before the first organiser
    was named (retired by it: T-230); nobody has none."""
    make_event(db_url, ["ann", "bob", "cat", "dan"])
    make_event(db_url, ["eve", "fay"], event="other", name="Other Cup")
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)
        token = service.organiser_login(session, ORGANISER_TOKEN, "test")  # signed in while there is no organiser

        def staff_session(name: str, role: str, event: str | None) -> str:
            member = service.name_staff(session, name, role, event)
            return service.exchange_code(session, service.issue_staff_code(session, member.id), "test")[1]

        found: dict[str, str | None] = {
            "nobody": None,
            "player": service.exchange_code(session, service.issue_code(session, "ev", "ann"), "test")[1],
            "person": service.person_session(session, service.get_player(session, "ev", "bob").person or "bob"),
            "scorekeeper": staff_session("Sam Keeper", "scorekeeper", "ev"),
            "judge": staff_session("Jo Judge", "judge", "ev"),
            "head-judge": staff_session("Hal Head", "head-judge", None),
            "judge of another event": staff_session("Oz Other", "judge", "other"),
            "revoked judge": staff_session("Rex Gone", "judge", None),
            "organiser staff": staff_session("Olive Org", "organiser", None),
            "retired organiser token": token,
        }
        service.revoke(session, "rex-gone")
        return found


def role_of(name: str) -> str | None:
    """The matrix's role for a test identity; None for those whose every request is refused."""
    return {"player": "player", "person": "person", "scorekeeper": "scorekeeper", "judge": "judge", "head-judge": "head-judge",
            "organiser staff": "organiser", "organiser token": "organiser", "judge of another event": "judge"}.get(name)


def may(name: str, action: str) -> bool:
    """Whether the matrix lets this test identity take `action` on this event's routes (or the server's)."""
    roles, _ = service.MATRIX[action]
    if action == service.PUBLIC:
        return True
    if name == "judge of another event":  # every other route acts on this event, or on the whole server: not theirs
        return False
    return role_of(name) in roles


def send(c: TestClient, method: str, path: str, secret: str | None, csrf_token: str) -> Response:  # type: ignore[type-arg]
    """One route, its parameters filled in (`concrete`), with an empty body, as the holder of `secret` (None: nobody):
    its session in the Bearer header under /api, else in the page cookie, beside the page's CSRF token."""
    url = concrete(path)
    api = url.startswith("/api/")
    c.cookies.delete(COOKIE)
    headers = {"x-csrftoken": csrf_token}
    if secret is not None:
        if api:
            headers["Authorization"] = f"Bearer {secret}"
        else:
            c.cookies.set(COOKIE, secret)
    return c.request(method, url, headers=headers, **({"json": {}} if api else {"data": {}}), follow_redirects=False)


def concrete(path: str) -> str:
    """A route's path with its parameters filled in: this event, table 1, the first of anything numbered."""
    values = {"event_id": "ev", "table": "1", "number": "1", "staff_id": "jo-judge", "name": "x", "person_id": "ann"}
    return re.sub(r"\{(\w+):\w+\}", lambda m: values.get(m.group(1), "x"), path)


def test_every_state_changing_route_names_an_action_of_the_matrix(db_url: str) -> None:
    app = create_app(db_url)
    assert unguarded(app) == []
    routes = changing_routes(app)
    assert len(routes) >= 80, "the route table was read"  # the count this test covers: see the README's matrix


def test_every_refusal_changes_nothing(db_url: str) -> None:
    secrets = sessions(db_url)
    with client(db_url) as c:
        routes = changing_routes(c.app)
        c.get("/")  # the CSRF cookie, so that a page's refusal is the matrix's and not the CSRF check's
        token = c.cookies.get("csrftoken") or ""
        before = everything(db_url)
        refused = retired = 0
        for who, secret in secrets.items():
            for method, path, handler in routes:
                action = handler.opt[ACTION]
                if may(who, action):
                    continue
                answer = send(c, method, path, secret, token)
                where = f"{who}: {method} {path} ({action})"
                assert answer.status_code in (401, 403), f"{where} answered {answer.status_code}"
                api = path.startswith("/api/")
                if api:
                    body = answer.json()
                    assert body["status"] == answer.status_code and body["error"], body
                if who == "retired organiser token":  # told why, in one line, on a page as under /api (T-230)
                    assert answer.status_code == 403, where
                    assert service.TOKEN_RETIRED in (body["error"] if api else answer.text), where
                    retired += 1
                refused += 1
        after = everything(db_url)
    for name in before:
        assert before[name] == after[name], f"a refusal changed {name}"
    assert refused > 400
    assert retired == len([r for r in routes if r[2].opt[ACTION] != service.PUBLIC]) > 80


def test_the_organiser_token_acts_on_every_route_until_the_first_organiser(db_url: str) -> None:
    """Before any organiser is named (a judge and a scorekeeper are not one), the token's session passes the guard of
    every route the organiser may take; the first organiser named retires that very session (T-230)."""
    make_event(db_url, ["ann", "bob", "cat", "dan"])
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)
        service.name_staff(session, "Jo Judge", "judge", "ev")
        service.name_staff(session, "Sam Keeper", "scorekeeper", None)
        secret = service.organiser_login(session, ORGANISER_TOKEN, "test")
    with client(db_url) as c:
        c.get("/")
        token = c.cookies.get("csrftoken") or ""
        # passkeys: the organiser's, but the token's session is no one's, with none to keep (the matrix's words)
        mine = [(m, p) for m, p, h in changing_routes(c.app) if h.opt[ACTION] not in (service.PUBLIC, "passkeys") and may("organiser token", h.opt[ACTION])]
        for method, path in mine:  # with an empty body: refused by the route for what it lacks, never by the guard
            answer = send(c, method, path, secret, token)
            assert answer.status_code not in (401, 403), f"{method} {path} answered {answer.status_code}: {answer.text[:300]}"
        named = c.post("/api/admin/staff", json={"name": "Olive Org", "role": "organiser"}, headers={"Authorization": f"Bearer {secret}"})
        assert named.status_code == 201, named.text
        answer = send(c, "POST", "/api/admin/events/{event_id:str}/notice", secret, token)
        assert answer.status_code == 403 and answer.json()["error"] == service.TOKEN_RETIRED
    assert len(mine) > 60


@pytest.mark.parametrize("action", sorted(service.MATRIX))
def test_the_readme_shows_the_matrix_as_enforced(action: str) -> None:
    roles, covers = service.MATRIX[action]
    section = README.read_text().split("### Staff and roles", 1)[1].split("\n### ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith(f"| `{action}` |")]
    assert len(rows) == 1, f"the README's matrix has a row for {action}"
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    columns = ["nobody", *service.ROLES]
    assert cells[1 : 1 + len(columns)] == ["yes" if r in roles else "" for r in columns], action
    assert cells[-1] == covers
