"""The operations the CLI and the web run, each inside the caller's one transaction.

Every change locks the event row first (`lock_event`), checks against what
it then reads, and appends one or more log entries; a check that fails
raises a `TournamentError` before anything is written, so the caller's
rollback leaves the database as it was.

One module per concern; callers use `service.<name>` for all of them:

- `errors`: exit codes and the errors;
- `queries`: reading the event, players, rounds, tables and pods;
- `events`: creating an event; `roster`: registering, renaming, pausing and dropping players, pre-assigned byes;
- `people`: display names, ids derived from them, people from a CSV file;
- `persons`: who players are across events (T-90), linking them; `ratings`: every rated event's results, rated;
- `clock`: the round clock and time extensions; `notices`: the big screen's notice line; `amend`: unpairing a round, a judge's seat swap;
- `entry`: results at a scorekeeper's speed (2-1 scores, a whole round from a file);
- `elimination`: brackets as they stand; `ranking`: standings and entrants;
- `pairings`: seeding, the top cut, pairing, re-pairing for `verify`;
- `results`: reports from game logs or a judge, corrections, pods;
- `claims`: players' claims on `tournament serve`, confirmations, the judge queue, rulings (on decks too);
- `decks`: deck lists registered, judged and published, the deadline's policy, every game's decks compared;
- `tokens`: `tournament serve`'s sign-in codes, sessions, the organiser token;
- `calls`: players' judge calls and the organiser's answers; `signup`: public registration, the waitlist, check-in;
- `rejudge`: every stored log judged again by today's referee (nothing changed).

These modules are imported by name, not through `service.<name>`, and use it:
`export` (standings, pairings, brackets and whole events as the Structs of
`schemas/tournament.py`, and the views kept for reads), `verification`
(`tournament verify`), `demo` (a whole bot event), and the live tables:
`livetable` (games played record by record) and `witness` (acknowledgements,
confirmations, the report by itself, judge calls, bot seats).
May import `storage`, `formats`, `schemas` and `referee`; not `output`, `web` or `cli`.
"""

from __future__ import annotations

from tournament.service.amend import (
    swap,
    unpair,
)
from tournament.service.calls import (
    MAX_TEXT as MAX_CALL_TEXT,
)
from tournament.service.calls import (
    answer_call,
    call_judge,
    judge_calls,
    open_call,
)
from tournament.service.claims import (
    Table,
    TableState,
    claim,
    claimed_scores,
    confirm,
    current_tables,
    judge_queue,
    last_line_hash,
    rule,
    rule_decks,
    seat_of,
    state_of,
    tables,
)
from tournament.service.clock import (
    DEFAULT_MINUTES,
    Clock,
    TableTime,
    clock,
    extend,
    round_ends,
    start_round,
)
from tournament.service.decks import (
    POLICIES,
    DeckStatus,
    Submitted,
    deadline_passed,
    decoded,
    difference_lines,
    entry_of,
    lists_from_csv,
    lists_from_folder,
    may_see,
    metagame,
    open_checks,
    policy_said,
    publish,
    register_lists,
    rules_for,
    set_policy,
    statuses,
)
from tournament.service.decks import differences as deck_differences
from tournament.service.decks import refuse as refuse_decks
from tournament.service.elimination import (
    absent_from,
    bracket,
    double_bracket,
    is_bracket,
    is_elimination,
    is_finished,
)
from tournament.service.entry import (
    ResultRow,
    import_results,
    open_tables,
    results_from_csv,
    score_places,
    score_tally,
)
from tournament.service.errors import (
    EXIT_CONFLICT,
    EXIT_DATABASE,
    EXIT_LOG_REJECTED,
    EXIT_NOT_FOUND,
    EXIT_RESULTS_MISSING,
    EXIT_USAGE,
    EXIT_VERIFY_FAILED,
    EXIT_WRONG_TABLE,
    Conflict,
    LogRejected,
    NotFound,
    ResultsMissing,
    TournamentError,
    Usage,
    WrongTable,
)
from tournament.service.events import (
    FORMATS,
    SEEDED,
    TABLES,
    create_event,
)
from tournament.service.notices import NOTICE, set_notice
from tournament.service.pairings import (
    CUT_SIZES,
    cut,
    finish,
    next_pods,
    next_round,
    pair,
    pods_paired,
    repairing_problem,
    seed,
    top_cut,
)
from tournament.service.people import (
    Person,
    clean_name,
    display_names,
    people_from_args,
    people_from_csv,
    slug,
)
from tournament.service.persons import (
    get_person,
    link,
    namesakes,
)
from tournament.service.queries import (
    ID_PATTERN,
    assigned_byes,
    check_id,
    event_heads,
    find_match,
    find_pod,
    get_event,
    get_player,
    had_bye,
    lock_event,
    matches,
    open_match,
    players,
    pod_tables,
    rounds,
    seeded,
)
from tournament.service.ranking import (
    entrants,
    pod_entrants,
    standings,
)
from tournament.service.rejudge import rejudge_event
from tournament.service.results import (
    PodResult,
    Reported,
    Tally,
    check_places,
    check_tally,
    judge_logs,
    match_over,
    parse_result,
    referee_reason,
    report,
    report_pod,
    result_source,
)
from tournament.service.roster import (
    assign_bye,
    drop,
    register,
    register_people,
    rename,
    set_paused,
)
from tournament.service.signup import (
    SignedUp,
    check_in,
    leave,
    leave_out_absent,
    promoted,
    registration,
    set_registration,
    sign_up,
    waitlist_place,
)
from tournament.service.tokens import (
    Denied,
    Identity,
    Spent,
    TooManyGuesses,
    check_public_url,
    enrol,
    ensure_organiser,
    exchange_code,
    identify,
    issue_code,
    keep_public_url,
    new_organiser_token,
    organiser_login,
    public_url,
    record_guess,
    server_secret,
    sign_out,
)

