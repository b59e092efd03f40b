"""Quick match (docs/races.md): two players of close rating paired into a race, a wider window the
longer they wait, players far apart left waiting, a stale ticket ignored, an asynchronous match
given to the next player, and the API's answers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from races.matching import ALIVE, quick_match, quick_match_leave, rating_window
from races.models import QuickMatchTicket, Race, Rating

pytestmark = pytest.mark.django_db
NOW = timezone.now()


def rated(make_player, shown: float):
    player = make_player()
    Rating.objects.create(
        user=player, rules="classic", mu=25, sigma=1, ordinal=shown, races=5, updated_at=NOW
    )
    return player


def test_two_players_of_close_rating_are_paired_into_a_started_race(make_player):
    first, second = rated(make_player, 1600), rated(make_player, 1650)
    waiting = quick_match(user=first, rules="classic", now=NOW)
    assert waiting.race is None and waiting.window == 100
    paired = quick_match(user=second, rules="classic", now=NOW + timedelta(seconds=2))
    race = paired.race
    assert race is not None and race.kind == Race.Kind.RACE and race.state == Race.State.RUNNING
    assert set(race.seat_rows.values_list("user_id", flat=True)) == {first.pk, second.pk}
    # The first player's next ask finds the race, and their ticket is gone.
    assert quick_match(user=first, rules="classic", now=NOW + timedelta(seconds=4)).race == race
    assert not QuickMatchTicket.objects.exists()


def test_players_far_apart_wait_until_the_window_has_grown(make_player):
    strong, new = rated(make_player, 1900), make_player()  # a new player shows 1500
    quick_match(user=strong, rules="classic", now=NOW)
    assert quick_match(user=new, rules="classic", now=NOW + timedelta(seconds=5)).race is None
    assert rating_window(waited=timedelta(seconds=30)) == 400
    # Both keep asking; after 30 s of the longer wait, 400 points apart is close enough.
    quick_match(user=strong, rules="classic", now=NOW + timedelta(seconds=28))
    assert quick_match(user=new, rules="classic", now=NOW + timedelta(seconds=30)).race is not None


def test_a_ticket_nobody_asks_about_is_no_one_waiting(make_player):
    gone, here = make_player(), make_player()
    quick_match(user=gone, rules="classic", now=NOW)
    assert quick_match(user=here, rules="classic", now=NOW + ALIVE + timedelta(seconds=1)).race is None
    assert quick_match_leave(user=here, rules="classic") is None
    assert list(QuickMatchTicket.objects.values_list("user_id", flat=True)) == [gone.pk]
    # An hour later the abandoned ticket is dropped by the next ask.
    quick_match(user=here, rules="classic", now=NOW + timedelta(hours=1, seconds=1))
    assert list(QuickMatchTicket.objects.values_list("user_id", flat=True)) == [here.pk]


def test_leaving_after_being_paired_answers_the_race(make_player):
    first, second = make_player(), make_player()
    quick_match(user=first, rules="classic", now=NOW)
    race = quick_match(user=second, rules="classic", now=NOW + timedelta(seconds=1)).race
    assert quick_match_leave(user=first, rules="classic") == race  # the match stands
    assert not QuickMatchTicket.objects.exists()


def test_other_rule_sets_and_oneself_are_never_partners(make_player):
    player, relaxed = make_player(), make_player()
    quick_match(user=relaxed, rules="relaxed", now=NOW)
    assert quick_match(user=player, rules="classic", now=NOW).race is None
    assert quick_match(user=player, rules="classic", now=NOW + timedelta(seconds=1)).race is None


def test_an_asynchronous_match_goes_to_the_next_player_of_close_rating(make_player):
    waiting, later = make_player(), make_player()
    quick_match(user=waiting, rules="classic", now=NOW)
    challenge = quick_match(
        user=waiting, rules="classic", asynchronous=True, now=NOW + timedelta(seconds=30)
    ).race
    assert challenge.kind == Race.Kind.CHALLENGE and challenge.host_id == waiting.pk
    # Minutes later (the challenger is not asking any more), the next player takes it up.
    taken = quick_match(user=later, rules="classic", now=NOW + timedelta(minutes=20)).race
    assert taken == challenge
    assert set(challenge.seat_rows.values_list("user_id", flat=True)) == {waiting.pk, later.pk}
    assert not QuickMatchTicket.objects.exists()


def test_the_api_answers_waiting_then_matched(make_player):
    first, second = make_player(), make_player()
    clients = []
    for player in (first, second):
        client = APIClient()
        client.force_login(player)
        clients.append(client)
    waiting = clients[0].post("/api/races/quick/", {"rules": "classic"}, format="json").json()
    assert (
        waiting["state"] == "waiting"
        and waiting["race"] is None
        and waiting["asynchronous_after_seconds"] == 30
    )
    matched = clients[1].post("/api/races/quick/", {"rules": "classic"}, format="json").json()
    assert matched["state"] == "matched" and matched["race"]["your_game_id"] is None  # the countdown first
    assert (
        clients[0].post("/api/races/quick/", {"rules": "classic"}, format="json").json()["race"]["id"]
        == (matched["race"]["id"])
    )
    assert clients[0].delete("/api/races/quick/?rules=classic").status_code == 204  # not queued any more
    assert APIClient().post("/api/races/quick/", {"rules": "classic"}, format="json").status_code == 403


def test_an_ask_of_a_wait_already_left_queues_nobody(make_player):
    """A page's last ask can reach the server after its leave (both sent as it closes): that ask
    must not put the player back in the queue, where someone could be paired with nobody."""
    player = make_player()
    client = APIClient()
    client.force_login(player)
    ask = {"rules": "classic", "wait": "w1"}
    assert client.post("/api/races/quick/", ask, format="json").json()["state"] == "waiting"
    assert client.delete("/api/races/quick/?rules=classic&wait=w1").status_code == 204
    late = client.post("/api/races/quick/", ask, format="json").json()
    assert late["state"] == "left" and late["race"] is None
    assert not QuickMatchTicket.objects.exists()
    # Find pressed again: a new wait queues as before.
    again = client.post("/api/races/quick/", {"rules": "classic", "wait": "w2"}, format="json").json()
    assert again["state"] == "waiting" and QuickMatchTicket.objects.filter(user=player).exists()


def test_a_leave_crossing_an_ask_in_flight_leaves_no_ticket(make_player, monkeypatch):
    """The leave arrives while the ask holds the queue's lock: it finds no ticket to take out
    (the ask's is not written yet), so the ask takes its own out once it sees the leave."""
    import races.matching

    player = make_player()
    keep_stale_dropped = races.matching._stale_tickets_drop

    def leave_meanwhile(tickets, *, now):
        quick_match_leave(user=player, rules="classic", wait="w1")
        return keep_stale_dropped(tickets, now=now)

    monkeypatch.setattr(races.matching, "_stale_tickets_drop", leave_meanwhile)
    assert quick_match(user=player, rules="classic", wait="w1", now=NOW).left
    assert not QuickMatchTicket.objects.exists()
