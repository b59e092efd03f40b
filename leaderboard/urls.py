"""The leaderboard API, included under /api/."""

from django.urls import path

from leaderboard import apis

urlpatterns = [
    path("leaderboards/", apis.LeaderboardApi.as_view(), name="api-leaderboard"),
    path("deals/<str:code>/leaderboard/", apis.DealLeaderboardApi.as_view(), name="api-deal-leaderboard"),
    path("deals/<str:code>/", apis.DealDetailApi.as_view(), name="api-deal"),
    path("daily/", apis.DailyDealApi.as_view(), name="api-daily"),
    path("daily/games/", apis.DailyGameApi.as_view(), name="api-daily-games"),
    path("replays/<int:submission_id>/", apis.ReplayDetailApi.as_view(), name="api-replay"),
]
