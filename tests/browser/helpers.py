"""Helpers for the browser tests of the game table.

Expected positions come from the Python engine (the server's truth); cards, columns and
figures are found by their data hooks (data-card, data-column, data-foundation, data-face,
data-moves, …), never by CSS classes. Gestures are real pointer input: clicks, double
clicks and drags with the mouse, taps on a touch screen.
"""

import json
import time
from pathlib import Path

import pytest
from factories import PASSWORD  # noqa: E402, F401 (the password of every test player: the journeys sign in with it)
from playwright.sync_api import Page, expect

from games.engine import FOUNDATION, UNDO, Game, Move, card_name, verify

PROJECT_DIR = Path(__file__).resolve().parents[2]
SOLVER_FIXTURES = PROJECT_DIR / "games" / "solver" / "fixtures" / "winning_logs.json"

# A deal and a log that wins it (found by a depth-first search with the Python engine);
# used when the solver's fixtures are not there.
WINNING_CODE = "YU1-C-AAAAAAC"
WINNING_LOG = (
    "AS>F 2H>4 TD>5 2S>F 6S>7 5D>7 KS>1 AH>F 7D>4 4H>6 JC>1 QS>3 4D>5 7C>6 3S>5 JS>1 JD>3 QD>1 8D>5 "
    "3S>6 3C>5 2H>F 3S>F 3C>6 6S>4 3C>5 3S>6 2H>6 AC>6 2C>5 KH>2 TS>3 QS>2 6S>7 QS>3 9C>1 QS>2 8D>1 "
    "QS>3 6H>1 QD>6 QS>2 QD>1 QH>6 2D>1 6C>4 AD>F 8C>6 9D>2 3H>6 5H>2 4S>2 4C>7 6D>6 3D>2 5S>6 8D>6 "
    "QS>3 8C>5 QS>2 KC>4 2D>F 3D>F QS>3 8D>1 QS>2 8C>2 8D>4 QS>3 8D>1 5S>1 8D>4 QS>2 8C>5 QS>3 8D>1 "
    "5C>6 AC>F 2H>F 3S>F 4S>F 2C>F 3C>F 4D>F 3H>F 4H>F 5S>F 5H>F 6H>F 4C>F 5C>F 6C>F 7C>F 5D>F 6D>F "
    "7D>F 8D>F 9D>F 8C>F 9C>F TD>F 6S>F 7S>F 7H>F TC>F 8S>F 9S>F TS>F JS>F JD>F QD>F QS>F KS>F KD>F "
    "QC>2 8H>F 9H>F JH>2 TH>F JH>F JC>F QC>F QH>F KH>F KC>F"
)

READY = '[data-app-status="ready"]'
BAR = "[data-bar]"
TABLE = "[data-table]"


def winning_game(rules: str = "classic") -> tuple[str, list[str]]:
    """A winning (code, tokens): the shortest win of the solver's fixtures under `rules`, else
    our Classic one."""
    letter = {"classic": "-C-", "relaxed": "-R-"}[rules]
    wins = []
    try:
        fixtures = json.loads(SOLVER_FIXTURES.read_text())
        entries = fixtures if isinstance(fixtures, list) else next(iter(fixtures.values()), [])
        for entry in entries:
            code, log = entry["code"], entry["log"]
            tokens = log.split() if isinstance(log, str) else [str(token) for token in log]
            if letter in code and verify(code, tokens).won:
                wins.append((code, tokens))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, StopIteration):
        pass  # no fixtures yet, or another shape: our own win will do
    return min(wins, key=lambda win: len(win[1]), default=(WINNING_CODE, WINNING_LOG.split()))


# --- what the engine says, what the page shows -----------------------------------------------


def expected_columns(game: Game) -> list[list[str]]:
    """Each column bottom to top as the markup must show it: EMPTY for a face-down card."""
    return [
        ["EMPTY" if depth < hidden else card_name(card) for depth, card in enumerate(column)]
        for column, hidden in zip(game.columns, game.face_down, strict=True)
    ]


def expected_foundations(game: Game) -> dict[str, str | None]:
    """The top card of each foundation, by suit letter."""
    return {
        suit: card_name(index * 13 + count - 1) if count else None
        for index, (suit, count) in enumerate(zip("SHDC", game.foundations, strict=True))
    }


