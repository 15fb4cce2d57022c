"""A message's words (issue 36): its title and text from a plain-text Jinja2 template in
`templates/messages/KIND.txt.j2`, whose first line is the title (an e-mail's subject, a notification's heading),
then a blank line, then the text a player reads at a glance, ending with the link to the right page.

Plain text, so no autoescape: an e-mail's text part and a push notification's body show no markup.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from tournament.output.render import clock_text, zone_name

if TYPE_CHECKING:
    from jinja2 import Environment

KINDS = ("paired", "confirm", "answered", "place", "clock", "deadline", "final", "registered", "address")


@dataclass(frozen=True)
class Words:
    title: str
    text: str
    link: str  # the page's whole URL
    stop: str | None = None  # the whole URL that stops these messages (every message but an address's confirmation)


@cache
def _environment() -> Environment:
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(
        loader=PackageLoader("tournament.output", "templates/messages"), autoescape=False, undefined=StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False,
    )
    env.globals.update(clock=clock_text, zone=zone_name, ordinal=ordinal)
    return env


def words(kind: str, facts: dict[str, Any], base_url: str, now: datetime | None = None, token: str | None = None) -> Words:
    """The title, text and link of a message of `kind` from its facts (`service.messages.Facts`, as a dict);
    `base_url` is where phones reach the server (the link's start); `token`: its subscription's, for the link
    that stops them (an e-mail's last line, a notification's action; an address's confirmation is that link)."""
    link = base_url.rstrip("/") + facts["link"]
    at = facts.get("at")
    moment = datetime.fromisoformat(at) if isinstance(at, str) else at
    left = max(math.ceil((moment - (now or datetime.now(UTC))).total_seconds() / 60), 0) if moment else None
    context = {
        "round": None, "table": None, "opponents": [], "said": None, "claimant": None, "place": None, "of": None,
        **facts, "at": moment, "link": link, "minutes_left": left,
    }
    text = _environment().get_template(f"{kind}.txt.j2").render(context)
    title, _, body = text.partition("\n")
    stop = f"{base_url.rstrip('/')}/messages/{token}" if token and kind != "address" else None
    return Words(" ".join(title.split()), body.strip() + "\n", link, stop)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
