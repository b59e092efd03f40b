"""The leaderboard API, included under /api/. The daily deal's: daily/urls.py."""

from django.urls import path

from leaderboard import apis, deal_apis

urlpatterns = [
    path("leaderboards/", apis.LeaderboardApi.as_view(), name="api-leaderboard"),
    path("deals/<str:code>/leaderboard/", apis.DealLeaderboardApi.as_view(), name="api-deal-leaderboard"),
    path("deals/<str:code>/", deal_apis.DealDetailApi.as_view(), name="api-deal"),
]
