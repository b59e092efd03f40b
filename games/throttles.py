"""Per-user rate limits of the games API; rates come from settings.GAMES_THROTTLE_RATES at request time."""

from django.conf import settings
from rest_framework.throttling import UserRateThrottle


class GamesRateThrottle(UserRateThrottle):
    def get_rate(self) -> str | None:
        return settings.GAMES_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view) -> bool:
        self.rate = self.get_rate()  # read per request, so settings changes apply at once
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


class GameIssueThrottle(GamesRateThrottle):
    scope = "game_issue"


class SubmissionCreateThrottle(GamesRateThrottle):
    scope = "submission_create"


class GameRevealThrottle(GamesRateThrottle):
    scope = "game_reveal"


class HintThrottle(GamesRateThrottle):
    scope = "hint"


class HintReadThrottle(GamesRateThrottle):
    """Reading a hint being searched: the page asks about once a second."""

    scope = "hint_read"


class WinnableDealsThrottle(GamesRateThrottle):
    """Per player when signed in, else per address (the endpoint is public)."""

    scope = "winnable_deals"
