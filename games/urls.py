"""The games API, included under /api/."""

from django.urls import path

from games.hidden.apis import GameDetailApi, GameRevealApi
from games.issuing.apis import GameIssueApi
from games.replays.apis import ReplayDetailApi
from games.solving.apis import HintApi, HintTicketApi, WinnableDealsApi
from games.submissions.apis import SubmissionDetailApi, SubmissionsApi

urlpatterns = [
    path("games/", GameIssueApi.as_view(), name="api-games-issue"),
    path("games/<int:game_id>/", GameDetailApi.as_view(), name="api-game-detail"),
    path("games/<int:game_id>/reveals/", GameRevealApi.as_view(), name="api-game-reveals"),
    path("submissions/", SubmissionsApi.as_view(), name="api-submissions"),
    path("submissions/<int:submission_id>/", SubmissionDetailApi.as_view(), name="api-submission-detail"),
    # Before the leaderboard's deals/<code>/ (games' URLs are included first).
    path("deals/winnable/", WinnableDealsApi.as_view(), name="api-deals-winnable"),
    path("replays/<int:submission_id>/", ReplayDetailApi.as_view(), name="api-replay"),
    path("hint/", HintApi.as_view(), name="api-hint"),
    path("hint/<str:ticket>/", HintTicketApi.as_view(), name="api-hint-ticket"),
]
