"""Decoders that check string patterns after decoding, with exactly the errors msgspec gives.

msgspec checks a `pattern` constraint by running Python's `re` on every value,
which costs more than decoding the rest of a record (a player id about 0.8 us
against 0.2 us for a whole draw record). A schema marks such a pattern with
`schemas.log.deferred`: the JSON Schema still states it, decoding skips it, and
`Decoder` checks it right after, once per distinct value (player ids and card
names repeat in every log). When a value breaks its pattern, or the line does
not decode at all, a strict twin of the type (the pattern checked while
decoding) decodes the line again, so the error is the one msgspec gives.

A setup part marked `schemas.log.remembered` (a player's deck, which comes back
in every round of an event) is decoded and checked once per distinct text and
shared by every game that brings it.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable
from functools import cache, lru_cache
from itertools import chain
from operator import attrgetter
from typing import Annotated, Any, Union, get_args, get_origin

import msgspec

from referee.linecheck import repeated, repeated_key
from schemas.log import DEFERRED, REMEMBERED

Check = Callable[[Any], bool]
KNOWN_LIMIT = 4096  # distinct values remembered per pattern
REMEMBERED_LIMIT = 256  # distinct remembered parts kept per field (a big event's decks)
# The constraints a deferred Meta may carry beside its pattern, kept in the strict twin.
_CONSTRAINTS = ("gt", "ge", "lt", "le", "multiple_of", "min_length", "max_length", "tz")


class Decoder:
    """A JSON decoder for `type_` that checks its deferred patterns after decoding."""

    def __init__(self, type_: Any) -> None:
        self._lax = msgspec.json.Decoder(type_)
        self._type = type_
        check = _checker(type_)
        self.deferring = check is not None
        self.valid: Check = check or _anything  # False when a value breaks its deferred pattern
        # For a union of Structs: the member types that have deferred patterns, and their checks.
        self.checks: dict[type, Check] = _struct_checks(type_)
        # Unchecked: the caller runs `checks` on what it gets.
        self.decode_lines = self._lax.decode_lines
        self._parts = _remembering(type_)

    def decode(self, line: bytes) -> Any:
        """The decoded value, or the error msgspec raises when the patterns are checked while decoding."""
        if self._parts is not None and (value := self._parts(line)) is not None:
            return value
        try:
            value = self._lax.decode(line)
        except Exception:
            if self.deferring:
                self._strict().decode(line)  # the first error in the line may be a pattern's
            raise
        if not self.valid(value):
            self._strict().decode(line)
        return value

    def _strict(self) -> msgspec.json.Decoder[Any]:
        return _strict_decoder(self._type)


def _anything(value: Any) -> bool:
    return True


@cache
def _strict_decoder(type_: Any) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(_strict(type_))


@cache
def _known(pattern: str) -> set[str]:
    """Values seen to match `pattern`."""
    return set()


@cache
def _matcher(pattern: str) -> Check:
    """Whether a string matches `pattern` as msgspec checks it (`re.search`), remembering the values that do."""
    search = re.compile(pattern).search
    known = _known(pattern)

    def matches(value: str) -> bool:
        if value in known:
            return True
        if search(value) is None:
            return False
        if len(known) < KNOWN_LIMIT:
            known.add(value)
        return True

    return matches


def _deferred(annotation: Any) -> tuple[Any, msgspec.Meta, str] | None:
    """For `Annotated[str, deferred(...)]`: the base type, its Meta and the pattern."""
    if get_origin(annotation) is Annotated:
        base, *extras = get_args(annotation)
        for meta in extras:
            if isinstance(meta, msgspec.Meta) and meta.extra and DEFERRED in meta.extra:
                return base, meta, meta.extra[DEFERRED]
    return None


def _is_struct(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, msgspec.Struct)


def _members(annotation: Any) -> tuple[Any, ...] | None:
    """The members of a union, or None."""
    return get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else None


def _runtime_type(annotation: Any) -> Any:
    """The Python type a value of `annotation` decodes to (`str` for a constrained string, `list` for list[...])."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return get_origin(annotation) or annotation


def _fields(cls: type[msgspec.Struct]) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(cls, include_extras=True)
    return [(name, hints[name]) for name in cls.__struct_fields__]


