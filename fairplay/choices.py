"""How a chosen move ranks among the moves available, judged on what the player could see (pure:
no Django), for the solver's verdicts (fairplay/verdicts.py, docs/fairplay.md).

A player sees the face-up cards and every card turned up so far; the cards never seen lie in the
face-down places in an order they cannot know. So each candidate move is judged on `samples`
arrangements of those unseen cards (a seeded shuffle into the same places), by the share of them
the solver wins after the move. The same arrangements serve every candidate, so candidates are
compared on equal luck. An `unknown` answer is no evidence: it counts in no share.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from games.engine import RANK, SUIT, Game, GameCode, Move, Rules
from games.engine.cards import RED
from games.solver import UNKNOWN, UNWINNABLE, WON, Position, solve

Columns = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Table:
    """A position as the analysis reads it: every card's place, face-down ones included."""

    rules: Rules
    columns: Columns
    face_down: tuple[int, ...]
    foundations: tuple[int, ...]

    @classmethod
    def of(cls, game: Game) -> Table:
        return cls(game.rules, game.columns, game.face_down, game.foundations)

    def game(self) -> Game:
        return Game.from_position(GameCode(self.rules, 0), self.columns, self.face_down, self.foundations)

    def after(self, move: Move) -> Table:
        game = self.game()
        game.push(move)
        return Table.of(game)

    def key(self) -> tuple:
        """Equal for tables that differ only in the order of the columns, whose futures are alike."""
        return tuple(sorted(zip(self.face_down, self.columns, strict=True))), self.foundations

    def unseen_places(self, seen: frozenset[int]) -> list[tuple[int, int]]:
        """The face-down places whose card the player has never seen."""
        return [
            (column, depth)
            for column, cards in enumerate(self.columns)
            for depth in range(self.face_down[column])
            if cards[depth] not in seen
        ]

    def arranged(self, places: Sequence[tuple[int, int]], cards: Sequence[int]) -> Table:
        columns = [list(column) for column in self.columns]
        for (column, depth), card in zip(places, cards, strict=True):
            columns[column][depth] = card
        return Table(self.rules, tuple(tuple(column) for column in columns), self.face_down, self.foundations)


def is_safe(move: Move, foundations: Sequence[int], rules: Rules) -> bool:
    """A foundation move the solver plays at once, never losing a win (games/solver/README.md,
    "Why unwinnable is a proof", item 4): every card that could ever lie on it is up already."""
    if not move.to_foundation:
        return False
    card, rank = move.card, RANK[move.card]
    others = [suit for suit in range(4) if suit != SUIT[card]]
    if rules is Rules.RELAXED:
        return all(foundations[suit] >= rank - 1 for suit in others)
    other_colour = [suit for suit in others if RED[suit * 13] != RED[card]]
    same_colour = [suit for suit in others if RED[suit * 13] == RED[card]]
    return all(foundations[suit] >= rank - 1 for suit in other_colour) and all(
        foundations[suit] >= rank - 2 for suit in same_colour
    )


def candidates(game: Game, chosen: Move) -> list[Move]:
    """The legal moves that lead to different tables (up to the order of the columns), the
    chosen move standing for its own table: a King to one empty column or another is one choice.
    Moves the solver tries last (a group moved off a card it fits, a take-back) are rarely the
    choice that matters and would double the cost: they are candidates only when chosen."""
    table = Table.of(game)
    by_key: dict[tuple, Move] = {table.after(chosen).key(): chosen}
    for move in game.legal_moves:
        if not is_sideways(table, move):
            by_key.setdefault(table.after(move).key(), move)
    return list(by_key.values())


def is_sideways(table: Table, move: Move) -> bool:
    """A take-back, or a group moved from a face-up card it fits onto another card."""
    card = move.card
    for column, cards in enumerate(table.columns):
        if card in cards:
            depth = cards.index(card)
            if move.to_foundation or depth <= table.face_down[column] or depth == 0:
                return False
            under = cards[depth - 1]
            fits = RANK[under] == RANK[card] + 1 and (table.rules is Rules.RELAXED or RED[under] != RED[card])
            return fits and bool(table.columns[move.dest])
    return True  # on its foundation: a take-back


