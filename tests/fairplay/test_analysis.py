"""Which settled results are analysed and the analysis of one (fairplay/services.py), through the
real services: a win settles, games tells its listeners, the analysis runs (eager here)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import TestCase
from django.utils import timezone
from factories import WINNING_CODES, player_make, win

from fairplay.models import GameAnalysis
from fairplay.services import SWEEP_AFTER, analyses_request, analyses_sweep, game_analyse

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
Reason, State = GameAnalysis.Reason, GameAnalysis.State


def test_a_ranked_win_that_reaches_the_top_places_is_analysed_once():
    result = win(player_make("ann"), at=NOON)
    assert result.ranks and min(result.ranks.values()) == 1

    analysis = GameAnalysis.objects.get(submission=result)
    assert (analysis.reason, analysis.state) == (Reason.TOP, State.DONE)
    assert analysis.features["reveals"] == 21 and analysis.features["peeks"] == 0
    assert analysis.cpu_ms is not None and analysis.analysed_at is not None

    # At most once: asked again, nothing new; run again, nothing done.
    assert analyses_request(submission_ids=[result.pk]) == []
    assert game_analyse(analysis_id=analysis.pk) is None
    assert GameAnalysis.objects.count() == 1


def test_an_open_deal_is_not_analysed(settings):
    settings.FAIRPLAY_SAMPLE_ONE_IN = 1
    win(player_make("ann"), at=NOON, hidden=False)  # issued with its code: every card known
    win(player_make("bob"), at=NOON, ranked=False, code=WINNING_CODES["classic"][1])
    assert not GameAnalysis.objects.exists()


def test_below_the_top_places_a_share_is_drawn(settings):
    settings.FAIRPLAY_TOP_RANK = 0  # no place is a top place
    settings.FAIRPLAY_SAMPLE_ONE_IN = 10**12  # one in a trillion: none here
    win(player_make("ann"), at=NOON)
    assert not GameAnalysis.objects.exists()

    settings.FAIRPLAY_SAMPLE_ONE_IN = 1  # every one
    drawn = win(player_make("bob"), at=NOON)
    assert GameAnalysis.objects.get().submission == drawn
    assert GameAnalysis.objects.get().reason == Reason.SAMPLE


def test_an_analysis_never_sent_is_sent_by_the_sweeper(settings, monkeypatch):
    monkeypatch.setattr("fairplay.services._send", lambda analysis_id: None)  # the broker was down
    result = win(player_make("ann"), at=NOON)
    analysis = GameAnalysis.objects.get(submission=result)
    assert analysis.state == State.QUEUED
    monkeypatch.undo()

    assert analyses_sweep() == 0  # too young: maybe on its way
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert analyses_sweep(now=timezone.now() + SWEEP_AFTER + dt.timedelta(seconds=1)) == 1
    analysis.refresh_from_db()
    assert analysis.state == State.DONE


def test_the_draw_is_no_function_of_the_result(settings):
    """The attack: learn which results are drawn (by id, by time) and cheat only in the others.
    The same result drawn again and again is sometimes drawn and sometimes not, at the share set."""
    from types import SimpleNamespace

    from fairplay.services import _reason

    settings.FAIRPLAY_TOP_RANK, settings.FAIRPLAY_SAMPLE_ONE_IN = 0, 4
    result = SimpleNamespace(pk=7, ranks={"classic:all": 5000}, game=SimpleNamespace(contest=""))
    drawn = sum(_reason(result) == Reason.SAMPLE for _ in range(4000))
    assert 850 <= drawn <= 1150  # a quarter: 1,000 ± 5 standard deviations (27 each)


def test_the_solver_verdicts_are_stored_with_the_features_when_a_budget_is_set(settings, monkeypatch):
    from fairplay.verdicts import BUDGETS, Budget

    # Without a broker (these tests) the analysis runs in the request: no search unless asked for.
    plain = GameAnalysis.objects.get(submission=win(player_make("ann"), at=NOON))
    assert plain.verdicts == [] and "hidden_edge" not in plain.features

    settings.FAIRPLAY_VERDICT_BUDGET = "lab"
    monkeypatch.setitem(BUDGETS, "lab", Budget(positions=0))  # full knowledge only: a won game, free
    result = win(player_make("bob"), at=NOON)
    analysis = GameAnalysis.objects.get(submission=result)
    assert analysis.state == State.DONE
    assert len(analysis.verdicts) == len(result.log.split())
    assert {verdict["full"] for verdict in analysis.verdicts} == {"won"}
    features = analysis.features
    assert (features["deal_winnable"], features["blunders"], features["first_lost_move"]) == ("won", 0, None)
    assert features["contested"] > 0 and features["searched"] == 0 and features["reveals"] == 21
