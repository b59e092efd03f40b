from django.urls import path

from frontend import views

urlpatterns = [
    path("", views.play, name="play"),
    path("play/<str:code>", views.play, name="play-code"),
    # The service worker lives at the root so that it may control every page of the site.
    path("sw.js", views.service_worker, name="service-worker"),
]
