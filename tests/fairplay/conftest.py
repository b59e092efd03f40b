"""Fair play's shared fixtures: games whose solver verdicts are set by the test, so a test says
how strong each game's evidence is and the real services score, queue and withhold."""

from __future__ import annotations

import pytest

from fairplay.verdicts import BUDGETS

# What a program that knew the face-down cards might leave: the hidden edge at half the judged
# positions, every searched choice the top one (game_score: 50 + 12.5 + the factory's even pauses).
STRONG = {"contested": 30, "searched": 20, "unknown_positions": 0, "top_choice_share": 1.0,
          "hidden_edge": 0.5, "hidden_edges": 10, "blunders": 0, "deal_winnable": "won"}  # fmt: skip
# A person's: no edge, the top choice most of the time (only the factory's even pauses count).
PLAIN = {**STRONG, "top_choice_share": 0.7, "hidden_edge": 0.0, "hidden_edges": 0}


class _Verdicts:
    def __init__(self, features: dict, tokens: int) -> None:
        self._features = features
        self.moves = [_Move(index) for index in range(tokens)]

    def features(self) -> dict:
        return dict(self._features)


class _Move:
    def __init__(self, index: int) -> None:
        self.index = index

    def to_dict(self) -> dict:
        # Every fifth move searched with the edge, the rest forced: enough for the chart.
        if self.index % 5 == 0:
            return {
                "kind": "searched",
                "rank": 2,
                "of": 4,
                "score": 0.4,
                "best": 0.6,
                "edge": True,
                "full": "won",
            }
        return {"kind": "forced", "of": 1, "full": "won"}


@pytest.fixture
def verdicts(monkeypatch):
    """`verdicts.next = verdicts.STRONG` (or PLAIN): the features the next analysed games' verdicts give."""

    class Control:
        STRONG, PLAIN = STRONG, PLAIN
        next = PLAIN

    monkeypatch.setattr("fairplay.services.verdict_budget", lambda reason="": BUDGETS["lab"])
    monkeypatch.setattr(
        "fairplay.services.game_verdicts", lambda code, tokens, budget: _Verdicts(Control.next, len(tokens))
    )
    return Control
