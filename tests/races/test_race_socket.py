"""The race's WebSocket through Channels' test communicator, on the site's ASGI application: join,
start, progress, finish, reconnect, refusals (docs/races.md)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client
from race_play import CLASSIC_WIN, off_the_event_loop, paced, play, submit

from games.engine import CARD_NAMES, Game
from games.hidden.reveals import game_reveal
from races import services
from races.models import Race
from yukon_site.asgi import application

WIN = CLASSIC_WIN["log"]
ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def socket(race_id: str, cookie: bytes | None = None, *, origin=ORIGIN) -> WebsocketCommunicator:
    """A socket of the race, signed in by `cookie` (`session_cookie`, made before the event loop)."""
    headers = [origin] + ([(b"cookie", cookie)] if cookie is not None else [])
    return WebsocketCommunicator(application, f"/ws/races/{race_id}/", headers=headers)


def run(coroutine_function):
    return off_the_event_loop(async_to_sync(coroutine_function))


async def receive_until(
    communicator, kind: str, predicate=lambda message: True, *, timeout: float = 5
) -> dict:
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        if message["type"] == kind and predicate(message):
            return message


@pytest.fixture
def grace(settings):
    settings.RACE_GRACE_SECONDS = 24 * 3600  # races here were started an hour ago
    settings.RACE_COUNTDOWN_SECONDS = 0


pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("grace")]


def test_join_start_progress_finish_over_the_socket(make_player, known_deal):
    host, guest = make_player("host"), make_player("guest")
    race = services.race_create(user=host, rules="classic", seats=3, time_limit_minutes=None)
    host_cookie, guest_cookie = session_cookie(host), session_cookie(guest)

    async def scenario():
        host_socket, guest_socket = socket(race.public_id, host_cookie), socket(race.public_id, guest_cookie)
        assert (await host_socket.connect())[0]
        lobby = await receive_until(host_socket, "race")
        assert lobby["race"]["state"] == "lobby" and [p["name"] for p in lobby["race"]["players"]] == ["host"]
        assert (await guest_socket.connect())[0]
        await receive_until(guest_socket, "race")
        from channels.db import database_sync_to_async

        await database_sync_to_async(services.race_join)(user=guest, public_id=race.public_id)
        joined = await receive_until(host_socket, "race", lambda m: len(m["race"]["players"]) == 2)
        assert joined["race"]["players"][1]["name"] == "guest"
        await database_sync_to_async(services.race_start)(user=host, public_id=race.public_id)
        started = await receive_until(guest_socket, "race", lambda m: m["race"]["state"] == "running")
        assert (
            started["race"]["your_game_id"]
            and started["race"]["commitment"]
            and started["race"]["code"] is None
        )
        await receive_until(host_socket, "race", lambda m: m["race"]["state"] == "running")
        # The guest's first moves, replayed by the server and told to the host as figures only.
        tokens, times = WIN.split(), paced(len(WIN.split()))
        game = Game(known_deal["code"])
        safe = 0
        for token in tokens:
            before = game.face_down
            game.play(token)
            safe += 1
            if game.face_down != before:
                break
        await guest_socket.send_json_to(
            {"type": "progress", "log": " ".join(tokens[: safe - 1]), "move_times_ms": times[: safe - 1]}
        )
        told = await receive_until(host_socket, "progress")
        assert told == {
            "type": "progress",
            "player": "guest",
            "status": "playing",
            "moves": safe - 1,
            "foundation_cards": sum(1 for t in tokens[: safe - 1] if t.endswith(">F")),
            "time_ms": times[safe - 2],
        }
        await guest_socket.send_json_to({"type": "progress", "log": "KS>5 KS>5", "move_times_ms": [1, 2]})
        refused = await receive_until(guest_socket, "refused")
        assert refused["code"] in {"illegal_move", "prefix_conflict"}
        await host_socket.disconnect()
        await guest_socket.disconnect()

    run(scenario)


def test_a_whole_race_ends_with_places_on_every_socket(make_player, known_deal):
    host, guest = make_player("host"), make_player("guest")
    race = services.race_create(user=host, rules="classic", seats=2, time_limit_minutes=None)
    services.race_join(user=guest, public_id=race.public_id)  # full: started
    race.refresh_from_db()
    # As if the countdown had ended an hour ago, so the play below is in the past.
    from games.models import IssuedGame

    start = race.starts_at - timedelta(hours=1)
    Race.objects.filter(pk=race.pk).update(starts_at=start)
    IssuedGame.objects.filter(race_seat__race=race).update(issued_at=start)
    host_seat = race.seat_rows.select_related("game", "user", "race").get(user=host)
    spectator = session_cookie(make_player("spectator"))

    async def scenario():
        from channels.db import database_sync_to_async

        watcher = socket(race.public_id, spectator)
        assert (await watcher.connect())[0]
        await receive_until(watcher, "race")
        times = await database_sync_to_async(play)(host_seat, WIN)
        await database_sync_to_async(submit)(host_seat, WIN, times)
        await database_sync_to_async(services.race_leave)(user=guest, public_id=race.public_id)
        final = await receive_until(watcher, "race", lambda m: m["race"]["places_final"], timeout=10)
        assert final["race"]["code"] == known_deal["code"] and final["race"]["secret"]
        assert [(p["name"], p["place"], p["won"]) for p in final["race"]["players"]] == [
            ("host", 1, True),
            ("guest", 2, False),
        ]
        await watcher.disconnect()

    run(scenario)


def test_a_dropped_connection_reconnects_and_gets_the_race_again(make_player):
    host = make_player("host")
    race = services.race_create(user=host, rules="relaxed", seats=2, time_limit_minutes=10)
    cookie = session_cookie(host)

    async def scenario():
        first = socket(race.public_id, cookie)
        assert (await first.connect())[0]
        await receive_until(first, "race")
        await first.disconnect()
        again = socket(race.public_id, cookie)
        assert (await again.connect())[0]
        message = await receive_until(again, "race")
        assert message["race"]["id"] == race.public_id and message["race"]["players"][0]["you"]
        await again.disconnect()

    run(scenario)


def test_refusals_of_the_socket(make_player):
    host = make_player("host")
    race = services.race_create(user=host, rules="classic", seats=2, time_limit_minutes=None)
    cookie, spectator_cookie = session_cookie(host), session_cookie(make_player("spectator"))

    async def scenario():
        anonymous = socket(race.public_id)
        assert (await anonymous.connect())[0]
        assert (await anonymous.receive_output(timeout=5))["code"] == 4401
        foreign = socket("nosuchrace", cookie)
        assert (await foreign.connect())[0]
        assert (await foreign.receive_output(timeout=5))["code"] == 4404
        elsewhere = socket(race.public_id, cookie, origin=(b"origin", b"https://evil.example"))
        connected, _ = await elsewhere.connect()
        assert not connected
        spectator = socket(race.public_id, spectator_cookie)
        assert (await spectator.connect())[0]
        await receive_until(spectator, "race")
        await spectator.send_json_to({"type": "progress", "log": "", "move_times_ms": []})
        refused = await receive_until(spectator, "refused")
        assert refused["code"] == "not_seated"
        await spectator.send_to(text_data="not json")
        assert (await receive_until(spectator, "refused"))["code"] == "invalid"
        await spectator.disconnect()

    run(scenario)


def test_no_socket_message_names_another_seats_card(make_player, known_deal):
    """Figures only: the spectator's socket, through a whole race, never carries a card the
    players were shown beyond the face-up deal, nor the deal, before the race is over."""
    host, guest = make_player("host"), make_player("guest")
    race = services.race_create(user=host, rules="classic", seats=2, time_limit_minutes=None)
    services.race_join(user=guest, public_id=race.public_id)
    race.refresh_from_db()
    host_seat = race.seat_rows.select_related("game", "user", "race").get(user=host)
    host_cookie, guest_cookie = session_cookie(host), session_cookie(guest)

    async def scenario():
        from channels.db import database_sync_to_async

        watcher, playing = socket(race.public_id, guest_cookie), socket(race.public_id, host_cookie)
        assert (await watcher.connect())[0] and (await playing.connect())[0]
        # The host plays 50 moves at the page's table: each card asked for as it turns up, the
        # progress sent on the host's socket every five moves (the one path to the room).
        tokens, times, game = WIN.split()[:50], paced(50), Game(host_seat.game.code)
        for length, token in enumerate(tokens, start=1):
            before = game.face_down
            game.play(token)
            prefix, prefix_times = " ".join(tokens[:length]), times[:length]
            if game.face_down != before:
                await database_sync_to_async(game_reveal)(
                    user=host, game_id=host_seat.game_id, log=prefix, move_times_ms=prefix_times
                )
            if length % 5 == 0:
                await playing.send_json_to({"type": "progress", "log": prefix, "move_times_ms": prefix_times})
                await receive_until(playing, "progress", lambda m, n=length: m["moves"] == n)
        texts = []
        while not await watcher.receive_nothing(timeout=0.5):
            texts.append(await watcher.receive_from())
        await watcher.disconnect()
        await playing.disconnect()
        return texts

    texts = run(scenario)
    from games.models import IssuedGame

    revealed = {entry["card"] for entry in IssuedGame.objects.get(pk=host_seat.game_id).revealed}
    assert revealed and any('"progress"' in text for text in texts)
    for text in texts:
        assert race.code not in text and race.secret not in text
        for card in revealed:
            assert f'"{card}"' not in text
    assert all(card in CARD_NAMES for card in revealed)


def test_a_challenges_progress_goes_to_its_sender_alone(make_player, known_deal):
    """The one path of a move to the room (races/room.seat_progress_tell, from the socket): a
    race's progress is told to every socket, a challenge's only answered to its sender."""
    host, watcher = make_player("host"), make_player("watcher")
    race = services.challenge_create(user=host, rules="classic")
    host_cookie, watcher_cookie = session_cookie(host), session_cookie(watcher)

    async def scenario():
        host_socket, watching = socket(race.public_id, host_cookie), socket(race.public_id, watcher_cookie)
        assert (await host_socket.connect())[0] and (await watching.connect())[0]
        await receive_until(host_socket, "race", lambda m: m["race"]["state"] == "running")
        await receive_until(watching, "race")
        first = WIN.split()[0]
        await host_socket.send_json_to({"type": "progress", "log": first, "move_times_ms": [500]})
        answered = await receive_until(host_socket, "progress")
        assert (answered["player"], answered["moves"]) == ("host", 1)
        told = []
        while not await watching.receive_nothing(timeout=1.0):
            told.append((await watching.receive_json_from())["type"])
        assert "progress" not in told, told
        await host_socket.disconnect()
        await watching.disconnect()

    run(scenario)


def test_a_change_made_while_a_socket_reads_the_race_still_reaches_it(make_player, monkeypatch):
    """A socket joins the room before it reads the race: a seat taken between its read and its
    joining is told to it, never lost (its page would show a stale race until it reconnected)."""
    from races.consumers import RaceConsumer

    host, watcher, guest = make_player("host"), make_player("watcher"), make_player("guest")
    race = services.race_create(user=host, rules="classic", seats=3, time_limit_minutes=None)
    watcher_cookie = session_cookie(watcher)
    arrive = RaceConsumer._arrive

    def arrive_then_someone_joins(consumer):
        message = arrive(consumer)  # the race as read: one player
        services.race_join(user=guest, public_id=race.public_id)  # committed before the socket goes on
        return message

    monkeypatch.setattr(RaceConsumer, "_arrive", arrive_then_someone_joins)

    async def watch(watcher_socket):
        assert (await watcher_socket.connect())[0]
        first = await receive_until(watcher_socket, "race")
        assert [p["name"] for p in first["race"]["players"]] == ["host"]
        told = await receive_until(watcher_socket, "race", lambda m: len(m["race"]["players"]) == 2)
        assert [p["name"] for p in told["race"]["players"]] == ["host", "guest"]

    async def scenario():
        watcher_socket = socket(race.public_id, watcher_cookie)
        try:
            await asyncio.wait_for(watch(watcher_socket), 15)  # a lost message fails, never hangs
        finally:
            await watcher_socket.disconnect()

    run(scenario)
