"""The search's own position: plain lists, its own move generator, apply and take back.

The engine checks every move for a player; the search needs millions of moves a minute,
so it keeps lists it can change in place and generates only moves that fit. The engine
still has the last word: every winning line is replayed by it before it is answered.

Moves are ``(card, dest)`` pairs as in the engine: ``dest`` is a column 0 … 6 or
``FOUNDATION``. A record ``(card, source, dest, start, flipped)`` lets ``unplay`` take one back.
"""

from __future__ import annotations

from games.engine.cards import DECK_SIZE, KING, RANK, RED, SUIT
from games.engine.game import MAX_GROUP
from games.engine.move import COLUMN_COUNT, FOUNDATION

from .position import Position

F = FOUNDATION
SEPARATOR = b"\xff"  # between columns in a key: no card or face-down count is 255
KINGS = tuple(card for card in range(DECK_SIZE) if RANK[card] == KING)
OTHER_SAME_COLOUR = (3, 2, 1, 0)  # ♠ ↔ ♣, ♥ ↔ ♦

Record = tuple[int, int, int, int, bool]


class RuleTables:
    """What fits onto what, precomputed once per rule set."""

    def __init__(self, classic: bool) -> None:
        self.classic = classic
        # fits[top]: the cards that can be placed onto ``top``.
        self.fits: tuple[tuple[int, ...], ...] = tuple(
            ()
            if RANK[top] == 1
            else tuple(
                card
                for card in range(DECK_SIZE)
                if RANK[card] == RANK[top] - 1 and (not classic or RED[card] != RED[top])
            )
            for top in range(DECK_SIZE)
        )
        # natural[below * 52 + above]: ``above`` lies on ``below`` as a move would leave it.
        natural = bytearray(DECK_SIZE * DECK_SIZE)
        for below, cards in enumerate(self.fits):
            for above in cards:
                natural[below * DECK_SIZE + above] = 1
        self.natural = bytes(natural)


TABLES = {True: RuleTables(True), False: RuleTables(False)}


