"""A player's summary (/api/me/): their results' figures per rule set, ranks now on the boards,
the best season, the race rating, unranked wins and recent results."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db.models import Count, Max, Min, Q

from games.models import Submission
from leaderboard.boards import RULES, current_boards
from leaderboard.seasons import player_best_season, player_seasons_snapshot
from leaderboard.selectors import leaderboard_place
from races.selectors import player_ratings


def _counted(queryset):
    return queryset.filter(status=Submission.Status.VERIFIED, voided=False)


RECENT_RESULTS = 20


def player_ranks(*, user, rules: str, now: dt.datetime, deals: str) -> dict[str, dict]:
    """The player's rank now on the current boards of `rules` (global or open-deal), and the
    entries on each (for a percentile): period → {board, rank, of}, the rank None without an entry."""
    places = {}
    for period, board in current_boards(rules=rules, now=now, deals=deals).items():
        rank, entries = leaderboard_place(board=board, user_id=user.pk)
        places[period] = {"board": board, "rank": rank, "of": max(entries, rank or 0)}
    return places


def best_season_data(*, user, rules: str) -> dict | None:
    """The player's best final place in a season of `rules` (global boards), or None."""
    best = player_best_season(user=user, rules=rules)
    if best is None:
        return None
    return {"rules": rules, "season": best.season, "place": best.place, "of": best.of, "score": best.score}


def win_streaks(results_won: Iterable[bool]) -> tuple[int, int]:
    """(current, best) run of wins in a row, over results in the order they were played."""
    current = best = 0
    for won in results_won:
        current = current + 1 if won else 0
        best = max(best, current)
    return current, best


def player_summary(*, user, now: dt.datetime) -> dict:
    """Per rule set: bests, counts, win rate, streaks of wins, ranks now (global and open-deal
    boards) and the best season's final place; unranked wins; the last results. Ranked figures
    count every server-issued game, hidden-card or issued with its code."""
    # Race games count on the races' rating only (docs/races.md), not in these figures.
    mine = _counted(Submission.objects.filter(user=user)).exclude(game__contest__gt="")
    race_ratings = {rating["rules"]: rating for rating in player_ratings(user=user)}
    player_seasons_snapshot(user_id=user.pk, now=now)  # should the periodic task be behind
    per_rules = {}
    for rules in RULES:
        ranked = mine.filter(rules=rules, ranked=True)
        wins = Q(won=True, assisted=False)
        figures = ranked.aggregate(
            finished=Count("id"),
            wins=Count("id", filter=wins),
            best_score=Max("score", filter=wins),
            fewest_moves=Min("moves", filter=wins),
            fastest_ms=Min("duration_ms", filter=wins),
        )
        # Streaks over the ranked games in the order they were played (an assisted win breaks one).
        played = ranked.order_by("client_finished_at", "id").values_list("won", "assisted")
        current_streak, best_streak = win_streaks(won and not assisted for won, assisted in played)
        per_rules[rules] = {
            "best_score": figures["best_score"],
            "fewest_moves": figures["fewest_moves"],
            "fastest_win_ms": figures["fastest_ms"],
            "ranked_wins": figures["wins"],
            "ranked_games_finished": figures["finished"],
            "win_rate": round(figures["wins"] / figures["finished"], 4) if figures["finished"] else None,
            "current_streak": current_streak,
            "best_streak": best_streak,
            "unranked_wins": mine.filter(rules=rules, ranked=False, won=True).count(),
            "ranks": player_ranks(user=user, rules=rules, now=now, deals="hidden"),
            "open_ranks": player_ranks(user=user, rules=rules, now=now, deals="open"),
            "race_rating": race_ratings.get(rules),
            "best_season": best_season_data(user=user, rules=rules),
        }
    unranked = mine.filter(ranked=False, won=True).order_by("-received_at")[:RECENT_RESULTS]
    recent = Submission.objects.filter(user=user).order_by("-received_at", "-id")[:RECENT_RESULTS]
    return {"rules": per_rules, "unranked_wins": list(unranked), "recent": list(recent)}
