"""The account API, included under /api/."""

from django.urls import path

from accounts.apis import AccountApi

urlpatterns = [
    path("account/", AccountApi.as_view(), name="api-account"),
]
