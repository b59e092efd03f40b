"""The solver's verdict on each move of a game (pure: no Django), for the fair-play analysis
(docs/fairplay.md). Read from the whole deal, which the server knows once the result is in.

- **Full knowledge**: did the position stay winnable after the move? Along a line of play a lost
  position never becomes winnable again, so a won game needs no search, and a lost one needs a
  binary search for its first lost move (and a move that would have kept the win).
- **On what the player could see**: at each contested position (several moves leading to
  different tables, none of them a safe foundation move), how the chosen move ranks among the
  candidates on samples of the unseen cards (fairplay/choices.py).
- **Hidden edge**: the chosen move wins on the true deal while every move that looked better
  loses on it. A person can only beat the visible information by luck; a program that knows the
  face-down cards does it at every such position.

`unknown` (a limit reached) is never evidence: it counts in no share, and claims no blunder.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from fairplay.choices import Solves, Table, candidates, is_safe, rank_moves
from games.engine import UNDO, Game, Move
from games.solver import UNKNOWN, UNWINNABLE, WON, Position, solve

FORCED, SAFE = "forced", "safe"
LUCK_BET = 0.9  # the part of the ratio staked on each searched position (the rest kept at 1)
CONTESTED, SEARCHED, SKIPPED = "contested", "searched", "skipped"  # searched or not, for the budget


@dataclass(frozen=True)
class Budget:
    """What the verdicts of one game may cost; the default keeps a typical game near 10 s of one
    core at most (docs/fairplay.md, "The budget")."""

    samples: int = 6  # arrangements of the unseen cards, per contested position
    nodes: int = 2_000  # positions per solve of a sampled table: about 0.02 s with the compiled core
    solve_seconds: float = 0.5  # per solve of a sampled table, a backstop on a slow machine
    # Contested positions searched at most per game, spread over it: with the solver's compiled
    # core, every one of a typical game's (30-60) within a few seconds; without it, `seconds` stops
    # the search first, the positions searched spread over the game.
    positions: int = 200
    full_nodes: int = 50_000  # positions per solve with full knowledge
    full_seconds: float = 4.0  # per solve with full knowledge
    seconds: float = 9.0  # CPU for the whole game: past it every solve answers unknown
    max_unknown: float = 0.34  # above this share of unknown solves a position's verdict is unknown
    settle: int = 2  # samples after which a position where every move won (or lost) each one stops
    seed: int = 0


DEFAULT_BUDGET = Budget()
# For a lab replaying thousands of games, and for tests: a few seconds' worth of a game at most.
LAB_BUDGET = Budget(
    samples=3, nodes=300, solve_seconds=0.25, positions=6, full_nodes=5_000, full_seconds=1.0, seconds=2.0
)
BUDGETS = {"default": DEFAULT_BUDGET, "lab": LAB_BUDGET}


@dataclass
class MoveVerdict:
    kind: str  # forced, safe, searched or skipped (contested: several choices; beyond the budget), undo
    full: str | None = None  # won/unwinnable/unknown after the move on the true deal; None: not asked
    rank: int | None = None  # the chosen move among the candidates, on visible information (1: top)
    of: int | None = None  # candidates at the position
    score: float | None = None  # the chosen move's share of won samples
    best: float | None = None  # the best candidate's share
    edge: bool | None = None  # won on the true deal where every move that looked better lost
    odds: float | None = None  # the chance, on what could be seen, that the move keeps the win

    def to_dict(self) -> dict[str, Any]:
        """Compact, for a chart of the game: what is not known is left out."""
        return {name: value for name, value in self.__dict__.items() if value is not None}


@dataclass
class GameVerdicts:
    moves: list[MoveVerdict]  # one a token of the log, undos included
    deal: str  # the deal with full knowledge: won, unwinnable or unknown
    first_lost_move: int | None = None  # token index of the move after which the deal was lost
    keeping_move: str | None = None  # a move there that kept it winnable
    blunders: int | None = None  # moves that turned a winnable position unwinnable; None: not known
    cpu_ms: int = 0

    def features(self) -> dict[str, Any]:
        searched = [v for v in self.moves if v.kind == SEARCHED]
        ranked = [v for v in searched if v.rank is not None]
        judged = [v for v in searched if v.edge is not None]
        edges = sum(bool(v.edge) for v in judged)
        return {
            "contested": sum(v.kind in (SEARCHED, SKIPPED) for v in self.moves),
            "searched": len(searched),
            "unknown_positions": len(searched) - len(ranked),
            "top_choice_share": _share(sum(v.rank == 1 for v in ranked), len(ranked)),
            "hidden_edge": _share(edges, len(judged)),
            "hidden_edges": edges,
            "luck": self.luck(),
            "blunders": self.blunders,
            "first_lost_move": self.first_lost_move,
            "keeping_move": self.keeping_move,
            "deal_winnable": self.deal,
            "verdicts_cpu_ms": self.cpu_ms,
        }

    def luck(self) -> float | None:
        """How unlikely the game's choices kept the deal winnable for a player who saw only what
        could be seen: log10 of a likelihood ratio, a product over the searched positions where
        the position before the move was winnable (docs/fairplay.md, "Luck"). A move that kept the
        win against odds p multiplies it by 1 − BET + BET / p; the move that lost the deal, by
        1 − BET. For a player who sees only the visible cards each factor averages at most 1, so
        the product reaches 10^x with a chance of at most 10^−x, whoever the player is. None: no
        position counted."""
        ratio, counted = 1.0, 0
        for index, verdict in enumerate(self.moves):
            if verdict.kind != SEARCHED or verdict.odds is None:
                continue
            if verdict.full == WON:
                ratio *= 1 - LUCK_BET + LUCK_BET / verdict.odds
            elif verdict.full == UNWINNABLE and index == self.first_lost_move:
                ratio *= 1 - LUCK_BET
            else:
                continue
            counted += 1
        return round(math.log10(ratio), 3) if counted else None


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


@dataclass(frozen=True)
class _Step:
    index: int  # in the log
    move: Move
    table: Table
    seen: frozenset[int]
    choices: tuple[Move, ...]


class _Clock:
    """CPU seconds left for the game: solves are given no more than what is left."""

    def __init__(self, seconds: float) -> None:
        self.started = time.process_time()
        self.seconds = seconds

    def __call__(self) -> float:
        return self.seconds - (time.process_time() - self.started)

    def limit(self, seconds: float) -> float:
        return min(seconds, self())


def game_verdicts(code: str, tokens: list[str], budget: Budget = DEFAULT_BUDGET) -> GameVerdicts:
    """The verdicts of a legal log of the deal of `code` (a result the server has verified)."""
    clock = _Clock(budget.seconds)
    verdicts, steps, line, game = _walk(code, tokens)
    result = _full_knowledge(code, tokens, line, game.is_won(), verdicts, budget, clock)
    contested = [step for step in steps if verdicts[step.index].kind == CONTESTED]
    chosen = _spread(len(contested))[: budget.positions]
    for done, number in enumerate(chosen):
        if clock() <= 0:
            break
        # At most twice a fair share of what is left: one costly position cannot take it all.
        share = _Clock(min(clock(), 2 * clock() / (len(chosen) - done)))
        _visible(code, tokens, contested[number], verdicts[contested[number].index], budget, share)
        verdicts[contested[number].index].kind = SEARCHED
    for step in contested:
        if verdicts[step.index].kind == CONTESTED:
            verdicts[step.index].kind = SKIPPED
    result.cpu_ms = round((time.process_time() - clock.started) * 1000)
    return result


def _walk(code: str, tokens: list[str]) -> tuple[list[MoveVerdict], list[_Step], list[int], Game]:
    """Replay the log: each move's position, what the player had seen, and its candidates. `line`
    holds the token indices of the moves no undo took back, in order."""
    game = Game(code)
    seen = face_up_cards(game)
    verdicts, steps, line = [], [], []
    for index, token in enumerate(tokens):
        if token == UNDO:
            game.undo()  # cards turned face down again stay seen
            line.pop()
            verdicts.append(MoveVerdict("undo"))
            continue
        move = Move.parse(token)
        choices = tuple(candidates(game, move))
        if len(choices) == 1:
            kind = FORCED
        elif any(is_safe(choice, game.foundations, game.rules) for choice in choices):
            kind = SAFE  # the solver plays a safe foundation move at once: no choice worth searching
        else:
            kind = CONTESTED
        steps.append(_Step(index, move, Table.of(game), frozenset(seen), choices))
        verdicts.append(MoveVerdict(kind, of=len(choices)))
        game.push(move)
        line.append(index)
        seen |= face_up_cards(game)
    return verdicts, steps, line, game


def face_up_cards(game: Game) -> set[int]:
    """The cards a player sees in the columns of ``game``."""
    return {card for column, down in zip(game.columns, game.face_down, strict=True) for card in column[down:]}


def _full_knowledge(
    code: str,
    tokens: list[str],
    line: list[int],
    won: bool,
    verdicts: list[MoveVerdict],
    budget: Budget,
    clock: _Clock,
) -> GameVerdicts:
    """Winnability after each move of the line, from the fewest solves: a won game none; a lost
    one a binary search (a position after a lost one is lost too)."""
    if won:
        _mark(verdicts, line, WON)
        return GameVerdicts(verdicts, WON, blunders=0)
    solutions: dict[int, tuple[str, Move | None]] = {}

    def after(count: int) -> str:  # the true position after the first `count` moves of the line
        if count not in solutions:
            log = " ".join(tokens[index] for index in line[:count])
            solutions[count] = _solve(Position.from_log(code, log), budget, clock)
        return solutions[count][0]

    deal = after(0)
    if deal != WON:
        _mark(verdicts, line, deal)
        return GameVerdicts(verdicts, deal, blunders=0 if deal == UNWINNABLE else None)
    if after(len(line)) == WON:  # given up in a winnable position: no move lost it
        _mark(verdicts, line, WON)
        return GameVerdicts(verdicts, WON, blunders=0)
    low, high = 0, len(line)  # won after `low` moves; not known won after `high`
    while high - low > 1:
        middle = (low + high) // 2
        if after(middle) == WON:
            low = middle
        else:
            high = middle
    _mark(verdicts, line[:low], WON)
    if after(high) != UNWINNABLE:  # an unknown answer bounds nothing: no blunder is claimed
        _mark(verdicts, line[low:], UNKNOWN)
        return GameVerdicts(verdicts, WON, blunders=None)
    _mark(verdicts, line[low:], UNWINNABLE)
    prefix = [tokens[index] for index in line[:low]]
    keeping = _keeping_move(code, prefix, solutions[low][1], budget, clock)
    return GameVerdicts(verdicts, WON, first_lost_move=line[low], keeping_move=keeping, blunders=1)


def _keeping_move(
    code: str, prefix: list[str], winning: Move | None, budget: Budget, clock: _Clock
) -> str | None:
    """The first legal move, in the canonical order, that keeps the deal winnable: the same answer
    whichever search of the solver found a win first. The winning line's first move ends the list."""
    game = Game(code)
    for token in prefix:
        game.play(token)
    for move in game.legal_moves:
        if move == winning:
            return str(move)
        position = Position.from_log(code, " ".join([*prefix, str(move)]))
        if _solve(position, budget, clock)[0] == WON:
            return str(move)
    return None if winning is None else str(winning)