def shown_columns(page: Page) -> list[list[str]]:
    return page.evaluate(
        """() => [1, 2, 3, 4, 5, 6, 7].map((n) =>
            [...document.querySelectorAll(`[data-column="${n}"] [data-card]`)].map((c) => c.dataset.card))"""
    )


def shown_faces(page: Page) -> list[list[str]]:
    return page.evaluate(
        """() => [1, 2, 3, 4, 5, 6, 7].map((n) =>
            [...document.querySelectorAll(`[data-column="${n}"] [data-card]`)].map((c) => c.dataset.face))"""
    )


def shown_foundations(page: Page) -> dict[str, str | None]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll("[data-foundation]")].map((f) =>
            [f.dataset.foundation, f.querySelector("[data-card]")?.dataset.card ?? null]))"""
    )


def bar_figures(page: Page) -> dict[str, str]:
    return page.locator(BAR).evaluate(
        "({dataset: d}) => ({moves: d.moves, points: d.points, score: d.score, code: d.code})"
    )


def assert_shows(page: Page, game: Game, *, hidden: bool = False) -> None:
    """The page shows exactly the engine's position: cards, faces, foundations and figures; the
    deal's code in the bar, but none for a hidden-card game (`hidden`)."""
    assert shown_columns(page) == expected_columns(game)
    assert shown_foundations(page) == expected_foundations(game)
    assert bar_figures(page) == {
        "moves": str(game.moves_made),
        "points": str(game.points),
        "score": str(game.ranked_score()),
        "code": "" if hidden else str(game.code),
    }


def finish_offered_after(code: str, tokens: list[str]) -> int:
    """How many tokens of the win `tokens` lead to the first position where Finish is offered."""
    game = Game(code)
    for played, token in enumerate(tokens):
        if game.finish_moves() is not None:
            return played
        game.play(token)
    raise AssertionError("the win never offers a finish")


def resume_saved(page: Page, base_url: str, code: str, tokens: list[str]) -> None:
    """Open the deal of `code` with `tokens` played, as the device keeps a game in progress
    (`yukon.game.v1`, 300 ms a move; a reload resumes it), and wait until the table is playable."""
    page.goto(f"{base_url}/help")
    saved = {
        "code": code, "log": tokens, "moveTimes": [300 * i for i in range(len(tokens))],
        "elapsedMs": 300 * len(tokens), "resultId": None, "issued": None, "origin": "code",
        "assisted": False, "revealed": [],
    }  # fmt: skip
    page.evaluate("(saved) => localStorage.setItem('yukon.game.v1', JSON.stringify(saved))", saved)
    page.goto(f"{base_url}/play/{code}")
    page.wait_for_selector(READY)


def open_game(page: Page, base_url: str, code: str) -> None:
    """Open the deal of `code` through its share link and wait until the table is playable.

    Cards slide when they move; the tests turn that off (as a player can), so that a card
    is where it will stay by the time the next gesture looks for it.
    """
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{base_url}/play/{code}")
    page.wait_for_selector(READY)
    expect(page.locator(BAR)).to_have_attribute("data-code", code)


# --- gestures ------------------------------------------------------------------------------------


def card_point(page: Page, name: str) -> tuple[float, float]:
    """A point on the visible part of a card: its top strip, which the next card never covers.
    Waits for the card to be drawn: a table just shown (a race's seat taken up on a loaded
    machine) may still be fetching its deal."""
    page.wait_for_selector(f'[data-card="{name}"]', state="attached")
    return tuple(
        page.evaluate(
            """(name) => {
                const r = document.querySelector(`[data-card="${name}"]`).getBoundingClientRect();
                return [r.left + r.width / 2, r.top + 5];
            }""",
            name,
        )
    )


def column_point(page: Page, number: int) -> tuple[float, float]:
    """A point on a column: on its last card, or on the empty slot."""
    return tuple(
        page.evaluate(
            """(n) => {
                const column = document.querySelector(`[data-column="${n}"]`);
                const r = (column.lastElementChild ?? column).getBoundingClientRect();
                return [r.left + r.width / 2, r.top + Math.min(r.height / 2, 40)];
            }""",
            number,
        )
    )


def foundations_point(page: Page) -> tuple[float, float]:
    box = page.locator("[data-foundations]").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def tap_card(page: Page, name: str) -> None:
    page.mouse.click(*card_point(page, name))


def tap_column(page: Page, number: int) -> None:
    page.mouse.click(*column_point(page, number))


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 12, start[1] + 12, steps=2)
    page.mouse.move(*end, steps=4)
    page.mouse.up()


