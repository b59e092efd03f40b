"""What a game's log and move times tell of how it was played (pure: no Django), for the fair-play
analysis (docs/fairplay.md). Read from the whole deal, which the server knows once the result is
in; the solver's verdicts on each move come on top of these.

- **Peeks**: an undo right after a move that turned a card up. The card was seen and the move
  taken back: exploring the face-down cards by move-and-undo costs moves (an undo never lowers
  the count) but tells what is under them. Evidence, never a rule: people undo too.
- **Reaction to a reveal**: a person stops to read a card just turned up; a program that knew it,
  or reads it in microseconds, need not. The median pause after a move that turned a card up,
  against the median pause after the other moves.
- **Rhythm**: the spread of the pauses' logarithms. A person's pace varies with the position; a
  program sleeping a drawn pause may vary less, or in its own way.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass

from games.engine import UNDO, Game


@dataclass(frozen=True)
class GameFeatures:
    moves: int  # moves played (undos apart)
    undos: int
    reveals: int  # moves that turned a card up, undone ones too
    peeks: int  # undos right after a move that turned a card up
    pause_after_reveal_ms: float | None  # median pause after a move that turned a card up
    pause_after_other_ms: float | None  # median pause after any other move
    rhythm_spread: float | None  # standard deviation of ln(pause in ms) over every pause

    @property
    def reveal_reaction(self) -> float | None:
        """How much longer a pause after a reveal is than after another move (1: no difference)."""
        if not self.pause_after_reveal_ms or not self.pause_after_other_ms:
            return None
        return self.pause_after_reveal_ms / self.pause_after_other_ms

    def to_dict(self) -> dict:
        return {**asdict(self), "reveal_reaction": self.reveal_reaction}


def game_features(code: str, tokens: list[str], move_times_ms: list[int]) -> GameFeatures:
    """The features of a legal log of the deal of `code` (a result the server has verified), its
    times counted from the game's start, one a token."""
    if len(move_times_ms) != len(tokens):
        raise ValueError(f"{len(tokens)} tokens but {len(move_times_ms)} times")
    game = Game(code)
    turned_up: list[bool] = []  # per token: did it turn a card up?
    for token in tokens:
        before = game.face_down
        game.play(token)
        turned_up.append(token != UNDO and sum(game.face_down) < sum(before))
    pauses = [later - earlier for earlier, later in zip(move_times_ms, move_times_ms[1:], strict=False)]
    after_reveal = [pause for pause, up in zip(pauses, turned_up, strict=False) if up]
    after_other = [pause for pause, up in zip(pauses, turned_up, strict=False) if not up]
    logs = [math.log(max(pause, 1)) for pause in pauses]
    return GameFeatures(
        moves=sum(token != UNDO for token in tokens),
        undos=sum(token == UNDO for token in tokens),
        reveals=sum(turned_up),
        peeks=sum(1 for index in range(1, len(tokens)) if tokens[index] == UNDO and turned_up[index - 1]),
        pause_after_reveal_ms=statistics.median(after_reveal) if after_reveal else None,
        pause_after_other_ms=statistics.median(after_other) if after_other else None,
        rhythm_spread=statistics.pstdev(logs) if len(logs) >= 2 else None,
    )
