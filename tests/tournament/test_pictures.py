"""Pictures people read: terminal tables at 80 columns, HTML headings and numbers, bracket drawings and places,
and every page looked at in a real headless Chromium (not blank, no name outside its box)."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from schemas.tournament import BracketInfo, BracketPair, BracketRound, EventInfo, StandingRow
from tests.tournament.tlib import cli, cli_json
from tournament.output import pictures, render

LONG = "Bartholomew Featherstonehaugh-Cholmondeley of Little Snoring"
NAMES = ["Anna Lee", LONG, "李小龙", "Zoë 🦊 Fox", "WWWWWWWWWWWWWW", "Cat", "Dmitri Ivanovich", "山田太郎🎴"]


def rich_text(title: str, header: list[str], cells: list[list[str]], width: int) -> str:
    console = Console(file=io.StringIO(), width=width, record=True)
    console.print(render.to_rich(title, header, cells, width=width))
    return console.export_text()


def chess_rows() -> list[StandingRow]:
    tiebreakers = {"buchholz": 10.5, "buchholz_cut1": 8.5, "sonneborn_berger": 7.25}
    return [
        StandingRow(k, f"p{k}", 4.5 - k / 2, 9.0, 10 + k, 11 + k, 12 + k, 1, dict(tiebreakers), k == 3, name)
        for k, name in enumerate([LONG, "Ann", "山田太郎🎴", "Bo"], start=1)
    ]


def test_terminal_standings_keep_every_number_at_80_columns() -> None:
    """Chess profile, a long name: rank, points, W, L and D whole in every row; left-out columns named."""
    header, cells = render.standing_cells(chess_rows())
    text = rich_text("standings", header, cells, 80)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    shown, kept, dropped = render.fit(header, cells, 80)
    for row in kept:  # a row's first line holds every number whole (names may fold onto the next lines)
        line = next(line for line in text.splitlines() if line.startswith(f"│ {row[0]} "))
        printed = [cell.strip() for cell in line.split("│")[1:-1]]
        assert [printed[k] for k, h in enumerate(shown) if h not in render.TEXT_COLUMNS] == [
            row[k] for k, h in enumerate(shown) if h not in render.TEXT_COLUMNS
        ]
    assert "not shown at 80 columns:" in text
    assert {"rank", "player", "points", "wins", "losses", "draws"} <= set(shown) and "buchholz" in shown
    assert dropped and set(dropped) <= set(render.OPTIONAL)


def test_wide_terminal_shows_everything() -> None:
    header, cells = render.standing_cells(chess_rows())
    assert render.fit(header, cells, 200)[2] == []


def test_numbers_are_written_alike_in_a_column() -> None:
    assert render.numbers([1.5, 2, 0]) == ["1.5", "2.0", "0.0"]
    assert render.numbers([3, 9]) == ["3", "9"]
    assert render.numbers([7.25, 1]) == ["7.25", "1.00"]
    assert render.numbers([0.5, 2 / 3], percent=True) == ["50.00", "66.67"]
    _, cells = render.standing_cells(chess_rows())
    assert [row[2] for row in cells] == ["4.0", "3.5", "3.0", "2.5"]


def test_html_headings_are_words() -> None:
    header, cells = render.standing_cells(chess_rows())
    event = EventInfo("ev", "ev", "cardwars", "chess", 1, 1, datetime.now(UTC), 3)
    html = render.to_html("t", "Standings", event, header, cells)
    assert "<th>Game points</th>" in html and "Sonneborn-Berger" in html
    assert ">game_points<" not in html and ">sonneborn_berger<" not in html


def test_cells_count_wide_characters_twice() -> None:
    assert pictures.cells("Anna") == 4
    assert pictures.cells("李小龙") == 6
    assert pictures.cells("🦊") == 2
    assert pictures.cells("Zoe\u0301") == 3  # a combining accent takes no room


def pair(a: str | None, b: str | None, table: int | None, winner: str | None, games: list[int] | None = None,
         node: str | None = None) -> BracketPair:
    return BracketPair([a, b], table, winner, node, games)


def test_single_elimination_places_and_drawing() -> None:
    """8 places, 7 players: seed 1 has a bye; worked by hand: semifinal losers share 3-4, quarterfinal losers 5-8."""
    seeds = ["s1", "s2", "s3", "s4", "s5", "s6", "s7"]
    info = BracketInfo(seeds, [
        BracketRound(1, [pair("s1", None, None, "s1"), pair("s4", "s5", 1, "s4", [2, 1]),
                         pair("s2", "s7", 2, "s2", [2, 0]), pair("s3", "s6", 3, "s6", [1, 2])]),
        BracketRound(2, [pair("s1", "s4", 1, "s1", [2, 1]), pair("s2", "s6", 2, "s6", [0, 2])]),
        BracketRound(3, [pair("s1", "s6", 1, "s1", [2, 1])]),
    ], "s1", names={"s1": LONG, "s6": "李小龙"})
    assert render.bracket_places(info) == {"s1": "1", "s6": "2", "s4": "3-4", "s2": "3-4", "s5": "5-8", "s7": "5-8", "s3": "5-8"}
    svg = pictures.bracket_picture(info).svg
    assert svg is not None
    texts = [t.text for t in svg.texts]
    assert {"Quarterfinals", "Semifinals", "Final", "Champion", "Table 3"} <= set(texts)
    names = [t for box in svg.boxes for t in box.texts if t.kind in ("name", "winner", "champion")]
    assert {t.text for t in names} >= {LONG, "李小龙"}
    assert any(t.text == "bye" for box in svg.boxes for t in box.texts)
    scores = [t.text for box in svg.boxes for t in box.texts if t.kind == "score"]
    assert scores.count("2") == 6
    for box in svg.boxes:  # every text starts inside its box and, by its cells, ends inside it
        for t in box.texts:
            assert box.x <= t.x <= box.x + box.width
            if t.anchor == "start":
                assert t.x + pictures.CELL * pictures.cells(t.text) <= box.x + box.width


def test_double_elimination_drawn_as_two_trees_and_a_grand_final() -> None:
    seeds = ["a", "b", "c", "d"]
    info = BracketInfo(seeds, [
        BracketRound(1, [pair("a", "d", 1, "a", [2, 0], "W1-1"), pair("b", "c", 2, "c", [1, 2], "W1-2")]),
        BracketRound(2, [pair("a", "c", 1, "a", [2, 1], "W2-1"), pair("d", "b", 2, "b", [0, 2], "L1-1")]),
        BracketRound(3, [pair("b", "c", 1, "b", [2, 0], "L2-1")]),
        BracketRound(4, [pair("a", "b", 1, "b", [1, 2], "GF")]),
        BracketRound(5, [pair("a", "b", 1, "a", [2, 0], "GF2")]),
    ], "a", double=True)
    svg = pictures.bracket_picture(info).svg
    assert svg is not None
    headings = {t.text for t in svg.texts if t.kind == "heading"}
    assert headings == {"Winners' round 1", "Winners' final", "Losers' round 1", "Losers' final", "Grand final", "Reset",
                        "Champion"}
    losers = [t.y for t in svg.texts if t.text.startswith("L")]
    winners = [t.y for t in svg.texts if t.text.startswith("W1")]
    assert min(losers) > max(winners)  # the losers' tree below the winners'
    # The reset was played: b won the grand final, a the reset; b is second, c third, d fourth.
    assert render.bracket_places(info) == {"a": "1", "b": "2", "c": "3", "d": "4"}


# Pages in a real browser ------------------------------------------------------


def report_all(db: str) -> None:
    """Every open table of the current round: the first player wins 2-1."""
    for t in cli_json(db, "pairings", "ev")["tables"]:
        if t.get("games") is None and t["source"] is None:
            a, b = t["players"]
            cli(db, "report", "ev", "--table", str(t["table"]), "--result", f"{a}=2,{b}=1", "--reason", "paper")


def event(db: str, fmt: str, players: int, rounds: int, *extra: str) -> None:
    cli(db, "create", "ev", "--format", fmt, "--ruleset", "basictcg-mtg", "--best-of", "3", "--seed", "4", *extra)
    for name in NAMES[:players]:
        cli(db, "register", "ev", name)
    for _ in range(rounds):
        cli(db, "pair", "ev")
        report_all(db)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every kind of page, with long and wide names: brackets single and double, a top cut, pairings, pods."""
    out = tmp_path_factory.mktemp("pages")
    made: dict[str, Path] = {}

    def db(name: str) -> str:
        return f"sqlite:///{out / name}.db"

    event(db("single"), "single", 7, 2)
    cli(db("single"), "pair", "ev")
    event(db("double"), "double", 8, 5)
    event(db("cut"), "swiss", 8, 3, "--profile", "chess")
    cli(db("cut"), "cut", "ev", "--cut", "4")
    for _ in range(2):
        cli(db("cut"), "pair", "ev")
        report_all(db("cut"))
    cli(db("pods"), "create", "ev", "--format", "pods", "--ruleset", "crossover", "--seed", "2")
    for name in NAMES[:7]:
        cli(db("pods"), "register", "ev", name)
    cli(db("pods"), "pair", "ev")
    for name, command in [
        ("single-bracket", ("single", "bracket")), ("single-standings", ("single", "standings")),
        ("double-bracket", ("double", "bracket")), ("cut-standings", ("cut", "standings")),
        ("cut-pairings", ("cut", "pairings")), ("pods-standings", ("pods", "standings")), ("pods-pairings", ("pods", "pairings")),
    ]:
        made[name] = out / f"{name}.html"
        cli(db(command[0]), command[1], "ev", "--format", "html", "--out", str(made[name]))
    return made


