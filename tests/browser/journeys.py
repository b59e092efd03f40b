"""The harness of the player journeys (tests/browser/test_journeys.py).

A journey is what a player does, end to end, against the site as README starts it: a real
server process (`make run`, or `make stack` when REDIS_URL is set), the shipped settings, accounts
made through the sign-up form, moves played with real pointer gestures at a human pace, and
every check made through the pages and the JSON API a player's browser sees. Nothing here
touches the server's database or settings: the only environment the server gets is where its
data lives and its port.

- `JourneyServer`: the server process (its own process group), stopped and started again on
  the same port with the same data (for the offline journey).
- `Player`, `sign_up`, `sign_in`: accounts through the forms.
- `Pace`, `play_line`: moves by `helpers.play_token`, a 200–300 ms pause after each (seeded).
- `winning_line`: the project's solver on the deal the page shows.
- The page's hooks: the game bar, the win banner and its verdict, the Results dialog, the
  leaderboard, /me and /replay.
"""

from __future__ import annotations

import os
import random
import re
import secrets
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.parse import urlparse, urlunparse
from urllib.request import urlopen

from factories import free_port
from helpers import BAR, READY, WIN, pause, play_token, wait_for_moves
from playwright.sync_api import Page, expect

from games.engine import Game, verify
from games.solver import solve

PROJECT_DIR = Path(__file__).resolve().parents[2]
ARTIFACTS_DIR = PROJECT_DIR / "test-artifacts"
NAV = "[data-account-nav]"
VERDICT = f"{WIN} [data-win-verdict]"
CONFIRM = '[data-dialog="confirm"]'
RESULTS = '[data-dialog="results"]'
GLOBAL_BOARD = '[data-board="global"]'
DEAL_BOARD = '[data-board="deal"]'
PASSWORD = "a-long-journey-pass-phrase"

# Generous waits for a busy 2-core machine; none of them is a speed requirement.
SERVER_START_S = 180  # make stack migrates and collects the static files first
SERVER_STOP_S = 10  # SIGTERM, then SIGKILL
SLOW_MS = 30_000  # a page, a ranked deal issued, a board loaded
VERDICT_MS = 90_000  # a result uploaded and verified (through a Celery worker on the full stack)
SOLVER_SECONDS = 20.0
SOLVER_SHORTEN_SECONDS = 2.0
MOVE_GAP_S = (0.2, 0.3)  # a human pace between two moves


# --- the server process ---------------------------------------------------------------------------


def _settings_variables() -> set[str]:
    """Every environment variable the settings read (`env.bool("DEBUG", ...)` and the like)."""
    text = "".join(path.read_text() for path in (PROJECT_DIR / "yukon_site" / "settings").glob("*.py"))
    return set(re.findall(r'env(?:\.\w+)?\(\s*"([A-Z][A-Z0-9_]*)"', text))


# Also never passed on: what would change the processes `make` starts (gunicorn's and make's own
# variables, Celery's), and the test process's own switches.
_NOT_PASSED_ON = {
    "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE", "WEB_CONCURRENCY", "HOST", "PORT",
    "VENV", "PYTHON", "BIN", "CHROMIUM", "PYTEST_ARGS", "JS_TESTS",
    "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "GNUMAKEFLAGS",
}  # fmt: skip
_NOT_PASSED_ON_PREFIXES = ("CELERY_", "GUNICORN_", "SUBMISSION_", "SOLVER_", "THROTTLE_", "LEADERBOARD_")


def server_environment(data: dict[str, str]) -> dict[str, str]:
    """This process's environment without anything that configures the site, plus `data`
    (where the site's data live): the server runs on the shipped settings."""
    dropped = _settings_variables() | _NOT_PASSED_ON
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in dropped and not name.startswith(_NOT_PASSED_ON_PREFIXES)
    }
    env.update(data)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def redis_url_with_database(url: str, number: int) -> str:
    parsed = urlparse(url)
    query = "&".join(part for part in parsed.query.split("&") if part and not part.startswith("db="))
    return urlunparse(parsed._replace(path=f"/{number}", query=query))