def _mark(verdicts: list[MoveVerdict], indices: list[int], answer: str) -> None:
    for index in indices:
        verdicts[index].full = answer


def _solve(position: Position, budget: Budget, clock: _Clock) -> tuple[str, Move | None]:
    """With full knowledge: the answer and a winning line's first move; no time left, unknown."""
    seconds = clock.limit(budget.full_seconds)
    if seconds <= 0:
        return UNKNOWN, None
    solution = solve(position, time_limit=seconds, max_nodes=budget.full_nodes)
    return solution.result, solution.moves[0] if solution.moves else None


def _spread(count: int) -> list[int]:
    """0 … count − 1 in an order that covers the game evenly however soon it stops: the last (the
    cheapest: fewest cards unseen), the middle, the quarters, and so on; the first comes last, as
    the opening, with every card but seven unseen, costs the most to sample."""
    order, seen, parts = [], {0}, 1
    while len(order) < count - 1:
        for part in range(parts, -1, -1):
            number = round(part * (count - 1) / parts)
            if number not in seen:
                seen.add(number)
                order.append(number)
        parts *= 2
    return [*order, 0] if count else []


def _visible(
    code: str, tokens: list[str], step: _Step, verdict: MoveVerdict, budget: Budget, clock: _Clock
) -> None:
    ranking = rank_moves(
        step.table,
        step.seen,
        step.choices,
        samples=budget.samples,
        solves=Solves(budget.nodes, budget.solve_seconds),
        seed=f"{budget.seed}:{step.index}",  # per position: a position's verdict depends on no other
        settle=budget.settle,
        clock=clock,
    )
    verdict.odds = round(ranking.odds_of(step.move), 4)  # unknowns lean towards the player: always told
    rank = ranking.rank_of(step.move)
    if ranking.unknown_share > budget.max_unknown or rank is None:
        return  # the position's verdict is unknown
    known = [score for score in ranking.scores if score is not None]
    verdict.rank, verdict.score, verdict.best = rank, ranking.score_of(step.move), max(known)
    better = ranking.better_than(step.move)
    verdict.edge = False if rank == 1 else _edge(code, tokens, step, verdict, better, budget, clock)


def _edge(
    code: str,
    tokens: list[str],
    step: _Step,
    verdict: MoveVerdict,
    better: list[Move],
    budget: Budget,
    clock: _Clock,
) -> bool | None:
    """True: the chosen move wins on the true deal and every move that looked better loses on it;
    False: it does not; None: a solve did not tell."""
    prefix = " ".join(tokens[: step.index])

    def truly(move: Move) -> str:
        position = Position.from_log(code, f"{prefix} {move}")
        return _solve(position, budget, clock)[0]

    chosen = verdict.full if verdict.full in (WON, UNWINNABLE) else truly(step.move)
    if chosen == UNWINNABLE:
        return False
    answers = []
    for move in better:
        answer = truly(move)
        if answer == WON:
            return False  # a move that looked better won too: nothing was known that could not be seen
        answers.append(answer)
    if chosen == UNKNOWN or UNKNOWN in answers:
        return None
    return True
