"""Every HTML page comes from a Jinja2 template in `tournament/output/templates/`, with autoescape on.

Python code passes data (names, numbers, drawings as coordinates) and never
markup, so whatever a player typed is escaped by the template engine.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jinja2 import Environment


@cache
def environment() -> Environment:
    """The one template environment: autoescape for .html and .svg templates, undefined names are errors.

    jinja2 is imported here, by the commands that draw a page, not by every command.
    """
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    env = Environment(
        loader=PackageLoader("tournament.output", "templates"),
        autoescape=select_autoescape(["html", "svg", "j2"], default_for_string=True, default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["printed"] = printed
    return env


def printed() -> str:
    """Now (UTC), for the line a printed page carries: `{{ printed() }}` in a template."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def render(template: str, **context: Any) -> str:
    """Render one template to text."""
    return environment().get_template(template).render(**context)