def drag_card_to_column(page: Page, name: str, number: int) -> None:
    drag(page, card_point(page, name), column_point(page, number))


def play_token(page: Page, game: Game, token: str, *, await_card: bool = True) -> None:
    """Play one log token through the table the way a player would, and on `game` too.

    To a foundation: one tap on the card. To a column: tap the card, tap the column — or a
    drag when a tap would send the card to its foundation instead. An undo: the U key.
    Never sooner than MOVE_PACE_S after the previous token was played (its last click or
    release), nor before the card a move turned up has come (the page's clock stops meanwhile):
    the server's shipped timing checks judge every result the tests play. (`await_card=False`:
    not waiting for it, when a test means the card to wait.)
    """
    wait_for_pace(page)
    face_down = list(game.face_down)
    _play_gesture(page, game, token)
    if await_card and list(game.face_down) != face_down:
        # The move turned a card up: in a hidden-card game the page's clock stands still until
        # the server's card comes, so a player's pace to the next move counts from its arrival.
        expect(page.locator(TABLE)).not_to_have_attribute("data-turning", "true", timeout=15_000)
    token_played(page)


def pause(page: Page, seconds: float) -> None:
    """Let `seconds` pass (none when not positive) with the page at work. Through Playwright, never
    time.sleep: every request of the browser passes the tests' route handlers
    (watch.watch_for_problems), which run in this thread only while it is inside a Playwright
    call, so a test asleep holds the pages' requests until it wakes."""
    if seconds > 0:
        page.wait_for_timeout(seconds * 1000)


def wait_for_pace(page: Page) -> None:
    """Until MOVE_PACE_S has passed since the page's last token (for gestures of a test's own)."""
    last = _last_token.get(id(page))
    if last is not None:
        pause(page, last + MOVE_PACE_S - time.monotonic())


def token_played(page: Page) -> None:
    """The page has just been given a token (a gesture of a test's own, or play_token's)."""
    _last_token[id(page)] = time.monotonic()


def _play_gesture(page: Page, game: Game, token: str) -> None:
    # A hidden-card game's face-down card turns up when the server answers: until then the
    # table takes no move (as a player waits for it).
    expect(page.locator(TABLE)).not_to_have_attribute("data-turning", "true")
    if token == UNDO:
        page.keyboard.press("u")
        game.undo()
        return
    move = Move.parse(token)
    name = card_name(move.card)
    sent_home = _sent_home.pop(id(page), None)
    if sent_home and sent_home[0] == name:
        # A tap on the card a tap just sent home counts as the second half of that double tap.
        pause(page, sent_home[1] + DOUBLE_TAP_S - time.monotonic())
    if move.dest == FOUNDATION:
        tap_card(page, name)
        _sent_home[id(page)] = (name, time.monotonic())
    elif Move(move.card, FOUNDATION) in game.legal_moves and _is_last_card(game, move.card):
        drag_card_to_column(page, name, move.dest + 1)
    else:
        tap_card(page, name)
        tap_column(page, move.dest + 1)
    game.push(move)


# The card each page last sent to its foundation with a tap, and when.
_sent_home: dict[int, tuple[str, float]] = {}
DOUBLE_TAP_S = 0.35
# When each page's last token was played. 0.17 s a move is above the server's thresholds
# (40 ms between tokens, 150 ms a move on average), and what a quick player manages.
_last_token: dict[int, float] = {}
MOVE_PACE_S = 0.17


def _is_last_card(game: Game, card: int) -> bool:
    return any(column and column[-1] == card for column in game.columns)


def walkthrough_move(page: Page, game: Game, token: str) -> None:
    """The walkthrough's move as a player makes it: a tap for a foundation, else tap and tap."""
    move = Move.parse(token)
    name = token.split(">")[0]
    if move.dest == FOUNDATION:
        tap_card(page, name)
    else:
        page.mouse.click(*card_point(page, name))
        page.mouse.click(*column_point(page, move.dest + 1))
    game.push(move)
    wait_for_moves(page, game.moves_made)


def wait_for_moves(page: Page, moves: int) -> None:
    expect(page.locator(BAR)).to_have_attribute("data-moves", str(moves))


# --- players, ranked deals and recorded wins, through the real services -----------------------

WIN = '[data-dialog="win"]'


def make_player(name: str):
    """A player for a browser test (factories.player_make: the password PASSWORD)."""
    from factories import player_make

    return player_make(name)


