"""A game's suspicion score (docs/fairplay.md, "The score"): a sum of points, each from one
feature, each explained in words, so a moderator reads why a game stands out. Pure: no Django.

Only evidence raises the score: a feature that is not known (no verdicts, too few positions
searched, too few pauses) adds nothing. Nothing lowers it: a person's good game is not evidence
of fair play, and a score decides nothing by itself (the thresholds open cases for people).
"""

from __future__ import annotations

from dataclasses import dataclass

EDGE_POINTS = 100.0  # × the share of judged positions where the chosen move had the hidden edge
EDGE_MAX = 60.0
TOP_CHOICE_FROM = 0.75  # a person's top-choice share is often this high: only above it counts
TOP_CHOICE_POINTS = 50.0  # × (share − 0.75): 12.5 when every searched choice ranked first
TOP_CHOICE_POSITIONS = 5  # searched positions with a verdict needed before the share counts
LUCK_POINTS, LUCK_MAX = 20.0, 80.0  # × log10 of the luck ratio: 1 in 1,000 odds score 60
PEEK_POINTS, PEEK_MAX = 4.0, 20.0
REACTION_BELOW, REACTION_POINTS = 0.8, 10.0  # no longer a pause after a card turned up than after others
RHYTHM_BELOW, RHYTHM_POINTS = 0.2, 10.0  # pauses too even for a person
PAUSES_NEEDED = 10  # reveals needed before the reaction counts


@dataclass(frozen=True)
class Part:
    feature: str
    points: float
    why: str


@dataclass(frozen=True)
class Score:
    total: float
    parts: tuple[Part, ...]


def game_score(features: dict) -> Score:
    """The score of one analysed game's features (GameAnalysis.features)."""
    parts = []
    edge = features.get("hidden_edge")
    if edge:
        points = min(EDGE_POINTS * edge, EDGE_MAX)
        parts.append(
            Part("hidden_edge", points, f"beat what could be seen at {edge:.0%} of the judged positions")
        )
    luck = features.get("luck")
    if luck and luck > 0:
        parts.append(
            Part(
                "luck",
                min(LUCK_POINTS * luck, LUCK_MAX),
                f"kept the deal winnable against odds of 1 in {10**luck:,.0f} on what could be seen",
            )
        )
    share = features.get("top_choice_share")
    judged = (features.get("searched") or 0) - (features.get("unknown_positions") or 0)
    if share is not None and judged >= TOP_CHOICE_POSITIONS and share > TOP_CHOICE_FROM:
        points = TOP_CHOICE_POINTS * (share - TOP_CHOICE_FROM)
        parts.append(
            Part("top_choice_share", points, f"took the top choice at {share:.0%} of {judged} positions")
        )
    peeks = features.get("peeks") or 0
    if peeks:
        parts.append(
            Part("peeks", min(PEEK_POINTS * peeks, PEEK_MAX), f"undid {peeks} move(s) that turned a card up")
        )
    reaction = features.get("reveal_reaction")
    if reaction is not None and (features.get("reveals") or 0) >= PAUSES_NEEDED and reaction < REACTION_BELOW:
        parts.append(
            Part("reveal_reaction", REACTION_POINTS, f"paused {reaction:.2f}× as long after a card turned up")
        )
    spread = features.get("rhythm_spread")
    if spread is not None and (features.get("moves") or 0) >= PAUSES_NEEDED and spread < RHYTHM_BELOW:
        parts.append(
            Part("rhythm_spread", RHYTHM_POINTS, f"pauses evener than a person's (spread {spread:.2f})")
        )
    return Score(round(sum(part.points for part in parts), 1), tuple(parts))
