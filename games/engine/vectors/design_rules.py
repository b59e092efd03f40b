"""Log cases for the move rules and every refusal: each found by searching deals for a position
that shows the rule, and named after what it shows."""

from __future__ import annotations

from collections.abc import Callable

from ..cards import ACE, KING, RANK, SUIT
from ..codes import Rules
from ..game import MAX_GROUP, Game
from ..move import FOUNDATION, MOVES, Move
from .cases import Case, make, shown, twin
from .search import exposes, first, fits, group_size, is_take_back, refusals, where

C, R = Rules.CLASSIC, Rules.RELAXED
Accept = Callable[[Game, Move], bool]


def refused(code: str, accept: Accept = lambda game, move: True) -> Callable[[Game], list[str] | None]:
    return lambda game: first(refusals(game, code), lambda move: accept(game, move))


def legal(accept: Accept) -> Callable[[Game], list[str] | None]:
    return lambda game: first(game.legal_moves, lambda move: accept(game, move))


def onto_column(game: Game, move: Move) -> bool:
    return move.dest != FOUNDATION and bool(game.columns[move.dest])


def onto_empty(game: Game, move: Move) -> bool:
    return move.dest != FOUNDATION and not game.columns[move.dest]


def top_of(game: Game, move: Move) -> int:
    return game.columns[move.dest][-1]


def in_column(game: Game, move: Move) -> bool:
    return where(game, move.card)[0] != FOUNDATION


def foundation_count(game: Game, card: int) -> int:
    return game.foundations[SUIT[card]]


def tableau_cases() -> list[Case]:
    cases = [
        shown(
            "Classic refuses {tail}: one rank higher but the same colour",
            refused("wrong_colour", lambda g, m: in_column(g, m) and RANK[m.card] > ACE),
            "wrong_colour",
        )
    ]
    same_colour = cases[-1]
    cases.append(
        make(
            f"Relaxed accepts {same_colour.log[-1]}: colour does not matter",
            twin(same_colour.code, R),
            same_colour.log,
            None,
            moves=len(same_colour.log),
        )
    )
    cases += [
        shown(
            "Classic refuses {tail}: not one rank lower",
            refused("wrong_rank", lambda g, m: in_column(g, m) and RANK[m.card] not in (ACE, KING)),
            "wrong_rank",
        ),
        shown(
            "Relaxed still needs one rank higher: {tail}",
            refused("wrong_rank", lambda g, m: in_column(g, m) and RANK[m.card] not in (ACE, KING)),
            "wrong_rank",
            rules=R,
        ),
        shown(
            "a King never goes onto a card: {tail}",
            refused("wrong_rank", lambda g, m: in_column(g, m) and RANK[m.card] == KING),
            "wrong_rank",
        ),
    ]
    for rules in (C, R):
        cases.append(
            shown(
                f"{rules.value}: nothing fits onto an Ace, not even a 2: " + "{tail}",
                refused("wrong_rank", lambda g, m: RANK[m.card] == 2 and RANK[top_of(g, m)] == ACE),
                "wrong_rank",
                rules=rules,
            )
        )
    cases += [
        shown(
            "a group moves whole, in sequence or not: {tail}",
            legal(lambda g, m: onto_column(g, m) and group_size(g, m.card) >= 4 and not exposes(g, m)),
            None,
            promises={"counted": 1, "gain": 0},
        ),
        shown(
            "auto-flip: {tail} uncovers a face-down card, +5 points",
            legal(lambda g, m: onto_column(g, m) and exposes(g, m) and where(g, m.card)[1] > 0),
            None,
            promises={"counted": 1, "gain": 5},
        ),
        shown(
            "a face-down card cannot go to the foundation: {tail}",
            refused("face_down", lambda g, m: m.dest == FOUNDATION),
            "face_down",
        ),
        shown(
            "face_down is checked before same_column: {tail}",
            refused("face_down", lambda g, m: m.dest == where(g, m.card)[0]),
            "face_down",
        ),
        shown(
            "a face-down card cannot move even where it would fit: {tail}",
            refused("face_down", lambda g, m: onto_column(g, m) and fits(g, m.card, m.dest)),
            "face_down",
        ),
        shown(
            "a group onto its own column: {tail}",
            refused("same_column", lambda g, m: group_size(g, m.card) >= 3),
            "same_column",
        ),
        shown(
            "the last card onto its own column: {tail}",
            refused("same_column", lambda g, m: group_size(g, m.card) == 1),
            "same_column",
        ),
    ]
    return cases


def empty_column_cases() -> list[Case]:
    king = lambda g, m: onto_empty(g, m) and RANK[m.card] == KING  # noqa: E731
    return [
        shown(
            "an empty column takes only a King: {tail}",
            refused("empty_needs_king", lambda g, m: in_column(g, m) and RANK[m.card] == KING - 1),
            "empty_needs_king",
        ),
        shown(
            "Relaxed: an empty column still takes only a King: {tail}",
            refused("empty_needs_king", lambda g, m: in_column(g, m)),
            "empty_needs_king",
            rules=R,
        ),
        shown(
            "a King and the cards on it into an empty column: {tail}",
            legal(lambda g, m: king(g, m) and group_size(g, m.card) >= 3),
            None,
            promises={"counted": 1},
        ),
        shown(
            "a King at the bottom of a column to another empty column is legal and counts: {tail}",
            legal(lambda g, m: king(g, m) and where(g, m.card)[1] == 0),
            None,
            promises={"counted": 1, "gain": 0},
            depth=150,
        ),
    ]


