"""The races API, included under /api/."""

from django.urls import path

from races import apis

urlpatterns = [
    path("races/", apis.RacesApi.as_view(), name="api-races"),
    path("races/ratings/", apis.RatingBoardApi.as_view(), name="api-race-ratings"),
    path("races/quick/", apis.QuickMatchApi.as_view(), name="api-race-quick-match"),
    path("races/<str:race_id>/", apis.RaceDetailApi.as_view(), name="api-race-detail"),
    path("races/<str:race_id>/join/", apis.RaceJoinApi.as_view(), name="api-race-join"),
    path("races/<str:race_id>/leave/", apis.RaceLeaveApi.as_view(), name="api-race-leave"),
    path("races/<str:race_id>/start/", apis.RaceStartApi.as_view(), name="api-race-start"),
    path("races/<str:race_id>/rematch/", apis.RaceRematchApi.as_view(), name="api-race-rematch"),
    path(
        "races/<str:race_id>/rematch/decline/",
        apis.RaceRematchDeclineApi.as_view(),
        name="api-race-rematch-decline",
    ),
]
