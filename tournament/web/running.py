"""The organiser's day from the browser: create an event, register players (one by one or from a CSV
file), rename, pause and resume, pre-assigned byes, unpair, swap, a whole round's results, the top cut
and the end of the event. Each action is the service call the CLI command makes (a log entry; a
refusal is the CLI's message); the forms answer with a redirect and a receipt (`organiser.acting`),
and each has a JSON twin under `/api/admin/...` that answers `Done`."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from litestar import Request, Response, post
from litestar.concurrency import sync_to_thread
from litestar.datastructures import UploadFile
from litestar.params import FromPath, JSONBody
from litestar.response import Redirect
from sqlalchemy.orm import Session

from referee.console import INT32_MAX, INT64_MAX
from schemas.web import (
    Bye,
    Cut,
    Done,
    NewEvent,
    NewPlayers,
    Pairing,
    Pause,
    Reason,
    RegistrationSettings,
    Rename,
    RoundResults,
    Swap,
)
from tournament import service
from tournament.service import export, history
from tournament.web import dayview, receipts
from tournament.web.auth import organiser
from tournament.web.common import json_post, whole_number
from tournament.web.organiser import acting
from tournament.web.registration import settings_from


def _within(value: int | None, name: str, low: int, high: int) -> int | None:
    """A number in the range the CLI's option has; Usage naming the field otherwise."""
    if value is not None and not low <= value <= high:
        raise service.Usage(f"{name}: {low} to {high}, not {value}")
    return value


def _signed(form: Any, name: str) -> int | None:
    """An optional whole number that may be negative (a rating)."""
    text = str(form.get(name) or "").strip()
    if not text:
        return None
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 10:
        raise service.Usage(f"{name}: write a whole number, not {text!r}")
    return _within(int(text), name, -INT32_MAX, INT32_MAX)


def create(session: Session, spec: NewEvent) -> str:
    """`tournament create` (a random pairing seed unless one is given)."""
    _within(spec.best_of, "best_of", 1, INT32_MAX)
    _within(spec.table_size, "table_size", 1, INT32_MAX)
    seed = _within(spec.seed, "seed", 0, INT64_MAX)
    public = spec.registration or RegistrationSettings(open=False)
    event = service.create_event(
        session, spec.id, name=spec.name, ruleset=spec.ruleset, profile=spec.profile, best_of=spec.best_of,
        seed=random.SystemRandom().getrandbits(32) if seed is None else seed, format=spec.format,
        table_size=spec.table_size, points=spec.points, late_entry=spec.late_entry, require_chain=spec.require_chain,
        rated=spec.rated, tables=spec.tables, open_registration=public.open, cap=public.cap, closes_at=public.closes_at,
        waitlist=public.waitlist, waitlist_limit=public.waitlist_limit,
    )
    opened = ", public registration open" if event.registration_open else ""
    return f"created {event.id}: {service.FORMATS[event.format]}, {event.ruleset}, best of {event.best_of}, seed {event.seed}{opened}"


def register(session: Session, event_id: str, people: list[service.Person]) -> str:
    """`tournament register` (names, or `--from FILE`): all or none."""
    added = service.register_people(session, event_id, people)
    rounds = service.get_event(session, event_id).rounds
    late = f" (late entries: from round {rounds + 1})" if rounds else ""
    said = f"registered {len(added)} players{late}" if len(added) > 10 else f"registered {', '.join(p.display_name for p in added)}{late}"
    flagged = service.namesakes(session, added)  # as the CLI warns: a new person with someone's name (T-185)
    if flagged:
        texts, names = history.person_texts(session), {p.name: p.display_name for p in added}
        maybe = "; ".join(f"{names[p]} may be {' or '.join(texts[o.id] for o in others)}" for p, others in flagged.items())
        said += f". Namesakes: {maybe} (link them on the registration page)"
    return said


def people_from(request_data: NewPlayers) -> list[service.Person]:
    if request_data.csv is not None:
        if request_data.players:
            raise service.Usage("give players or csv, not both")
        return service.people_from_csv(request_data.csv, "csv")
    return [service.Person(p.name, p.id or None, _within(p.rating, "rating", -INT32_MAX, INT32_MAX)) for p in request_data.players]