@cache
def _checker(annotation: Any) -> Check | None:
    """A check of every deferred pattern inside a value of `annotation`, or None when it has none."""
    if (found := _deferred(annotation)) is not None:
        return _matcher(found[2])
    if get_origin(annotation) is Annotated:
        return _checker(get_args(annotation)[0])
    if (members := _members(annotation)) is not None:
        by_type = {_runtime_type(m): c for m in members if (c := _checker(m)) is not None}
        if not by_type:
            return None
        return lambda value: (check := by_type.get(type(value))) is None or check(value)
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (list, set, frozenset) or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        return _every(args[0])
    if origin is dict:
        key, values = _every(args[0]), _every(args[1])
        if key is None and values is None:
            return None
        return lambda value: (key is None or key(value)) and (values is None or values(value.values()))
    if _is_struct(annotation):
        fields = [_field_check(name, hint, c) for name, hint in _fields(annotation) if (c := _checker(hint)) is not None]
        return _all_of(fields) if fields else None
    return None


def _field_check(name: str, annotation: Any, check: Check) -> Check:
    get = attrgetter(name)
    if (found := _deferred(annotation)) is not None:  # a string field: a known value passes without a call
        known = _known(found[2])
        return lambda value: (text := get(value)) in known or check(text)
    return lambda value: check(get(value))


def _all_of(checks: list[Check]) -> Check:
    """One check that passes when all of `checks` pass (nested calls: cheaper than a generator for a few)."""
    if len(checks) == 1:
        return checks[0]
    first, rest = checks[0], _all_of(checks[1:])
    return lambda value: first(value) and rest(value)


def _every(annotation: Any) -> Check | None:
    """A check of every item of a collection of `annotation`; items whose strings are all known pass at C speed."""
    item = _checker(annotation)
    if item is None:
        return None
    known = _all_known(annotation)
    if known is not None:
        return lambda value: known(value) or all(map(item, value))
    return lambda value: all(map(item, value))


def _all_known(annotation: Any) -> Check | None:
    """For a collection of `annotation`: True when every deferred string in it is one already seen to match
    (False only means "check each item"), without a Python call per item; None when `annotation` has other checks.
    """
    if (found := _deferred(annotation)) is not None:
        return _known(found[2]).issuperset
    if not _is_struct(annotation):
        return None
    checks: list[Check] = []
    for name, hint in _fields(annotation):
        if _checker(hint) is None:
            continue
        if (found := _deferred(hint)) is not None:  # a string field
            checks.append(_fields_known(_known(found[2]), attrgetter(name), nested=False))
            continue
        origin, args = get_origin(hint), get_args(hint)
        inner = args[0] if origin in (list, set, frozenset, dict) else None
        if inner is None or (found := _deferred(inner)) is None or (origin is dict and _checker(args[1]) is not None):
            return None
        checks.append(_fields_known(_known(found[2]), attrgetter(name), nested=True))  # strings, or a dict's keys
    return _all_of(checks)


def _fields_known(known: set[str], get: Callable[[Any], Any], nested: bool) -> Check:
    """Whether every item's field (`nested`: every string in every item's field) is in `known`."""
    if nested:
        return lambda items: known.issuperset(chain.from_iterable(map(get, items)))
    return lambda items: known.issuperset(map(get, items))


def _remembering(annotation: Any) -> Callable[[bytes], Any] | None:
    """A decode of `annotation` that takes its `remembered` parts from a memo of their bytes, or None when it has none.

    The decode gives None when anything fails or a pattern breaks: the ordinary
    decode then gives msgspec's error.
    """
    if (found := remembered_twin(annotation)) is None:
        return None
    twin, convert = found
    lax, check = msgspec.json.Decoder(twin), _checker(twin) or _anything

    def decode(line: bytes) -> Any:
        try:
            value = lax.decode(line)
            return convert(value) if check(value) else None
        except Exception:
            return None

    return decode


