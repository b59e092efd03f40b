"""A second opinion on ``unwinnable``: a deliberately simple exhaustive search.

It shares no code with the solver's searches: moves are the engine's own legal moves
(``Game.legal_moves``), played and undone by the engine, every one of them tried. Its one
reduction is the sound one every search of ours makes: positions equal up to the order of
the columns are one (the rules never look at a column's number). No safe moves, no tiers, no
deadlock proofs, so a bug there cannot hide here.

It is slow (the engine checks every move), so it re-proves small positions and samples:
``exhaust`` answers None past ``limit`` positions rather than guess.
"""

from __future__ import annotations

from games.engine import Game

from .position import Position

DEFAULT_LIMIT = 200_000  # positions; about a minute


class Disagreement(AssertionError):
    """The checker found a win where the solver answered ``unwinnable``."""


def _key(game: Game) -> tuple[tuple[int, tuple[int, ...]], ...]:
    return tuple(sorted(zip(game.face_down, game.columns, strict=True)))


def exhaust(position: Position, limit: int = DEFAULT_LIMIT) -> bool | None:
    """True when some line of legal moves wins, False when none does, None past ``limit``."""
    game = position.game(keep_history=True)
    if game.is_won():
        return True
    seen = {_key(game)}
    stack = [iter(list(game.legal_moves))]
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if stack:
                game.undo()
            continue
        game.push(move)
        if game.is_won():
            return True
        key = _key(game)
        if key in seen:
            game.undo()
            continue
        if len(seen) >= limit:
            return None
        seen.add(key)
        stack.append(iter(list(game.legal_moves)))
    return False


def recheck_unwinnable(position: Position, limit: int = DEFAULT_LIMIT) -> bool:
    """Re-prove an ``unwinnable`` answer: True when re-proved, False when too big to tell.

    A win raises ``Disagreement``: the solver's proof is wrong, and nothing may trust it.
    """
    verdict = exhaust(position, limit)
    if verdict:
        raise Disagreement(f"the checker wins {position.to_dict()} that the solver called unwinnable")
    return verdict is False
