"""Players' reports of results (POST /api/replays/<id>/reports/, fairplay/reports.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from factories import WINNING_CODES, player_make, win
from rest_framework.test import APIClient

from fairplay.models import GameAnalysis, ResultReport
from games.submissions.intake import submission_void

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _no_analysis_at_settlement(settings):
    settings.FAIRPLAY_TOP_RANK = 0  # no place is a top place
    settings.FAIRPLAY_SAMPLE_ONE_IN = 10**12  # and nothing is drawn: only reports ask here


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def report(client, result_id: int, reason: str = "program", **more):
    return client.post(f"/api/replays/{result_id}/reports/", {"reason": reason, **more}, format="json")


def test_a_report_is_stored_once_and_asks_for_the_results_analysis(django_capture_on_commit_callbacks):
    ann, bob = player_make("ann"), player_make("bob")
    result = win(ann, at=NOON)
    assert not GameAnalysis.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):  # the analysis is sent after the commit
        answer = report(signed_in(bob), result.pk, note="  every move at once  ")
    assert answer.status_code == 201, answer.json()
    assert set(answer.json()) == {"result", "reason", "reported_at"}
    assert (answer.json()["result"], answer.json()["reason"]) == (result.pk, "program")
    stored = ResultReport.objects.get()
    assert (stored.submission, stored.reporter, stored.note) == (result, bob, "every move at once")
    analysis = GameAnalysis.objects.get(submission=result)
    assert (analysis.reason, analysis.state) == (GameAnalysis.Reason.REPORTED, GameAnalysis.State.DONE)

    again = report(signed_in(bob), result.pk, reason="other")
    assert (again.status_code, again.json()["code"]) == (409, "already_reported")
    carol = report(signed_in(player_make("carol")), result.pk)  # another player: a report of her own
    assert carol.status_code == 201
    assert ResultReport.objects.count() == 2 and GameAnalysis.objects.count() == 1


def test_ones_own_result_and_signed_out_are_refused():
    ann = player_make("ann")
    result = win(ann, at=NOON)
    own = report(signed_in(ann), result.pk)
    assert (own.status_code, own.json()["code"]) == (403, "own_result")
    signed_out = report(APIClient(), result.pk)
    assert (signed_out.status_code, signed_out.json()["code"]) == (403, "not_authenticated")
    assert not ResultReport.objects.exists()


def test_a_result_no_one_can_watch_answers_as_one_that_does_not_exist():
    """The attack: use reports as an oracle of which ids are results. A voided result and an id
    of no result get the same answer, word for word."""
    ann, bob = player_make("ann"), player_make("bob")
    voided = win(ann, at=NOON)
    submission_void(submission=voided)
    client = signed_in(bob)
    gone, never = report(client, voided.pk), report(client, voided.pk + 1000)
    assert gone.status_code == never.status_code == 404
    assert gone.json() == never.json() and gone.json()["code"] == "result_not_found"


def test_an_unknown_reason_and_a_long_note_are_field_errors():
    result = win(player_make("ann"), at=NOON)
    client = signed_in(player_make("bob"))
    assert list(report(client, result.pk, reason="cheat").json()) == ["reason"]
    assert list(report(client, result.pk, note="x" * 501).json()) == ["note"]
    assert not ResultReport.objects.exists()


def test_reports_are_rate_limited(settings):
    settings.FAIRPLAY_REPORT_RATE = "2/hour"
    ann = player_make("ann")
    results = [win(ann, at=NOON, code=code) for code in WINNING_CODES["classic"][:3]]
    client = signed_in(player_make("bob"))
    statuses = [report(client, result.pk).status_code for result in results]
    assert statuses == [201, 201, 429]
    assert ResultReport.objects.count() == 2
