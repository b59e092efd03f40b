"""Race tests: players, and races dealt a deal whose winning log is known."""

from __future__ import annotations

import pytest
from race_play import CLASSIC_WIN

from games.engine import GameCode


@pytest.fixture
def known_deal(issue_known_deals):
    """Races deal the Classic deal whose win is CLASSIC_WIN instead of a random one: that win, with
    the code the race deals it under (a whole shuffle's, YU2)."""
    issue_known_deals(CLASSIC_WIN["code"])
    return {**CLASSIC_WIN, "code": str(GameCode.parse(CLASSIC_WIN["code"]).whole())}
