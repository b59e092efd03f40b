"""Account pages of our own, under /accounts/ beside allauth's."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.account_profile, name="account_profile"),
    path("delete/", views.account_delete, name="account_delete"),
]
