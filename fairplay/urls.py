"""The fair-play API, included under /api/."""

from django.urls import path

from fairplay.apis import ReplayAnalysisApi, ResultReportApi, ReviewAppealApi

urlpatterns = [
    path("replays/<int:submission_id>/analysis/", ReplayAnalysisApi.as_view(), name="api-replay-analysis"),
    path("replays/<int:submission_id>/reports/", ResultReportApi.as_view(), name="api-result-reports"),
    path("fairplay/appeals/", ReviewAppealApi.as_view(), name="api-review-appeals"),
]
