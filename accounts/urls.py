"""The account API, included under /api/."""

from django.urls import path

from accounts.apis import AccountApi, SessionApi

urlpatterns = [
    path("account/", AccountApi.as_view(), name="api-account"),
    path("session/", SessionApi.as_view(), name="api-session"),
]
