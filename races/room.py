"""Telling a race's room: messages through the channel layer to every socket of the race.

The room holds no state: a `race.changed` message makes each socket read the race again from
the database (races.selectors.race_view), so any process may send it; a seat's progress is told
by the socket that replayed it (`seat_progress_tell`). A layer that does not
answer (Redis down) loses the message, never the request: pages read the race again when they
reconnect.
"""

from __future__ import annotations

import json
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def group_name(public_id: str) -> str:
    return f"race.{public_id}"


def race_changed(public_id: str) -> None:
    """After the commit: every socket of the race sends its player the race again."""
    transaction.on_commit(lambda: _tell_from_sync(public_id, {"type": "race.changed"}))


async def seat_progress_tell(public_id: str, answer: dict) -> None:
    """Every socket of the race tells its player a seat's figures (`answer`, the progress the
    seat's socket replayed: races/consumers.py, the one path of a move to the room). Encoded
    once here, not once a socket."""
    await _tell(public_id, {"type": "race.progress", "text": json.dumps(answer)})


async def heartbeat_tell(public_id: str, channel_name: str) -> None:
    """A socket's heartbeat round its room: every socket hears that the room still carries
    messages, and the sender (`to`) answers its page (docs/races.md, "When the channel layer
    breaks")."""
    await _tell(public_id, {"type": "race.heartbeat", "to": channel_name})


async def _tell(public_id: str, message: dict) -> None:
    """The one send to a room. A broken layer loses the message (the heartbeat notices), never
    the socket or the request that sent it."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group_name(public_id), message)
    except Exception:
        logger.warning("race room not told", extra={"race": public_id}, exc_info=True)


def _tell_from_sync(public_id: str, message: dict) -> None:
    """`_tell` from synchronous code (a service's commit). async_to_sync refuses in a thread
    whose event loop runs (a test's, a browser driver's): the message is lost, never the change."""
    try:
        async_to_sync(_tell)(public_id, message)
    except Exception:
        logger.warning("race room not told", extra={"race": public_id}, exc_info=True)
