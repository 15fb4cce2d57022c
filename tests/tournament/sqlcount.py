"""The SQL statements a block of a test sends, for tests that count them (a request's, a whole round's)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "SET ", "SHOW ")  # a transaction's edges, not reads or writes


@contextmanager
def statements(engine: Engine | None = None) -> Iterator[list[str]]:
    """Every statement `engine` (by default any engine, the app's included) sends meanwhile, without the
    transactions' edges and PostgreSQL's NOTIFY (the live stream's message), each as its kind and the tables it
    names."""
    sent: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        text = " ".join(statement.split())
        if not text.upper().startswith(CONTROL) and "pg_notify" not in text:
            tables = sorted(set(re.findall(r"\b(?:FROM|JOIN|INTO|UPDATE)\s+\"?(\w+)", text, re.IGNORECASE)))
            sent.append(f"{text.split()[0].upper()} {' '.join(tables)}")

    target = Engine if engine is None else engine
    event.listen(target, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(target, "before_cursor_execute", note)