__all__ = [
    "CUT_SIZES",
    "DEFAULT_MINUTES",
    "EXIT_CONFLICT",
    "EXIT_DATABASE",
    "EXIT_LOG_REJECTED",
    "EXIT_NOT_FOUND",
    "EXIT_RESULTS_MISSING",
    "EXIT_USAGE",
    "EXIT_VERIFY_FAILED",
    "EXIT_WRONG_TABLE",
    "FORMATS",
    "ID_PATTERN",
    "MAX_CALL_TEXT",
    "NOTICE",
    "POLICIES",
    "SEEDED",
    "TABLES",
    "Clock",
    "Conflict",
    "DeckStatus",
    "Denied",
    "Identity",
    "LogRejected",
    "NotFound",
    "Person",
    "PodResult",
    "Reported",
    "ResultRow",
    "ResultsMissing",
    "SignedUp",
    "Spent",
    "Submitted",
    "Table",
    "TableState",
    "TableTime",
    "Tally",
    "TooManyGuesses",
    "TournamentError",
    "Usage",
    "WrongTable",
    "absent_from",
    "answer_call",
    "assign_bye",
    "assigned_byes",
    "bracket",
    "call_judge",
    "check_id",
    "check_in",
    "check_places",
    "check_public_url",
    "check_tally",
    "claim",
    "claimed_scores",
    "clean_name",
    "clock",
    "confirm",
    "create_event",
    "current_tables",
    "cut",
    "deadline_passed",
    "deck_differences",
    "decoded",
    "difference_lines",
    "display_names",
    "double_bracket",
    "drop",
    "enrol",
    "ensure_organiser",
    "entrants",
    "entry_of",
    "event_heads",
    "exchange_code",
    "extend",
    "find_match",
    "find_pod",
    "finish",
    "get_event",
    "get_person",
    "get_player",
    "had_bye",
    "identify",
    "import_results",
    "is_bracket",
    "is_elimination",
    "is_finished",
    "issue_code",
    "judge_calls",
    "judge_logs",
    "judge_queue",
    "keep_public_url",
    "last_line_hash",
    "leave",
    "leave_out_absent",
    "link",
    "lists_from_csv",
    "lists_from_folder",
    "lock_event",
    "match_over",
    "matches",
    "may_see",
    "metagame",
    "namesakes",
    "new_organiser_token",
    "next_pods",
    "next_round",
    "open_call",
    "open_checks",
    "open_match",
    "open_tables",
    "organiser_login",
    "pair",
    "parse_result",
    "people_from_args",
    "people_from_csv",
    "players",
    "pod_entrants",
    "pod_tables",
    "pods_paired",
    "policy_said",
    "promoted",
    "public_url",
    "publish",
    "record_guess",
    "referee_reason",
    "refuse_decks",
    "register",
    "register_lists",
    "register_people",
    "registration",
    "rejudge_event",
    "rename",
    "repairing_problem",
    "report",
    "report_pod",
    "result_source",
    "results_from_csv",
    "round_ends",
    "rounds",
    "rule",
    "rule_decks",
    "rules_for",
    "score_places",
    "score_tally",
    "seat_of",
    "seed",
    "seeded",
    "server_secret",
    "set_notice",
    "set_paused",
    "set_policy",
    "set_registration",
    "sign_out",
    "sign_up",
    "slug",
    "standings",
    "start_round",
    "state_of",
    "statuses",
    "swap",
    "tables",
    "top_cut",
    "unpair",
    "waitlist_place",
]
