"""Replaying a hidden-card game's log without the face-down cards it has not turned up: the game
as its player knows it (the face-up cards and the cards revealed)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.engine import HiddenCardGame, Place, Refusal, visible_deal
from games.errors import (
    NothingExposed,
    SubmissionInvalid,
)
from games.models import IssuedGame, Reveal


@dataclass(frozen=True)
class RevealedCard:
    """A face-down card told to the player: its place, its name (like TD), and the length of the
    log that turned it up. What a reveal answers; a game's row keeps a copy of each
    (`IssuedGame.revealed`, as `to_dict()`) beside its Reveal row."""

    column: int
    depth: int
    card: str
    prefix_length: int

    @property
    def place(self) -> Place:
        return Place(self.column, self.depth)

    def to_dict(self) -> dict:
        """The Reveal row's fields of the same names: {"column", "depth", "card", "prefix_length"}."""
        return {
            "column": self.column,
            "depth": self.depth,
            "card": self.card,
            "prefix_length": self.prefix_length,
        }


# --- Replaying a log without the face-down cards it has not turned up ---------------------------


def hidden_game_position(game: IssuedGame, reveals: Iterable[Reveal | RevealedCard]) -> HiddenCardGame:
    """The game at its deal as its player knows it: the face-up cards and the cards revealed."""
    revealed = {(reveal.column, reveal.depth): reveal.card for reveal in reveals}
    return HiddenCardGame.from_visible(visible_deal(game.code), revealed)


def log_play(position: HiddenCardGame, tokens: list[str], *, first_index: int = 0) -> dict | None:
    """Play `tokens`; the first refused as {index, token, code, message} (a field error of `log`)."""
    for index, token in enumerate(tokens, start=first_index):
        try:
            position.play(token)
        except Refusal as error:
            message = f"move {index + 1} `{token}`: {error.message}"
            return {"index": index, "token": token, "code": error.code, "message": message}
    return None


def exposed_place(position: HiddenCardGame, tokens: list[str]) -> Place:
    """Replay the log; the face-down place its last token turns up. Raises SubmissionInvalid
    (a refused token: `unknown_card` for a move after a card turned up and not revealed) or
    NothingExposed."""
    *before, last = tokens
    error = log_play(position, before)
    face_down = position.face_down
    if error is None:
        error = log_play(position, [last], first_index=len(before))
    if error is not None:
        raise SubmissionInvalid({"log": [error]})
    for column, (hidden_before, hidden_now) in enumerate(zip(face_down, position.face_down, strict=True)):
        if hidden_now < hidden_before:
            return Place(column, hidden_now)
    raise NothingExposed(f"move {len(tokens)} `{last}`, the last of the log, turns up no face-down card")


# --- Reveals ------------------------------------------------------------------------------------
