"""The races' refusals: service errors (yukon_site/api_errors.py, `ApplicationError`) that DRF's
exception handler renders and the race socket maps to its own message (races/consumers.py)."""

from __future__ import annotations

from games.errors import GameServiceError


class RaceError(GameServiceError):
    """A refusal of the races app (409 unless it says otherwise)."""

    code = "race_refused"


class RaceNotFound(RaceError):
    status, code = 404, "race_not_found"


class RaceFull(RaceError):
    code = "race_full"


class AlreadySeated(RaceError):
    code = "already_seated"


class RaceStarted(RaceError):
    code = "race_started"


class NotHost(RaceError):
    status, code = 403, "not_host"


class NotSeated(RaceError):
    status, code = 403, "not_seated"


class TooFewPlayers(RaceError):
    code = "too_few_players"


class RaceNotRunning(RaceError):
    code = "race_not_running"


class RaceNotOver(RaceError):
    code = "race_not_over"
