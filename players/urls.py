"""The players' API, included under /api/."""

from django.urls import path

from players.apis import PlayerSummaryApi

urlpatterns = [
    path("me/", PlayerSummaryApi.as_view(), name="api-me"),
]