@cache  # one memo per remembered part, shared by every decoder that reads it
def remembered_twin(annotation: Any) -> tuple[Any, Callable[[Any], Any]] | None:
    """`annotation` with its remembered parts left as raw JSON, and what turns a value of that into a value of
    `annotation` (each part decoded once per distinct text); None when nothing in it is remembered.
    Remembered parts are looked for in Struct fields and dict values. Turning a value whose part
    does not decode raises what decoding the part raises.
    """
    if _is_remembered(annotation):
        memo = lru_cache(REMEMBERED_LIMIT)(_part_decoder(_unmarked(annotation)))
        return msgspec.Raw, lambda text: memo(bytes(text))
    if get_origin(annotation) is dict:
        key, value = get_args(annotation)
        if (found := remembered_twin(value)) is None:
            return None
        values, part = found
        return dict[key, values], lambda items: {k: part(v) for k, v in items.items()}  # type: ignore[valid-type]
    if not _is_struct(annotation):
        return None
    parts = {name: found for name, hint in _fields(annotation) if (found := remembered_twin(hint)) is not None}
    if not parts:
        return None
    info = {f.name: f for f in msgspec.structs.fields(annotation)}
    fields = [_field(name, twin, info[name]) for name, (twin, _) in parts.items()]
    twin = msgspec.defstruct(annotation.__name__, fields, bases=(annotation,), module=annotation.__module__)
    names = annotation.__struct_fields__

    def whole(value: Any) -> Any:
        given = {name: getattr(value, name) for name in names}
        for name, (_, part) in parts.items():
            given[name] = part(given[name])
        return annotation(**given)

    return twin, whole


def _part_decoder(annotation: Any) -> Callable[[bytes], Any]:
    """A decode of one remembered part that refuses a key repeated in it (so the header, which keeps
    the part as written, need not look inside it again: once per distinct text, under the memo)."""
    decoder = Decoder(annotation)

    def decode(text: bytes) -> Any:
        value = decoder.decode(text)
        if key := repeated_key(text, value):
            raise repeated(key)
        return value

    return decode


def _is_remembered(annotation: Any) -> bool:
    return get_origin(annotation) is Annotated and any(map(_marks, get_args(annotation)[1:]))


def _marks(meta: Any) -> bool:
    """Whether `meta` is the `remembered` mark."""
    return isinstance(meta, msgspec.Meta) and meta.extra is not None and REMEMBERED in meta.extra


def _unmarked(annotation: Any) -> Any:
    """A remembered `Annotated[X, ...]` without the mark: what decodes the part itself."""
    base, *extras = get_args(annotation)
    kept = [meta for meta in extras if not _marks(meta)]
    return Annotated[(base, *kept)] if kept else base


def _struct_checks(annotation: Any) -> dict[type, Check]:
    members = _members(annotation) or (annotation,)
    return {m: c for m in members if _is_struct(m) and (c := _checker(m)) is not None}


@cache
def _strict(annotation: Any) -> Any:
    """`annotation` with its deferred patterns checked while decoding (Structs become subclasses that say so)."""
    if _checker(annotation) is None:
        return annotation
    if get_origin(annotation) is Annotated:
        base, *extras = get_args(annotation)
        if (found := _deferred(annotation)) is not None:
            meta, pattern = found[1], found[2]
            kept = {name: value for name in _CONSTRAINTS if (value := getattr(meta, name)) is not None}
            extras = [msgspec.Meta(pattern=pattern, **kept) if extra is meta else extra for extra in extras]
        return Annotated.__class_getitem__((_strict(base), *extras))
    if (members := _members(annotation)) is not None:
        return Union[tuple(_strict(m) for m in members)]  # noqa: UP007 - built from a runtime tuple
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (list, set, frozenset, tuple, dict):
        return origin[tuple(_strict(a) if a is not Ellipsis else a for a in args)]
    defaults = {f.name: f for f in msgspec.structs.fields(annotation)}
    changed = [_field(name, _strict(hint), defaults[name]) for name, hint in _fields(annotation) if _checker(hint) is not None]
    return msgspec.defstruct(annotation.__name__, changed, bases=(annotation,), module=annotation.__module__)


def _field(name: str, annotation: Any, info: msgspec.structs.FieldInfo) -> tuple[Any, ...]:
    """A field for `defstruct`, with the default it had."""
    if info.default is not msgspec.NODEFAULT:
        return name, annotation, info.default
    if info.default_factory is not msgspec.NODEFAULT:
        return name, annotation, msgspec.field(default_factory=info.default_factory)
    return name, annotation
