"""The room's heartbeat (docs/races.md, "When the channel layer breaks"): a socket hears its own
heartbeat come back through the room; a socket that hears nothing of the room closes with
ROOM_LOST, so that its page reconnects and reads the race again. Times are shortened here."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from test_race_socket import receive_until, run, session_cookie, socket

import races.consumers
from races import services
from races.consumers import ROOM_LOST, UNREADABLE

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def quick_heartbeat(monkeypatch):
    monkeypatch.setattr(races.consumers, "HEARTBEAT_SECONDS", 0.1)
    monkeypatch.setattr(races.consumers, "HEARTBEAT_LOST_SECONDS", 0.5)


@pytest.fixture
def lobby_race(make_player):
    host = make_player("host")
    return services.race_create(user=host, rules="classic", seats=2, time_limit_minutes=None)


@pytest.fixture
def lobby_socket(lobby_race):
    """`await lobby_socket()`: the host's socket of a new race's lobby, connected, the race read."""
    cookie = session_cookie(lobby_race.host)

    async def connected():
        communicator = socket(lobby_race.public_id, cookie)
        assert (await communicator.connect())[0]
        await receive_until(communicator, "race")
        return communicator

    return connected


def test_a_socket_hears_the_rooms_heartbeat(lobby_socket, quick_heartbeat):
    async def scenario():
        communicator = await lobby_socket()
        for _ in range(3):  # on and on: the room answers, so the socket stays open
            await receive_until(communicator, "heartbeat", timeout=5)
        await communicator.disconnect()

    run(scenario)


def test_a_socket_that_hears_nothing_of_the_room_closes_so_its_page_comes_back(lobby_socket, quick_heartbeat):
    async def scenario():
        communicator = await lobby_socket()
        # The layer drops the socket's subscription, as a broken Redis does: its heartbeats
        # go to the room and never come back to it.
        layer = get_channel_layer()
        for group in list(layer.groups):
            layer.groups[group].clear()
        while True:
            output = await communicator.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                break
        assert output["code"] == ROOM_LOST

    run(scenario)


def test_a_socket_that_missed_heartbeats_reads_the_race_again_when_the_room_comes_back(
    lobby_socket, lobby_race, quick_heartbeat, make_player, monkeypatch
):
    """Redis restarted: a change told before the socket's subscription came back is lost, and the
    heartbeats then resume as if nothing happened. Before, the page kept the stale race (a
    full-stack test met it: the other page's next move never showed)."""
    guest = make_player("guest")
    # Deaf for the join and a quarter of a second: far from closing, however long the join takes
    # (on PostgreSQL beside other passes it took longer than the quick 0.5 s, and the socket closed).
    monkeypatch.setattr(races.consumers, "HEARTBEAT_LOST_SECONDS", 10.0)

    async def scenario():
        communicator = await lobby_socket()
        layer = get_channel_layer()
        members = {group: dict(channels) for group, channels in layer.groups.items()}
        for group in members:
            layer.groups[group].clear()  # deaf, for far less than HEARTBEAT_LOST_SECONDS
        await sync_to_async(services.race_join)(user=guest, public_id=lobby_race.public_id)
        await asyncio.sleep(0.25)  # more than a round and a half of heartbeats missed
        for group, channels in members.items():
            layer.groups[group].update(channels)
        # A lost change fails, never hangs (heartbeats keep coming).
        told = await asyncio.wait_for(receive_until(communicator, "race"), 5)
        assert [player["name"] for player in told["race"]["players"]] == ["host", "guest"]
        await communicator.disconnect()

    run(scenario)


def test_a_frame_nested_past_the_stack_closes_the_socket_with_a_clear_code(lobby_socket):
    """Before: 100,000 nested arrays closed the socket 1011 with a RecursionError traceback."""

    async def scenario():
        communicator = await lobby_socket()
        await communicator.send_to(text_data="[" * 100_000 + "]" * 100_000)
        while (output := await communicator.receive_output(timeout=5))["type"] != "websocket.close":
            pass
        assert output["code"] == UNREADABLE

    run(scenario)
