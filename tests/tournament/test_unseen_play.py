"""Issue 37: a card drawn unnamed at a paper table is played from the recorder's offers (T-245).

A seat holding unknown cards is offered, beside the game's `legal`, the records that play, discard or show a card
still unseen for it (`TableView.unseen`); a game whose every draw is recorded unnamed is played to its end from
those offers alone, through the service, for each of the five games at each of its player counts (the CI run
keeps one table of each game; the rest run with -m slow). Another seat's view never holds the unseen list, on
SQLite and PostgreSQL.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from referee import unseen
from referee.logio import HEADER_DECODER, record_decoder, setup_decoder
from referee.ruleset import CHANCE, JUDGE
from referee.rulesets import get as get_ruleset
from schemas.table import TableView
from tests.tournament.tablelib import live_event, look
from tournament.output import recorder
from tournament.service import livetable, witness
from tournament.storage.models import LiveGame

MOST_RECORDS = 3000
# Each game at two players in CI (3 to 17 s each); the other player counts with -m slow.
SAMPLE = [("cardwars", 2), ("maginot", 2), ("crossover", 2), ("basictcg-mtg", 2), ("stccg-multiplayer", 2)]
EVERY = [(r, n) for r, counts in (("cardwars", (2,)), ("maginot", range(2, 7)), ("crossover", range(2, 7)),
                                   ("basictcg-mtg", range(2, 5)), ("stccg-multiplayer", range(2, 7)))
         for n in counts if (r, n) not in SAMPLE]


class Mirror:
    """The game as the test's players know it (the whole state, as the judge's), kept by applying each record
    written, and the cards each player holds physically of those they drew unnamed (`secret`): a player draws
    a card still in their deck, names it only where the game reads it at once (`Ruleset.unname`), and plays
    from the unseen offers only a card they hold."""

    def __init__(self, engine: Engine) -> None:
        with Session(engine) as session:
            game = session.get(LiveGame, ("ev", 1, 1, 1))
            assert game is not None
            header = HEADER_DECODER.decode(livetable.lines_of(session, game)[0])
        self.ruleset = get_ruleset(header.ruleset)
        self.state = self.ruleset.start(header, setup_decoder(header.ruleset).decode(header.setup))
        self.decode = record_decoder(header.ruleset).decode
        self.secret: dict[str, Counter[str]] = {p: Counter() for p in header.players}

    def record(self, data: dict[str, Any]) -> Any:
        return self.decode(msgspec.json.encode(data))

    def in_deck(self, player: str, card: str) -> bool:
        """Whether `card` is still physically in `player`'s deck: unseen, and not one they drew unnamed."""
        deck, _ = self.state.unseen.spec.zones(self.state, player) if hasattr(self.state, "unseen") else (None, None)
        if deck is None:
            return True
        copies = deck.get(card, 0) if isinstance(deck, dict) else int(card in deck)
        return copies > self.secret[player][card]

    def apply(self, data: dict[str, Any], card: str | None = None) -> None:
        """Apply a record; `card`, the card drawn unnamed or played from the unseen offers."""
        self.ruleset.apply(self.state, self.record(data))
        if card is not None and data.get("by") == CHANCE:
            self.secret[data["player"]][card] += 1
        elif card is not None:
            # a card they do not hold, played where the referee counts an unknown card as one that allows a play
            # (UD-R2): the bot had drawn that one instead of one it holds
            held = self.secret[data["by"]]
            held[card if held[card] else next(c for c in sorted(held) if held[c])] -= 1
        for player in self.secret:  # UD-R1: a deck run out shows its unknown cards, known from then on
            if not unseen.unknown(self.state, player):
                self.secret[player].clear()


