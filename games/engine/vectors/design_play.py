"""Log cases for undo, scores, malformed tokens and whole games (wins, and logs that go wrong
at their first, a middle or their last token)."""

from __future__ import annotations

from collections.abc import Callable

from ..cards import RANK
from ..game import Game
from ..move import FOUNDATION, MOVES, UNDO, Move
from .cases import Case, make, replayed, shown
from .design_rules import in_column, onto_column
from .search import exposes, first, is_take_back, refusals, where

WIN_POINTS = 52 * 10 + 21 * 5


def flip_then(follow: Callable[[Game, Move, int], list[str] | None]) -> Callable[[Game], list[str] | None]:
    """At a move that turns up a card: the move, then ``follow(game, move, turned_card)``."""

    def predicate(game: Game) -> list[str] | None:
        for move in game.legal_moves:
            column, position = where(game, move.card)
            if column == FOUNDATION or not exposes(game, move) or position == 0:
                continue
            turned = game.columns[column][position - 1]
            tail = follow(game, move, turned)
            if tail is not None:
                return [str(move), *tail]
        return None

    return predicate


def turned_card_move(game: Game, move: Move, turned: int) -> str | None:
    """A move of the turned-up card that is legal once it is face up."""
    game.push(move)
    try:
        return next((str(m) for m in game.legal_moves if m.card == turned), None)
    finally:
        game.undo()


def opening(code: str, count: int) -> list[str]:
    """The first ``count`` moves of a deal, each time the first legal move."""
    game = Game(code)
    tokens = []
    for _ in range(count):
        move = next(iter(game.legal_moves))
        game.push(move)
        tokens.append(str(move))
    return tokens


def move_then_two_undos(game: Game) -> list[str] | None:
    move = first(game.legal_moves, lambda m: onto_column(game, m))
    return None if move is None else [*move, UNDO, UNDO]


def undo_cases() -> list[Case]:
    cases = [
        make("U as the first token: nothing to undo", "YU1-C-AAAAAAA", [UNDO], "nothing_to_undo", moves=0),
        shown(
            "a move and two undos: the second has nothing to undo: {tail}",
            move_then_two_undos,
            "nothing_to_undo",
            promises={"moves": 1},
        ),
        shown(
            "undo a flip: points go back, the move counter does not: {tail}",
            flip_then(lambda g, m, turned: [UNDO]),
            None,
            promises={"counted": 1, "gain": 0},
        ),
    ]
    past_flip = shown(
        "undo past a flip turns the card face down again: {tail}",
        flip_then(
            lambda g, m, turned: None if (again := turned_card_move(g, m, turned)) is None else [UNDO, again]
        ),
        "face_down",
    )
    flipped_log = past_flip.log[: past_flip.tail_from + 1] + past_flip.log[-1:]
    cases += [
        past_flip,
        make(f"without the undo, {flipped_log[-1]} is legal", past_flip.code, flipped_log, None),
        shown(
            "undo a foundation move: -10 points and the card is back: {tail}",
            foundation_undo,
            None,
            promises={"counted": 3, "gain": 10},
        ),
        shown(
            "undo a take-back: the card is on its foundation again: {tail}",
            take_back_undo,
            "same_column",
            depth=120,
        ),
        shown(
            "undo and play the same move again: it counts twice: {tail}",
            redo,
            None,
            promises={"counted": 2, "gain": 5},
        ),
        back_to_start(),
        score_floor(),
    ]
    return cases


def foundation_undo(game: Game) -> list[str] | None:
    move = first(game.legal_moves, lambda m: m.dest == FOUNDATION and not exposes(game, m))
    return None if move is None else [move[0], UNDO, move[0], UNDO, move[0]]


def take_back_undo(game: Game) -> list[str] | None:
    move = first(game.legal_moves, lambda m: is_take_back(game, m))
    return None if move is None else [move[0], UNDO, str(MOVES[Move.parse(move[0]).card][FOUNDATION])]


def redo(game: Game) -> list[str] | None:
    move = first(
        game.legal_moves, lambda m: in_column(game, m) and exposes(game, m) and where(game, m.card)[1] > 0
    )
    return None if move is None else [move[0], UNDO, move[0]]


def back_to_start() -> Case:
    code = "YU1-R-AAAAAAB"
    log = opening(code, 3) + [UNDO] * 4
    return make(
        "undo can go back to the deal; one more U has nothing to undo",
        code,
        log,
        "nothing_to_undo",
        moves=3,
        points=0,
        foundation_cards=0,
    )


def score_floor() -> Case:
    code = "YU1-C-AAAAAAC"
    move = next(str(m) for m in Game(code).legal_moves if m.dest != FOUNDATION)
    log = [move, UNDO] * 60
    return make("the ranked score never goes below 1: 60 moves undone", code, log, None, moves=60, score=1)


