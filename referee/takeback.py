"""Take-backs and the keeper: records the referee's core judges for every game (docs/referee.md, TB-R1 to TB-R4, KP-1).

A mistaken record is never edited: a player asks to take back their own last
record (`take_back`), the next seat agrees (`agree_take_back`), or the judge
withdraws any record with a reason (`withdraw`). The game is then judged as if
the withdrawn record had not been made. The engine streams and keeps no earlier
state, so a withdrawal rewinds: the log is judged again from its first line,
the withdrawn records read, chained and checked as records but not applied
(`skip`), and every take-back record judged again exactly as the first time.
A withdrawal is rare; a log without one costs one search of each batch.

`keeper` (by the judge) names the device that records for every seat from there
on (tournament/README.md, "Tables"): no game reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.ruleset import CHANCE, JUDGE, Illegal, Ruleset
from schemas.log import AgreeTakeBack, Keeper, Record, Reveal, TakeBack, Withdraw

TAKE_BACKS = (TakeBack, AgreeTakeBack, Withdraw)
OWN = (*TAKE_BACKS, Keeper)  # judged here, never by the game


class Rewind(Exception):
    """A withdrawal: judge the log again from its start, the records of `skip` (seq -> the withdrawal's seq) not
    applied."""

    def __init__(self, skip: dict[int, int]) -> None:
        super().__init__(f"rewind without records {sorted(skip)}")
        self.skip = skip


def next_seat(players: list[str], player: str) -> str:
    """The seat after `player`, clockwise: the one who agrees to their take-back (TB-R2)."""
    return players[(players.index(player) + 1) % len(players)]


@dataclass
class TakeBacks:
    """What the take-back rules read as a log is judged: the last game records (all of one owner, the newest
    last), the take-back asked just before, the records withdrawn so far."""

    players: list[str]
    dealt: bool  # a dealt game: the seed's draws are nobody's to take back
    skip: dict[int, int] = field(default_factory=dict)  # withdrawn seq -> the seq withdrawing it, from a first pass
    run: list[tuple[int, str | None]] = field(default_factory=list)
    asked: tuple[int, str] | None = None  # (the record asked for, the asker), only right after the ask
    withdrawn: set[int] = field(default_factory=set)
    keeper: str | None = None  # the device that records for every seat (KP-1), as the last `keeper` named it

    def owner(self, record: Record) -> str | None:
        """Whose record it is to take back: its player's, or at an undealt table the player a draw was for."""
        if record.by == CHANCE:
            return None if self.dealt else getattr(record, "player", None)
        return record.by if record.by in self.players else None

    def note(self, record: Record) -> None:
        """A game record (applied or, on a second pass, skipped): it is now the last record."""
        self.asked = None
        who = self.owner(record)
        if self.run and self.run[-1][1] == who and who is not None:
            self.run.append((record.seq, who))
        else:
            self.run = [(record.seq, who)]

    def judge(self, record: Record, ruleset: Ruleset, state: Any) -> None:
        """Judge a take-back record or the keeper; Rewind when it withdraws a record not yet skipped. A record
        refused (Illegal) changes nothing."""
        asked = self.asked
        if type(record) is Keeper:
            if record.by != JUDGE:
                raise Illegal("KP-1", "only the judge names the device that records for every seat")
            self.asked, self.keeper = None, record.device
            return
        if ruleset.result(state) is not None:
            raise Illegal("TB-R1", "the game is over: nothing in it can be taken back")
        if type(record) is TakeBack:
            self._ask(record)
            return
        if type(record) is AgreeTakeBack:
            if asked is None or asked[0] != record.record:
                raise Illegal("TB-R2", f"no take-back of record {record.record} was asked just before this record")
            agreeing = next_seat(self.players, asked[1])
            if record.by != agreeing:
                raise Illegal("TB-R2", f"{asked[1]}'s take-back is agreed by the next seat, {agreeing}, not by {record.by}")
        else:
            assert type(record) is Withdraw
            if record.by != JUDGE:
                raise Illegal("TB-R3", "only the judge withdraws a record; a player asks for a take-back")
            if record.record >= record.seq or record.record in self.withdrawn:
                said = "was withdrawn already" if record.record in self.withdrawn else "is not an earlier record"
                raise Illegal("TB-R3", f"record {record.record} {said}")
        self._withdraw(record)

    def _ask(self, record: TakeBack) -> None:
        if record.by not in self.players:
            raise Illegal("TB-R1", "a take-back is asked by a player, for their own record")
        last = self.run[-1] if self.run else None
        if last is None or last[0] != record.record:
            raise Illegal("TB-R1", f"record {record.record} is not the last record: only the last one is taken back, "
                                   "before another seat records")
        if last[1] != record.by:
            raise Illegal("TB-R1", f"record {record.record} is not {record.by}'s own"
                                   + (" (a dealt card is the seed's)" if self.dealt else ""))
        self.asked = (record.record, record.by)

    def _withdraw(self, record: AgreeTakeBack | Withdraw) -> None:
        """The withdrawal of `record.record`: on a first pass a rewind; on the pass that skips it, the last
        records without it."""
        if record.record not in self.skip:
            raise Rewind({**self.skip, record.record: record.seq})
        self.asked = None
        self.withdrawn.add(record.record)
        self.run = [entry for entry in self.run if entry[0] != record.record]

    def offers(self, seat: str, ruleset: Ruleset, state: Any) -> list[Record]:
        """The take-back records `seat` may make now: ask for their own last record back, or agree to the
        take-back asked of them."""
        if ruleset.result(state) is not None or seat not in self.players:
            return []
        found: list[Record] = []
        if self.asked is not None and next_seat(self.players, self.asked[1]) == seat:
            found.append(AgreeTakeBack(by=seat, record=self.asked[0]))
        if self.run and self.run[-1][1] == seat and (self.asked is None or self.asked[1] != seat):
            found.append(TakeBack(by=seat, record=self.run[-1][0]))
        return found

    def skipped(self, record: Record) -> None:
        """A record withdrawn later in the log, read where it stands: it must be one that can be withdrawn."""
        if type(record) in OWN or type(record) is Reveal or (self.dealt and record.by == CHANCE):
            what = "a dealt card is the seed's" if record.by == CHANCE else f"a {type(record).__struct_config__.tag} record"
            raise Illegal("TB-R3", f"record {record.seq} cannot be withdrawn: {what}")
        self.note(record)


def blamed(skip: dict[int, int], seq: int, exc: Illegal) -> tuple[int, Illegal] | None:
    """A record judged illegal once an earlier one was withdrawn: the withdrawal is at fault, at its own seq."""
    found = [(withdrawn, at) for withdrawn, at in skip.items() if withdrawn <= seq < at]
    if not found:
        return None
    withdrawn, at = min(found, key=lambda pair: pair[1])
    if withdrawn == seq:
        return at, exc
    return at, Illegal("TB-R3", f"without record {withdrawn}, record {seq} breaks {exc.rule}: {exc.message}")