def choose(view: TableView, mirror: Mirror, rng: random.Random) -> tuple[dict[str, Any], str | None, bool]:
    """A player at a paper table who records every draw unnamed where the game allows it (the card physically
    drawn picked at random among the named draws of cards still in the deck), and plays a card they drew
    unnamed from the offers made for it whenever they have one; never a concession. The record, the
    card it draws unnamed or plays from the unseen offers, and whether it came from those offers."""
    draws = [r for r in view.legal if r.get("by") == CHANCE and "card" in r and mirror.in_deck(r["player"], r["card"])]
    if draws:
        drawn = rng.choice(draws)
        kept = msgspec.to_builtins(mirror.ruleset.unname(mirror.state, mirror.record(drawn)))
        return kept, (drawn["card"] if "card" not in kept else None), False
    held = [e for e in view.unseen if mirror.secret[e["record"]["by"]][e["card"]] > 0]
    own = [r for r in view.legal if r.get("type") != "concede" and r.get("by") != CHANCE]
    if held or (view.unseen and not own):
        entry = rng.choice(held or view.unseen)
        return entry["record"], entry["card"], True
    assert own, f"{view.seat} has nothing to record but a concession"
    return rng.choice(own), None, False


def play(engine: Engine, seed: int) -> dict[str, int]:
    """The table's game, every draw unnamed, each record one its seat's view offers, to the game's own end; every
    player confirms it. How many records were made with a card drawn unnamed, offers seen, and draws left unnamed."""
    rng = random.Random(seed)
    look(engine, JUDGE)
    mirror = Mirror(engine)
    players = list(mirror.secret)
    counted = {"played": 0, "offered": 0}
    for step in range(MOST_RECORDS):
        if mirror.ruleset.result(mirror.state) is not None:
            break
        if mirror.ruleset.turn_limit(mirror.state):  # bots that play at random may never end: the judge calls time
            judged = look(engine, JUDGE)
            with Session(engine) as session, session.begin():
                livetable.append(session, "ev", 1, JUDGE, next(r for r in judged.legal if r["type"] == "time"), judged.seq)
            mirror.apply({"type": "time", "by": JUDGE})
            continue
        to_act = mirror.ruleset.to_act(mirror.state)
        actors = [p for p in players if p in to_act] or players  # chance: the drawer records
        views = {p: look(engine, p) for p in (players if step % 10 == 0 else actors)}
        for seat, view in views.items():
            _own_unseen(view, mirror)
            counted["offered"] += bool(view.unseen)
            if unseen.unknown(mirror.state, seat) and seat in to_act and unseen.playable(mirror.ruleset, mirror.state, seat):
                assert view.unseen, f"{seat} holds unknown cards and could play one, but is offered none"
        able = [views[p] for p in actors if views[p].legal or views[p].unseen]
        assert able, f"nobody can act: {to_act}"
        view = rng.choice(able)
        record, card, from_unseen = choose(view, mirror, rng)
        with Session(engine) as session, session.begin():
            livetable.append(session, "ev", 1, view.seat, record, view.seq)
        mirror.apply(record, card)
        counted["played"] += from_unseen
    else:
        pytest.fail(f"no end after {MOST_RECORDS} records")
    final = look(engine, JUDGE)
    assert final.over and not final.unseen
    assert final.result is not None and final.result["reason"] not in ("concede", "game_loss"), final.result
    with Session(engine) as session, session.begin():
        for player in final.players:
            witness.confirm(session, "ev", 1, player, final.game, final.seq)
    counted["unnamed"] = unseen.unnamed_draws(mirror.state)
    return counted


def _own_unseen(view: TableView, mirror: Mirror) -> None:
    """Every unseen offer on a seat's view is its own record, with one of its own cards still unseen by the log."""
    for entry in view.unseen:
        assert entry["record"]["by"] == view.seat, entry
        deck, hand = mirror.state.unseen.spec.zones(mirror.state, view.seat)
        assert entry["card"] in deck and entry["card"] not in hand, entry


def _finish(db: str, ruleset: str, players: int, *, played: bool = True) -> None:
    """A game at `players` with every draw unnamed played from the offers to its end; with `played`, some card
    drawn unnamed was played from them (crossover names most draws, UD-3: a long game may offer none)."""
    engine = live_event(db, mode="paper", ruleset=ruleset, players=players, pods=players > 2)
    try:
        counted = play(engine, seed=11 * players)
        assert counted["unnamed"] > 0, counted
        assert not played or (counted["offered"] > 0 and counted["played"] > 0), counted
        final = look(engine, JUDGE)
        assert final.reported, "the table's log, with its unnamed draws, is its result"
    finally:
        engine.dispose()


