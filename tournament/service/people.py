"""Players as people: display names, ids derived from them, and registering many at once.

A player's id is what game logs and joins use (`[A-Za-z0-9_.-]{1,64}`); their
display name is what people read, any Unicode up to 100 characters. When no
id is given, one is derived from the name: accents folded, lower case, words
joined by `-` ("José Ramírez" is `jose-ramirez`), and `-2`, `-3`, ... added
when it is taken.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.ruleset import CHANCE, JUDGE
from tournament.output.render import FOLDED
from tournament.service.errors import Usage
from tournament.service.queries import ID_PATTERN
from tournament.storage.models import DISPLAY_NAME, Player, Waiting

RESERVED = frozenset((CHANCE, JUDGE))  # ids the referee's logs use for themselves
ID_ROOM = 58  # a derived id leaves room for a "-NNNNN" suffix within 64 characters


@dataclass(frozen=True)
class Person:
    """Someone to register: a display name, and optionally an id and a rating (higher is stronger);
    who they are across events: an existing `person` (their id), or an `external_id` (T-90)."""

    name: str
    id: str | None = None
    rating: int | None = None
    where: str = ""  # where it was read ("players.csv line 4"), to name in errors
    person: str | None = None
    external_id: str | None = None


CSV_COLUMNS = ("name", "id", "rating", "person", "external_id")


def csv_rows(text: str, source: str) -> Iterator[tuple[int, list[str]]]:
    """A CSV file's non-blank rows, cells trimmed, with their line numbers; Usage names a line csv cannot read."""
    rows = csv.reader(io.StringIO(text))
    try:
        for row in rows:
            cells = [c.strip() for c in row]
            if any(cells):
                yield rows.line_num, cells
    except csv.Error as exc:  # a field over csv's size limit, a stray NUL
        raise Usage(f"{source} line {rows.line_num}: {exc}") from None


def people_from_csv(text: str, source: str) -> list[Person]:
    """The people of a CSV file with a header row: `name`, optional `id` and `rating`; Usage names a bad line and field."""
    rows = csv_rows(text, source)
    first, cells = next(rows, (1, []))
    header = [h.lower() for h in cells]
    if "name" not in header and "person" not in header:
        raise Usage(
            f"{source} line {first}: the header must name a `name` or `person` column (and optionally `id`, `rating`, "
            "`external_id`)"
        )
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if unknown or len(set(header)) != len(header):
        raise Usage(
            f"{source} line {first}: columns are name, id and rating (higher is stronger), person and external_id (who they "
            f"are across events), each once; not {', '.join(unknown) or 'repeats'} (a bracket's exact seeds: `tournament seed`)"
        )
    people: list[Person] = []
    named: dict[str, list[tuple[int, Person]]] = {}
    for line, row in rows:
        if len(row) != len(header):
            raise Usage(f"{source} line {line}: {len(row)} fields, the header has {len(header)}")
        fields = dict(zip(header, row, strict=True))
        where = f"{source} line {line}"
        rating = fields.get("rating") or None
        if rating is not None and not re.fullmatch(r"-?\d{1,9}", rating):
            raise Usage(f"{where}, field rating: {rating!r} is not a whole number")
        person = Person(
            fields.get("name", ""), fields.get("id") or None, int(rating) if rating else None, where,
            fields.get("person") or None, fields.get("external_id") or None,
        )
        # T-71: a name twice in one file is one person typed twice unless ids tell the two apart
        same = named.setdefault(unicodedata.normalize("NFC", person.name).casefold(), []) if person.name else []
        if same and (person.id is None or any(other.id is None for _, other in same)):
            raise Usage(
                f"{where}, field name: {person.name!r} is on line {same[0][0]} too; "
                "give each of them an id to register two people of one name"
            )
        same.append((line, person))
        people.append(person)
    if not people:
        raise Usage(f"{source}: no players after the header on line {first}")
    return people


def clean_name(name: str) -> str:
    """A display name as stored: NFC, trimmed, 1 to 100 characters, no control characters; Usage otherwise."""
    text = unicodedata.normalize("NFC", name).strip()
    if not text:
        raise Usage("a display name cannot be empty")
    if len(text) > DISPLAY_NAME:
        raise Usage(f"display name {text[:20]!r}... is {len(text)} characters; at most {DISPLAY_NAME}")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in text):
        raise Usage(f"display name {text!r} contains a control character")
    return text


def slug(name: str) -> str:
    """The id a display name suggests: "Anne-Marie O'Neil" -> `anne-marie-oneil`; "player" if nothing is left."""
    folded = unicodedata.normalize("NFKD", name.lower().translate(FOLDED))
    ascii_only = "".join(c for c in folded if not unicodedata.combining(c)).encode("ascii", "ignore").decode()
    ascii_only = re.sub(r"['’`]", "", ascii_only)  # O'Neil is oneil, not o-neil
    words = re.sub(r"[^a-z0-9]+", "-", ascii_only).strip("-")
    return words[:ID_ROOM].rstrip("-") or "player"


def unique_ids(wanted: Iterable[str], taken: set[str]) -> list[str]:
    """Each wanted id, or the first of `id-2`, `id-3`, ... not in `taken` (which grows as ids are handed out)."""
    given = []
    for base in wanted:
        candidate, n = base, 1
        while candidate in taken or candidate in RESERVED:
            n += 1
            candidate = f"{base}-{n}"
        taken.add(candidate)
        given.append(candidate)
    return given


def taken_ids(session: Session, event_id: str) -> set[str]:
    """The event's player ids, and those its waitlist keeps for the people on it."""
    waiting = select(Waiting.player).filter_by(event_id=event_id)
    return set(session.scalars(select(Player.name).filter_by(event_id=event_id).union(waiting)))


def people_from_args(names: Sequence[str]) -> list[Person]:
    """`register EVENT NAME...`: an argument that is already an id (`ann`, `P01`) keeps it; others get one derived."""
    return [Person(n, n if ID_PATTERN.fullmatch(n) and n not in RESERVED else None) for n in names]
