"""An event day in every state a page can show, for the browser tests of the design (CSP, axe, screenshots).

One SQLite database holds four events: a Swiss event in round 2 (a claim
waiting for its confirmation, a disputed table, a reported one, an open one,
a bye, the clock running), a double elimination with the same name (so the
events list must tell them apart), a pods event with its deck lists
published, and an event before round 1 with public registration full, a
waitlist and lists legal, illegal and missing. `PAGES` lists each page
to visit with who is looking.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from tests.tournament.decklib import deck_of, list_text
from tests.tournament.webkit import ORGANISER_TOKEN, database
from tournament import service

PEOPLE = [
    "Hiroshi Tanaka", "Amara Okafor", "Lena Fischer", "Mateo García", "Priya Raman", "Sven Lindqvist",
    "Chloé Dubois", "Kwame Mensah", "Yuki Sato",
]
PODS = ["Ines Moreau", "Tomasz Nowak", "Aiko Yamada", "Ravi Patel", "Olga Ivanova", "Jonas Berg", "Fatima Zahra"]


def ids(names: list[str]) -> list[str]:
    return [n.split()[0].lower().replace("é", "e") for n in names]


@dataclass(frozen=True)
class Tour:
    """The event day: sign-in codes of the players whose /me pages are visited, by what they show."""

    codes: dict[str, str]  # waiting (must confirm), claimed (waiting for the other), disputed, done, bye, pod, waitlist


@dataclass(frozen=True)
class Visit:
    name: str  # the screenshot's file name
    who: str  # public, organiser, or a key of Tour.codes
    path: str


PAGES = [
    Visit("events", "public", "/"),
    Visit("round", "public", "/e/spring"),
    Visit("round-by-name", "public", "/e/spring?by=name"),
    Visit("find-seat", "public", "/e/spring?q=tana"),
    Visit("round-1", "public", "/e/spring/round/1"),
    Visit("standings", "public", "/e/spring/standings"),
    Visit("standings-find", "public", "/e/spring/standings?q=tanaka"),
    Visit("double-round", "public", "/e/spring-de"),
    Visit("double-bracket", "public", "/e/spring-de/bracket"),
    Visit("double-standings", "public", "/e/spring-de/standings"),
    Visit("pods-round", "public", "/e/pods"),
    Visit("pods", "public", "/e/pods/pods"),
    Visit("people", "public", "/people"),
    Visit("person", "public", "/people/hiroshi"),
    Visit("ratings", "public", "/ratings"),
    Visit("join", "public", "/join"),
    Visit("admin-login", "public", "/admin"),
    Visit("not-found", "public", "/e/nope"),
    Visit("me-confirm", "waiting", "/me"),
    Visit("me-claimed", "claimed", "/me"),
    Visit("me-disputed", "disputed", "/me"),
    Visit("me-done", "done", "/me"),
    Visit("me-bye", "bye", "/me"),
    Visit("me-pod", "pod", "/me"),
    Visit("admin", "organiser", "/admin"),
    Visit("admin-event", "organiser", "/admin/e/spring"),
    Visit("admin-drop", "organiser", "/admin/e/spring/drop?player=hiroshi"),
    Visit("admin-double", "organiser", "/admin/e/spring-de"),
    Visit("admin-pods", "organiser", "/admin/e/pods"),
    Visit("decks", "public", "/e/pods/decks"),
    Visit("deck", "public", "/e/pods/decks/ines"),
    Visit("meta", "public", "/e/pods/meta"),
    Visit("admin-decks-published", "organiser", "/admin/e/pods/decks"),
    Visit("register", "public", "/e/summer/register"),
    Visit("me-waitlist", "waitlist", "/me"),
    Visit("admin-registration", "organiser", "/admin/e/summer/registration"),
    Visit("admin-decks", "organiser", "/admin/e/summer/decks"),
]


def build(db_url: str) -> Tour:
    """The three events, as the service would leave them after a morning of play."""
    with database(db_url) as engine, Session(engine) as s, s.begin():
        service.ensure_organiser(s, ORGANISER_TOKEN)
        service.create_event(s, "spring", name="Spring Open", ruleset="cardwars", profile="mtg", best_of=3, seed=7, rated=True)
        service.register_people(s, "spring", [service.Person(n, i) for n, i in zip(PEOPLE, ids(PEOPLE), strict=True)])
        service.pair(s, "spring")
        for m in service.matches(s, "spring", 1):
            service.report(s, "spring", m.number, result=service.Tally({m.player_a: 2, m.player_b: m.number % 2}))
        service.pair(s, "spring")
        service.start_round(s, "spring", 50)
        tables = [(m.player_a, m.player_b) for m in service.matches(s, "spring", 2)]
        (a1, b1), (a2, b2), (a3, b3), _open = tables
        service.claim(s, "spring", a1, result=service.Tally({a1: 2, b1: 1}))
        service.claim(s, "spring", a2, result=service.Tally({a2: 2, b2: 0}))
        service.claim(s, "spring", b2, result=service.Tally({a2: 1, b2: 1}, draws=1))
        service.claim(s, "spring", a3, result=service.Tally({a3: 1, b3: 1}))
        service.confirm(s, "spring", b3, a3)
        service.extend(s, "spring", 4, 5, "judge call")
        bye = service.get_event(s, "spring")
        resting = next(r.bye for r in service.rounds(s, "spring") if r.number == bye.rounds)
        assert resting is not None

        service.create_event(s, "spring-de", name="Spring Open", ruleset="cardwars", profile="mtg", best_of=1, seed=3, format="double")
        service.register_people(s, "spring-de", [service.Person(n, i) for n, i in zip(PEOPLE[:8], ids(PEOPLE[:8]), strict=True)])
        for _ in range(3):
            service.pair(s, "spring-de")
            number = service.get_event(s, "spring-de").rounds
            for m in service.matches(s, "spring-de", number):
                service.report(s, "spring-de", m.number, result=service.Tally({m.player_a: 1, m.player_b: 0}))
        service.pair(s, "spring-de")

        service.create_event(s, "pods", name="Friday Pods", ruleset="crossover", profile="mtg", best_of=1, seed=2, format="pods", rated=True)
        service.register_people(s, "pods", [service.Person(n, i) for n, i in zip(PODS, ids(PODS), strict=True)])
        service.register_lists(s, "pods", [service.Submitted(p, p, list_text(deck_of(p)).encode()) for p in ids(PODS)])
        service.publish(s, "pods")
        service.pair(s, "pods")
        pod, seats = service.pod_tables(s, "pods", 1)[0]
        service.claim(s, "pods", seats[0].player, places={p.player: k for k, p in enumerate(seats, start=1)})

        # Public registration before round 1: full, one on the waitlist; a legal list, an illegal one, and none.
        service.create_event(s, "summer", name="Summer Cup", ruleset="crossover", profile="mtg", best_of=1, seed=5,
                             open_registration=True, cap=3)
        signed = [service.sign_up(s, "summer", n).player for n in PEOPLE[:4]]
        service.register_lists(s, "summer", [service.Submitted(signed[0], signed[0], list_text(deck_of(signed[0])).encode()),
                                             service.Submitted(signed[1], signed[1], list_text(deck_of(signed[1])).replace("game: ", "game: x").encode())])
        waiting, _secret = service.enrol(s, "summer", signed[3])

        code = {
            "waiting": service.issue_code(s, "spring", b1), "claimed": service.issue_code(s, "spring", a1),
            "disputed": service.issue_code(s, "spring", b2), "done": service.issue_code(s, "spring", a3),
            "bye": service.issue_code(s, "spring", resting), "pod": service.issue_code(s, "pods", seats[1].player),
            "waitlist": waiting,
        }
        assert pod.number == 1
    return Tour(code)
