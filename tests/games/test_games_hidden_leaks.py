"""No answer of the server names what a hidden-card game keeps back before it is finished.

Every URL pattern of the project's URLconf is read (not a hand-picked list), with its path
parameters filled with the player's own ids, as that player and signed out. No body may hold
an unfinished hidden-card game's code, secret or (where it could identify the deal) its deal
number; and wherever the body shows such a game's deal or log, its face-down cards not yet
revealed are null and named nowhere in it.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from django.utils import timezone
from games_helpers import CLASSIC_WIN, WINS, body
from hidden_helpers import exposing_line, issue_hidden, reveal_along
from rest_framework.test import APIClient

from accounts.models import User
from daily.services import daily_game_issue
from games.engine import (
    CARD_NAMES,
    FACE_DOWN_PLACES,
    UNDO,
    GameCode,
    Rules,
    dealt_card,
    format_code,
    parse_log,
    visible_deal,
)
from games.engine.deal import COLUMN_SIZES, FACE_DOWN_AT_DEAL
from games.issuing.dealing import known_deals
from games.models import IssuedGame
from races.models import Race
from races.services import race_create, race_join

pytestmark = pytest.mark.django_db

# Deals with long deal numbers (as text they could only name the deal), each with a legal line
# turning cards up; and the deal of a known win, revealed part way.
RANDOM_DEALS = [format_code(Rules.CLASSIC, 123_456_789), format_code(Rules.CLASSIC, 5_555_555_555)]
FINISHED_WIN = next(win for win in WINS if win["code"] == "YU1-C-AAAAAAC")
# Extra query strings for patterns whose answer depends on them.
QUERIES = {"api-games-issue": ["?state=issued", "?state=issued&rules=classic"]}


def url_patterns(patterns=None, prefix: str = "", namespace: str = ""):
    """(route, name) of every pattern of the URLconf, included ones too."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from url_patterns(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        else:
            assert isinstance(pattern, URLPattern)
            route = prefix + str(pattern.pattern)
            yield route, f"{namespace}{pattern.name}" if pattern.name else route


PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^()]*\)")


def fill(route: str, values: dict[str, list[str]], name: str) -> list[str]:
    """The paths of `route` with each parameter replaced by each of its values; fails on a
    parameter no value is given for."""
    names = [a or b for a, b in PARAMETER.findall(route)]
    missing = [parameter for parameter in names if parameter not in values]
    if missing:
        pytest.fail(f"URL pattern {name} ({route}): no value for {', '.join(missing)}")
    paths = [route.replace("^", "").replace("$", "")]
    for parameter in dict.fromkeys(names):
        paths = [
            PARAMETER.sub(
                lambda m, p=parameter, v=value: v if (m.group(1) or m.group(2)) == p else m.group(0), path
            )
            for path in paths
            for value in values[parameter]
        ]
    for path in paths:
        if "<" in path or "(?P" in path:
            pytest.fail(f"URL pattern {name} ({route}) could not be filled: {path}")
        try:
            resolve("/" + path)
        except Resolver404:
            pytest.fail(f"URL pattern {name} ({route}) filled as /{path} does not resolve")
    return ["/" + path for path in paths]


def content_of(response) -> bytes:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return response.content


