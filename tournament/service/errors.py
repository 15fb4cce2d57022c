"""Exit codes and the errors every service function may raise (`code` is the CLI's exit code)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemas.verdict import Verdict

# Exit codes (documented in tournament/README.md).
EXIT_VERIFY_FAILED = 1


EXIT_USAGE = 2


EXIT_NOT_FOUND = 3


EXIT_RESULTS_MISSING = 4


EXIT_WRONG_TABLE = 5


EXIT_LOG_REJECTED = 6


EXIT_CONFLICT = 7


EXIT_DATABASE = 8


class TournamentError(Exception):
    """A request the event cannot take; `code` is the CLI's exit code."""

    code = EXIT_USAGE

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Usage(TournamentError):
    code = EXIT_USAGE


class NotFound(TournamentError):
    code = EXIT_NOT_FOUND


class ResultsMissing(TournamentError):
    code = EXIT_RESULTS_MISSING


class WrongTable(TournamentError):
    code = EXIT_WRONG_TABLE


class LogRejected(TournamentError):
    """`verdict`: the referee's, when it refused the log (its rule, message and record)."""

    code = EXIT_LOG_REJECTED

    def __init__(self, message: str, verdict: Verdict | None = None) -> None:
        super().__init__(message)
        self.verdict = verdict


class Conflict(TournamentError):
    code = EXIT_CONFLICT

