from django.urls import path
from django.views.i18n import set_language

from frontend import views

urlpatterns = [
    path("", views.play, name="play"),
    path("play/<str:code>", views.play, name="play-code"),
    path("leaderboard", views.leaderboard, name="leaderboard"),
    path("me", views.me, name="me"),
    # One shell for every replay: the script reads the id from the address.
    path("replay/", views.replay, name="replay-shell"),
    path("replay/<int:submission_id>", views.replay, name="replay"),
    path("help", views.help_page, name="help"),
    path("race", views.race_new, name="race-new"),
    path("race/<str:race_id>", views.race, name="race-room"),
    # The language picker's form without scripts (with them, the page sets the cookie itself).
    path("i18n/setlang/", set_language, name="set_language"),
    # The service worker lives at the root so that it may control every page of the site.
    path("sw.js", views.service_worker, name="service-worker"),
]
