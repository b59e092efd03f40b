"""Deadlocks: a proof, without search, that a position cannot be won.

Every card in a column must leave the card under it (or the bottom of its column) before
the end of a win, and every card must reach its foundation. Each of these events can only
happen after others: a card goes up after the card of its suit one rank lower has; a card
that lies on another leaves it only to its foundation (once nothing lies on it), onto a card
it fits (once nothing lies on that one) or, a King, to an empty column (once some other
column has been emptied). ``deadlock`` works out, for every event, events that must come
before it whichever way it happens. An event that must come before itself never happens, and
a position with such an event has no win. README.md, "Deadlocks", has the proof.
"""

from __future__ import annotations

from games.engine.cards import DECK_SIZE, KING, RANK, SUIT
from games.engine.move import COLUMN_COUNT, FOUNDATION

from .board import TABLES, Board, Record

# Events: DEPART + card (the card leaves the card under it, or the bottom of its column, for
# the first time), UP + card (the card reaches its foundation for the first time), EMPTY +
# column (a column other than this one is empty for the first time), ANY_EMPTY (a column is).
DEPART, UP, EMPTY = 0, DECK_SIZE, 2 * DECK_SIZE
ANY_EMPTY = EMPTY + COLUMN_COUNT
EVENT_COUNT = ANY_EMPTY + 1

# PARENTS[rules][card]: the cards that ``card`` fits onto.
PARENTS = {
    classic: tuple(
        tuple(top for top in range(DECK_SIZE) if card in tables.fits[top]) for card in range(DECK_SIZE)
    )
    for classic, tables in TABLES.items()
}

Option = tuple[int, ...]  # events that must all have happened before


def requirements(board: Board) -> tuple[list[Option | None], list[list[Option] | None]]:
    """For each event still to happen: what it needs in any case, and its ways to happen.

    An entry is None for an event that has already happened (a card on its foundation, an
    empty column) or that has no meaning here.
    """
    columns, down, found = board.columns, board.down, board.found
    parents = PARENTS[board.classic]
    base: list[Option | None] = [None] * EVENT_COUNT
    ways: list[list[Option] | None] = [None] * EVENT_COUNT
    # Where each card lies, and `uncover`: the event after which nothing lies on a card any
    # more (the departure of the card on it), or nothing if nothing does.
    column_of, depth_of = [0] * DECK_SIZE, [0] * DECK_SIZE
    uncover: list[Option] = [()] * DECK_SIZE
    for c, column in enumerate(columns):
        for i, card in enumerate(column):
            column_of[card], depth_of[card] = c, i
            if i:
                uncover[column[i - 1]] = (DEPART + card,)

    empty_now = [c for c in range(COLUMN_COUNT) if not columns[c]]
    for c, column in enumerate(columns):
        for i, card in enumerate(column):
            rank, suit = RANK[card], SUIT[card]
            event = DEPART + card
            on_it = uncover[card]
            base[event] = on_it if i < down[c] else ()
            # To the foundation: nothing on it, every card of its suit below it up already.
            options: list[Option] = [on_it + tuple(range(UP + suit * 13 + found[suit], UP + card))]
            # Onto a card it fits, with nothing on that card.
            for top in parents[card]:
                if found[SUIT[top]] >= RANK[top]:
                    # Up: it comes back by a take-back, after every card of its suit above it,
                    # the King among them, and a King comes back only to an empty column.
                    options.append((ANY_EMPTY,) if found[SUIT[top]] == KING and not empty_now else ())
                    continue
                if column_of[top] == c and depth_of[top] > i:
                    # Above it in its own group: some card between them must leave first.
                    options.extend(
                        (DEPART + column[k], *uncover[top]) for k in range(i + 1, depth_of[top] + 1)
                    )
                    continue
                option = uncover[top]
                if option != (event,):  # lying on it already is no way of moving onto it
                    options.append(option)
            if rank == KING:
                # It stays in this column until it leaves the card under it if that card is
                # face down; otherwise it may have travelled, and any empty column will do.
                if i <= down[c]:
                    options.append(() if any(e != c for e in empty_now) else (EMPTY + c,))
                else:
                    options.append(() if empty_now else (ANY_EMPTY,))
            ways[event] = options
            if found[suit] < rank:
                base[UP + card] = on_it + (UP + card - 1,) if found[suit] < rank - 1 else on_it
                ways[UP + card] = [()]
    # A column is emptied for the first time when its bottom card leaves.
    for c in range(COLUMN_COUNT + 1):
        if not any(e != c for e in empty_now):
            base[EMPTY + c] = ()
            ways[EMPTY + c] = [
                (DEPART + columns[o][0],) for o in range(COLUMN_COUNT) if o != c and columns[o]
            ]
    return base, ways


def worth_a_deadlock_test(record: Record) -> bool:
    """Whether a depth-first search tests the position a move (its record) leads to.

    A move to or from a foundation is not followed by a test: a take-back's card can go
    straight back up, and a card going up gives the others what they wait on sooner. Of
    189,128 such tests in a proof, none found a deadlock; the test is sound either way.
    """
    return record[1] != FOUNDATION and record[2] != FOUNDATION


def deadlock(board: Board) -> int | None:
    """An event that no line from this position reaches, though every win does; else None.

    The events that can happen are found as a least fixed point: an event joins once all it
    needs in any case and all of one of its ways have joined. An event left out has no
    order of events before it that the rules allow, so no line reaches it. Computed as Horn
    clauses are (each way, with what the event needs in any case, is a clause: a count of its
    events not joined yet, and the clauses each event is in), in time linear in their size,
    and it stops as soon as every departure and arrival has joined.
    """
    base, ways = requirements(board)
    done = [options is None for options in ways]
    events: list[int] = []  # clause -> the event it makes happen
    left: list[int] = []  # clause -> how many of its events have not happened yet
    watchers: list[list[int]] = [[] for _ in range(EVENT_COUNT)]  # event -> the clauses it is in
    ready: list[int] = []
    for event in range(EVENT_COUNT):
        options = ways[event]
        if options is None:
            continue
        needed = [required for required in base[event] if not done[required]]  # type: ignore[union-attr]
        for option in options:
            # An event named twice is counted twice and watched twice: the count still ends at 0.
            missing = needed + [required for required in option if not done[required]]
            if not missing:
                ready.append(event)
                break
            clause = len(events)
            events.append(event)
            left.append(len(missing))
            for required in missing:
                watchers[required].append(clause)
    to_reach = sum(1 for event in range(EMPTY) if not done[event])
    while ready:
        event = ready.pop()
        if done[event]:
            continue
        done[event] = True
        if event < EMPTY:
            to_reach -= 1
            if not to_reach:
                return None
        for clause in watchers[event]:
            left[clause] -= 1
            if not left[clause] and not done[events[clause]]:
                ready.append(events[clause])
    return next((event for event in range(EMPTY) if not done[event]), None)
