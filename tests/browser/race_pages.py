"""The race pages as tests drive them (docs/races.md): the lobby's, table's and results' hooks."""

from __future__ import annotations

from helpers import TABLE, play_token, sign_in, wait_for_moves
from playwright.sync_api import Page, expect
from watch import watch_for_problems

ROOM = "[data-race]"


def view_is(page: Page, view: str, timeout: float = 15_000) -> None:
    expect(page.locator(ROOM)).to_have_attribute("data-race-view", view, timeout=timeout)


def second_player(browser, base_url: str, user, page_problems: list[str]):
    """Another browser (a context of its own: its own cookies and storage), signed in as `user`."""
    context = browser.new_context()
    watch_for_problems(context, page_problems, label=user.username)
    sign_in(context, base_url, user)
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    return context, page


def create_race(
    page: Page, base_url: str, *, rules: str = "classic", seats: int = 2, minutes: str = ""
) -> str:
    """Create a race through the form at /race; the race's id, once its lobby shows."""
    page.goto(f"{base_url}/race")
    form = page.locator("[data-race-form]")
    form.locator(f'input[name="rules"][value="{rules}"]').check()
    form.locator(f'input[name="seats"][value="{seats}"]').check()
    form.locator(f'input[name="time_limit_minutes"][value="{minutes}"]').check()
    form.locator("[data-race-create]").click()
    page.wait_for_url(f"{base_url}/race/*")
    view_is(page, "lobby")
    return page.locator(ROOM).get_attribute("data-race-id")


def play_tokens(page: Page, game, tokens: list[str]) -> None:
    """Play `tokens` on the seat's table by gestures, each once the card it needs is turned up."""
    for token in tokens:
        expect(page.locator(TABLE)).not_to_have_attribute("data-turning", "true")
        play_token(page, game, token)
        wait_for_moves(page, game.moves_made)


def player_item(page: Page, name: str):
    return page.locator(f'[data-race-players] [data-player="{name}"]')


def opponent(page: Page, name: str):
    return page.locator(f'[data-race-opponents] [data-opponent="{name}"]')


def rated(user, rules: str, shown: float, races: int):
    """A race rating of `user` under `rules` that shows `shown` (races.rating: 1500 + 24 (μ − 3σ)),
    after `races` races: the row the ratings' board and /api/me/ read."""
    from django.utils import timezone

    from races.models import Rating

    sigma = 3.0
    mu = (shown - 1500) / 24 + 3 * sigma
    return Rating.objects.create(
        user=user, rules=rules, mu=mu, sigma=sigma, ordinal=shown, races=races, updated_at=timezone.now()
    )


def finished_race(users: list, code: str, tokens: list[str], others: list[str] | None = None):
    """A classic race of `users` played an hour ago through the races' services: the first wins
    on `code` (a winning `tokens`), the others play its first 12 moves (or `others`) and are away
    since, so their games are settled from the record; places final and the ratings moved. The race."""
    from datetime import timedelta

    from django.test import TestCase
    from django.utils import timezone

    from games.engine import GameCode
    from games.issuing.dealing import known_deals
    from races import services

    at = timezone.now() - timedelta(hours=1)
    with known_deals([GameCode.parse(code)]):
        race = services.race_create(
            user=users[0], rules="classic", seats=len(users), time_limit_minutes=None, now=at
        )
        for user in users[1:]:
            race = services.race_join(user=user, public_id=race.public_id, now=at)  # full: it starts
    seats = list(race.seat_rows.select_related("game", "user", "race"))
    with TestCase.captureOnCommitCallbacks(execute=True):
        for seat in seats[1:]:
            _seat_play(seat, tokens[:12] if others is None else others)
        _seat_result(seat=seats[0], tokens=tokens, times=_seat_play(seats[0], tokens))
    services.races_tick_running()  # as the beat's task does, should a verdict come after the last tick
    race.refresh_from_db()
    assert race.places_final, race
    return race


def _seat_play(seat, tokens: list[str]) -> list[int]:
    """The seat's moves at a person's pace, each card revealed as its move turns it up and the
    race told the progress, as the page and its socket do. The moves' times."""
    from datetime import timedelta

    from games.engine import Game
    from games.hidden.reveals import game_reveal
    from races.play import playing_seat, seat_progress_record

    times = [1_000 + 400 * index for index in range(len(tokens))]
    game = Game(seat.game.code)
    for length, token in enumerate(tokens, start=1):
        before = game.face_down
        game.play(token)
        now = seat.game.issued_at + timedelta(milliseconds=times[length - 1] + 40)
        log, log_times = " ".join(tokens[:length]), times[:length]
        if game.face_down != before:
            game_reveal(user=seat.user, game_id=seat.game_id, log=log, move_times_ms=log_times, now=now)
        playing = playing_seat(user=seat.user, public_id=seat.race.public_id, now=now)
        seat_progress_record(seat=playing, user=seat.user, log=log, move_times_ms=log_times, now=now)
    return times


def _seat_result(*, seat, tokens: list[str], times: list[int]) -> None:
    """The seat's finished game submitted as the page's outbox sends it."""
    import uuid
    from datetime import timedelta

    from games.log_input import SubmissionInput
    from games.submissions.intake import submission_create

    now = seat.game.issued_at + timedelta(milliseconds=times[-1] + 500)
    data = SubmissionInput(
        client_id=uuid.uuid4(), log=" ".join(tokens), move_times_ms=times, duration_ms=times[-1],
        finished_at=now, game_id=seat.game_id,
    )  # fmt: skip
    submission_create(user=seat.user, data=data, now=now)