def walk_json(value):
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk_json(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk_json(item)


@pytest.fixture
def held(player, issue_game, submit, monkeypatch):
    """The player's unfinished hidden-card games (some with reveals, one without), and a game of
    theirs finished and ranked, so that every path parameter has something of theirs to name."""
    games = [issue_hidden(player, code) for code in RANDOM_DEALS]
    for game in games:
        line = exposing_line(game.code, flips=2)
        assert line, game.code
        reveal_along(game, line)
    win = issue_hidden(player, CLASSIC_WIN["code"])
    reveal_along(win, CLASSIC_WIN["log"], upto=30)  # 13 of its 21 cards
    untouched = issue_hidden(player, format_code(Rules.RELAXED, 2_718_281_828))  # no card asked for
    # Today's daily deal, played part way (the daily deal is the deal of a long number here).
    with pytest.MonkeyPatch.context() as patch, known_deals([format_code(Rules.CLASSIC, 3_141_592_653)]):
        patch.setattr(settings, "DAILY_DEAL_WINNABLE_ONLY", False)
        daily, _ = daily_game_issue(user=player, rules="classic")
    reveal_along(daily, exposing_line(daily.code, flips=2))
    monkeypatch.setattr(settings, "RACE_GRACE_SECONDS", 24 * 3600)  # the race still runs when read
    race_game = race_played_part_way(player)
    finished = issue_game(player, FINISHED_WIN["code"])
    assert submit(body(log=FINISHED_WIN["log"], game=finished.pk)).status_code == 202
    held = (*games, win, untouched, daily, race_game)
    return [IssuedGame.objects.get(pk=game.pk) for game in held], finished


RACE_DEAL = 2_236_067_977


def race_played_part_way(player) -> IssuedGame:
    """A race of the player and a rival on one deal, started an hour ago: the rival has turned up
    more cards than the player, whose game is returned (its unrevealed cards include the rival's)."""
    rival = User.objects.create_user("rival", "rival@example.com", "a-long-pass-phrase")
    an_hour_ago = timezone.now() - timedelta(hours=1)
    race = race_create(user=player, rules="classic", seats=2, time_limit_minutes=None, now=an_hour_ago)
    with known_deals([format_code(Rules.CLASSIC, RACE_DEAL)]):
        race_join(user=rival, public_id=race.public_id, now=an_hour_ago)
    seats = {seat.user_id: seat.game for seat in race.seat_rows.select_related("game")}
    reveal_along(seats[rival.pk], exposing_line(seats[rival.pk].code, flips=4))
    reveal_along(seats[player.pk], exposing_line(seats[player.pk].code, flips=1))
    return seats[player.pk]


def unrevealed(game: IssuedGame) -> dict[tuple[int, int], str]:
    """The cards at the game's face-down places not revealed yet, by place."""
    revealed = {(reveal.column, reveal.depth) for reveal in game.reveals.all()}
    return {
        place: CARD_NAMES[dealt_card(game.code, place)] for place in FACE_DOWN_PLACES if place not in revealed
    }


def face_up_of(game: IssuedGame) -> list[list[str]]:
    return [
        column[FACE_DOWN_AT_DEAL[index] :]
        for index, column in enumerate(visible_deal(game.code).to_dict()["columns"])
    ]


def shows_deal_of(value: dict, game: IssuedGame) -> bool:
    """Whether a visible deal's JSON (`columns`, `face_down`) is the deal of `game`: its face-up cards."""
    columns = value["columns"]
    if not isinstance(columns, list) or [len(column) for column in columns] != list(COLUMN_SIZES):
        return False
    return [column[FACE_DOWN_AT_DEAL[index] :] for index, column in enumerate(columns)] == face_up_of(game)


def check_body(content: bytes, games: list[IssuedGame], where: str) -> set[tuple[str, int]]:
    """Assert that `content` keeps back what the games keep back; returns what of theirs it
    showed: ("game", id) for a game listed or detailed, ("deal", id) for its deal."""
    text = content.decode("utf-8", errors="replace")
    for game in games:
        assert game.code.upper() not in text.upper(), f"{where}: the code of game {game.pk}"
        assert game.secret not in text, f"{where}: the secret of game {game.pk}"
        number = GameCode.parse(game.code).number
        if number >= 10**6:  # shorter numbers appear as text for many other reasons
            assert str(number) not in text, f"{where}: the deal number of game {game.pk}"
    try:
        data = json.loads(text)
    except ValueError:
        return set()
    shown = set()
    by_id = {game.pk: game for game in games}
    for value in walk_json(data):
        if not isinstance(value, dict):
            continue
        game = by_id.get(value.get("id")) if value.get("hidden") is True else None
        if game is not None:
            shown.add(("game", game.pk))
            assert value.get("code") is None and value.get("secret") is None, f"{where}: game {game.pk}"
            hidden_cards = set(unrevealed(game).values())
            logged = {CARD_NAMES[move.card] for move in parse_log(value.get("log", "")) if move != UNDO}
            assert not logged & hidden_cards, f"{where}: game {game.pk}'s log names a card not revealed"
            assert not {reveal["card"] for reveal in value.get("reveals", [])} & hidden_cards, where
        if "columns" in value and "face_down" in value:
            for candidate in games:
                if shows_deal_of(value, candidate):
                    shown.add(("deal", candidate.pk))
                    for column, depth in unrevealed(candidate):
                        assert value["columns"][column][depth] is None, f"{where}: game {candidate.pk}"
    return shown


def test_no_answer_names_what_an_unfinished_hidden_game_keeps_back(player, held):
    games, finished = held
    ids = [str(game.pk) for game in games]
    values = {
        "code": [finished.code],  # a code the player knows: their finished game's
        "submission_id": [str(pk) for pk in player.submissions.values_list("pk", flat=True)],
        "game_id": [*ids, str(finished.pk)],
        "object_id": ids,
        "content_type_id": [str(ContentType.objects.get_for_model(IssuedGame).pk)],
        "id": [str(player.pk)],
        "key": ["no-such-key"],
        "uidb36": ["1"],
        "app_label": ["games"],
        "url": [f"games/issuedgame/{games[0].pk}/"],
        "race_id": list(Race.objects.values_list("public_id", flat=True)),
        "ticket": ["no-such-ticket"],
    }
    shown, visited = set(), set()
    for route, name in url_patterns():
        for path in fill(route, values, name):
            for query in ["", *QUERIES.get(name, [])]:
                for signed_in in (True, False):
                    client = APIClient()
                    if signed_in:
                        client.force_login(player)
                    response = client.get(path + query)
                    where = f"GET {path}{query} ({name}, {'the player' if signed_in else 'signed out'})"
                    assert response.status_code < 500, where
                    shown |= check_body(content_of(response), games, where)
                    visited.add(name)
    # The walk did reach the answers that show these games: their details and the held list.
    assert shown == {(kind, game.pk) for game in games for kind in ("game", "deal")}
    assert {"api-game-detail", "api-games-issue", "api-submission-detail", "api-replay", "play"} <= visited
