"""The race's WebSocket (docs/races.md): the room's messages to a player, a player's progress in.

The consumer keeps nothing but its connection: each message is handled from the database, so a
race is served by any number of ASGI processes sharing the channel layer.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.core.serializers.json import DjangoJSONEncoder
from django.db import close_old_connections

from games.errors import GameServiceError, SubmissionInvalid
from races import play, room, selectors, services
from races.room import group_name, heartbeat_tell

logger = logging.getLogger(__name__)

NOT_SIGNED_IN, NO_SUCH_RACE, ROOM_LOST = 4401, 4404, 4408
UNREADABLE = 1007  # RFC 6455: a message this endpoint cannot take (JSON nested past Python's stack)
MAX_MESSAGE_BYTES = 256 * 1024
# The room's heartbeat (docs/races.md, "When the channel layer breaks"): each socket sends one
# through the room's group every HEARTBEAT_SECONDS and tells its page when its own comes back.
# A socket that hears nothing of the room for HEARTBEAT_LOST_SECONDS is deaf (a broken channel
# layer: channels-redis does not always resubscribe after a Redis restart): it closes with
# ROOM_LOST, so its page reconnects and reads the race again; the page closes a socket it has
# heard nothing on for as long (race_socket.js).
HEARTBEAT_SECONDS = 4.0
HEARTBEAT_LOST_SECONDS = 10.0
# A socket that heard nothing of its room for longer than this many heartbeat rounds may have
# missed a message (a Redis restart: the message told before its subscription came back is
# lost, and heartbeats resume as if nothing happened): when it hears the room again, it reads
# the race again for its page.
HEARTBEAT_ROUNDS_MISSED = 1.5
# Flushes of this process's channel layer: a deaf socket flushes it (fresh connections and
# subscriptions for the sockets that come back) unless a flush came after the socket joined,
# which is then what made it deaf: one flush a breakage, however many sockets notice it.
_layer_flushes = 0


CONNECTIONS_CHECKED_EVERY = 1.0  # seconds
_connections_checked_at = 0.0


def _moves_connections_checked(function):
    """Run `function` (a move's progress) in the thread of the process's database work, its
    connections checked as `database_sync_to_async` checks them (age, health), but at most once
    a second: that check costs a query of its own, and a move is a query or two."""

    def call(*args):
        global _connections_checked_at
        if time.monotonic() - _connections_checked_at >= CONNECTIONS_CHECKED_EVERY:
            close_old_connections()
            _connections_checked_at = time.monotonic()
        return function(*args)

    return sync_to_async(call, thread_sensitive=True)


def _race_message(public_id: str, user) -> dict | None:
    race = selectors.race_get(public_id)
    if race is None:
        return None
    return {"type": "race", "race": selectors.race_view(race, viewer=user)}


def _refusal(error: GameServiceError) -> dict:
    if isinstance(error, SubmissionInvalid):
        field, problems = next(iter(error.errors.items()))
        problem = problems[0]
        if isinstance(problem, dict):
            return {
                "type": "refused",
                "code": "illegal_move",
                "message": problem["message"],
                "index": problem["index"],
            }
        return {"type": "refused", "code": "invalid", "message": f"{field}: {problem}"}
    return {"type": "refused", "code": error.code, "message": error.message}


class _NestedTooDeep(Exception):
    pass


class RaceConsumer(AsyncJsonWebsocketConsumer):
    race_id: str
    group: str
    seat: play.PlayingSeat | None = None  # read at the first progress of a running race
    _heartbeat: asyncio.Task | None = None

    async def dispatch(self, message: dict) -> None:
        """As Channels dispatches, less its check of the database connections before every
        message: that check is a hop to the process's one database thread, so each room's
        progress (most messages, and no database work) queued behind other sockets' moves. This
        consumer's database work checks its connections itself (`database_sync_to_async`,
        `_moves_connections_checked`)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content) -> str:
        return json.dumps(content, cls=DjangoJSONEncoder)

    async def connect(self) -> None:
        self.race_id = self.scope["url_route"]["kwargs"]["race_id"]
        self.group = group_name(self.race_id)
        user = self.scope.get("user")
        await self.accept()  # then close with a code the page can read
        if user is None or not user.is_authenticated:
            await self.close(code=NOT_SIGNED_IN)
            return
        # In the room before the race is read: a change committed between the read and joining
        # would otherwise be told to the room without this socket, which would keep a stale race.
        await self.channel_layer.group_add(self.group, self.channel_name)
        message = await database_sync_to_async(self._arrive)()
        if message is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.close(code=NO_SUCH_RACE)
            return
        await self.send_json(message)
        self._heard_at, self._flushes_at_join = time.monotonic(), _layer_flushes
        self._heartbeat = asyncio.create_task(self._heartbeats())

    def _arrive(self) -> dict | None:
        user = self.scope["user"]
        if play.seat_seen(user=user, public_id=self.race_id):
            services.race_tick(public_id=self.race_id)
        return _race_message(self.race_id, user)

    async def disconnect(self, code: int) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def _heartbeats(self) -> None:
        global _layer_flushes
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            if time.monotonic() - self._heard_at > HEARTBEAT_LOST_SECONDS:
                logger.warning("race socket deaf: closing it", extra={"race": self.race_id})
                if self._flushes_at_join == _layer_flushes and hasattr(self.channel_layer, "flush"):
                    _layer_flushes += 1
                    await self.channel_layer.flush()
                await self.close(code=ROOM_LOST)
                return
            await heartbeat_tell(self.race_id, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.send_json(
                {"type": "refused", "code": "invalid", "message": "send JSON text of at most 256 KB"}
            )
            return
        try:
            await super().receive(text_data=text_data, **kwargs)
        except _NestedTooDeep:
            await self.close(code=UNREADABLE, reason="JSON nested too deep")

    @classmethod
    async def decode_json(cls, text_data):
        try:
            return json.loads(text_data)
        except ValueError:
            return None
        except RecursionError:  # e.g. 100,000 nested arrays: refused, never a traceback
            raise _NestedTooDeep from None

    async def receive_json(self, content, **kwargs) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await database_sync_to_async(self._ping)()
        elif kind == "progress":
            log, times = content.get("log"), content.get("move_times_ms")
            if not isinstance(log, str) or not isinstance(times, list):
                await self.send_json(
                    {
                        "type": "refused",
                        "code": "invalid",
                        "message": "progress needs a log (text) and move_times_ms (a list)",
                    }
                )
                return
            answer = await _moves_connections_checked(self._progress)(log, times)
            if answer["type"] == "progress" and not self.seat.told:  # a challenge: kept until the end
                await self.send_json(answer)
            elif answer["type"] == "progress":
                await room.seat_progress_tell(self.race_id, answer)
            else:
                await self.send_json(answer)
        else:
            await self.send_json({"type": "refused", "code": "invalid", "message": "unknown message type"})

    def _ping(self) -> None:
        if play.seat_seen(user=self.scope["user"], public_id=self.race_id):
            services.race_tick(public_id=self.race_id)

    def _progress(self, log: str, times: list) -> dict:
        """The seat's figures as the room is told them, or the refusal. No tick here: pings and
        the beat's task move the race on, not every move."""
        user = self.scope["user"]
        try:
            if self.seat is None:
                self.seat = play.playing_seat(user=user, public_id=self.race_id)
            figures = play.seat_progress_record(seat=self.seat, user=user, log=log, move_times_ms=times)
        except GameServiceError as error:
            return _refusal(error)
        return {"type": "progress", **figures.to_dict()}

    # Messages of the room (races.room and group_send above)

    def _room_heard(self) -> bool:
        """Notes that the room was heard; True when the silence before it was long enough to have
        lost a message."""
        now = time.monotonic()
        silence, self._heard_at = now - self._heard_at, now
        return silence > HEARTBEAT_SECONDS * HEARTBEAT_ROUNDS_MISSED

    async def race_heartbeat(self, event: dict) -> None:
        if self._room_heard():
            await self._race_send()
        if event.get("to") == self.channel_name:
            await self.send_json({"type": "heartbeat"})

    async def race_changed(self, event: dict) -> None:
        self._room_heard()
        await self._race_send()

    async def race_progress(self, event: dict) -> None:
        missed = self._room_heard()
        await self.send(text_data=event["text"])
        if missed:
            await self._race_send()

    async def _race_send(self) -> None:
        message = await database_sync_to_async(_race_message)(self.race_id, self.scope["user"])
        if message is not None:
            await self.send_json(message)
