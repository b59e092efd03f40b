"""Hidden-card ranked games through the API: issued without their code, their cards revealed one
at a time, resumed anywhere, won, verified and ranked, their commitment published at the end."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from games_helpers import CLASSIC_WIN, body, paced
from hidden_helpers import exposing_prefixes, issue_hidden, reveal_along
from rest_framework.test import APIClient

from games.engine import (
    CARD_NAMES,
    FACE_DOWN_PLACES,
    Game,
    GameCode,
    HiddenCardGame,
    dealt_card,
    visible_deal,
)
from games.issuing.services import game_issue
from games.models import IssuedGame, Reveal

pytestmark = pytest.mark.django_db

WIN_LOG = CLASSIC_WIN["log"]
TOKENS = WIN_LOG.split()
TIMES = paced(WIN_LOG)
FIRST = exposing_prefixes(CLASSIC_WIN["code"], WIN_LOG)[0]  # 11: the first move that turns a card up


def iso(moment) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def reveal(api, game_id: int, length: int, times: list[int] | None = None):
    data = {"log": " ".join(TOKENS[:length]), "move_times_ms": (times or TIMES)[:length]}
    return api.post(f"/api/games/{game_id}/reveals/", data, format="json")


def leaks(content: bytes, game: IssuedGame) -> list[str]:
    """The secrets of `game` found in a response."""
    text = content.decode()
    found = [name for name, value in (("code", game.code), ("secret", game.secret)) if value in text]
    number = GameCode.parse(game.code).number
    if number >= 10**6 and str(number) in text:
        found.append("deal number")
    return found


# --- Issue ------------------------------------------------------------------------------------


def test_a_hidden_game_is_issued_without_its_code(api, player):
    response = api.post("/api/games/", {"rules": "relaxed", "hidden": True}, format="json")

    assert response.status_code == 201, response.json()
    (answer,) = response.json()
    game = IssuedGame.objects.get(pk=answer["id"])
    assert answer == {
        "id": game.pk,
        "rules": "relaxed",
        "hidden": True,
        "commitment": sha256(f"{game.code}:{game.secret}"),
        "issued_at": iso(game.issued_at),
        "expires_at": iso(game.issued_at + timedelta(days=14)),
        "daily_date": None,
        "deal": visible_deal(game.code).to_dict(),
    }
    columns = answer["deal"]["columns"]
    assert [columns[place.column][place.depth] for place in FACE_DOWN_PLACES] == [None] * 21
    assert sum(card is not None for column in columns for card in column) == 31
    assert leaks(response.content, game) == []
    assert (game.user, game.hidden, game.state, len(game.secret)) == (player, True, "issued", 64)


def test_a_request_without_hidden_is_answered_as_before(api):
    response = api.post("/api/games/", {"rules": "classic", "hidden": False, "count": 2}, format="json")

    assert response.status_code == 201
    assert [set(game) for game in response.json()] == [{"id", "code", "rules", "issued_at"}] * 2
    assert not IssuedGame.objects.filter(hidden=True).exists()
    assert IssuedGame.objects.filter(commitment="", secret="").count() == 2


def test_hidden_must_be_a_boolean(api):
    response = api.post("/api/games/", {"hidden": "perhaps"}, format="json")

    assert response.status_code == 400
    assert response.json() == {"hidden": ["Must be a valid boolean."]}
    assert IssuedGame.objects.count() == 0


def test_hidden_games_have_their_own_limit_of_unplayed_games(api, player):
    game_issue(user=player, hidden=True, count=10)
    game_issue(user=player, hidden=True, count=10)

    full = api.post("/api/games/", {"hidden": True}, format="json")
    coded = api.post("/api/games/", {}, format="json")

    assert full.status_code == 409
    assert full.json() == {
        "detail": "you hold 20 unplayed hidden-card ranked games; finish one first (at most 20)",
        "code": "too_many_unplayed",
    }
    assert coded.status_code == 201  # the page's games, issued with their code, are not blocked


def test_the_held_list_names_no_hidden_games_code(api, player):
    (coded,) = game_issue(user=player, now=timezone.now() - timedelta(hours=2))
    (hidden,) = game_issue(user=player, hidden=True, rules="relaxed")

    response = api.get("/api/games/?state=issued")

    assert response.status_code == 200
    assert response.json() == [
        {
            "id": coded.pk,
            "code": coded.code,
            "rules": "classic",
            "issued_at": iso(coded.issued_at),
            "expires_at": iso(coded.issued_at + timedelta(days=14)),
        },
        {
            "id": hidden.pk,
            "rules": "relaxed",
            "hidden": True,
            "commitment": hidden.commitment,
            "issued_at": iso(hidden.issued_at),
            "expires_at": iso(hidden.issued_at + timedelta(days=14)),
            "daily_date": None,
            "deal": visible_deal(hidden.code).to_dict(),
            "started": False,
        },
    ]
    assert leaks(response.content, hidden) == []


def test_the_held_list_says_which_hidden_games_have_recorded_moves(api, player):
    hidden = issue_hidden(player, CLASSIC_WIN["code"])

    assert reveal(api, hidden.pk, FIRST).status_code == 200
    (listed,) = api.get("/api/games/?state=issued").json()

    assert listed["started"] is True
    assert "code" not in listed


# --- Reveals ----------------------------------------------------------------------------------


def test_a_move_that_turns_a_card_up_has_it_revealed(api, player):
    game = issue_hidden(player, CLASSIC_WIN["code"])

    response = reveal(api, game.pk, FIRST)

    assert response.status_code == 200, response.json()
    answer = response.json()
    place = (answer["place"]["column"], answer["place"]["depth"])
    assert answer == {
        "place": {"column": place[0], "depth": place[1]},
        "card": CARD_NAMES[dealt_card(game.code, place)],
        "prefix_length": FIRST,
    }
    stored = Reveal.objects.get(game=game)
    assert (stored.column, stored.depth, stored.card, stored.page_time_ms) == (
        *place,
        answer["card"],
        TIMES[10],
    )
    game.refresh_from_db()
    assert (game.recorded_log, game.recorded_times_ms) == (" ".join(TOKENS[:FIRST]), TIMES[:FIRST])
    assert leaks(response.content, game) == []


def test_asking_again_answers_the_same_card_and_records_nothing(api, player):
    game = issue_hidden(player, CLASSIC_WIN["code"])
    first = reveal(api, game.pk, FIRST)

    again = reveal(api, game.pk, FIRST)

    assert again.status_code == 200
    assert again.json() == first.json()
    assert Reveal.objects.filter(game=game).count() == 1


# --- Resume -----------------------------------------------------------------------------------


def test_an_unfinished_game_is_resumed_with_its_known_cards_and_recorded_prefix(api, player):
    game = issue_hidden(player, CLASSIC_WIN["code"])
    reveals = reveal_along(game, WIN_LOG, upto=20)  # 7 cards

    response = api.get(f"/api/games/{game.pk}/")

    assert response.status_code == 200, response.json()
    known = {(r.column, r.depth): r.card for r in reveals}
    recorded = reveals[-1].prefix_length
    assert response.json() == {
        "id": game.pk,
        "rules": "classic",
        "hidden": True,
        "state": "issued",
        "issued_at": iso(game.issued_at),
        "expires_at": iso(game.issued_at + timedelta(days=14)),
        "daily_date": None,
        "commitment": game.commitment,
        "deal": HiddenCardGame.from_visible(visible_deal(game.code), known).known_deal().to_dict(),
        "reveals": [
            {
                "place": {"column": r.column, "depth": r.depth},
                "card": r.card,
                "prefix_length": r.prefix_length,
            }
            for r in reveals
        ],
        "log": " ".join(TOKENS[:recorded]),
        "move_times_ms": TIMES[:recorded],
        "code": None,
        "secret": None,
    }
    columns = response.json()["deal"]["columns"]
    unknown = [place for place in FACE_DOWN_PLACES if place not in known]
    assert len(unknown) == 21 - 7
    assert all(columns[place.column][place.depth] is None for place in unknown)
    assert leaks(response.content, game) == []


def test_the_game_of_another_player_is_not_found(api, other_player):
    game = issue_hidden(other_player, CLASSIC_WIN["code"])

    response = api.get(f"/api/games/{game.pk}/")

    assert response.status_code == 404
    assert response.json() == {"detail": f"you hold no game {game.pk}", "code": "game_not_found"}
    assert APIClient().get(f"/api/games/{game.pk}/").status_code == 403


def test_a_game_issued_with_its_code_is_shown_whole(api, player, issue_game):
    game = issue_game(player)

    response = api.get(f"/api/games/{game.pk}/")

    assert response.status_code == 200
    answer = response.json()
    assert (answer["hidden"], answer["code"], answer["secret"], answer["commitment"]) == (
        False,
        game.code,
        None,
        None,
    )
    assert answer["deal"] == Game(game.code).known_deal().to_dict()


# --- A whole game -------------------------------------------------------------------------------


def test_a_hidden_game_won_is_verified_ranked_and_its_commitment_published(api, player, submit):
    game = issue_hidden(player, CLASSIC_WIN["code"])
    reveals = reveal_along(game, WIN_LOG)
    assert len(reveals) == 21

    response = submit(body(log=WIN_LOG, game=game.pk))

    assert response.status_code == 202, response.json()
    result = api.get(f"/api/submissions/{response.json()['id']}/").json()
    assert (result["status"], result["won"], result["ranked"], result["reason"]) == (
        "verified",
        True,
        True,
        None,
    )
    assert result["score"] == 7200 - CLASSIC_WIN["moves"]
    assert result["ranks"] and set(result["ranks"].values()) == {1}
    # Anyone can now check that the deal was fixed at issue, and the cards shown were the deal's.
    assert (result["code"], result["secret"]) == (game.code, game.secret)
    assert result["commitment"] == game.commitment == sha256(f"{result['code']}:{result['secret']}")
    finished = api.get(f"/api/games/{game.pk}/").json()
    assert finished["state"] == "finished"
    assert (finished["code"], finished["secret"], finished["commitment"]) == (
        game.code,
        game.secret,
        game.commitment,
    )
    assert finished["deal"] == Game(game.code).known_deal().to_dict()  # every card was revealed


def test_a_result_that_does_not_extend_the_recorded_prefix_is_refused(api, player, submit):
    game = issue_hidden(player, CLASSIC_WIN["code"])
    reveal_along(game, WIN_LOG, upto=FIRST)
    data = body(log=WIN_LOG, game=game.pk)
    data["move_times_ms"] = [time + 1 for time in data["move_times_ms"]]
    data["duration_ms"] += 1

    response = submit(data)

    assert response.status_code == 409
    assert response.json() == {
        "detail": "the time of move 1 (1 ms) differs from the server's record of this game (0 ms)",
        "code": "prefix_conflict",
    }
    game.refresh_from_db()
    assert game.state == "issued"  # nothing stored: the game still accepts its result


def test_a_result_shorter_than_the_recorded_prefix_is_refused(api, player, submit):
    game = issue_hidden(player, CLASSIC_WIN["code"])
    reveal_along(game, WIN_LOG, upto=20)

    response = submit(body(log=" ".join(TOKENS[:15]), game=game.pk))

    assert response.status_code == 409
    assert response.json() == {
        "detail": "the log has 15 tokens, fewer than the 20 the server has recorded for this game: "
        "it must extend them",
        "code": "prefix_conflict",
    }


def test_a_submission_of_a_game_issued_with_its_code_has_no_commitment(api, player, issue_game, submit):
    game = issue_game(player)

    response = submit(body(log=WIN_LOG, game=game.pk))

    result = api.get(f"/api/submissions/{response.json()['id']}/").json()
    assert (result["status"], result["commitment"], result["secret"]) == ("verified", None, None)


def test_the_new_operations_are_in_the_schema(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json")

    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert paths["/api/games/{game_id}/"]["get"]["operationId"] == "games_detail"
    assert paths["/api/games/{game_id}/reveals/"]["post"]["operationId"] == "games_reveal"


def test_staff_see_a_hidden_games_code_and_reveals_in_the_admin(admin_client, player):
    game = issue_hidden(player, CLASSIC_WIN["code"])
    (first,) = reveal_along(game, WIN_LOG, upto=FIRST)

    response = admin_client.get(f"/admin/games/issuedgame/{game.pk}/change/")

    assert response.status_code == 200
    page = response.content.decode()
    assert game.code in page and game.commitment in page
    assert re.search(rf'class="field-card">\s*<p>{first.card}</p>', page)  # the reveals, read only
