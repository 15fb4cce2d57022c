"""What the server prints on its terminal (uvicorn's own log, with one change).

At Ctrl+C the pages still open hold their live streams; uvicorn waits a few
seconds, then cancels them, and logs each cancelled stream as an "Exception
in ASGI application" with a forty-line traceback: two hundred phones, eight
thousand lines on the organiser's screen at the end of the day. Nothing went
wrong (each page reconnects by itself when the server is back), so the
cancellations are left out and uvicorn's one-line count of them is said in
words.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from typing import Any

from uvicorn.config import LOGGING_CONFIG

CUT = "Cancel %s running task(s), timeout graceful shutdown exceeded"  # uvicorn's words (uvicorn/server.py)


def _cancelled(exc: BaseException | None) -> bool:
    if isinstance(exc, BaseExceptionGroup):
        return all(_cancelled(inner) for inner in exc.exceptions)
    return isinstance(exc, asyncio.CancelledError)


class StreamsCutAtShutdown(logging.Filter):
    """Leaves out a cancelled request's traceback, and says uvicorn's count of them in words."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and _cancelled(record.exc_info[1]):
            return False
        if record.msg == CUT:
            record.msg = "%s live page(s) cut at shutdown; they reconnect by themselves when the server is back"
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with the filter on its terminal handler (each worker applies it)."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"cut_streams": {"()": f"{__name__}.StreamsCutAtShutdown"}}
    config["handlers"]["default"]["filters"] = ["cut_streams"]
    return config
