"""The games API, included under /api/."""

from django.urls import path

from games.apis import GameIssueApi, SubmissionDetailApi, SubmissionsApi

urlpatterns = [
    path("games/", GameIssueApi.as_view(), name="api-games-issue"),
    path("submissions/", SubmissionsApi.as_view(), name="api-submissions"),
    path("submissions/<int:submission_id>/", SubmissionDetailApi.as_view(), name="api-submission-detail"),
]
