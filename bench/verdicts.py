"""Verdict fingerprints: prove a speed-up changed no verdict, rule, message or record number.

For each game, bot games of every player count plus mutants of them: records
swapped, repeated, dropped or taken from elsewhere in the game, a field given
another value seen in the log, the wrong player, a truncated end (each re-chained
so the rules, not the hash chain, decide), and the byte-level mutations of
tests/mutations.py. Each log's whole verdict (kind, rule, message, seq, the
state and what was legal at the failure) is hashed. Save the fingerprints
before a change and check them after:

    python bench/verdicts.py --save /tmp/before.json
    python bench/verdicts.py --check /tmp/before.json
    python bench/verdicts.py --rulesets crossover --games 50 --save /tmp/xo.json
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.engine import judge
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids
from tests.mutations import MUTATORS, bot_log

_PLAIN = msgspec.json.Decoder()


def bot_games(ruleset_id: str, games: int) -> Iterator[tuple[str, list[bytes]]]:
    """Legal bot games (every player count in turn): a name and the lines."""
    ruleset = get_ruleset(ruleset_id)
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    for seed in range(games):
        yield f"{ruleset_id}/{seed}", bot_log(ruleset_id, seed, counts[seed % len(counts)]).splitlines()


def rechain(header: bytes, bodies: list[dict]) -> list[bytes]:
    """The header and records re-numbered and re-chained, so only the rules can object."""
    lines = [header]
    for seq, body in enumerate(bodies, start=1):
        body = dict(body, seq=seq, prev=hashlib.sha256(lines[-1]).hexdigest())
        lines.append(msgspec.json.encode(body))
    return lines


def _values(bodies: list[dict], key: str) -> list:
    return [b[key] for b in bodies if key in b]


def semantic(lines: list[bytes], players: list[str], rng: random.Random) -> tuple[str, list[bytes]]:
    """One rule-level mutant of a legal game: its kind and its re-chained lines."""
    bodies = [_PLAIN.decode(line) for line in lines[1:]]
    i = rng.randrange(len(bodies))
    kind = rng.choice(("swap", "repeat", "drop", "elsewhere", "field", "field", "field", "by", "truncate"))
    if kind == "swap":
        j = rng.randrange(len(bodies))
        bodies[i], bodies[j] = bodies[j], bodies[i]
    elif kind == "repeat":
        bodies.insert(i, bodies[i])
    elif kind == "drop":
        del bodies[i]
    elif kind == "elsewhere":
        bodies[i] = bodies[rng.randrange(len(bodies))]
    elif kind == "by":
        bodies[i] = dict(bodies[i], by=rng.choice([*players, "chance", "judge"]))
    elif kind == "truncate":
        bodies = bodies[:i]
    else:
        bodies[i] = perturbed(bodies[i], bodies, rng)
    return kind, rechain(lines[0], bodies)


def perturbed(body: dict, bodies: list[dict], rng: random.Random) -> dict:
    """`body` with one field given a nearby or borrowed value (same key elsewhere in the log)."""
    keys = [k for k in body if k not in ("seq", "prev", "type", "by")]
    if not keys:
        return dict(body, type=rng.choice(_values(bodies, "type")))
    key = rng.choice(keys)
    value = body[key]
    if isinstance(value, bool) or value is None:
        new = rng.choice(_values(bodies, key))
    elif isinstance(value, int):
        new = value + rng.choice((-2, -1, 1, 2, 10))
    elif isinstance(value, list) and value and rng.random() < 0.6:
        new = list(value)
        op = rng.randrange(3)
        if op == 0:
            del new[rng.randrange(len(new))]
        elif op == 1:
            new.append(rng.choice(new))
        else:
            rng.shuffle(new)
    else:
        new = rng.choice(_values(bodies, key))
    return dict(body, **{key: new})


def mutants(ruleset_id: str, games: int, per_game: int) -> Iterator[tuple[str, list[bytes]]]:
    """The legal games, then `per_game` rule-level and a few byte-level mutants of each."""
    for name, lines in bot_games(ruleset_id, games):
        yield name, lines
        players = _PLAIN.decode(lines[0])["players"]
        rng = random.Random(name)
        for k in range(per_game):
            kind, mutated = semantic(lines, players, rng)
            yield f"{name}/{k}:{kind}", mutated
        data = b"".join(line + b"\n" for line in lines)
        for k in range(max(1, per_game // 4)):
            mutator = rng.choice(sorted(MUTATORS))
            yield f"{name}/b{k}:{mutator}", MUTATORS[mutator](data, rng).splitlines(keepends=True)


def fingerprints(ruleset_ids: list[str], games: int, per_game: int) -> tuple[dict[str, str], collections.Counter[str]]:
    """Each log's name and the hash of its whole verdict; and how many logs got each kind of verdict."""
    out: dict[str, str] = {}
    kinds: collections.Counter[str] = collections.Counter()
    for ruleset_id in ruleset_ids:
        for name, lines in mutants(ruleset_id, games, per_game):
            try:
                verdict = judge(lines).verdict
            except Exception as exc:  # a traceback is a finding too: record it rather than stop
                kinds[f"{ruleset_id} TRACEBACK"] += 1
                out[name] = f"{type(exc).__name__}: {exc}"
                print(f"  traceback: {name}: {out[name]}", file=sys.stderr)
                continue
            kinds[f"{ruleset_id} {verdict.verdict}"] += 1
            out[name] = hashlib.sha256(msgspec.json.encode(verdict)).hexdigest()[:16]
    return out, kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", nargs="*", default=list(ids()), help="default: every game")
    parser.add_argument("--games", type=int, default=60, help="bot games per ruleset")
    parser.add_argument("--mutants", type=int, default=20, help="rule-level mutants per game")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path)
    group.add_argument("--check", type=Path)
    args = parser.parse_args()
    found, kinds = fingerprints(args.rulesets, args.games, args.mutants)
    print(f"{len(found)} logs: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    if args.save:
        args.save.write_text(json.dumps(found, indent=0))
        return 0
    saved = json.loads(args.check.read_text())
    differ = [name for name in found if saved.get(name) != found[name]]
    missing = [name for name in saved if name not in found and name.split("/")[0] in args.rulesets]
    for name in differ[:20]:
        print(f"  differs: {name}")
    print(f"{len(differ)} verdicts differ, {len(missing)} logs missing")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