def rename(session: Session, event_id: str, player: str, name: str) -> str:
    renamed = service.rename(session, event_id, player, name)
    return f"{player} is now shown as {renamed.display_name}"


def pause(session: Session, event_id: str, player: str, paused: bool) -> str:
    service.set_paused(session, event_id, player, paused)
    return f"{player} is paused: not paired until resumed" if paused else f"{player} is back: paired from the next round"


def bye(session: Session, event_id: str, player: str, round_number: int | None) -> str:
    service.assign_bye(session, event_id, player, _within(round_number, "round", 1, INT32_MAX))
    return f"{player}: a bye in round {round_number}" if round_number else f"{player}: the pre-assigned bye is taken back"


def unpair(session: Session, event_id: str, reason: str | None) -> str:
    number = service.unpair(session, event_id, reason)
    return f"round {number} is taken back; pair it again"


def pair_again(session: Session, event_id: str, reason: str | None, *, reseed: bool) -> str:
    """`unpair`, then `pair` (`--reseed`: with a new random seed, kept in the round's entry), in one transaction."""
    service.unpair(session, event_id, reason)
    number = service.pair(session, event_id, random.SystemRandom().getrandbits(32) if reseed else None).number
    return f"round {number} is paired again" + (" with a new seed" if reseed else " (the same seed gives the same tables)")


def swap(session: Session, event_id: str, a: str, b: str, reason: str) -> str:
    number = service.swap(session, event_id, a, b, reason)
    return f"swapped {a} and {b} in round {number}"


def enter_round(session: Session, event_id: str, scores: dict[int, str], reason: str | None) -> str:
    """A round's slips at once, all or none: the new ones as `tournament results` enters them, a changed one
    as `tournament correct` does (with the reason)."""
    event = service.get_event(session, event_id)
    rows = {r.table: r for r in export.round_rows(session, event, event.rounds)} if event.rounds else {}
    new, changed = [], []
    for table, typed in sorted(scores.items()):
        score = typed.strip()
        row = rows.get(table)
        if not score or (row is not None and score == dayview.score_text(row)):
            continue
        if row is not None and dayview.score_text(row):
            changed.append((row, score))
        else:
            new.append(service.ResultRow(table, score, f"table {table}"))
    if changed and not (reason or "").strip():
        raise service.Usage(f"reason: correcting table {', '.join(str(r.table) for r, _ in changed)} needs a reason (kept in the log)")
    added = service.import_results(session, event_id, new) if new else 0
    for row, score in changed:
        try:
            if event.format == "pods":
                _pod, seated = service.find_pod(session, event, row.table, row.round)
                places = service.score_places(seated, score)
                service.report_pod(session, event_id, row.table, places=places, reason=reason, correction=True)
            else:
                result = service.score_tally(service.find_match(session, event, row.table, row.round), score)
                service.report(session, event_id, row.table, result=result, reason=reason, correction=True)
        except service.TournamentError as exc:  # named as `results --from` names a row
            raise type(exc)(f"table {row.table}, field result: {exc.message}") from None
    still = service.open_tables(session, event_id)
    left = f"tables still open: {', '.join(map(str, still))}" if still else "every table has a result"
    return f"round {event.rounds}: {added} result(s) entered, {len(changed)} corrected; {left}"


def cut(session: Session, event_id: str, size: int) -> str:
    seeds = service.cut(session, event_id, size)
    shown = service.display_names(session, event_id)
    return f"top {size}: {', '.join(shown.get(p, p) for p in seeds)}; pair the bracket's first round"


def finish(session: Session, event_id: str) -> str:
    return f"{event_id} is finished after round {service.finish(session, event_id).rounds}"


# The forms ------------------------------------------------------------------------------------------------


def _text(form: Any, name: str) -> str:
    return str(form.get(name) or "").strip()


def _form_event(form: Any) -> NewEvent:
    seed = _text(form, "seed")
    return NewEvent(
        _text(form, "id"), _text(form, "name"), _text(form, "ruleset") or "cardwars", _text(form, "format") or "swiss",
        whole_number(form, "best_of", 1), _text(form, "profile") or "mtg", whole_number(form, "seed") if seed else None,
        whole_number(form, "table_size") if _text(form, "table_size") else None, _text(form, "points") or "3,1",
        _text(form, "late_entry") or "loss", form.get("require_chain") == "yes", form.get("rated") == "yes",
        _text(form, "tables") or "off", settings_from(form),
    )