@pytest.mark.parametrize(("ruleset", "players"), SAMPLE)
def test_a_game_recorded_with_every_draw_unnamed_is_played_from_the_offers(db: str, ruleset: str, players: int) -> None:
    _finish(db, ruleset, players)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), EVERY)
def test_every_player_count_plays_its_unnamed_cards_from_the_offers(db: str, ruleset: str, players: int) -> None:
    """Every offer a seat needed was there (`play` checks each step); a card played from them where one came."""
    _finish(db, ruleset, players, played=ruleset != "crossover")


def test_another_seats_view_never_holds_the_unseen_list(db_url: str) -> None:
    """While ann holds unknown cards and is offered their records, bob's view, a spectator's and the judge's hold
    no unseen list, none of ann's unseen cards, and bob's panel no button of them."""
    engine = live_event(db_url, mode="paper", ruleset="cardwars")
    try:
        rng = random.Random(4)
        look(engine, JUDGE)
        mirror = Mirror(engine)
        checked = 0
        for _ in range(400):
            judged = look(engine, JUDGE)
            if judged.over or checked >= 3:
                break
            views = {p: look(engine, p) for p in judged.players}
            for seat, view in views.items():
                if not view.unseen:
                    continue
                cards = {e["card"] for e in view.unseen}
                for other in [look(engine, None), judged, *(v for p, v in views.items() if p != seat)]:
                    assert other.unseen == []
                    sent = msgspec.json.encode(other).decode()  # the judge sees every deck, the others none of ann's
                    assert other.seat == JUDGE or not [c for c in cards if f'"{c}"' in sent], f"{seat}'s unseen cards in {other.seat}'s view"
                    shown = recorder.screens(other.legal, {}, mirror.ruleset, other.records, (str(other.seat),), other.unseen)
                    assert not any(recorder.FROM_HAND in c.label for s in shown for c in s.choices) and not any(s.hands for s in shown)
                mine = recorder.screens(view.legal, {}, mirror.ruleset, view.records, (seat,), view.unseen)
                assert any(recorder.FROM_HAND in h.label for h in mine[0].hands)  # cardwars labels its cards short: a row (T-248)
                checked += 1
            actors = [p for p in judged.players if p in judged.to_act] or judged.players
            view = rng.choice([views[p] for p in actors if views[p].legal or views[p].unseen])
            record, card, _ = choose(view, mirror, rng)
            with Session(engine) as session, session.begin():
                livetable.append(session, "ev", 1, view.seat, record, view.seq)
            mirror.apply(record, card)
        assert checked >= 3, "ann or bob held unknown cards with records to make"
    finally:
        engine.dispose()


def test_the_keepers_page_is_offered_each_seats_unseen_records_under_its_name(db: str) -> None:
    """T-200's device records for every seat: its offers carry the acting seat's unseen records, its button the name."""
    engine = live_event(db, mode="paper", ruleset="cardwars")
    try:
        rng = random.Random(2)
        look(engine, JUDGE)
        with Session(engine) as session, session.begin():
            livetable.append(session, "ev", 1, JUDGE, {"type": "keeper", "by": JUDGE, "device": "ann"}, look(engine, JUDGE).seq)
        mirror = Mirror(engine)  # the keeper record is the table's, not the game's: the game's state has none
        for _ in range(200):
            view = look(engine, "ann")
            if view.over:
                break
            acting = [p for p in view.to_act if p != CHANCE]
            if view.unseen and acting == ["bob"]:
                assert {e["record"]["by"] for e in view.unseen} == {"bob"}
                shown = recorder.screens(view.legal, {"bob": "Bob Brown"}, mirror.ruleset, view.records, tuple(view.players), view.unseen)
                assert any(h.label.endswith("(Bob Brown)") and recorder.FROM_HAND in h.label for h in shown[0].hands)
                assert look(engine, "bob").unseen == []  # the keeper's page records for bob now, not bob's
                return
            record, card, _ = choose(view, mirror, rng)
            with Session(engine) as session, session.begin():
                livetable.append(session, "ev", 1, "ann", record, view.seq)
            mirror.apply(record, card)
        pytest.fail("bob never held unknown cards with records to make")
    finally:
        engine.dispose()

