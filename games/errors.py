"""Every refusal the games app's services raise, each with its HTTP status and stable code.

They are `ApplicationError`s (yukon_site/api_errors.py): DRF's exception handler renders each as
`{"detail": sentence, "code": code}` with its status (field errors as `{field: [problem]}`), so
API views raise and never catch them; the race socket maps the same classes to its own
message (races/consumers.py).
"""

from __future__ import annotations

from yukon_site.api_errors import ApplicationError


class GameServiceError(ApplicationError):
    """A refusal of the games app."""


class SubmissionInvalid(GameServiceError):
    """Field errors: {field: [message or {index, token, code, message}]}."""

    status, code = 400, "invalid"

    def __init__(self, errors: dict[str, list]) -> None:
        super().__init__("the submission is not valid")
        self.errors = errors

    def response_data(self) -> dict:
        return self.errors


class TooManyUnplayedGames(GameServiceError):
    status, code = 409, "too_many_unplayed"


class GameNotFound(GameServiceError):
    status, code = 404, "game_not_found"


class GameNotYours(GameServiceError):
    status, code = 403, "game_not_yours"


class GameAlreadyUsed(GameServiceError):
    status, code = 409, "game_used"


class ClientIdConflict(GameServiceError):
    status, code = 409, "client_id_conflict"


class PrefixConflict(GameServiceError):
    """A hidden-card game's log that does not extend the prefix the server has recorded."""

    status, code = 409, "prefix_conflict"


class NothingExposed(GameServiceError):
    status, code = 400, "nothing_exposed"


class GameNotStarted(GameServiceError):
    """A race's game before its countdown ends: it is issued for the race's start."""

    status, code = 409, "game_not_started"


class HintOnRankedGame(GameServiceError):
    status, code = 403, "ranked_game_in_play"


class HintTicketUnknown(GameServiceError):
    status, code = 404, "not_found"
