"""The daily deal's API, included under /api/."""

from django.urls import path

from daily import apis

urlpatterns = [
    path("daily/", apis.DailyDealApi.as_view(), name="api-daily"),
    path("daily/games/", apis.DailyGameApi.as_view(), name="api-daily-games"),
]
