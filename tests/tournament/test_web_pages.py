"""What players and organisers read on `tournament serve` (issue 22, "What players and organisers see"),
through Litestar's test client: names and scores in words, tables a phone can hold, the words of each state."""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from tests.tournament.webkit import client, database, make_event
from tournament import service


def cells(html: str, table_class: str) -> list[list[str]]:
    """The text of each body row of the first `<table class=table_class>`, tags stripped."""
    table = html.split(f'<table class="{table_class}"', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    return [
        [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def test_pods_are_a_table_with_seats_and_places(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat", "dan", "eve", "fay"], format="pods", table_size=3, ruleset="crossover",
               display={"ann": "Ann Lee"})
    with database(db_url) as engine, Session(engine) as s, s.begin():
        _pod, seats = service.pod_tables(s, "ev", 1)[0]
        service.claim(s, "ev", seats[0].player, places={p.player: k for k, p in enumerate(reversed(seats), start=1)})
        for other in seats[1:]:
            service.confirm(s, "ev", other.player, seats[0].player)
        seated = [service.display_names(s, "ev")[p.player] for p in seats]
    with client(db_url) as c:
        page = c.get("/e/ev/pods").text
    assert "<pre" not in page
    first = cells(page, "pods")[0]
    assert first[0] == "1" and first[1] == " ".join(seated) and first[2] == " ".join(reversed(seated))
    assert cells(page, "pods")[1][2] == "not reported"
