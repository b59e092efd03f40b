from django.urls import re_path

from races.consumers import RaceConsumer

websocket_urlpatterns = [
    re_path(r"^ws/races/(?P<race_id>[A-Za-z0-9_-]{1,12})/$", RaceConsumer.as_asgi()),
]
