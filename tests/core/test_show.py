"""`referee show` and `referee dispute --html`: the judge's view of a game, as files and in a real Chromium."""

from __future__ import annotations

import base64
import gzip
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.engine import judge
from referee.rulesets import ids as ruleset_ids
from referee.show import rulebook
from tests.cardwars.cwlog import BOARD, attack, lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
runner = CliRunner()


def invoke(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def write(tmp_path: Path, name: str, data: list[bytes]) -> Path:
    path = tmp_path / name
    path.write_bytes(b"\n".join(data) + b"\n")
    return path


def bot_game(tmp_path: Path, ruleset: str, seed: int = 1) -> Path:
    path = tmp_path / f"{ruleset}.jsonl"
    assert invoke("play", ruleset, "--seed", str(seed), "--out", str(path)).exit_code == 0
    return path


def show(log: Path, *args: str) -> str:
    out = log.with_suffix(".page.html")
    result = invoke("show", str(log), "-o", str(out), *args)
    assert result.exit_code == 0, result.output
    return out.read_text()


def packed_states(page: str) -> list[str]:
    """The drawn states the page carries, unpacked as its script unpacks them."""
    blob = re.search(r'<script type="application/octet-stream" id="states"[^>]*>([^<]*)</script>', page)
    assert blob is not None
    return list(json.loads(gzip.decompress(base64.b64decode(blob[1]))))


def current(page: str) -> str:
    """The record list's item the page opens at."""
    items = re.findall(r'<li id="r\d+"[^>]*class="current[^"]*"[^>]*>', page)
    assert len(items) == 1, items
    return items[0]


def deepest_illegal_fixture(ruleset: str) -> tuple[Path, Any]:
    """The illegal fixture of a game (manifest.json says which) whose bad record comes latest, and its verdict."""
    manifest = json.loads((FIXTURES / ruleset / "manifest.json").read_text())
    found = []
    for entry in manifest:
        if entry["verdict"] == "illegal":
            path = FIXTURES / ruleset / entry["file"]
            verdict = judge(path.read_bytes().splitlines(keepends=True), str(path)).verdict
            assert verdict.error is not None
            found.append((verdict.error.seq or 0, entry["file"], path, verdict))
    seq, _, path, verdict = max(found)
    assert seq > 1, f"{ruleset} has no illegal fixture past its first record"
    return path, verdict


# -- the page as a file -------------------------------------------------------------


def test_show_writes_one_self_contained_page(tmp_path: Path) -> None:
    log = bot_game(tmp_path, "cardwars")
    result = invoke("show", str(log))
    assert result.exit_code == 0
    page = log.with_suffix(".html").read_text()
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    # no external assets: nothing is fetched (the only URL is the SVG namespace inside a data: image)
    assert not re.search(r"<link|<img|\ssrc=|@import|url\((?!\"data:)", page)
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", page)
    records = len(log.read_bytes().splitlines()) - 1
    assert len(re.findall(r'<li id="r\d+"', page)) == records + 1  # the setup and every record
    assert len(packed_states(page)) == records + 1
    assert f'data-seq="{records}"' in current(page)  # a legal game opens at its end
    assert "complete" in page


def test_show_at_opens_at_that_record(tmp_path: Path) -> None:
    page = show(bot_game(tmp_path, "cardwars"), "--at", "5")
    assert 'data-seq="5"' in current(page)
    table = page[page.index('<section class="state" id="state">') :]
    assert table.index("after record 5") < table.index("</section>")


def test_show_at_a_record_the_log_lacks_is_a_usage_error(tmp_path: Path) -> None:
    log = bot_game(tmp_path, "cardwars")
    result = invoke("show", str(log), "--at", "100000", "-o", str(tmp_path / "x.html"))
    assert result.exit_code == 2 and "record 100000 is not among" in result.output
    assert not (tmp_path / "x.html").exists()


def test_a_log_too_long_for_one_page_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = bot_game(tmp_path, "cardwars")
    monkeypatch.setattr("referee.show.MAX_RECORDS", 10)
    result = invoke("show", str(log))
    assert result.exit_code == 2 and "more than 10 records" in result.output
    assert not log.with_suffix(".html").exists()


def test_show_missing_log_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke("show", str(tmp_path / "nope.jsonl"))
    assert result.exit_code == 2 and "no such file" in result.output


def test_show_to_stdout(tmp_path: Path) -> None:
    result = invoke("show", str(bot_game(tmp_path, "cardwars")), "-o", "-")
    assert result.exit_code == 0 and result.stdout.startswith("<!doctype html>")


def test_show_reads_stdin_and_writes_stdout(tmp_path: Path) -> None:
    result = runner.invoke(app, ["show", "-"], input=bot_game(tmp_path, "cardwars").read_bytes())
    assert result.exit_code == 0 and result.stdout.startswith("<!doctype html>") and "cardwars-seed1" in result.stdout


def test_a_note_with_markup_shows_as_text(tmp_path: Path) -> None:
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    log = write(tmp_path, "evil.jsonl", lines([{**BOARD[0], "note": evil}, *BOARD[1:]]))
    page = show(log)
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in page


def test_card_names_with_markup_are_escaped_in_every_state(tmp_path: Path) -> None:
    log = bot_game(tmp_path, "crossover")
    rows = log.read_bytes().splitlines()
    evil = "Goblin <b onmouseover=alert(1)>Scout"
    rows = [row.replace(b"Goblin Scout", evil.encode()) for row in rows]
    rows = [json.dumps({k: v for k, v in json.loads(r).items() if k != "prev"}).encode() for r in rows]
    page = show(write(tmp_path, "evil.jsonl", rows))
    states = packed_states(page)
    assert any("Goblin &lt;b onmouseover=alert(1)&gt;Scout" in s for s in states)
    assert not any("<b onmouseover" in s for s in states) and "<b onmouseover" not in page


def test_the_illegal_record_is_highlighted_with_its_rule_text_message_and_alternatives(tmp_path: Path) -> None:
    log = write(tmp_path, "bad.jsonl", lines([*BOARD, attack("ann", "QH")]))
    page = show(log)
    assert 'data-seq="20"' in current(page) and "failed" in current(page)
    verdict = page[page.index('<section class="verdict') : page.index("</section>")]
    assert "illegal" in verdict and "record 20" in verdict and "CW-5.1" in verdict
    assert rulebook("cardwars")["CW-5.1"].split("`")[0] in verdict  # the rule's own words from RULES.md
    assert "QH" in verdict  # the message names the card
    assert "legal instead" in verdict and "&#34;attack&#34;" not in verdict and '"type": "attack"' in verdict
    # the table shows the state the bad record was made in, and says so
    assert re.search(r'<p id="refused" class="refused">record 20 was refused \(CW-5\.1\)', page)


def test_every_rule_an_illegal_fixture_cites_has_its_text() -> None:
    """The rule text comes from the game's RULES.md for every rule the fixtures see broken."""
    cited = 0
    for log in sorted(FIXTURES.glob("*/*.jsonl")):
        verdict = judge(log.read_bytes().splitlines(keepends=True), str(log)).verdict
        if verdict.error is not None and verdict.error.rule:
            cited += 1
            assert verdict.error.rule in rulebook(verdict.ruleset or ""), (log, verdict.error.rule)
    assert cited > 50


def test_rulebook_reads_wrapped_items_and_headings() -> None:
    book = rulebook("cardwars")
    assert book["CW-1.1"].startswith("Cardwars is for exactly two players") and book["CW-1.1"].endswith("lists them.")
    assert "**" not in book["CW-1.2"] and "Ruling (cardwars 2)" in book["CW-1.2"]
    assert book["CW-2"] == "Turns"
    assert not [rule for game in ruleset_ids() for rule, text in rulebook(game).items() if "*" in text]  # no markdown emphasis


def test_a_malformed_log_shows_what_could_be_read_and_the_error(tmp_path: Path) -> None:
    rows = lines(BOARD)
    rows[6] = b'{"seq": 6, "by": "bob", "type": "attack", "attackers": [}'
    page = show(write(tmp_path, "broken.jsonl", rows))
    assert "malformed" in page and "line 7" in page
    assert len(packed_states(page)) == 6  # the setup and records 1 to 5
    assert 'data-seq="6"' in current(page) and "failed" in current(page)
    assert "&#34;attackers&#34;: [}" in page  # the bad line, as text
    assert page.count('class="unjudged"') == len(rows) - 7  # the lines after it, listed unjudged


def test_a_tampered_log_shows_the_broken_chain(tmp_path: Path) -> None:
    log = bot_game(tmp_path, "cardwars")
    rows = log.read_bytes().splitlines()
    rows[4] = rows[4].replace(b'"by"', b'"note":"edited","by"', 1)
    page = show(write(tmp_path, "tampered.jsonl", rows))
    assert "tampered" in page and "chain broken" in page and "prev does not match" in page
    assert "legal instead" not in page  # only an illegal record has alternatives
    assert 'data-seq="5"' in current(page)


@pytest.mark.parametrize(
    "bad",
    [
        b'{"seq": 5, "by": "ann", "type": "attack", "attackers": [], "note": "\xff\xfe"}',  # not UTF-8
        b"[" * 100_000 + b"]" * 100_000,  # nesting deeper than any stack
        b'{"seq": 5, "by": "ann", "type": "attack", "attackers": []}\r',  # a stray carriage return
    ],
)
def test_bytes_the_engine_refuses_give_a_page_with_the_error(tmp_path: Path, bad: bytes) -> None:
    rows = lines(BOARD)[:5]
    page = show(write(tmp_path, "odd.jsonl", [*rows, bad]))
    assert "malformed" in page and 'data-seq="5"' in current(page) and "failed" in current(page)
    assert len(packed_states(page)) == 5


def test_an_unreadable_header_still_gives_a_page(tmp_path: Path) -> None:
    page = show(write(tmp_path, "junk.jsonl", [b"\xff\xfe not a header", b"{}"]))
    assert "malformed" in page and "No table can be drawn" in page and 'data-seq="0"' in current(page)
    assert "the header was refused (malformed)" in page


def test_a_setup_that_breaks_a_rule_gives_the_rule(tmp_path: Path) -> None:
    page = show(write(tmp_path, "three.jsonl", lines([], players=["ann", "bob", "cat"])))
    assert "the header was refused (CW-1.1)" in page and "No table can be drawn" in page
    assert rulebook("cardwars")["CW-1.1"][:30] in page


def test_page_size_stays_small_for_a_long_game(tmp_path: Path) -> None:
    """Every state is drawn, but packed: a few hundred records make a page of a few hundred KiB at most."""
    log = bot_game(tmp_path, "maginot")
    records = len(log.read_bytes().splitlines()) - 1
    assert records > 300
    assert len(show(log).encode()) < 100_000 + 600 * records


def test_dispute_html_shows_both_versions_from_the_parting_record(tmp_path: Path) -> None:
    a = write(tmp_path, "a.jsonl", lines([*BOARD, attack("ann", "JH")]))
    b = write(tmp_path, "b.jsonl", lines([*BOARD, attack("ann", "QH")]))
    out = tmp_path / "d.html"
    result = invoke("dispute", str(a), str(b), "--html", "-o", str(out))
    assert result.exit_code == 1  # they part: dispute's exit code, with or without --html
    page = out.read_text()
    assert "they part at record 20" in page and str(a) in page and str(b) in page
    left, right = page.split('aria-label="version B"')
    assert "whole log: <span class=\"vk\">ongoing" in left and 'href="#r' not in page and "attackers <b>JH</b>" in left
    assert "whole log: <span class=\"vk\">illegal" in right and "CW-5.1" in right and "attackers <b>QH</b>" in right
    assert "the table before they part" in page and "after record 19" in page
    assert "after record 20" in left  # A's record was legal: the table after it


def test_dispute_html_of_the_same_game(tmp_path: Path) -> None:
    a = write(tmp_path, "a.jsonl", lines(BOARD))
    result = invoke("dispute", str(a), str(a), "--html")
    assert result.exit_code == 0 and "the two logs record the same game" in result.stdout


# -- the page in a real Chromium --------------------------------------------------------


def colours(png: bytes) -> int:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    found = image.getcolors(maxcolors=4096)
    return 4096 if found is None else len(found)


def open_page(page: Any, path: Path, anchor: str = "") -> None:
    """Open a page, wait until its states are unpacked; it must fetch nothing and raise no script error."""
    errors: list[str] = []
    fetched: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(path.as_uri() + anchor)
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=10_000)
    assert errors == []
    assert [url for url in fetched if not url.startswith(("file:", "data:"))] == []