def group_size_cases() -> list[Case]:
    cases = []
    for rules in (R, C):
        for size, code in ((MAX_GROUP + 1, "group_too_large"), (MAX_GROUP, None)):

            def of_size(game: Game, size: int = size, code: str | None = code) -> list[str] | None:
                moves = refusals(game, code) if code else game.legal_moves
                return first(
                    moves,
                    lambda m: (
                        onto_column(game, m)
                        and fits(game, m.card, m.dest)
                        and group_size(game, m.card) == size
                    ),
                )

            verb = "is refused" if code else "is the most that moves"
            name = f"{rules.value}: a group of {size} cards {verb}, though it fits: " + "{tail}"
            cases.append(shown(name, of_size, code, rules=rules, pile=True, depth=200))
    cases += [
        shown(
            "group_too_large is checked before wrong_rank: {tail}",
            refused("group_too_large", lambda g, m: onto_column(g, m) and not fits(g, m.card, m.dest)),
            "group_too_large",
            rules=R,
            pile=True,
            depth=200,
        ),
        shown(
            "same_column is checked before group_too_large: {tail}",
            refused("same_column", lambda g, m: group_size(g, m.card) > MAX_GROUP),
            "same_column",
            rules=R,
            pile=True,
            depth=200,
        ),
    ]
    return cases


def foundation_cases() -> list[Case]:
    return [
        shown(
            "an Ace to its foundation: {tail}, +10 points",
            legal(lambda g, m: m.dest == FOUNDATION and RANK[m.card] == ACE and not exposes(g, m)),
            None,
            promises={"counted": 1, "gain": 10},
        ),
        shown(
            "to the foundation and auto-flip: {tail}, +15 points",
            legal(lambda g, m: m.dest == FOUNDATION and exposes(g, m) and where(g, m.card)[1] > 0),
            None,
            promises={"counted": 1, "gain": 15},
        ),
        shown(
            "a foundation builds up by suit: {tail}",
            legal(lambda g, m: m.dest == FOUNDATION and RANK[m.card] >= 3),
            None,
            promises={"counted": 1},
        ),
        shown(
            "an Ace with cards on it cannot go to the foundation: {tail}",
            refused("not_last_card", lambda g, m: RANK[m.card] == ACE),
            "not_last_card",
        ),
        shown(
            "not_last_card is checked before foundation_order: {tail}",
            refused("not_last_card", lambda g, m: RANK[m.card] != foundation_count(g, m.card) + 1),
            "not_last_card",
        ),
        shown(
            "a 2 before its Ace: {tail}",
            refused("foundation_order", lambda g, m: RANK[m.card] == 2),
            "foundation_order",
        ),
        shown(
            "a foundation takes only the next card of its suit: {tail}",
            refused("foundation_order", lambda g, m: foundation_count(g, m.card) >= 1),
            "foundation_order",
        ),
        shown(
            "a card already on its foundation: {tail}",
            refused("same_column", lambda g, m: is_take_back(g, m)),
            "same_column",
        ),
        shown(
            "only a foundation's top card can be taken back: {tail}",
            refused("not_foundation_top", lambda g, m: m.dest != FOUNDATION),
            "not_foundation_top",
            depth=120,
        ),
        shown(
            "not_foundation_top is checked before same_column: {tail}",
            refused("not_foundation_top", lambda g, m: m.dest == FOUNDATION),
            "not_foundation_top",
            depth=120,
        ),
    ]


def take_back_then(follow: Callable[[Game, Move], list[str]]) -> Callable[[Game], list[str] | None]:
    def predicate(game: Game) -> list[str] | None:
        for move in game.legal_moves:
            if is_take_back(game, move):
                return [str(move), *follow(game, move)]
        return None

    return predicate


def take_back_cases() -> list[Case]:
    cases = [
        shown(
            "a take-back: {tail} costs no points and counts as a move",
            take_back_then(lambda g, m: []),
            None,
            promises={"counted": 1, "gain": 0},
            depth=120,
        ),
        shown(
            "take-back and back to the foundation scores 10 again: {tail}",
            take_back_then(lambda g, m: [str(MOVES[m.card][FOUNDATION])]),
            None,
            promises={"counted": 2, "gain": 10},
            depth=120,
        ),
        shown(
            "Classic: a take-back needs the other colour too: {tail}",
            refused("wrong_colour", lambda g, m: is_take_back(g, m)),
            "wrong_colour",
            depth=150,
        ),
    ]
    other_colour = cases[-1]
    cases += [
        make(
            f"Relaxed: the take-back {other_colour.log[-1]} is legal",
            twin(other_colour.code, R),
            other_colour.log,
            None,
        ),
        shown(
            "a take-back needs a card one rank higher: {tail}",
            refused("wrong_rank", lambda g, m: is_take_back(g, m)),
            "wrong_rank",
            depth=120,
        ),
        shown(
            "a take-back into an empty column needs a King: {tail}",
            refused("empty_needs_king", lambda g, m: is_take_back(g, m)),
            "empty_needs_king",
            depth=150,
        ),
    ]
    return cases


def all_rule_cases() -> list[Case]:
    return (
        tableau_cases() + empty_column_cases() + group_size_cases() + foundation_cases() + take_back_cases()
    )