class Board:
    """A mutable position with full knowledge of the face-down cards."""

    __slots__ = ("columns", "down", "found", "loc", "classic", "fits", "natural", "eager", "_keys")

    def __init__(self, position: Position) -> None:
        tables = TABLES[position.classic]
        self.classic = position.classic
        self.fits = tables.fits
        self.natural = tables.natural
        # Every foundation move is played at once, safe or not (and so nothing is taken back):
        # a streamlined search's board (search.py), which proves nothing when it runs out.
        self.eager = False
        self.columns: list[list[int]] = [list(column) for column in position.columns]
        self.down: list[int] = list(position.face_down)
        self.found: list[int] = list(position.foundations)
        self.loc: list[int] = [F] * DECK_SIZE  # a column index, or F
        for index, column in enumerate(self.columns):
            for card in column:
                self.loc[card] = index
        self._keys: list[bytes | None] = [None] * COLUMN_COUNT  # column keys, None once stale

    # ----------------------------------------------------------------- keys

    def column_key(self, index: int) -> bytes:
        """The face-down count then the cards of one column."""
        key = self._keys[index]
        if key is None:
            key = self._keys[index] = bytes((self.down[index], *self.columns[index]))
        return key

    def _fresh_keys(self) -> list[bytes]:
        keys = self._keys
        if None in keys:
            down, columns = self.down, self.columns
            for index in range(COLUMN_COUNT):
                if keys[index] is None:
                    keys[index] = bytes((down[index], *columns[index]))
        return keys

    def column_keys(self) -> list[bytes]:
        """The seven column keys, in column order."""
        return self._fresh_keys()[:]

    def key(self) -> bytes:
        """The same bytes for positions equal up to the order of the columns.

        Foundations are not in it: they hold exactly the cards missing from the columns.
        """
        return SEPARATOR.join(sorted(self._fresh_keys()))

    def load(self, key: bytes) -> None:
        """Become the position of ``key`` (columns in key order)."""
        parts = key.split(SEPARATOR)
        self._keys = parts
        self.columns = columns = [list(part[1:]) for part in parts]
        self.down = [part[0] for part in parts]
        loc = self.loc = [F] * DECK_SIZE
        remaining = [0, 0, 0, 0]
        for index, column in enumerate(columns):
            for card in column:
                loc[card] = index
                remaining[SUIT[card]] += 1
        self.found = [13 - n for n in remaining]

    def is_won(self) -> bool:
        return sum(self.found) == DECK_SIZE

    # ----------------------------------------------------------------- playing

    def play(self, card: int, dest: int) -> Record:
        """Play a move known to be legal; return what ``unplay`` needs."""
        loc = self.loc
        source = loc[card]
        flipped = False
        keys = self._keys
        if dest != F:
            keys[dest] = None
        if source == F:  # take-back
            self.found[SUIT[card]] -= 1
            target = self.columns[dest]
            start = len(target)
            target.append(card)
            loc[card] = dest
            return (card, source, dest, start, flipped)
        keys[source] = None
        column = self.columns[source]
        if dest == F:
            start = len(column) - 1
            column.pop()
            self.found[SUIT[card]] += 1
            loc[card] = F
        else:
            position = column.index(card)
            group = column[position:]
            del column[position:]
            target = self.columns[dest]
            start = len(target)
            target += group
            for moved in group:
                loc[moved] = dest
        hidden = self.down[source]
        if hidden and len(column) == hidden:
            self.down[source] = hidden - 1
            flipped = True
        return (card, source, dest, start, flipped)

    def unplay(self, record: Record) -> None:
        card, source, dest, start, flipped = record
        loc = self.loc
        keys = self._keys
        if source != F:
            keys[source] = None
        if dest != F:
            keys[dest] = None
        if flipped:
            self.down[source] += 1
        if source == F:
            self.columns[dest].pop()
            self.found[SUIT[card]] += 1
            loc[card] = F
        elif dest == F:
            self.found[SUIT[card]] -= 1
            self.columns[source].append(card)
            loc[card] = source
        else:
            target = self.columns[dest]
            group = target[start:]
            del target[start:]
            self.columns[source] += group
            for moved in group:
                loc[moved] = source

    def lies_on_a_fit(self, card: int) -> bool:
        """``card`` lies face up on a card it fits, as a move would leave it."""
        where = self.loc[card]
        column = self.columns[where]
        index = column.index(card)
        return index > self.down[where] and bool(self.natural[column[index - 1] * DECK_SIZE + card])

    def is_safe(self, card: int) -> bool:
        """True when moving ``card`` to its foundation cannot cost the win.

        Every card that could ever be placed onto it, or onto those, is on a foundation:
        such a card is never needed in the columns again, take-backs included (the
        argument: README.md, "Why `unwinnable` is a proof", 4).
        """
        if self.eager:
            return True
        found = self.found
        rank = RANK[card]
        if self.classic:
            opposite = min(found[0], found[3]) if RED[card] else min(found[1], found[2])
            return rank <= opposite + 1 and rank <= found[OTHER_SAME_COLOUR[SUIT[card]]] + 2
        suit = SUIT[card]
        return rank <= min(found[(suit + 1) % 4], found[(suit + 2) % 4], found[(suit + 3) % 4]) + 1

    def play_safe(self, records: list[Record]) -> None:
        """After the move last in ``records`` (or at the start), play every safe foundation move.

        Only a column that lost cards can offer a new card, and only a card going up
        makes others safe: so after a plain move one column is looked at, not seven.
        """
        columns, down, found = self.columns, self.down, self.found
        if records:
            _, source, dest, _, _ = records[-1]
            if source == F:  # a take-back makes nothing safe
                return
            if dest != F:
                column = columns[source]
                if len(column) <= down[source]:
                    return
                card = column[-1]
                if found[SUIT[card]] != RANK[card] - 1 or not self.is_safe(card):
                    return
        again = True
        while again:
            again = False
            for index in range(COLUMN_COUNT):
                column = columns[index]
                if len(column) > down[index]:
                    card = column[-1]
                    if found[SUIT[card]] == RANK[card] - 1 and self.is_safe(card):
                        records.append(self.play(card, F))
                        again = True

    # ----------------------------------------------------------------- move generation

    def moves(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """The moves worth searching, in two tiers.

        Tier 2 holds moves that are legal but rarely useful: a group moved from one fitting
        card to another when the card it leaves can do nothing next, and take-backs that
        nothing can be built on. A complete search tries them last, after everything else.
        Left out entirely are moves whose result the search already has (a whole column
        moved to another empty column) or that a safe move would undo at once.
        """
        columns, down, found, loc = self.columns, self.down, self.found, self.loc
        fits, natural = self.fits, self.natural
        first: list[tuple[int, int]] = []
        second: list[tuple[int, int]] = []
        empty = -1
        for dest in range(COLUMN_COUNT):
            target = columns[dest]
            if not target:
                if empty < 0:
                    empty = dest
                continue
            top = target[-1]
            if found[SUIT[top]] == RANK[top] - 1:
                first.append((top, F))
            for card in fits[top]:
                source = loc[card]
                if source == F:
                    if found[SUIT[card]] == RANK[card] and not self._safe_after_take_back(card):
                        (first if self._can_build_on(card, dest) else second).append((card, dest))
                elif source != dest:
                    column = columns[source]
                    position = column.index(card)
                    hidden = down[source]
                    if position < hidden or len(column) - position > MAX_GROUP:
                        continue
                    if position > hidden:
                        below = column[position - 1]
                        if natural[below * DECK_SIZE + card] and found[SUIT[below]] != RANK[below] - 1:
                            # It leaves a card it fits: worth it only if another card can go there.
                            for other in fits[below]:
                                if other != card:
                                    where = loc[other]
                                    if where == F:
                                        if found[SUIT[other]] == RANK[other]:
                                            break
                                    elif where != source:
                                        other_column = columns[where]
                                        other_position = other_column.index(other)
                                        if (
                                            other_position >= down[where]
                                            and len(other_column) - other_position <= MAX_GROUP
                                        ):
                                            break
                            else:
                                second.append((card, dest))
                                continue
                    first.append((card, dest))
        if empty >= 0:
            for card in KINGS:
                source = loc[card]
                if source == F:
                    if found[SUIT[card]] == 13:
                        (first if self._can_build_on(card, empty) else second).append((card, empty))
                    continue
                column = columns[source]
                position = column.index(card)
                if down[source] <= position and 0 < position and len(column) - position <= MAX_GROUP:
                    first.append((card, empty))
        return first, second

    def _safe_after_take_back(self, card: int) -> bool:
        self.found[SUIT[card]] -= 1
        safe = self.is_safe(card)
        self.found[SUIT[card]] += 1
        return safe

    def _movable(self, card: int, away_from: int) -> bool:
        """``card`` could move now from a column other than ``away_from``, or be taken back."""
        source = self.loc[card]
        if source == F:
            return self.found[SUIT[card]] == RANK[card]
        if source == away_from:
            return False
        column = self.columns[source]
        position = column.index(card)
        return position >= self.down[source] and len(column) - position <= MAX_GROUP

    def _can_build_on(self, card: int, dest: int) -> bool:
        """After taking ``card`` back onto ``dest``, something could be placed on it."""
        return any(self._movable(other, dest) for other in self.fits[card])