def sign_in(context, base_url: str, user) -> None:
    """Give the browser `user`'s session cookie, as a sign-in on the account pages would."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}])


def dealt_as_hidden(code: str) -> str:
    """The code a hidden-card game of the deal of `code` is dealt under: its whole shuffle's (YU2)."""
    from games.engine import GameCode

    return str(GameCode.parse(code).whole())


def issue_only(monkeypatch, code: str) -> None:
    """Every ranked deal the server issues until the test ends is the deal of `code`
    (games.issuing.dealing's seam; a hidden-card game gets the YU2 code of the same deal)."""
    import games.issuing.dealing
    from games.engine import GameCode

    monkeypatch.setattr(games.issuing.dealing, "known_codes", [GameCode.parse(code)])


def recorded_win(
    user, code: str, tokens: list[str], *, ranked: bool = True, hidden: bool = False, gap_ms: int = 160
):
    """A verified win of `user` on `code`, submitted and verified by the real services: by its
    code (ranked=False), a ranked game issued with its code, or (hidden=True) a hidden-card game
    whose face-down cards were revealed as the moves turned them up."""
    import uuid
    from datetime import timedelta

    from django.test import TestCase
    from django.utils import timezone

    from games.engine import GameCode
    from games.hidden.reveals import game_reveal
    from games.issuing.dealing import known_deals
    from games.issuing.services import game_issue
    from games.log_input import SubmissionInput
    from games.submissions.intake import submission_create

    game_id = None
    times = [gap_ms * (index + 1) for index in range(len(tokens))]
    if ranked or hidden:
        code_ = GameCode.parse(code)
        issued_at = timezone.now() - timedelta(hours=1)  # played for longer than the test lasts
        with known_deals([code_]):
            (game,) = game_issue(user=user, rules=code_.rules.value, hidden=hidden, now=issued_at)
        game_id = game.pk
        replay = Game(code)
        for length, token in enumerate(tokens, start=1):
            before = replay.face_down
            if token == UNDO:
                replay.undo()
            else:
                replay.push(Move.parse(token))
            if hidden and replay.face_down != before:  # asked for 5 s after the issue, 40 ms late
                received = issued_at + timedelta(milliseconds=5_000 + times[length - 1] + 40)
                game_reveal(user=user, game_id=game_id, log=" ".join(tokens[:length]),
                            move_times_ms=times[:length], now=received)  # fmt: skip
    data = SubmissionInput(
        client_id=uuid.uuid4(), game_id=game_id, code=None if ranked else code, log=" ".join(tokens),
        move_times_ms=times, duration_ms=times[-1] + 500, finished_at=timezone.now(),
    )  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        submission, _ = submission_create(user=user, data=data)
    submission.refresh_from_db()
    assert (submission.status, submission.won) == ("verified", True), submission.reason
    return submission


def game_after(code: str, tokens: list[str]) -> Game:
    """The engine's position after `tokens` (moves and undos) on the deal of `code`."""
    game = Game(code)
    for token in tokens:
        if token == UNDO:
            game.undo()
        else:
            game.push(Move.parse(token))
    return game


def play_all(page: Page, game: Game, tokens: list[str]) -> None:
    for token in tokens:
        play_token(page, game, token)
        wait_for_moves(page, game.moves_made)


def wait_until_hidden_ranked(page: Page, *, not_game: str | None = None) -> tuple[str, str]:
    """Until the page plays a ranked hidden-card game (no code on the page; another than
    `not_game`); its id, and its deal's code as the server keeps it (the tests' oracle)."""
    from games.models import IssuedGame

    bar = page.locator(BAR)
    expect(bar).to_have_attribute("data-ranked", "true")
    expect(bar).to_have_attribute("data-hidden", "true")
    if not_game is not None:
        expect(bar).not_to_have_attribute("data-game-id", not_game)
    expect(page.locator(f"{BAR} [data-kind]")).to_have_text("Ranked")
    game_id = bar.get_attribute("data-game-id")
    return game_id, IssuedGame.objects.get(pk=int(game_id)).code


def wait_until_ranked(page: Page, code: str) -> str:
    """Until the page plays a ranked deal of `code`; returns the issued game's id."""
    bar = page.locator(BAR)
    expect(bar).to_have_attribute("data-ranked", "true")
    expect(bar).to_have_attribute("data-code", code)
    expect(page.locator(f"{BAR} [data-kind]")).to_have_text("Ranked")
    return bar.get_attribute("data-game-id")


