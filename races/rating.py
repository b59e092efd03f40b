"""Race ratings: openskill's Plackett–Luce model, made for many players a game.

A player's shown rating is the conservative ordinal μ − 3σ, scaled so that a new player shows
1500 and rises or falls by about 24 for each point of μ: it grows as the model grows sure.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

SHOWN_TARGET = 1500.0
SHOWN_ALPHA = 24.0
_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        return SHOWN_TARGET + SHOWN_ALPHA * (self.mu - 3 * self.sigma)


def new_skill() -> Skill:
    rating = _MODEL.rating()
    return Skill(rating.mu, rating.sigma)


def skills_rate(skills: list[Skill], places: list[int]) -> list[Skill]:
    """Each player's skill after one race, in the order given; `places` from 1, ties shared."""
    if len(skills) < 2:
        return list(skills)
    teams = [[_MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