def where(page: Any) -> str:
    return str(page.locator("#where").text_content())


def caption(page: Any) -> str:
    return str(page.locator("#state .caption").first.text_content())


@pytest.mark.browser
@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_a_bot_game_renders_and_steps(page: Any, tmp_path: Path, ruleset: str) -> None:
    log = bot_game(tmp_path, ruleset)
    records = len(log.read_bytes().splitlines()) - 1
    show(log)
    open_page(page, log.with_suffix(".page.html"))
    box = page.locator("#state").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 200
    assert colours(page.locator("#state").screenshot()) > 8  # cards, felt and text, not a blank area
    assert where(page) == f"record {records} of {records}" and f"after record {records}" in caption(page)
    page.keyboard.press("Home")
    assert where(page) == f"setup of {records}" and "the setup" in caption(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert where(page) == f"record 2 of {records}" and "after record 2" in caption(page)
    page.keyboard.press("ArrowLeft")
    assert "after record 1" in caption(page)
    page.keyboard.press("End")
    assert f"after record {records}" in caption(page)
    page.locator("#slider").fill("3")
    assert where(page) == f"record 3 of {records}" and "after record 3" in caption(page)
    assert page.locator("#records li.current").get_attribute("data-seq") == "3"
    page.locator("#r2").click()
    assert where(page) == f"record 2 of {records}" and "after record 2" in caption(page)
    page.locator("button[data-go=next]").click()
    assert "after record 3" in caption(page)


@pytest.mark.browser
def test_a_link_to_a_record_opens_there(page: Any, tmp_path: Path) -> None:
    log = bot_game(tmp_path, "cardwars")
    show(log)
    open_page(page, log.with_suffix(".page.html"), "#r7")
    assert "after record 7" in caption(page) and page.locator("#records li.current").get_attribute("data-seq") == "7"


@pytest.mark.browser
@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_an_illegal_fixture_highlights_the_bad_record(page: Any, tmp_path: Path, ruleset: str) -> None:
    fixture, verdict = deepest_illegal_fixture(ruleset)
    log = tmp_path / fixture.name
    log.write_bytes(fixture.read_bytes())
    show(log)
    open_page(page, log.with_suffix(".page.html"))
    bad = verdict.error
    row = page.locator("#records li.current")
    assert row.get_attribute("data-seq") == str(bad.seq) and "failed" in str(row.get_attribute("class"))
    assert bad.rule in str(row.text_content())
    assert page.locator("#records li.failed").count() == 1
    box = page.locator(".verdict")
    assert box.is_visible() and bad.rule in str(box.text_content()) and bad.message in str(box.text_content())
    assert rulebook(ruleset)[bad.rule].split("`")[0][:40] in str(box.text_content())
    assert page.locator("#refused").is_visible()
    assert colours(page.locator("#state").screenshot()) > 8
    page.keyboard.press("ArrowLeft")
    assert page.locator("#records li.current").get_attribute("data-seq") == str(bad.seq - 1)
    assert not page.locator("#refused").is_visible()
    page.keyboard.press("ArrowRight")
    assert page.locator("#refused").is_visible() and f"after record {bad.seq - 1}" in caption(page)


def test_every_page_file_is_package_data() -> None:
    """Templates, styles and scripts ship in the wheel: each file's suffix is in pyproject's package data."""
    import fnmatch
    import tomllib

    root = FIXTURES.parent
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    files = [*(root / "referee" / "templates").iterdir(), *(root / "referee" / "rulesets").glob("*/*.j2")]
    assert len(files) > 10
    for path in files:
        assert any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns), path