@post("/admin/events", include_in_schema=False, action="events")
async def create_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """A new event: its page when made; else back to the list, saying why not."""
    form = await request.form()
    who = organiser(request)
    key = receipts.given_key(form.get("_key"), "_key")
    answer = await sync_to_thread(
        receipts.once, request, key, receipts.owner_of(who), lambda s: receipts.Outcome(create(s, _form_event(form))),
        kept=receipts.typed(form),
    )
    return Redirect(f"/admin/e/{_text(form, 'id')}?r={key}" if answer.ok else f"/admin?r={key}", status_code=303)


async def _upload_text(upload: Any) -> tuple[str, str]:
    """An uploaded CSV file's text and name; Usage as `register --from` says it for a file that is not UTF-8."""
    if not isinstance(upload, UploadFile):
        raise service.Usage("file: choose a CSV file to upload")
    data = await upload.read()
    try:
        return data.decode("utf-8-sig"), upload.filename or "upload.csv"
    except UnicodeDecodeError as exc:
        raise service.Usage(f"{upload.filename}: not UTF-8 text (byte {exc.start}); save it as UTF-8 CSV") from None


def _route(path: str, allowed: str, action: Callable[[Any, str], Callable[[Session], str]]) -> Any:
    """A form route: `action(form, event_id)` gives the change, run once for the form's key; `allowed`: its action
    in the permission matrix."""

    async def handler(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
        form: Any = await request.form()
        if "file" in form:  # the CSV upload: read here, where reading is async
            try:
                text, name = await _upload_text(form.get("file"))
            except service.Usage as exc:
                refusal = exc

                def refused(_: Session) -> str:
                    raise refusal

                return await sync_to_thread(acting, request, event_id, form, refused)
            form = {**dict(form), "_csv": text, "_csv_name": name}
        return await sync_to_thread(acting, request, event_id, form, action(form, event_id))

    handler.__name__ = handler.__qualname__ = f"{path}_form"
    return post(f"/admin/e/{{event_id:str}}/{path}", include_in_schema=False, action=allowed)(handler)


def _scores(form: Any) -> dict[int, str]:
    """The round form's `score.TABLE` fields."""
    found = {}
    for key in form:
        if key.startswith("score."):
            table = key.partition(".")[2]
            if not (table.isascii() and table.isdigit()) or len(table) > 9:
                raise service.Usage(f"{key}: not a table number")
            found[int(table)] = str(form.get(key) or "")
    return found


def _registering(form: Any) -> list[service.Person]:
    if "_csv" in form:
        return service.people_from_csv(form["_csv"], form["_csv_name"])
    return [service.Person(_text(form, "name"), _text(form, "id") or None, _signed(form, "rating"))]


FORMS = [
    _route("register", "players", lambda f, e: lambda s: register(s, e, _registering(f))),
    _route("rename", "players", lambda f, e: lambda s: rename(s, e, _text(f, "player"), str(f.get("name") or ""))),
    _route("pause", "players", lambda f, e: lambda s: pause(s, e, _text(f, "player"), f.get("paused") == "yes")),
    _route("bye", "players", lambda f, e: lambda s: bye(s, e, _text(f, "player"), None if f.get("cancel") else whole_number(f, "round"))),
    _route("unpair", "rounds", lambda f, e: lambda s: unpair(s, e, _text(f, "reason") or None)),
    _route("repair", "rounds", lambda f, e: lambda s: pair_again(s, e, _text(f, "reason") or None, reseed=f.get("reseed") == "yes")),
    _route("swap", "rule", lambda f, e: lambda s: swap(s, e, _text(f, "a"), _text(f, "b"), _text(f, "reason"))),
    _route("results", "results", lambda f, e: lambda s: enter_round(s, e, _scores(f), _text(f, "reason") or None)),
    _route("cut", "rounds", lambda f, e: lambda s: cut(s, e, whole_number(f, "size"))),
    _route("finish", "rounds", lambda f, e: lambda s: finish(s, e)),
]


# The JSON twins -------------------------------------------------------------------------------------------


def _done(request: Request[Any, Any, Any], event_id: str, change: Callable[[Session], str]) -> Response[Done]:
    def made(session: Session) -> Done:
        message = change(session)
        return Done(message, export.event_info(service.get_event(session, event_id)))

    return receipts.api_change(request, receipts.owner_of(organiser(request)), made)


@json_post("/api/admin/events", sync_to_thread=True, tags=["organiser"], action="events")
def api_create(request: Request[Any, Any, Any], data: JSONBody[NewEvent]) -> Response[Done]:
    """Create an event with `tournament create`'s options."""
    return _done(request, data.id, lambda s: create(s, data))


@json_post("/api/admin/events/{event_id:str}/players", sync_to_thread=True, tags=["organiser"], action="players")
def api_register(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[NewPlayers]) -> Response[Done]:
    """Register players, all or none: a list, or a CSV file's text (`register --from`)."""
    return _done(request, event_id, lambda s: register(s, event_id, people_from(data)))


@json_post("/api/admin/events/{event_id:str}/rename", sync_to_thread=True, tags=["organiser"], action="players")
def api_rename(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Rename]) -> Response[Done]:
    return _done(request, event_id, lambda s: rename(s, event_id, data.player, data.name))


