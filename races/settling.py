"""A finished race's places and ratings (docs/races.md, "Places" and "Rating").

Ratings move only between real games. A seat that threw its game (`seat_thrown`) is placed last
and rated as having lost to every other seat, but no one gains from it: the others are rated as
if it had not been in the race. And the same two accounts move each other's ratings at most
PAIR_RATED_PER_DAY times in a rolling day; in a race past that, the seats of such a pair keep
their ratings (their places stand).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime, timedelta
from itertools import combinations

from games.models import Submission
from races.models import Race, RaceSeat, Rating
from races.rating import Skill, new_skill, skills_rate

logger = logging.getLogger(__name__)

# A game of fewer legal moves was not played: the first moves of a Yukon deal are there to be
# made (a card to a foundation, a group onto its next card), and a real attempt that stops, won
# or lost, makes dozens (a win makes at least 52). Ten is a few seconds of play: a player who
# stops before it has thrown the race, and their opponents gain nothing from it.
MIN_REAL_MOVES = 10
# Races between the same two accounts that move their ratings, in any rolling 24 hours, over
# both rule sets: enough for a real rivalry's evening, too few to farm a rating from a second
# account.
PAIR_RATED_PER_DAY = 3
PAIR_WINDOW = timedelta(hours=24)


def seat_thrown(result: Submission | None) -> bool:
    """The seat threw its game: no result, a rejected one, or fewer than MIN_REAL_MOVES legal
    moves (an empty log has none)."""
    if result is None or result.status != Submission.Status.VERIFIED:
        return True
    return (result.moves or 0) < MIN_REAL_MOVES


def place_key(result: Submission | None) -> tuple:
    """Winners first by fewest moves then less time; then the others by the ranked score of
    their position, then less time; a thrown seat (a rejected result among them) last."""
    if seat_thrown(result):
        return (2, 0, 0)
    if result.won:
        return (0, result.moves, result.duration_ms)
    return (1, -(result.score or 0), result.duration_ms)


def places_of(keys: list[tuple]) -> list[int]:
    """Places from 1 for the keys in their order; equal keys share a place."""
    ordered = sorted(keys)
    return [ordered.index(key) + 1 for key in keys]


def pairs_over_limit(*, user_ids: list[int], race_id: int, now: datetime) -> set[frozenset[int]]:
    """The pairs of these players whose ratings other races have already moved together
    PAIR_RATED_PER_DAY times in the PAIR_WINDOW before `now` (seats whose `rated_at` is set)."""
    rated = RaceSeat.objects.filter(user_id__in=user_ids, rated_at__gte=now - PAIR_WINDOW).exclude(
        race_id=race_id
    )
    players_of_race = defaultdict(set)
    for other_race, user_id in rated.values_list("race_id", "user_id"):
        players_of_race[other_race].add(user_id)
    met = defaultdict(int)
    for players in players_of_race.values():
        for pair in combinations(sorted(players), 2):
            met[frozenset(pair)] += 1
    return {pair for pair, count in met.items() if count >= PAIR_RATED_PER_DAY}


def skills_moved(
    before: list[Skill], places: list[int], *, thrown: set[int], held: set[int]
) -> dict[int, Skill]:
    """{seat index: its new skill} of the seats whose rating moves. The real seats (neither
    thrown nor held) are rated among themselves, when there are two of them at least; each
    thrown seat not held as having lost to every other seat; a held seat keeps its rating."""
    real = [index for index in range(len(before)) if index not in thrown | held]
    moved = {}
    if len(real) >= 2:
        rated = skills_rate([before[i] for i in real], [places[i] for i in real])
        moved.update(zip(real, rated, strict=True))
    for index in sorted(thrown - held):
        last = [2 if other == index else 1 for other in range(len(before))]
        moved[index] = skills_rate(before, last)[index]
    return moved


def race_places_settle(
    *, race: Race, seats: list[RaceSeat], results: dict[int, Submission | None], now: datetime
) -> None:
    """Under the race's lock: places, and the ratings that move, moved once (their rows locked
    in user order). A challenge nobody took up has a place and no one to be rated against."""
    places = places_of([place_key(results[seat.pk]) for seat in seats])
    for seat, place in zip(seats, places, strict=True):
        seat.place = place
    if len(seats) >= 2:
        _ratings_move(race, seats, places, results, now=now)
    RaceSeat.objects.bulk_update(seats, ["place", "rating_before", "rating_after", "rated_at"])
    race.places_final = True
    race.save(update_fields=["places_final"])
    logger.info("race places final", extra={"race": race.public_id})


def _ratings_move(
    race: Race, seats: list[RaceSeat], places: list[int], results: dict, *, now: datetime
) -> None:
    user_ids = [seat.user_id for seat in seats]
    locked = Rating.objects.select_for_update().filter(user_id__in=user_ids, rules=race.rules)
    ratings = {rating.user_id: rating for rating in locked.order_by("user_id")}
    # Read under the ratings' locks: a pair's races settling at once count one after the other.
    over = pairs_over_limit(user_ids=user_ids, race_id=race.pk, now=now)
    held = {index for index, seat in enumerate(seats) if any(seat.user_id in pair for pair in over)}
    thrown = {index for index, seat in enumerate(seats) if seat_thrown(results[seat.pk])}
    before = [
        Skill(ratings[user_id].mu, ratings[user_id].sigma) if user_id in ratings else new_skill()
        for user_id in user_ids
    ]
    for index, new in skills_moved(before, places, thrown=thrown, held=held).items():
        seat = seats[index]
        seat.rating_before, seat.rating_after, seat.rated_at = before[index].shown, new.shown, now
        rating = ratings.get(seat.user_id) or Rating(user_id=seat.user_id, rules=race.rules, races=0)
        rating.mu, rating.sigma, rating.ordinal = new.mu, new.sigma, new.shown
        rating.races += 1
        rating.updated_at = now
        rating.save()
    if over or thrown:
        logger.info(
            "race ratings held",
            extra={"race": race.public_id, "thrown": len(thrown), "pairs_over_limit": len(over)},
        )
