"""The fair-play journey, end to end on `make stack` as shipped (docs/fairplay.md): a program plays
ranked hidden-card wins through the API from the server's knowledge of the deals (read from its
database, as a leak would give them), peeking under cards by move-and-undo and moving at a
machine's even pace; fair play's own worker analyses each win; the program is reported after its
first game and marked after three (its results leave the boards, its player's page says why); a
moderator, made one by `manage.py moderator`, opens the case in the admin, sees the moves drawn as
a chart, and clears it; the results come back on the boards and the player's page says so.

Only on the full stack: `make run` has no broker, so its analysis runs without the solver's
verdicts (FAIRPLAY_VERDICT_BUDGET off), whose games stay under the mark level by design.
Screenshots: test-artifacts/journey-fair-play-*.png.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
import uuid

import pytest
import requests
from journeys import (
    ARTIFACTS_DIR,
    GLOBAL_BOARD,
    PROJECT_DIR,
    SLOW_MS,
    JourneyServer,
    Player,
    journey_stack_data,
    new_player,
    ready,
    row_of,
    shot,
    sign_up,
    winning_line,
)
from playwright.sync_api import Page, expect

from games.engine import UNDO, Game

pytestmark = [pytest.mark.browser, pytest.mark.journey]

PEEKS = 6  # moves that turn a card up, each taken back once and played again (the score counts 5)
GAP_MS, AFTER_REVEAL_MS = 200, 150  # a machine's pace: even, and no longer after a new card
GAMES = 5  # the program's games at most: three strong ones mark
ANALYSIS_S = 240  # a game's analysis on fair play's worker, at the lowest priority, on a busy machine


@pytest.fixture(scope="module")
def stack_server():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the full stack only: make run analyses without the solver's verdicts (no broker)")
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    log_path = ARTIFACTS_DIR / "journey-server-fair-play.log"
    log_path.write_text("")
    server = JourneyServer(
        target="stack", data=journey_stack_data("yukon_journey_fair_play"), log_path=log_path
    )
    server.start()
    yield server
    server.stop()


class Program:
    """A program at the API with the player's account: it signs in as the form asks, holds the
    session, and sends what the page would send (the CSRF token in X-CSRFToken)."""

    def __init__(self, server: JourneyServer, player: Player) -> None:
        self.server, self.http = server, requests.Session()
        self.http.get(f"{server.url}/accounts/login/", timeout=30).raise_for_status()
        signed_in = self.http.post(
            f"{server.url}/accounts/login/",
            data={"login": player.username, "password": player.password, "csrfmiddlewaretoken": self.csrf},
            headers={"Referer": f"{server.url}/accounts/login/"},
            timeout=30,
        )
        assert signed_in.url.rstrip("/") == server.url, f"the sign-in did not go through: {signed_in.url}"

    @property
    def csrf(self) -> str:
        return self.http.cookies["csrftoken"]

    def post(self, path: str, body: dict) -> dict | list:
        answer = self.http.post(
            f"{self.server.url}{path}", json=body, headers={"X-CSRFToken": self.csrf}, timeout=30
        )
        assert answer.ok, f"POST {path}: {answer.status_code} {answer.text}"
        return answer.json()

    def a_winnable_hidden_game(self) -> tuple[int, str, list[str]]:
        """A ranked hidden-card game whose deal (read from the server's database) the solver wins."""
        for _ in range(6):
            (game,) = self.post("/api/games/", {"rules": "classic", "hidden": True, "count": 1})
            code = self.server.issued_code(str(game["id"]))
            line = winning_line(code)
            if line:
                return game["id"], code, line
        pytest.fail("the solver won none of six ranked deals")

    def play(self, game_id: int, code: str, line: list[str]) -> dict:
        """The line with peeks, in real time (the server's reveal clock sees the pace), each card a
        move turns up asked for as the page asks; then the result."""
        tokens, times = peeking(code, line)
        started, game, asked = time.monotonic(), Game(code), set()
        for index, token in enumerate(tokens):
            time.sleep(max(0.0, started + times[index] / 1000 - time.monotonic()))
            down = game.face_down
            game.play(token)
            turned = [column for column in range(7) if game.face_down[column] < down[column]]
            if token != UNDO and turned and (turned[0], game.face_down[turned[0]]) not in asked:
                asked.add((turned[0], game.face_down[turned[0]]))
                so_far = {"log": " ".join(tokens[: index + 1]), "move_times_ms": times[: index + 1]}
                self.post(f"/api/games/{game_id}/reveals/", so_far)
        assert game.is_won()
        return self.post("/api/submissions/", {
            "client_id": str(uuid.uuid4()), "game": game_id, "log": " ".join(tokens), "move_times_ms": times,
            "duration_ms": times[-1] + GAP_MS, "finished_at": dt.datetime.now(dt.UTC).isoformat(),
        })  # fmt: skip


def peeking(code: str, line: list[str]) -> tuple[list[str], list[int]]:
    """The winning line, the first PEEKS moves that turn a card up each taken back and played
    again, and a clock at an even pace, no slower after a new card."""
    game, tokens, times, clock, peeks = Game(code), [], [], 0, 0
    for token in line:
        before = sum(game.face_down)
        game.play(token)
        turned = sum(game.face_down) < before
        steps = [token]
        if turned and peeks < PEEKS:
            game.undo()
            game.play(token)
            steps, peeks = [token, UNDO, token], peeks + 1
        for step in steps:
            tokens.append(step)
            times.append(clock)
            clock += AFTER_REVEAL_MS if turned and step != UNDO else GAP_MS
    return tokens, times


def analysis_case(server: JourneyServer, username: str) -> tuple[str, str] | None:
    return server.query_one(
        "SELECT f.level, f.state FROM leaderboard_replayflag f JOIN accounts_user u ON f.user_id = u.id "
        "WHERE u.username = %s AND f.reason = 'analysis' ORDER BY f.id DESC LIMIT 1",
        [username],
    )


def analysed_and_weighed(server: JourneyServer, submission_id: int, games: int) -> None:
    """The result's analysis done, and weighed: the player's running score counts `games` games
    (updated with the case, in one transaction, after the analysis is saved)."""
    deadline = time.monotonic() + ANALYSIS_S
    while time.monotonic() < deadline:
        row = server.query_one(
            "SELECT a.state, a.score, s.games FROM fairplay_gameanalysis a JOIN games_submission r "
            "ON a.submission_id = r.id LEFT JOIN fairplay_playerscore s ON s.user_id = r.user_id "
            "WHERE a.submission_id = %s",
            [submission_id],
        )
        if row and row[0] == "done" and row[2] == games:
            print(f"result {submission_id}: analysed, score {row[1]}")
            return
        time.sleep(1)
    pytest.fail(f"result {submission_id} was not analysed and weighed within {ANALYSIS_S} s: {row}")


def moderator_made(server: JourneyServer, username: str) -> None:
    """What an operator runs (docs/fairplay.md): `manage.py moderator <username>`."""
    done = subprocess.run(
        [sys.executable, "manage.py", "moderator", username],
        cwd=PROJECT_DIR, env=server.env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{username} is a moderator"


def test_a_program_is_reported_marked_and_cleared_by_a_moderator(stack_server, page: Page, browser):
    server = stack_server
    cheat = new_player("program")
    sign_up(page, server.url, cheat)
    program = Program(server, cheat)

    levels = []
    for number in range(1, GAMES + 1):
        result = program.play(*program.a_winnable_hidden_game())
        verified = wait_verified(program, result["id"])
        assert verified["won"] and verified["ranked"], verified
        analysed_and_weighed(server, result["id"], number)
        levels.append(analysis_case(server, cheat.username))
        print(f"game {number}: case {levels[-1]}")
        if levels[-1] == ("mark", "open"):
            break
    assert levels[0] == ("report", "open"), f"the first game was not reported: {levels}"
    assert levels[-1] == ("mark", "open") and len(levels) >= 3, f"not marked within {GAMES} games: {levels}"

    # The player's page says why their results are off the boards, and the boards agree.
    page.goto(f"{server.url}/me")
    ready(page)
    note = page.locator("[data-review]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Your ranked results are under review, because how several of your games")
    shot(page, "fair-play-under-review")
    page.goto(f"{server.url}/leaderboard")
    ready(page)
    expect(row_of(page, GLOBAL_BOARD, cheat)).to_have_count(0)

    # A moderator: a person's account, made one by the operator; the case in the admin.
    mod_context = browser.new_context()
    mod_page = mod_context.new_page()
    moderator = new_player("mod")
    sign_up(mod_page, server.url, moderator)
    moderator_made(server, moderator.username)
    mod_page.goto(f"{server.url}/admin/games/replayflag/?reason__exact=analysis&q={cheat.username}")
    mod_page.locator("#result_list tbody th a").first.click()
    chart = mod_page.locator("svg[role=img]").first
    expect(chart).to_be_visible(timeout=SLOW_MS)
    chart.scroll_into_view_if_needed()
    expect(mod_page.locator("body")).to_contain_text("undid")  # the score's reasons, in words
    shot(mod_page, "fair-play-case")
    mod_page.locator("select[name=decision]").select_option("clear")
    mod_page.locator("textarea[name=why]").fill("a known tester's account: its games are checked elsewhere")
    mod_page.get_by_role("button", name="Save", exact=True).click()
    expect(mod_page.locator(".messagelist")).to_be_visible()
    assert analysis_case(server, cheat.username) == ("mark", "cleared")
    mod_context.close()

    # Back on the boards, and the player's page says so.
    page.goto(f"{server.url}/leaderboard")
    ready(page)
    expect(row_of(page, GLOBAL_BOARD, cheat)).to_have_count(1, timeout=SLOW_MS)
    page.goto(f"{server.url}/me")
    ready(page)
    expect(page.locator("[data-review]")).to_contain_text("cleared them: they are back on the public boards")
    shot(page, "fair-play-cleared")


def wait_verified(program: Program, submission_id: int) -> dict:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        answer = program.http.get(f"{program.server.url}/api/submissions/{submission_id}/", timeout=30).json()
        if answer["status"] != "pending":
            assert answer["status"] == "verified", answer
            return answer
        time.sleep(0.5)
    pytest.fail(f"result {submission_id} was not verified within 90 s")