@json_post("/api/admin/events/{event_id:str}/pause", sync_to_thread=True, tags=["organiser"], action="players")
def api_pause(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Pause]) -> Response[Done]:
    """Pause a player (`paused`: true) or resume them (false)."""
    return _done(request, event_id, lambda s: pause(s, event_id, data.player, data.paused))


@json_post("/api/admin/events/{event_id:str}/bye", sync_to_thread=True, tags=["organiser"], action="players")
def api_bye(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Bye]) -> Response[Done]:
    """A pre-assigned bye in a round not yet paired; `round` null takes it back."""
    return _done(request, event_id, lambda s: bye(s, event_id, data.player, data.round))


@json_post("/api/admin/events/{event_id:str}/unpair", sync_to_thread=True, tags=["organiser"], action="rounds")
def api_unpair(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Reason]) -> Response[Done]:
    """Take back the current round before any result (T-23)."""
    return _done(request, event_id, lambda s: unpair(s, event_id, data.reason))


@json_post("/api/admin/events/{event_id:str}/repair", sync_to_thread=True, tags=["organiser"], action="rounds")
def api_pair_again(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Pairing]) -> Response[Done]:
    """Take back the current round and pair it again (`unpair`, then `pair`; `reseed`: `pair --reseed`)."""
    return _done(request, event_id, lambda s: pair_again(s, event_id, data.reason, reseed=data.reseed))


@json_post("/api/admin/events/{event_id:str}/swap", sync_to_thread=True, tags=["organiser"], action="rule")
def api_swap(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Swap]) -> Response[Done]:
    """A judge exchanges two players' seats in the current round (T-24)."""
    return _done(request, event_id, lambda s: swap(s, event_id, *data.players, data.reason))


@json_post("/api/admin/events/{event_id:str}/results", sync_to_thread=True, tags=["organiser"], action="results")
def api_results(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[RoundResults]) -> Response[Done]:
    """The current round's slips at once, all or none; a table with a result already is corrected (`reason`)."""
    return _done(request, event_id, lambda s: enter_round(s, event_id, data.scores, data.reason))


@json_post("/api/admin/events/{event_id:str}/cut", sync_to_thread=True, tags=["organiser"], action="rounds")
def api_cut(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Cut]) -> Response[Done]:
    """End the Swiss rounds: the top `size` play a single-elimination bracket."""
    return _done(request, event_id, lambda s: cut(s, event_id, _within(data.size, "size", 1, INT32_MAX) or 0))


@json_post("/api/admin/events/{event_id:str}/finish", sync_to_thread=True, tags=["organiser"], action="rounds")
def api_finish(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Done]:
    """Finish the event (every table has a result): no more rounds or players (T-104)."""
    return _done(request, event_id, lambda s: finish(s, event_id))


HANDLERS = [
    create_form, *FORMS,
    api_create, api_register, api_rename, api_pause, api_bye, api_unpair, api_pair_again, api_swap, api_results, api_cut, api_finish,
]