OVERFLOWS = """() => {
  const out = [];
  for (const g of document.querySelectorAll('svg g.box')) {
    const r = g.querySelector('rect').getBBox();
    for (const t of g.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.x < r.x - 0.5 || b.x + b.width > r.x + r.width + 0.5 || b.y < r.y - 0.5 || b.y + b.height > r.y + r.height + 0.5)
        out.push(t.textContent + ' ' + JSON.stringify([b.x, b.width, r.x, r.width]));
    }
  }
  return out;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("name", ["single-bracket", "single-standings", "double-bracket", "cut-standings", "cut-pairings",
                                  "pods-standings", "pods-pairings"])
def test_every_page_in_a_browser(page: Any, pages: dict[str, Path], name: str, tmp_path: Path) -> None:
    from PIL import Image

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(pages[name].as_uri())
    shot = tmp_path / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    image = Image.open(shot).convert("L")
    dark = sum(image.histogram()[:128])
    assert dark > 2000, f"{name}: the page looks blank"
    assert page.evaluate(OVERFLOWS) == []
    html = pages[name].read_text()
    assert "game_points" not in html.split("<table")[-1].split("</thead>")[0]
    if "bracket" in name or name in ("single-standings", "cut-standings"):
        assert page.locator("svg.bracket g.box").count() > 0
        assert page.get_by_text("Champion").count() >= 1


def test_top_cut_standings_page_shows_the_swiss_at_the_cut_and_places_apart(pages: dict[str, Path]) -> None:
    html = pages["cut-standings"].read_text()
    assert "Swiss standings at the cut, after round 3" in html and "Top cut: places" in html
    assert "Semifinals" in html and "Final" in html