# --- a server of our own, to stop and start again -------------------------------------------------


def _server_thread_class():
    """Django's live server thread, with a server that really stops: it drops the browser's
    kept-alive connections too (else their threads would go on answering), and may bind its
    port again at once."""
    import socket
    import threading

    from django.core.servers.basehttp import ThreadedWSGIServer
    from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler

    class Server(ThreadedWSGIServer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.open_requests = set()
            self.lock = threading.Lock()

        def process_request(self, request, client_address):
            with self.lock:
                self.open_requests.add(request)
            super().process_request(request, client_address)

        def shutdown_request(self, request):
            with self.lock:
                self.open_requests.discard(request)
            super().shutdown_request(request)

        def server_close(self):
            super().server_close()
            with self.lock:
                requests = list(self.open_requests)
            for request in requests:
                try:
                    request.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    class Thread(LiveServerThread):
        def _create_server(self, connections_override=None):
            return Server(
                (self.host, self.port), QuietWSGIRequestHandler, allow_reuse_address=True,
                connections_override=connections_override,
            )  # fmt: skip

    return Thread


class StoppableServer:
    """The site in a thread of this process, like pytest-django's live_server, but ours to stop
    and to start again on the same port (the page's address stays the same).

    The test database's connection is shared with the server's threads until `close()`: a
    request still finishing when the server stops may close it from its own thread.
    """

    def __init__(self) -> None:
        from django.db import connections

        self.port = 0
        self.thread = None
        self.shared = [c for c in connections.all() if c.vendor == "sqlite" and c.is_in_memory_db()]
        for connection in self.shared:
            connection.inc_thread_sharing()
        self.start()

    def start(self) -> None:
        from django.contrib.staticfiles.handlers import StaticFilesHandler

        overrides = {connection.alias: connection for connection in self.shared}
        self.thread = _server_thread_class()("127.0.0.1", StaticFilesHandler, overrides, port=self.port)
        self.thread.daemon = True
        self.thread.start()
        self.thread.is_ready.wait()
        if self.thread.error:
            raise self.thread.error
        self.port = self.thread.port
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.thread is not None:
            self.thread.terminate()
            self.thread = None

    def close(self) -> None:
        self.stop()
        time.sleep(0.2)  # the last requests' threads finish with the shared connection
        for connection in self.shared:
            connection.dec_thread_sharing()

    def is_reachable(self) -> bool:
        from urllib.error import URLError
        from urllib.request import urlopen

        try:
            with urlopen(f"{self.url}/healthz", timeout=2):
                return True
        except (URLError, OSError):
            return False


@pytest.fixture(name="server")
def stoppable_server(settings, transactional_db):
    """A live server of this test's own, to stop and restart (import it into the test module)."""
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    server = StoppableServer()
    yield server
    server.close()


def wait_for_the_worker(page: Page) -> None:
    """Until the service worker has cached the shell and controls the page (a worker controls
    pages only once installed, its cache filled). Playwright's timeout applies: a page that never
    registers the worker fails the test instead of hanging it."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


# --- the site over ASGI: pages and the races' WebSockets ------------------------------------------

_asgi_server = {}


class AsgiServer:
    """The site as Daphne serves it (yukon_site.asgi: HTTP and the races' WebSockets), in a thread
    of this process, like pytest-django's live_server but for WebSockets too. Twisted's reactor
    runs once a process, so one server serves the whole session; each test's database is the
    test database (a file: the server's threads open their own connections to it)."""

    def __init__(self) -> None:
        import threading

        from daphne.server import Server  # installs Twisted's asyncio reactor: first
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        from yukon_site.asgi import application

        self.server = Server(
            ASGIStaticFilesHandler(application),
            endpoints=["tcp:port=0:interface=127.0.0.1"],
            signal_handlers=False,
            verbosity=0,
        )
        self.thread = threading.Thread(target=self.server.run, name="daphne", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.listening_addresses:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("Daphne did not start listening")
            time.sleep(0.05)
        self.port = self.server.listening_addresses[0][1]
        self.url = f"http://127.0.0.1:{self.port}"


@pytest.fixture(name="asgi_server")
def asgi_server_fixture(settings, transactional_db):
    """The site over ASGI (AsgiServer), for this test's database; import it into the test module."""
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    if "server" not in _asgi_server:
        _asgi_server["server"] = AsgiServer()
    return _asgi_server["server"]
