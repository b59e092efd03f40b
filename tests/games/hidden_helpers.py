"""Hidden-card games for the tests: issued for a known deal, and played through their reveals."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from games_helpers import AN_HOUR_AGO, PACE_MS, paced

from games.engine import Game
from games.hidden.reveals import game_reveal
from games.issuing.dealing import known_deals
from games.issuing.services import game_issue
from games.models import IssuedGame, Reveal

LOOK_MS = 5_000  # the server's time from the issue to the first move
LATENCY_MS = 40  # from a move to the server's receipt of its reveal


def issue_hidden(user, code: str, *, ago: timedelta = AN_HOUR_AGO) -> IssuedGame:
    """A hidden-card game of the deal of `code` (its YU2 code: the random draw replaced), issued `ago`."""
    rules = "classic" if "-C-" in code else "relaxed"
    with known_deals([code]):
        (game,) = game_issue(user=user, rules=rules, hidden=True, now=timezone.now() - ago)
    return game


def exposing_prefixes(code: str, log: str) -> list[int]:
    """The lengths of the log's prefixes whose last token turns up a face-down card."""
    game, lengths = Game(code), []
    for index, token in enumerate(log.split()):
        before = game.face_down
        game.play(token)
        if game.face_down != before:
            lengths.append(index + 1)
    return lengths


def exposing_line(code: str, *, flips: int) -> str:
    """A legal log of at most `flips` moves, each turning up a face-down card (the first such
    legal move each time); shorter when no legal move turns one up."""
    game, tokens = Game(code), []
    for _ in range(flips):
        for move in game.legal_moves:
            before = game.face_down
            game.push(move)
            if game.face_down != before:
                tokens.append(str(move))
                break
            game.undo()
        else:
            break
    return " ".join(tokens)


def steady_receipt(game: IssuedGame, page_ms: int, *, early_ms: int = 0):
    """When the server receives a request the page sent at its time `page_ms`: a steady player
    (LOOK_MS before the first move, LATENCY_MS on the way), or `early_ms` sooner than that."""
    return game.issued_at + timedelta(milliseconds=LOOK_MS + page_ms + LATENCY_MS - early_ms)


def reveal_along(
    game: IssuedGame, log: str, *, upto: int | None = None, step_ms: int = PACE_MS, early_ms=lambda n: 0
) -> list[Reveal]:
    """Ask for every card the log turns up (in its first `upto` tokens), as a page playing one
    move every `step_ms` would; the n-th request (from 0) is received `early_ms(n)` sooner than
    a steady player's."""
    tokens, times = log.split(), paced(log, step_ms)
    reveals = []
    for number, length in enumerate(exposing_prefixes(game.code, log)):
        if upto is not None and length > upto:
            break
        page_ms = times[length - 1]
        reveals.append(
            game_reveal(
                user=game.user,
                game_id=game.pk,
                log=" ".join(tokens[:length]),
                move_times_ms=times[:length],
                now=steady_receipt(game, page_ms, early_ms=early_ms(number)),
            )
        )
    return reveals
