from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def play(request: HttpRequest) -> HttpResponse:
    """The game page. The table itself is drawn in the browser by the scripts under static/."""
    return render(request, "frontend/play.html")
