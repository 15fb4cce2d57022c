"""Who may do what (issue 35): the permission matrix, roles x actions, in one table (T-175).

Every state-changing route of `tournament serve` names one action of `MATRIX` (web/guard.py refuses a route
that names none, at start-up), and `check` is the one place that says yes or no: 401 to nobody signed in,
403 to a role the action is not for or to a staff member of another event. What a role may then do to
which player or table (a player claims only at their own table) the service checks as before.
tournament/README.md ("Staff and roles") shows this table; a test keeps the two the same.
"""

from __future__ import annotations

from tournament.service.errors import TournamentError
from tournament.service.tokens import RETIRED, Identity, TokenRetired

# Staff roles, most to least (the organiser token's session is an `organiser` too, one with no staff id, until the
# server has an organiser of its own: then it is `tokens.RETIRED`, a role no action of the matrix names, T-230).
STAFF_ROLES = ("organiser", "head-judge", "judge", "scorekeeper")
ROLES = (*STAFF_ROLES, "player", "person")  # a person: signed in by their player card (T-181), of no one event
ROLE_NAMES = {
    "organiser": "organiser", "head-judge": "head judge", "judge": "judge", "scorekeeper": "scorekeeper", "player": "player",
    "person": "person signed in by their player card",
}
PUBLIC = "public"  # an action anyone may take, signed in or not (sign in, register for an open event)

# action -> the roles that may take it, and what it covers (the README's table is made of these lines)
MATRIX: dict[str, tuple[frozenset[str], str]] = {
    PUBLIC: (frozenset((*ROLES, "nobody")), "sign in or out; register for an open event (a desk's walk-ins too); confirm or stop messages by the link in one"),
    "play": (frozenset(("player",)), "claim, confirm or dispute your table's result, call a judge, your deck list, drop or check in yourself"),
    "appeal": (frozenset(("player",)), "appeal a judge's ruling on your table to the head judge"),
    "table": (frozenset(("player", "organiser", "head-judge", "judge")), "record at a live table: a player for their seat; staff watch it in the judge's view and record as the judge"),
    "view": (frozenset(STAFF_ROLES), "read the organiser's pages of an event (tables, queue, calls, registration, decks)"),
    "rule": (frozenset(("organiser", "head-judge", "judge")), "rule on a table, correct a result, rule on decks, answer a call, extend time, swap seats"),
    "appeal-rule": (frozenset(("organiser", "head-judge")), "decide an appeal: uphold the ruling or overturn it with a new result"),
    "players": (frozenset(("organiser", "head-judge", "scorekeeper")), "register, rename, pause, drop players, byes, sign-in codes, check-in, registration, desks, deck lists"),
    "results": (frozenset(("organiser", "head-judge", "scorekeeper")), "enter a round's results from the slips"),
    "rounds": (frozenset(("organiser", "head-judge", "scorekeeper")), "pair, unpair, re-pair, start the clock, the top cut, finish, the big screen's notice"),
    "decks": (frozenset(("organiser", "head-judge")), "the deck deadline's policy, publishing the lists, seating a bot at a table"),
    "events": (frozenset(("organiser",)), "create an event"),
    "staff": (frozenset(("organiser",)), "name staff, give them a new sign-in code, revoke them"),
    "self": (frozenset(("person", "player")), "make (a player: the first) or renew your player card; a person: register in one tap, claim an entry, subscribe to or stop messages for every entry"),
    "people": (frozenset(("organiser",)), "link, merge and split people, each with a reason; print a person's player card"),
    "passkeys": (frozenset((*STAFF_ROLES, "person")), "add or remove your own passkeys (the organiser token's session has none to keep)"),
}


class NotSignedIn(TournamentError):
    status = 401


class Forbidden(TournamentError):
    status = 403


def allowed(who: Identity | None, action: str, event_id: str | None) -> bool:
    """Whether `who` (None: nobody signed in) may take `action`, on `event_id` when the route names an event."""
    roles, _ = MATRIX[action]
    if who is None:
        return "nobody" in roles
    if who.role not in roles:
        return False
    if action == PUBLIC or who.role in ("player", "person"):  # their own event (a player's session names it), or themselves
        return True
    # a staff member of one event acts on that event only, and on nothing of the whole server's
    return who.event_id is None or who.event_id == event_id


def check(who: Identity | None, action: str, event_id: str | None) -> None:
    """`allowed`, or the refusal: NotSignedIn (401) or Forbidden (403), in words for the one refused."""
    if allowed(who, action, event_id):
        return
    roles, _ = MATRIX[action]
    if who is None:
        raise NotSignedIn("sign in first: with the code on your slip, your staff code, or the organiser token")
    if who.role == RETIRED:
        raise TokenRetired
    if who.role not in roles:
        names = " or ".join(ROLE_NAMES[r] for r in ROLES if r in roles)
        raise Forbidden(f"this is for the {names}, not a {ROLE_NAMES.get(who.role, who.role)}")
    raise Forbidden("you are staff of another event, not this one")
