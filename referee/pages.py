"""The Jinja2 environment every referee page is drawn with (autoescape on, always).

The core's own templates (the page, shared macros such as a card face) live in
`referee/templates/`. Each game's templates live in its own ruleset package
and are named with its id as a prefix: `cardwars/view.html.j2` is
`referee/rulesets/cardwars/view.html.j2`. So the core owns the page, and a
game draws its own state without the core knowing its rules.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2

from referee.rulesets import ids as ruleset_ids

VIEW = "view.html.j2"  # the fragment a ruleset draws one state of its game with
FALLBACK = "fallback_view.html.j2"


def brief(value: Any, nested: bool = False) -> str:
    """A record field's value as short plain text: lists space-separated (inner ones joined by +), objects as `a→b`."""
    if isinstance(value, list | tuple):
        return ("+" if nested else " ").join(brief(v, True) for v in value) or "–"
    if isinstance(value, dict):
        return ", ".join(f"{k}→{brief(v, True)}" for k, v in value.items()) or "–"
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "true" if value else "false"  # as the log writes it
    return str(value)


@cache
def environment() -> jinja2.Environment:
    """The shared environment: core templates, then `<ruleset id>/...` from each game's package."""
    games = {rid: jinja2.PackageLoader(f"referee.rulesets.{rid.replace('-', '_')}", "") for rid in ruleset_ids()}
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.PackageLoader("referee", "templates"), jinja2.PrefixLoader(games)]),
        autoescape=True,
        undefined=jinja2.ChainableUndefined,  # a field a game no longer describes draws as empty, not a crash,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # templates are package data: no stat() per include
    )
    env.filters["brief"] = brief
    env.policies["json.dumps_kwargs"] = {"sort_keys": False, "ensure_ascii": False}  # records read as written
    return env


def game_view(ruleset_id: str | None) -> str:
    """The template that draws a state of `ruleset_id`: its own, or the core's fallback (nested lists)."""
    if ruleset_id is None:
        return FALLBACK
    name = f"{ruleset_id}/{VIEW}"
    try:
        environment().get_template(name)
    except jinja2.TemplateNotFound:
        return FALLBACK
    return name


def render(template: str, **context: Any) -> str:
    """Render one template of the shared environment."""
    return environment().get_template(template).render(**context)
