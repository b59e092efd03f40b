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
    transaction.on_commit(lambda: _group_send(public_id, {"type": "race.changed"}))


async def seat_progress_tell(public_id: str, answer: dict) -> None:
    """Every socket of the race tells its player a seat's figures (`answer`, the progress the
    seat's socket replayed: races/consumers.py, the one path of a move to the room). Encoded
    once here, not once a socket. A broken layer loses it (the heartbeat notices), never the
    socket."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group_name(public_id), {"type": "race.progress", "text": json.dumps(answer)})
    except Exception:
        logger.warning("race room not told", extra={"race": public_id}, exc_info=True)


def _group_send(public_id: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(public_id), message)
    except Exception:  # a broken layer must not undo or fail a stored change
        logger.warning("race room not told", extra={"race": public_id}, exc_info=True)
