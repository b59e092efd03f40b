"""Checks of a finished hidden-card game's result, called by the verification's judge
(`games.submissions.judge`): `unrevealed_card_problem`, `hidden_game_problem`."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from games.hidden.positions import hidden_game_position, log_play
from games.hidden.record import prefix_mismatch
from games.hidden.reveals import game_reveals
from games.models import IssuedGame, Submission


def hidden_game_problem(*, submission: Submission) -> tuple[str, str, dict] | None:
    """(code, reason, figures) when a hidden-card game's legal result is not a game its player could have
    played as shown: `prefix_conflict` (`hidden_log_problem`), then `timing_reveals`
    (`reveals_timing_problem`). A log that plays on past a card never revealed is refused before
    the deal is replayed at all (`unrevealed_card_problem`)."""
    return hidden_log_problem(
        game=submission.game, tokens=submission.log.split(), times=submission.move_times_ms
    ) or reveals_timing_problem(submission=submission)


def unrevealed_card_problem(*, game: IssuedGame, tokens: list[str]) -> tuple[str, str, dict, dict] | None:
    """(`unrevealed_card`, reason, figures, the position's figures) when the log plays on after a
    card it turned up and the server never revealed to this game, else None.

    The log is replayed from what the player was shown (the face-up cards and the reveals), never
    from the deal, and stops at that move: the answer is the same whatever the log holds past it,
    so a refusal cannot tell whether a move there named the hidden card rightly."""
    position = hidden_game_position(game, list(game.reveals.all()))
    error = log_play(position, tokens)
    waiting = position.awaiting_reveal  # the place whose card never came (the position stopped there)
    if error is None or waiting is None:
        return None  # legal as shown, or refused for a reason the whole deal's replay gives alike
    figures = {"move": error["index"] + 1, "token": error["token"], "column": waiting.column + 1}
    reason = f"{error['message']}; the server never revealed it to this game"
    position_figures = {
        "moves": position.moves_made,
        "foundation_cards": position.foundation_cards,
        "score": position.ranked_score(),
        "points": position.points,
    }
    return "unrevealed_card", reason, figures, position_figures


def hidden_log_problem(
    *, game: IssuedGame, tokens: list[str], times: list[int]
) -> tuple[str, str, dict] | None:
    """(`prefix_conflict`, reason, figures) when a hidden-card game's legal log does not extend
    the prefix the server recorded: it is not the game its player was shown."""
    if mismatch := prefix_mismatch(game, tokens=tokens, times=times, must_extend=True):
        return ("prefix_conflict", *mismatch)
    return None


def reveals_timing_problem(*, submission: Submission) -> tuple[str, str, dict] | None:
    """(`timing_reveals`, reason, figures) when the page counted more play between two of the server's
    marks than its clock saw pass between them, by more than REVEAL_CLOCK_TOLERANCE_MS. The marks:
    the game's issue (page time 0), each reveal (the page's time at the move that turned the card
    up, the server's receipt), the result (its duration, its receipt). One-sided: the page's clock
    stops while it is hidden. Every pair is checked, not only neighbours, so the tolerance is
    granted once: 21 reveals cannot bank 21 tolerances of invented play."""
    game = submission.game
    tolerance = settings.REVEAL_CLOCK_TOLERANCE_MS
    # (words, the reveal's move or None, page time, server time); figures: None = the issue or the result
    marks = [("the game's issue", None, 0, game.issued_at)]
    for reveal in game_reveals(game):
        words = f"the reveal at move {reveal.prefix_length}"
        marks.append((words, reveal.prefix_length, reveal.page_time_ms, reveal.received_at))
    marks.append(("this result", None, submission.duration_ms, submission.received_at))

    def server_ms(at: datetime) -> int:
        return int((at - game.issued_at).total_seconds() * 1000)

    behind = marks[0]  # the earlier mark where the page's clock was furthest behind the server's
    for mark in marks[1:]:
        (since, since_move, page_from, server_from), (until, until_move, page_to, server_to) = behind, mark
        played_ms, passed_ms = page_to - page_from, server_ms(server_to) - server_ms(server_from)
        if played_ms > passed_ms + tolerance:
            figures = {
                "played_ms": played_ms,
                "passed_ms": passed_ms,
                "tolerance_ms": tolerance,
                "since_move": since_move,
                "until_move": until_move,
            }
            return (
                "timing_reveals",
                (
                    f"the page counted {played_ms} ms of play between {since} and {until}, but only "
                    f"{passed_ms} ms passed on the server (tolerance {tolerance} ms)"
                ),
                figures,
            )
        if page_to - server_ms(server_to) < page_from - server_ms(server_from):
            behind = mark
    return None
