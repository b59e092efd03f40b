"""The public board reads' middleware (leaderboard/public_reads.py): a module of its own, above
the API views whose public answer it serves, so that nothing imports back."""

from __future__ import annotations

from leaderboard.board_reads import public_board_answer
from leaderboard.hot_pages import hot_page_kept
from leaderboard.public_reads import public_read_key


class PublicBoardReadMiddleware:
    """Answers a GET of a board's public answer (a page, around a named player: kept, or read
    now) before the session, locale, CSRF, authentication and account middleware, the URL
    resolver and DRF: none of them changes a public answer. Placed after the security headers'
    middleware, which apply to it as to any answer. Anything else (around=me, a refusal) goes on
    to the API view, which answers it as before."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET" and "leaderboard" in request.path_info:
            answer = hot_page_kept(public_read_key(request)) or public_board_answer(request)
            if answer is not None:
                response = answer.response(request)
                response.headers["Allow"] = "GET, HEAD, OPTIONS"
                return response
        return self.get_response(request)