@dataclass(frozen=True)
class Solves:
    """The solver's limits for one search of a sampled table."""

    nodes: int
    seconds: float


@dataclass(frozen=True)
class Ranking:
    moves: tuple[Move, ...]
    scores: tuple[float | None, ...]  # each move's share of won samples among the decided ones
    unknown_share: float  # of all the solves at this position
    # For the odds of the chosen move (verdicts.py, "luck"): each move's count of arrangements where
    # it may win (won, or unknown), and the count where some move may win (the position may be won).
    may_win: tuple[int, ...] = ()
    open: int = 0

    def score_of(self, move: Move) -> float | None:
        return self.scores[self.moves.index(move)]

    def rank_of(self, move: Move) -> int | None:
        """1 for a move no other candidate beats; None when the move has no score."""
        score = self.score_of(move)
        if score is None:
            return None
        return 1 + sum(other is not None and other > score for other in self.scores)

    def odds_of(self, move: Move) -> float:
        """The chance that `move` keeps a winnable position winnable, on what could be seen: of the
        arrangements where the position may be won, the share where `move` may win, each count
        one more (the true arrangement is one more of them). Unknown counts as a win and the +1
        leans the same way: the estimate is never below the share it estimates, so the odds
        against a person (1 / this) are never overstated."""
        return (self.may_win[self.moves.index(move)] + 1) / (self.open + 1)

    def better_than(self, move: Move) -> list[Move]:
        """The candidates that scored higher than `move` (none when it has no score)."""
        score = self.score_of(move)
        if score is None:
            return []
        pairs = zip(self.moves, self.scores, strict=True)
        return [other for other, mark in pairs if mark is not None and mark > score]


def rank_moves(
    table: Table,
    seen: frozenset[int],
    moves: Iterable[Move],
    *,
    samples: int,
    solves: Solves,
    seed: str,
    settle: int = 0,
    clock: Callable[[], float] | None = None,
) -> Ranking:
    """Score each move on `samples` arrangements of the unseen face-down cards. After `settle`
    arrangements (0: never) on which every move got the same decided answer, the position is
    settled: no choice there matters, and the rest of the samples are better spent elsewhere.
    `clock` gives the seconds left; a solve with none left answers unknown."""
    moves = tuple(moves)
    places = table.unseen_places(seen)
    unseen = [table.columns[column][depth] for column, depth in places]
    rng = random.Random(seed)  # a string seed: the same draw on every machine and run
    arrangements = []
    for _ in range(samples if places else 1):  # nothing unseen: one arrangement, the true one
        rng.shuffle(unseen)
        arrangements.append(table.arranged(places, unseen))
    answers: list[list[str]] = [[] for _ in moves]
    for number, sample in enumerate(arrangements):
        for row, move in zip(answers, moves, strict=True):
            row.append(_answer(sample.after(move), solves, clock))
        given = {answer for row in answers for answer in row}
        if number + 1 == settle and len(given) == 1 and UNKNOWN not in given:
            break
    total = sum(len(row) for row in answers)
    unknown = sum(row.count(UNKNOWN) for row in answers)
    scores = tuple(_share(row) for row in answers)
    may_win = tuple(sum(answer != UNWINNABLE for answer in row) for row in answers)
    drawn = len(answers[0]) if answers else 0
    open_ = sum(any(row[number] != UNWINNABLE for row in answers) for number in range(drawn))
    return Ranking(moves, scores, unknown / total if total else 0.0, may_win, open_)


def _answer(table: Table, solves: Solves, clock: Callable[[], float] | None) -> str:
    if sum(table.foundations) == 52:
        return WON
    seconds = solves.seconds if clock is None else min(solves.seconds, clock())
    if seconds <= 0:
        return UNKNOWN
    position = Position(table.rules, table.columns, table.face_down, table.foundations)
    return solve(position, time_limit=seconds, max_nodes=solves.nodes).result


def _share(row: list[str]) -> float | None:
    decided = [answer for answer in row if answer != UNKNOWN]
    if not decided:
        return None
    return sum(answer == WON for answer in decided) / len(decided)