def journey_stack_data(database: str = "yukon_journey") -> dict[str, str]:
    """A fresh PostgreSQL database and a Redis database of the journeys' own (the stack tests'
    number + 1, flushed), from the DATABASE_URL and REDIS_URL of this process."""
    import psycopg
    import redis

    redis_url = os.environ["REDIS_URL"]
    number = redis.Redis.from_url(redis_url).connection_pool.connection_kwargs.get("db", 0) + 1
    own_redis = redis_url_with_database(redis_url, number)
    client = redis.Redis.from_url(own_redis)
    client.flushdb()
    client.close()

    given = urlparse(os.environ.get("DATABASE_URL", ""))
    if given.scheme not in ("postgres", "postgresql", "pgsql"):
        given = urlparse("postgres://postgres@127.0.0.1:5432/yukon")
    maintenance = urlunparse(given._replace(scheme="postgresql", path="/postgres", query=""))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{database}"')
    return {
        "DATABASE_URL": urlunparse(given._replace(path=f"/{database}", query="")),
        "REDIS_URL": own_redis,
    }


class JourneyServer:
    """`make run` (or `make stack`) in a process group of its own, its output in a log file.

    `stop()` ends the whole group (SIGTERM, then SIGKILL); `start()` starts it again on the same
    port with the same data.
    """

    def __init__(self, *, target: str, data: dict[str, str], log_path: Path, port: int | None = None) -> None:
        self.target = target
        self.env = server_environment(data)
        self.log_path = log_path
        self.port = port or free_port()
        self.asgi_port = free_port()  # make stack's Daphne (the races' WebSockets)
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        assert self.process is None, "the server is running already"
        assert not self.is_reachable(), f"something else answers on port {self.port}"
        self.starts += 1
        command = ["make", "-C", str(PROJECT_DIR), "--no-print-directory", self.target, f"PORT={self.port}"]
        if self.target == "stack":
            command.append(f"ASGI_PORT={self.asgi_port}")
        with self.log_path.open("a") as log:
            log.write(f"\n--- start {self.starts}: {' '.join(command)}\n")
            log.flush()
            self.process = subprocess.Popen(
                command, cwd=PROJECT_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + SERVER_START_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                self.process = None
                raise RuntimeError(f"`make {self.target}` exited with {code}:\n{self.log_tail()}")
            if self.healthy():
                return
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"/healthz did not answer 200 within {SERVER_START_S} s:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.process is None:
            return
        group = self.process.pid  # start_new_session: the group's id is the leader's pid
        self._signal(group, signal.SIGTERM)
        try:
            self.process.wait(SERVER_STOP_S)
        except subprocess.TimeoutExpired:
            pass
        deadline = time.monotonic() + SERVER_STOP_S
        while self._alive(group) and time.monotonic() < deadline:
            time.sleep(0.2)
        if self._alive(group):
            self._signal(group, signal.SIGKILL)
        self.process.wait()
        self.process = None
        deadline = time.monotonic() + SERVER_STOP_S
        while self.is_reachable() and time.monotonic() < deadline:
            time.sleep(0.2)

    @staticmethod
    def _signal(group: int, signum: int) -> None:
        try:
            os.killpg(group, signum)
        except ProcessLookupError:
            pass

    @staticmethod
    def _alive(group: int) -> bool:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def healthy(self) -> bool:
        try:
            with urlopen(f"{self.url}/healthz", timeout=5) as answer:
                return answer.status == 200
        except (HTTPError, URLError, OSError):
            return False

    def is_reachable(self) -> bool:
        """Does anything answer on the port at all (any HTTP status)?"""
        try:
            with urlopen(f"{self.url}/healthz", timeout=2):
                return True
        except HTTPError:
            return True
        except (URLError, OSError):
            return False

    def query_one(self, query: str, params: list) -> tuple:
        """One row of the server's database (read only: the tests need what no page shows yet)."""
        import environ

        config = environ.Env.db_url_config(self.env["DATABASE_URL"])
        if config["ENGINE"].endswith("sqlite3"):
            import sqlite3

            connection = sqlite3.connect(config["NAME"])
            try:
                return connection.execute(query.replace("%s", "?"), params).fetchone()
            finally:
                connection.close()
        import psycopg

        url = self.env["DATABASE_URL"].replace("postgres://", "postgresql://", 1)
        with psycopg.connect(url) as connection:
            return connection.execute(query, params).fetchone()

    def issued_code(self, game_id: str) -> str:
        """The deal of an issued game as the server's database keeps it: a hidden-card game's code
        is on no page until the game is over, and the tests need it to find a winning line."""
        (code,) = self.query_one("SELECT code FROM games_issuedgame WHERE id = %s", [int(game_id)])
        return code

    def race_code(self, race_id: str) -> str:
        """The deal of a started race (on no page until the race is over)."""
        (code,) = self.query_one("SELECT code FROM races_race WHERE public_id = %s", [race_id])
        return code

    def race_revealed_cards(self, race_id: str, username: str) -> set[str]:
        """The face-down cards the server told one player of a race."""
        import json

        (revealed,) = self.query_one(
            "SELECT g.revealed FROM games_issuedgame g JOIN races_raceseat s ON s.game_id = g.id "
            "JOIN races_race r ON s.race_id = r.id JOIN accounts_user u ON s.user_id = u.id "
            "WHERE r.public_id = %s AND u.username = %s",
            [race_id, username],
        )
        entries = json.loads(revealed) if isinstance(revealed, str) else revealed
        return {entry["card"] for entry in entries}

    def another_asgi_process(self, log_path: Path) -> tuple[subprocess.Popen, str]:
        """One more Daphne serving the site (pages and WebSockets) on the same data: on the full
        stack, a second ASGI process beside make stack's, sharing its Redis and database. Its pages
        open their sockets on it (it is their own origin). Stop it with `stop_process`."""
        port = free_port()
        command = [str(PROJECT_DIR / ".venv/bin/python"), "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                   "yukon_site.asgi:application"]  # fmt: skip
        with log_path.open("a") as log:
            process = subprocess.Popen(
                command, cwd=PROJECT_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + SERVER_START_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"daphne exited with {process.returncode}: see {log_path}")
            try:
                with urlopen(f"{url}/healthz", timeout=5):
                    return process, url
            except HTTPError:
                return process, url
            except (URLError, OSError):
                time.sleep(0.5)
        stop_process(process)
        raise RuntimeError(f"daphne did not answer within {SERVER_START_S} s: see {log_path}")

    def log_tail(self, lines: int = 60) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


def stop_process(process: subprocess.Popen) -> None:
    """SIGTERM to its group, SIGKILL after SERVER_STOP_S."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(SERVER_STOP_S)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def shot(page: Page, name: str) -> Path:
    """A screenshot in test-artifacts/, named journey-<name>.png."""
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    path = ARTIFACTS_DIR / f"journey-{name}.png"
    page.screenshot(path=path)
    return path


# --- players ------------------------------------------------------------------------------------------


@dataclass
class Player:
    username: str
    display_name: str
    password: str = PASSWORD

    @property
    def email(self) -> str:
        return f"{self.username}@example.com"


def new_player(kind: str) -> Player:
    """A player of this run only: `kind` and a random suffix (names are 3–20 of A–Z 0–9 _ -)."""
    suffix = secrets.token_hex(3)
    return Player(username=f"{kind[:8]}-{suffix}", display_name=f"{kind[:8].title()}-{suffix.upper()}")


def open_table(page: Page, url: str) -> None:
    page.emulate_media(reduced_motion="reduce")  # cards do not slide, as a player may choose
    page.goto(url)
    page.wait_for_selector(READY, timeout=SLOW_MS)


def sign_up(page: Page, base_url: str, player: Player) -> None:
    """From the game page, the header's Sign up link and allauth's form; back on the game."""
    open_table(page, f"{base_url}/")
    expect(page.locator(NAV)).to_have_attribute("data-signed-in", "false")
    page.locator(NAV).get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/"))
    page.fill("#id_username", player.username)
    page.fill("#id_email", player.email)
    page.fill("#id_display_name", player.display_name)
    page.fill("#id_password1", player.password)
    page.fill("#id_password2", player.password)
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_selector(READY, timeout=SLOW_MS)
    expect(page).to_have_url(f"{base_url}/")
    expect(page.locator(NAV)).to_have_attribute("data-signed-in", "true")
    expect(page.locator(NAV).locator("[data-account-name]")).to_have_text(player.display_name)


def sign_in_from_me(page: Page, base_url: str, player: Player) -> None:
    """/me signed out shows a prompt; its Sign in link opens /accounts/login/, back to /me."""
    page.goto(f"{base_url}/me")
    ready(page)
    prompt = page.locator("[data-me-signed-out]")
    expect(prompt).to_be_visible()
    prompt.get_by_role("link", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/me$"))
    page.fill("#id_login", player.username)
    page.fill("#id_password", player.password)
    page.get_by_role("button", name="Sign In").click()
    expect(page).to_have_url(f"{base_url}/me")
    ready(page)
    expect(page.locator(NAV).locator("[data-account-name]")).to_have_text(player.display_name)


def ready(page: Page) -> None:
    """A page beside the game (/leaderboard, /me) has loaded its data."""
    page.wait_for_selector('[data-page-status="ready"]', timeout=SLOW_MS)


# --- the game bar -------------------------------------------------------------------------------------


@dataclass
class Deal:
    code: str
    ranked: bool
    game_id: str  # the issued game's id; "" when unranked
    hidden: bool = False  # a hidden-card game: its code comes from the server's database


def deal_on_table(page: Page, server: JourneyServer | None = None) -> Deal:
    """The deal the bar shows; a hidden-card game's code (on no page) read from `server`'s data."""
    bar = page.locator(BAR)
    ranked = bar.get_attribute("data-ranked") == "true"
    game_id = (bar.get_attribute("data-game-id") or "") if ranked else ""
    if bar.get_attribute("data-hidden") == "true":
        expect(bar).to_have_attribute("data-code", "")
        assert server is not None, "a hidden-card game's code is read from the server's database"
        return Deal(server.issued_code(game_id), ranked, game_id, hidden=True)
    expect(bar).not_to_have_attribute("data-code", "")
    return Deal(bar.get_attribute("data-code"), ranked, game_id)


def wait_for_a_ranked_deal(page: Page, server: JourneyServer, *, not_game: str | None = None) -> Deal:
    """Until the page plays an untouched ranked hidden-card game the server issued (other than
    `not_game`)."""
    bar = page.locator(BAR)
    expect(bar).to_have_attribute("data-ranked", "true", timeout=SLOW_MS)
    expect(bar).to_have_attribute("data-game-id", re.compile(r"^\d+$"), timeout=SLOW_MS)
    if not_game:
        expect(bar).not_to_have_attribute("data-game-id", not_game, timeout=SLOW_MS)
    expect(bar).to_have_attribute("data-hidden", "true")
    expect(page.locator(f"{BAR} [data-kind]")).to_have_text("Ranked")
    wait_for_moves(page, 0)
    return deal_on_table(page, server)


# --- moves at a human pace --------------------------------------------------------------------------


@dataclass
class Pace:
    """A pause of 200–300 ms (drawn from a seeded generator) from the moment the page counted a
    move to the next gesture: a person's pace, never faster."""

    seed: int
    rng: random.Random = field(init=False)
    last: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def wait_for_the_next_move(self, page: Page) -> None:
        if self.last is not None:
            pause(page, self.last + self.rng.uniform(*MOVE_GAP_S) - time.monotonic())

    def counted(self) -> None:
        """The page has just counted a move."""
        self.last = time.monotonic()


def play_line(page: Page, game: Game, tokens: list[str], pace: Pace) -> None:
    """Each token by real pointer gestures (`helpers.play_token`), counted by the page before
    the pause and the next."""
    for token in tokens:
        pace.wait_for_the_next_move(page)
        play_token(page, game, token)
        wait_for_moves(page, game.moves_made)
        pace.counted()


def page_move_times(page: Page) -> list[int]:
    """The page's own clock at each token of the game in progress (`yukon.game.v1`)."""
    return page.evaluate("() => JSON.parse(localStorage.getItem('yukon.game.v1') || '{}').moveTimes ?? []")


def winning_line(code: str) -> list[str] | None:
    """A win of the deal of `code` found by the project's solver (within a time cap), or None."""
    solution = solve(code, time_limit=SOLVER_SECONDS, shorten=SOLVER_SHORTEN_SECONDS)
    if not solution.won:
        return None
    tokens = [str(move) for move in solution.moves]
    assert verify(code, tokens).won, f"the solver's line does not win {code}"
    return tokens


def first_moves(code: str, count: int) -> list[str]:
    """A few legal moves of the deal (the engine's first choice each time), for a game left early."""
    game = Game(code)
    tokens = []
    for _ in range(count):
        moves = list(game.legal_moves)
        if not moves:
            break
        tokens.append(str(moves[0]))
        game.push(moves[0])
    return tokens


# --- leaving a ranked game, and what became of it -----------------------------------------------------


def leave_ranked_game(page: Page) -> None:
    """New deal in a ranked game with moves: the page asks, "Submit and leave" submits it."""
    page.locator('[data-action="new-deal"]').click()
    confirm = page.locator(CONFIRM)
    expect(confirm.locator("[data-confirm-title]")).to_have_text("Leave this ranked game?")
    expect(confirm.locator("[data-confirm-text]")).to_contain_text("counts as a game played, not won")
    confirm.get_by_role("button", name="Submit and leave").click()


def outbox(page: Page) -> list[dict]:
    return page.evaluate("() => JSON.parse(localStorage.getItem('yukon.outbox.v1') || '[]')")


def outbox_entry_of_game(page: Page, game_id: str) -> dict:
    entries = [entry for entry in outbox(page) if str(entry.get("game")) == str(game_id)]
    assert len(entries) == 1, f"the outbox holds {len(entries)} results of game {game_id}: {outbox(page)}"
    return entries[0]


def wait_until_settled(page: Page, client_id: str, timeout_ms: int = VERDICT_MS) -> dict:
    """Until the outbox has the server's verdict (verified or rejected) on result `client_id`."""
    page.wait_for_function(
        """(id) => JSON.parse(localStorage.getItem('yukon.outbox.v1') || '[]').some((r) =>
                     r.client_id === id && (r.state === 'verified' || r.state === 'rejected'))""",
        arg=client_id,
        timeout=timeout_ms,
    )
    (entry,) = [entry for entry in outbox(page) if entry["client_id"] == client_id]
    return entry


def open_results(page: Page):
    page.locator("[data-results-chip]").click()
    dialog = page.locator(RESULTS)
    expect(dialog).to_be_visible()
    return dialog


# --- the win banner -----------------------------------------------------------------------------------


def settled_verdict(page: Page, timeout_ms: int = VERDICT_MS) -> tuple[str, str]:
    """(state, words) of the win banner's verdict once the server has judged the win."""
    verdict = page.locator(VERDICT)
    expect(verdict).to_have_attribute("data-state", re.compile(r"^(verified|rejected)$"), timeout=timeout_ms)
    return verdict.get_attribute("data-state"), verdict.locator("[data-verdict-text]").inner_text()


def banner_ranks(page: Page) -> dict[str, int]:
    """The places on the banner: board key (classic:all, classic:week:2026-W48, deal:<code>…) → rank."""
    items = page.locator(f"{VERDICT} [data-win-ranks] li")
    return {
        key: int(rank)
        for key, rank in items.evaluate_all(
            "(items) => items.map((li) => [li.dataset.board, li.dataset.rank])"
        )
    }


def rank_of_period(ranks: dict[str, int], rules: str, period: str, *, deals: str = "hidden") -> int | None:
    """The banner's rank on the board of a period (all, week or day): of hidden-card games, or
    (deals="open") the open-deal board's."""
    for key, rank in ranks.items():
        parts = key.split(":")
        if deals == "open":
            if parts[0] != "open":
                continue
            parts = parts[1:]
        if parts[0] == rules and parts[1] == period:
            return rank
    return None


# --- boards ------------------------------------------------------------------------------------------


def row_of(page: Page, board: str, player: Player):
    return page.locator(f'{board} [data-entry][data-player="{player.display_name}"]')


def show_period(page: Page, period: str) -> None:
    """On /leaderboard: the ranked board of a period (the page's own buttons), loaded."""
    page.locator(f'[data-period-choice="{period}"]').click()
    board = page.locator(GLOBAL_BOARD)
    expect(board).to_have_attribute("data-period", period)
    expect(board).to_have_attribute("data-state", re.compile(r"^(ready|empty|error)$"), timeout=SLOW_MS)


def open_deal_board(page: Page, base_url: str, code: str) -> None:
    page.goto(f"{base_url}/leaderboard?deal={code}")
    ready(page)
    board = page.locator(DEAL_BOARD)
    expect(board).to_have_attribute("data-code", code)
    expect(board).to_have_attribute("data-state", re.compile(r"^(ready|empty|error)$"), timeout=SLOW_MS)


# --- /me ----------------------------------------------------------------------------------------------

ME_FIGURES = (
    "best_score",
    "ranked_wins",
    "ranked_games_finished",
    "win_rate",
    "fewest_moves",
    "unranked_wins",
)


def me_figures(page: Page, rules: str = "classic") -> dict[str, str]:
    """The figures /me shows for a rule set, as the player reads them."""
    card = page.locator(f'[data-rules-figures="{rules}"]')
    expect(card).to_be_visible(timeout=SLOW_MS)
    return {key: card.locator(f'[data-figure="{key}"]').inner_text() for key in ME_FIGURES}


def me_history(page: Page, count: int) -> list[dict[str, str]]:
    """/me's finished games, newest first (after waiting for `count` of them)."""
    games = page.locator("[data-history] [data-submission]")
    expect(games).to_have_count(count, timeout=SLOW_MS)
    return games.evaluate_all(
        """(items) => items.map((item) => ({
            id: item.dataset.submission, status: item.dataset.status, result: item.dataset.result,
            kind: item.querySelector(".badge").dataset.kind,
            code: item.querySelector(".code").textContent }))"""
    )