def test_a_game_without_its_own_view_is_drawn_as_nested_lists() -> None:
    """A sixth game needs no view.html.j2 to get a page: the fallback draws what it describes."""
    from referee.pages import FALLBACK, game_view, render

    assert game_view("no-such-game") == game_view(None) == FALLBACK
    assert game_view("cardwars") == "cardwars/view.html.j2"
    st = {"seq": 3, "to_act": ["ann"], "result": None, "view": {"turn": 2, "hands": {"ann": ["<QS>", "2H"]}}}
    html = render("state.html.j2", st=st, view=FALLBACK, setup={})
    assert "after record 3" in html and "<dt>turn</dt><dd>2</dd>" in html.replace("\n", "")
    assert "&lt;QS&gt; 2H" in html


@pytest.mark.browser
def test_the_page_prints_the_table_without_its_controls(page: Any, tmp_path: Path) -> None:
    log = bot_game(tmp_path, "cardwars")
    show(log, "--at", "9")
    open_page(page, log.with_suffix(".page.html"))
    page.emulate_media(media="print")
    assert not page.locator(".controls").is_visible()
    assert page.locator("#state").is_visible() and "after record 9" in caption(page)
    assert page.locator("#records").is_visible()


@pytest.mark.browser
def test_a_dispute_page_shows_both_versions(page: Any, tmp_path: Path) -> None:
    a = write(tmp_path, "a.jsonl", lines([*BOARD, attack("ann", "JH")]))
    b = write(tmp_path, "b.jsonl", lines([*BOARD, attack("ann", "QH")]))
    out = tmp_path / "d.html"
    assert invoke("dispute", str(a), str(b), "--html", "-o", str(out)).exit_code == 1
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(out.as_uri())
    branches = page.locator(".branch")
    assert branches.count() == 2 and errors == []
    assert "legal" in str(branches.nth(0).locator(".judgement").text_content())
    assert "CW-5.1" in str(branches.nth(1).locator(".judgement").text_content())
    assert page.locator(".before").is_visible() and colours(page.locator(".before").screenshot()) > 8