BAD_TOKENS = (
    ("9X>2", "not a card"),
    ("td>5", "tokens are case-sensitive"),
    ("TD>f", "the foundation is an upper-case F"),
    ("u", "undo is an upper-case U"),
    ("UU", "one undo per token"),
    ("TD>8", "there is no column 8"),
    ("TD>0", "columns count from 1"),
    ("TD>", "no destination"),
    (">5", "no card"),
    ("TD5", "no >"),
    ("TD->5", "only > between card and destination"),
    ("10D>5", "the ten is T"),
    ("T♦>5", "suits are letters"),
    ("TD>55", "one column only"),
)


def bad_token_cases() -> list[Case]:
    cases = [
        make(f"malformed token {token}: {why}", "YU1-C-AAAAAAD", [token], "bad_token", moves=0)
        for token, why in BAD_TOKENS
    ]
    legal_moves = opening("YU1-R-AAAAAAE", 2)
    cases.append(
        make(
            "a malformed token after legal moves stops the log there",
            "YU1-R-AAAAAAE",
            [*legal_moves, "AS>F>1", *legal_moves],
            "bad_token",
            moves=2,
        )
    )
    return cases


def white_space_cases() -> list[Case]:
    """Logs split on runs of exactly the white space docs/rules.md lists (U+FEFF is not one)."""
    code = "YU1-C-AAAAAAF"
    tokens = opening(code, 3)
    spellings = (
        ("newlines and tabs", f"\n {tokens[0]}\t\t{tokens[1]}\r\n{tokens[2]} \n", None),
        ("no-break and ideographic spaces", f"{tokens[0]}\u00a0{tokens[1]}\u3000{tokens[2]}", None),
        ("U+001C, U+0085 and U+2028", f"\x1c{tokens[0]}\x85{tokens[1]}\u2028{tokens[2]}\x1f", None),
        ("but not U+FEFF (a byte-order mark)", f"{tokens[0]}\ufeff{tokens[1]} {tokens[2]}", "bad_token"),
        ("but not U+200B (zero-width space)", f"{tokens[0]} {tokens[1]}\u200b{tokens[2]}", "bad_token"),
    )
    cases = []
    for what, text, expect in spellings:
        counted = (
            3 if expect is None else text.split().index(next(t for t in text.split() if t not in tokens))
        )
        spaced = make(f"tokens are separated by white space: {what}", code, tokens, expect, moves=counted)
        spaced.text = text
        cases.append(spaced)
    return cases


def refusal_at(game: Game, preferred: str) -> tuple[str, str]:
    """A move the position refuses, with ``preferred`` if it can, and the refusal code."""
    for code in (preferred, "wrong_colour", "wrong_rank", "face_down", "same_column"):
        move = next(iter(refusals(game, code)), None)
        if move is not None:
            return str(move), code
    raise LookupError("no refusal in this position")


def win_cases(wins: list[tuple[str, list[str]]]) -> list[Case]:
    """Wins as found, variants with take-backs and undo, and logs that go wrong along the way."""
    cases = [
        make(f"a win ({len(log)} moves)", code, log, None, won=True, points=WIN_POINTS, foundation_cards=52)
        for code, log in wins
    ]
    code, log = wins[0]
    cases += [
        make("nothing after a win: U is game_over", code, [*log, UNDO], "game_over", won=True),
        make("nothing after a win: a move is game_over", code, [*log, "KS>1"], "game_over", won=True),
        make("bad_token is reported even after a win", code, [*log, "KS>8"], "bad_token", won=True),
    ]
    middle = len(log) // 2
    for when, at, preferred in (
        ("at the first move", 0, "face_down"),
        ("in the middle: the rest is not read", middle, "foundation_order"),
        ("at the last move", len(log) - 1, "wrong_rank"),
    ):
        token, refusal = refusal_at(replayed(code, log[:at]), preferred)
        cases.append(
            make(f"illegal {when} ({refusal})", code, [*log[:at], token, *log[at + 1 :]], refusal, moves=at)
        )
    cases += [with_take_backs(*wins[1]), with_undos(*wins[2])]
    return cases


def with_take_backs(code: str, log: list[str]) -> Case:
    """The win with its first three chances of a take-back taken, each card put back: +10 each."""
    game = Game(code)
    played: list[str] = []
    extra = 0
    for token in log:
        take_back = first(game.legal_moves, lambda m: is_take_back(game, m) and RANK[m.card] > 1)
        if take_back is not None and extra < 3:
            back = str(MOVES[Move.parse(take_back[0]).card][FOUNDATION])
            for step in (take_back[0], back):
                game.play(step)
                played.append(step)
            extra += 1
        game.play(token)
        played.append(token)
    return make(
        f"a win with {extra} take-backs: +10 points each time the card goes back",
        code,
        played,
        None,
        won=True,
        points=WIN_POINTS + 10 * extra,
    )


def with_undos(code: str, log: list[str]) -> Case:
    """The win with a move undone and played again every 20 moves."""
    played: list[str] = []
    for index, token in enumerate(log):
        played.append(token)
        if index % 20 == 10 and index < len(log) - 1:
            played += [UNDO, token]
    undone = played.count(UNDO)
    return make(
        f"a win with {undone} undos: still {WIN_POINTS} points, {len(log) + undone} moves",
        code,
        played,
        None,
        won=True,
        points=WIN_POINTS,
        moves=len(log) + undone,
    )
