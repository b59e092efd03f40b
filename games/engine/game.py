"""The position: seven columns, four foundations, a move stack, scores.

``Game`` is the one implementation of the rules. ``verify`` and the solver drive it through
``check_move``/``apply_move`` (integers, no allocation), players and tools through
``push``/``undo``/``legal_moves``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .cards import CARD_LABELS, CARD_NAMES, DECK_SIZE, KING, RANK, RED, SUIT, Card, rank_label, suit_symbol
from .codes import GameCode, Rules
from .deal import FACE_DOWN_AT_DEAL, deal_columns
from .errors import IllegalMoveError, InvalidPositionError
from .layout import format_table
from .legal_moves import MAX_GROUP, LegalMoves
from .move import COLUMN_COUNT, FOUNDATION, MOVES, UNDO, Move, Token
from .scoring import POINTS_PER_FLIP, POINTS_PER_FOUNDATION_CARD, ranked_score

if TYPE_CHECKING:
    from .visible import Place, VisibleDeal

SUIT_COUNT = 4
# ``_location`` of a card lying face down at a place that is not known (games from a visible deal)
UNKNOWN_PLACE = FOUNDATION + 1

# The refusals whose message names a card or a figure (``Game.refusal_params``).
_REFUSALS_WITH_FIGURES = frozenset(
    ("same_column", "foundation_order", "group_too_large", "wrong_rank", "wrong_colour")
)

# History entry: (card, source, destination, index the group started at in the destination, flipped)
_Entry = tuple[int, int, int, int, bool]


class Game:
    __slots__ = (
        "code",
        "rules",
        "moves_made",
        "points",
        "foundation_cards",
        "_classic",
        "_columns",
        "_face_down",
        "_foundations",
        "_location",
        "_history",
        "_keep_history",
    )

    def __init__(self, code: GameCode | str, *, keep_history: bool = True) -> None:
        if isinstance(code, str):
            code = GameCode.parse(code)
        self.code: GameCode | None = code  # None for a game from a visible deal
        self._lay_out(code.rules, deal_columns(code))
        for index, column in enumerate(self._columns):
            for card in column:
                self._location[card] = index
        # Verification of a log without undo needs no history; everything else keeps it.
        self._keep_history = keep_history

    def _lay_out(self, rules: Rules, columns: list[list[Card | None]]) -> None:
        """Stand at the deal: ``columns`` bottom to top (None: a face-down card not known, see
        ``HiddenCardGame``); the caller sets ``_location`` of the cards it knows."""
        self.rules: Rules = rules
        self._classic = rules is Rules.CLASSIC
        self._columns: list[list[Card]] = columns
        self._face_down: list[int] = list(FACE_DOWN_AT_DEAL)
        self._foundations: list[int] = [0] * SUIT_COUNT  # cards on each suit's foundation
        self._location: list[int] = [UNKNOWN_PLACE] * DECK_SIZE  # column index, FOUNDATION or UNKNOWN_PLACE
        self.moves_made = 0
        self.points = 0
        self.foundation_cards = 0
        self._history: list[_Entry] = []

    @classmethod
    def from_code(cls, code: GameCode | str) -> Game:
        return cls(code)

    @classmethod
    def from_position(
        cls,
        code: GameCode | str,
        columns: Sequence[Sequence[Card]],
        face_down: Sequence[int],
        foundations: Sequence[int] = (0,) * SUIT_COUNT,
        *,
        keep_history: bool = True,
    ) -> Game:
        """A game standing at a given table (its move counter and points at 0).

        ``columns`` bottom to top, face-down cards included; ``face_down`` counts them;
        ``foundations`` counts the cards on each suit's foundation, ♠ ♥ ♦ ♣. ``code`` names the
        rules (and the deal the table came from, if any). A table that no game of Yukon could
        reach in any order of cards raises ``InvalidPositionError``.
        """
        check_position(columns, face_down, foundations)
        game = cls(code, keep_history=keep_history)
        game._columns = [list(column) for column in columns]
        game._face_down = list(face_down)
        game._foundations = list(foundations)
        game.foundation_cards = sum(foundations)
        game._location = [FOUNDATION] * DECK_SIZE
        for index, column in enumerate(game._columns):
            for card in column:
                game._location[card] = index
        return game

    # ----------------------------------------------------------------- reading the position

    @property
    def columns(self) -> tuple[tuple[Card, ...], ...]:
        """Each column bottom to top (face-down cards included: see ``face_down``)."""
        return tuple(tuple(column) for column in self._columns)

    @property
    def face_down(self) -> tuple[int, ...]:
        """How many cards at the bottom of each column are face down."""
        return tuple(self._face_down)

    @property
    def foundations(self) -> tuple[int, ...]:
        """How many cards lie on each foundation, in the order ♠ ♥ ♦ ♣."""
        return tuple(self._foundations)

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def finish_moves(self) -> list[Move] | None:
        """The foundation moves that win from here, when foundation moves alone do and no card
        lies face down; else None (docs/rules.md, "Finishing")."""
        from .finish import finish_moves

        return finish_moves(self)

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def awaiting_reveal(self) -> Place | None:
        """The face-down place whose card has just turned up unknown: never in a game from a code."""
        return None

    def known_deal(self) -> VisibleDeal:
        """The deal as this game knows it: for a game from a code, its whole deal."""
        from .visible import VisibleDeal

        assert self.code is not None
        return VisibleDeal(self.rules, tuple(tuple(column) for column in deal_columns(self.code)))

    def is_won(self) -> bool:
        return self.foundation_cards == DECK_SIZE

    def ranked_score(self) -> int:
        return ranked_score(foundation_cards=self.foundation_cards, won=self.is_won(), moves=self.moves_made)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": None if self.code is None else str(self.code),
            "rules": self.rules.value,
            "columns": [[None if c is None else CARD_NAMES[c] for c in column] for column in self._columns],
            "face_down": list(self._face_down),
            "foundations": list(self._foundations),
            "moves": self.moves_made,
            "points": self.points,
            "score": self.ranked_score(),
            "won": self.is_won(),
        }

    def __repr__(self) -> str:
        return f"<Game {self.code} moves={self.moves_made} foundations={self.foundation_cards}>"

    def __str__(self) -> str:
        return format_table(self)

    # ----------------------------------------------------------------- the rules

    def check_move(self, card: Card, dest: int) -> str | None:
        """The refusal code for moving ``card`` to ``dest``, or None when the move is legal.

        The order of the checks is the contract's (docs/rules.md, "Refusals").
        """
        if self.foundation_cards == DECK_SIZE:
            return "game_over"
        source = self._location[card]
        rank = RANK[card]
        if source == FOUNDATION:
            if self._foundations[SUIT[card]] != rank:
                return "not_foundation_top"
            if dest == FOUNDATION:
                return "same_column"
        else:
            column = self._columns[source]
            position = column.index(card)
            if position < self._face_down[source]:
                return "face_down"
            if dest == source:
                return "same_column"
            if dest == FOUNDATION:
                if position != len(column) - 1:
                    return "not_last_card"
                if self._foundations[SUIT[card]] != rank - 1:
                    return "foundation_order"
                return None
            if len(column) - position > MAX_GROUP:
                return "group_too_large"
        target = self._columns[dest]
        if not target:
            return None if rank == KING else "empty_needs_king"
        top = target[-1]
        if RANK[top] != rank + 1:
            return "wrong_rank"
        if self._classic and RED[top] == RED[card]:
            return "wrong_colour"
        return None

    def apply_move(self, card: Card, dest: int) -> None:
        """Play a move that ``check_move`` accepted."""
        source = self._location[card]
        location = self._location
        flipped = False
        if source == FOUNDATION:  # take-back: no points either way
            self._foundations[SUIT[card]] -= 1
            self.foundation_cards -= 1
            target = self._columns[dest]
            start = len(target)
            target.append(card)
            location[card] = dest
        else:
            column = self._columns[source]
            if dest == FOUNDATION:
                start = len(column) - 1
                column.pop()
                self._foundations[SUIT[card]] += 1
                self.foundation_cards += 1
                self.points += POINTS_PER_FOUNDATION_CARD
                location[card] = FOUNDATION
            else:
                position = column.index(card)
                group = column[position:]
                del column[position:]
                target = self._columns[dest]
                start = len(target)
                target += group
                for moved in group:
                    location[moved] = dest
            hidden = self._face_down[source]
            if hidden and len(column) == hidden:
                self._face_down[source] = hidden - 1
                self.points += POINTS_PER_FLIP
                flipped = True
        self.moves_made += 1
        if self._keep_history:
            self._history.append((card, source, dest, start, flipped))

    def push(self, move: Move) -> None:
        """Play ``move``; raises ``IllegalMoveError`` (with ``code`` and a message) if refused."""
        refusal = self.check_move(move.card, move.dest)
        if refusal is not None:
            raise IllegalMoveError(refusal, self.explain(refusal, move))
        self.apply_move(move.card, move.dest)

    def play(self, token: Token | str) -> None:
        """Play one log token: a ``Move``, its text, or ``U``."""
        if token == UNDO:
            self.undo()
        else:
            self.push(token if isinstance(token, Move) else Move.parse(token))

    def undo(self) -> Move:
        """Take back the last move; the move counter does not go down."""
        if self.is_won():
            raise IllegalMoveError("game_over", self.explain("game_over"))
        if not self._history:
            raise IllegalMoveError("nothing_to_undo", self.explain("nothing_to_undo"))
        card, source, dest, start, flipped = self._history.pop()
        location = self._location
        if flipped:
            self._face_down[source] += 1
            self.points -= POINTS_PER_FLIP
        if source == FOUNDATION:
            self._columns[dest].pop()
            self._foundations[SUIT[card]] += 1
            self.foundation_cards += 1
            location[card] = FOUNDATION
        elif dest == FOUNDATION:
            self._foundations[SUIT[card]] -= 1
            self.foundation_cards -= 1
            self.points -= POINTS_PER_FOUNDATION_CARD
            self._columns[source].append(card)
            location[card] = source
        else:
            target = self._columns[dest]
            group = target[start:]
            del target[start:]
            self._columns[source] += group
            for moved in group:
                location[moved] = source
        return MOVES[card][dest]

    # ----------------------------------------------------------------- messages

    def refusal_params(self, refusal: str, move: Move | None = None) -> dict[str, Any]:
        """The figures of a refusal's message, as the browser engine's catalogs take them
        (refusals.js: ``variant`` picks a template); the same words as ``explain``."""
        if move is None or refusal not in _REFUSALS_WITH_FIGURES:
            return {}
        card = move.card
        label = CARD_LABELS[card]
        if refusal == "same_column":
            if self._location[card] == FOUNDATION:
                return {"variant": "foundation", "card": label}
            return {"variant": "column", "card": label, "column": move.dest + 1}
        if refusal == "foundation_order":
            suit = SUIT[card]
            return {"suit": suit_symbol(suit), "needs": CARD_LABELS[suit * 13 + self._foundations[suit]]}
        if refusal == "group_too_large":
            column = self._columns[self._location[card]]
            return {"size": len(column) - column.index(card), "limit": MAX_GROUP}
        rank = RANK[card]
        if rank == KING:
            return {"variant": "king", "card": label}
        needs = {"card": label, "rank": rank_label(rank + 1)}
        if self._classic:
            return {"variant": "black" if RED[card] else "red", **needs}
        return {"variant": "any_an" if rank_label(rank + 1) == "8" else "any", **needs}

    def explain(self, refusal: str, move: Move | None = None) -> str:
        """The sentence a player reads for a refusal, specific to the rule set."""
        if refusal == "game_over":
            return "the game is won: no more moves"
        if refusal == "nothing_to_undo":
            return "there is nothing to undo"
        assert move is not None
        card = move.card
        label = CARD_LABELS[card]
        rank = RANK[card]
        if refusal == "face_down":
            return "that card is face down"
        if refusal == "not_foundation_top":
            return "only the top card of a foundation can be taken back"
        if refusal == "same_column":
            if self._location[card] == FOUNDATION:
                return f"{label} is already on its foundation"
            return f"{label} is already in column {move.dest + 1}"
        if refusal == "not_last_card":
            return "only the last card of a column can go to a foundation"
        if refusal == "foundation_order":
            suit = SUIT[card]
            needed = CARD_LABELS[suit * 13 + self._foundations[suit]]
            return f"the {suit_symbol(suit)} foundation needs {needed} next"
        if refusal == "group_too_large":
            column = self._columns[self._location[card]]
            size = len(column) - column.index(card)
            return f"the group has {size} cards; at most {MAX_GROUP} move at once"
        if refusal == "empty_needs_king":
            return "an empty column takes only a King"
        if refusal in ("wrong_rank", "wrong_colour"):
            if rank == KING:
                return f"{label} can only go to an empty column"
            needed = rank_label(rank + 1)
            if self._classic:
                return f"{label} needs a {'black' if RED[card] else 'red'} {needed}"
            return f"{label} needs {'an' if needed == '8' else 'a'} {needed}"
        raise ValueError(f"unknown refusal code {refusal!r}")


def check_position(
    columns: Sequence[Sequence[Card]], face_down: Sequence[int], foundations: Sequence[int]
) -> None:
    """Raise ``InvalidPositionError`` unless the table holds each card exactly once, every
    column's last card is face up, and the foundations hold each suit's lowest cards."""
    if len(columns) != COLUMN_COUNT or len(face_down) != COLUMN_COUNT:
        raise InvalidPositionError(f"a table has {COLUMN_COUNT} columns and {COLUMN_COUNT} face-down counts")
    if len(foundations) != SUIT_COUNT or not all(0 <= count <= 13 for count in foundations):
        raise InvalidPositionError("foundations are 4 counts from 0 to 13")
    seen = [False] * DECK_SIZE
    for column, hidden in zip(columns, face_down, strict=True):
        if not 0 <= hidden <= max(len(column) - 1, 0):
            raise InvalidPositionError("a column's face-down cards must leave its last card face up")
        for card in column:
            if not 0 <= card < DECK_SIZE:
                raise InvalidPositionError(f"{card!r} is not a card")
            if seen[card]:
                raise InvalidPositionError(f"{CARD_NAMES[card]} appears twice")
            seen[card] = True
    for card in range(DECK_SIZE):
        on_foundation = RANK[card] <= foundations[SUIT[card]]
        if on_foundation == seen[card]:
            where = "both on a foundation and in a column" if on_foundation else "missing"
            raise InvalidPositionError(f"{CARD_NAMES[card]} is {where}")
