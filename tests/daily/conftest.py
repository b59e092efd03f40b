"""Daily-deal tests: no code of a day remembered from another test."""

import pytest

from daily.selectors import daily_deal_cache_clear


@pytest.fixture(autouse=True)
def _fresh_daily_codes():
    daily_deal_cache_clear()
    yield
    daily_deal_cache_clear()
