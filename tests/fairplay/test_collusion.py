"""Two accounts of one person (fairplay/collusion.py): one browser's accounts on one daily deal,
a rating fed from one account to the other, and two seats of one deal played in lockstep; each a
case of level report with both results side by side on the admin's evidence page.

Results are real verified wins (factories.win); what makes one a daily deal's or a race seat's
(the issued game's `daily_date`, `contest` and commitment) is set on the row afterwards, and the
settled listener is then called as games calls it."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from factories import player_make, win

from accounts.devices import device_sighting_record
from fairplay.collusion import (
    LOCKSTEP,
    RATING_FED,
    SAME_DAILY,
    case_kind,
    collusion_check,
    in_lockstep,
    lockstep_measure,
)
from fairplay.evidence import case_evidence
from fairplay.models import GameAnalysis
from games.models import IssuedGame, ReplayFlag, Submission

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
DAY = NOON.date()
BROWSER, OTHER_BROWSER, THIRD_BROWSER = "a" * 64, "b" * 64, "c" * 64


def seen(user, device: str) -> None:
    device_sighting_record(user=user, device_hash=device, session={}, now=NOON)


def daily(user, *, minute: int = 0) -> Submission:
    # Each its own log (padded by `minute` move-and-undo pairs): identical logs are a case of their own.
    result = win(user, at=NOON + dt.timedelta(minutes=minute), extra_moves=minute)
    IssuedGame.objects.filter(pk=result.game_id).update(daily_date=DAY)
    return result


def seat(user, *, race: int, minute: int = 0, times: list[int] | None = None, lost_in_ms: int | None = None):
    """A seat's result on race `race`'s deal (its commitment); `lost_in_ms`: a loss that quick."""
    result = win(user, at=NOON + dt.timedelta(minutes=minute), extra_moves=user.pk)
    IssuedGame.objects.filter(pk=result.game_id).update(contest="race", commitment=f"{race:064x}")
    fields = {"move_times_ms": times} if times else {}
    if lost_in_ms is not None:
        fields.update(won=False, score=10, duration_ms=lost_in_ms)
    Submission.objects.filter(pk=result.pk).update(**fields)
    return result


def collusion_cases(kind: str | None = None) -> list[ReplayFlag]:
    cases = ReplayFlag.objects.filter(reason=ReplayFlag.Reason.COLLUSION).order_by("pk")
    return [case for case in cases if kind is None or case_kind(case) == kind]


def person_times(seed: int, moves: int = 60) -> list[int]:
    """A person's page times: pauses of a second or a few, varying as people's do."""
    rng, now, times = random.Random(seed), 4_000, []
    for _ in range(moves):
        now += int(rng.lognormvariate(7.3, 0.6))  # a median pause of about 1.5 s
        times.append(now)
    return times


# --- Same browser, same daily deal -----------------------------------------------------------------


def test_two_accounts_of_one_browser_on_one_daily_deal_open_one_case():
    ann, bob = player_make("ann"), player_make("bob")
    seen(ann, BROWSER)
    seen(bob, BROWSER)
    first = daily(ann)
    later = daily(bob, minute=5)

    collusion_check(submission_ids=[later.pk])
    (case,) = collusion_cases()
    assert (case.submission, case.matches, case.user) == (later, first, bob)
    assert (case.level, case.state, case_kind(case)) == ("report", "open", SAME_DAILY)
    assert not Submission.objects.filter(withheld=True).exists()  # a report withholds nothing

    # Once a pair: settled again, or the earlier result checked, no second case.
    collusion_check(submission_ids=[later.pk, first.pk])
    assert len(collusion_cases()) == 1


def test_two_browsers_or_one_account_open_no_daily_case():
    ann, bob, cat = player_make("ann"), player_make("bob"), player_make("cat")
    seen(ann, BROWSER)
    seen(ann, OTHER_BROWSER)  # one account on two browsers: still one account
    seen(bob, THIRD_BROWSER)
    seen(cat, BROWSER)  # cat shares ann's browser but played no daily deal
    results = [daily(ann), daily(bob, minute=5), win(cat, at=NOON + dt.timedelta(minutes=9))]
    collusion_check(submission_ids=[r.pk for r in results])
    assert collusion_cases() == []


# --- Rating fed ------------------------------------------------------------------------------------


def test_one_account_losing_fast_to_another_of_its_browser_each_time_is_a_case(settings):
    settings.FAIRPLAY_FEED_MEETINGS = 3
    ann, bob = player_make("ann"), player_make("bob")
    seen(ann, BROWSER)
    seen(bob, BROWSER)
    for race in range(2):
        seat(ann, race=race, minute=race)
        seat(bob, race=race, minute=race, times=person_times(race), lost_in_ms=30_000)
    collusion_check(submission_ids=list(Submission.objects.values_list("pk", flat=True)))
    assert collusion_cases(RATING_FED) == []  # two meetings: no pattern yet

    seat(ann, race=2, minute=2)
    loss = seat(bob, race=2, minute=2, times=person_times(2), lost_in_ms=30_000)
    collusion_check(submission_ids=[loss.pk])
    (case,) = collusion_cases(RATING_FED)
    assert (case.user, case.submission, case.matches.user) == (bob, loss, ann)
    assert "bob lost fast to ann in all 3" in case.note

    seat(ann, race=3, minute=3)
    collusion_check(submission_ids=[seat(bob, race=3, minute=3, times=person_times(3), lost_in_ms=20_000).pk])
    assert len(collusion_cases(RATING_FED)) == 1  # once a pair


def test_no_rating_case_for_real_losses_nor_for_two_browsers(settings):
    settings.FAIRPLAY_FEED_MEETINGS = 3
    ann, bob, cat = player_make("ann"), player_make("bob"), player_make("cat")
    seen(ann, BROWSER)
    seen(bob, BROWSER)
    seen(cat, OTHER_BROWSER)
    for race in range(3):
        seat(ann, race=race, minute=race)
        seat(bob, race=race, minute=race, times=person_times(race), lost_in_ms=600_000)  # ten minutes' try
        seat(cat, race=race, minute=race, times=person_times(race + 10), lost_in_ms=10_000)
    collusion_check(submission_ids=list(Submission.objects.values_list("pk", flat=True)))
    assert collusion_cases(RATING_FED) == []


# --- Lockstep --------------------------------------------------------------------------------------


def test_lockstep_on_constructed_times_and_not_for_two_people(settings):
    rng = random.Random(7)
    one = person_times(1)
    echoed = [t + rng.randint(-300, 300) for t in one]  # one hand on two seats, a move apart
    assert in_lockstep(one, echoed)
    assert not in_lockstep(one, person_times(2))
    assert not in_lockstep(one, person_times(3))
    # A seat that stops early is not in step over the game.
    assert not in_lockstep(one, echoed[:25])
    assert lockstep_measure(one, echoed[:25], tolerance_ms=500).share < 0.5
    # Too few moves to tell.
    assert not in_lockstep(one[:12], echoed[:12])


def test_two_seats_in_lockstep_open_a_case_and_independent_seats_do_not():
    ann, bob, cat = player_make("ann"), player_make("bob"), player_make("cat")
    a = seat(ann, race=9)
    b = seat(bob, race=9, minute=1)  # the factory's even times: the same as ann's, move for move
    c = seat(cat, race=9, minute=2, times=person_times(5, moves=len(a.move_times_ms)))
    collusion_check(submission_ids=[a.pk, b.pk, c.pk])
    (case,) = collusion_cases(LOCKSTEP)
    assert {case.submission, case.matches} == {a, b} and case.submission == b


# --- The evidence page -----------------------------------------------------------------------------


def test_the_evidence_shows_both_accounts_side_by_side(client):
    ann, bob = player_make("ann"), player_make("bob")
    seen(ann, BROWSER)
    seen(bob, BROWSER)
    first, later = daily(ann), daily(bob, minute=5)
    collusion_check(submission_ids=[later.pk])
    (case,) = collusion_cases()

    html = str(case_evidence(case))
    for result, name in ((first, "ann"), (later, "bob")):
        assert f'href="/replay/{result.pk}"' in html and f'data-result="{result.pk}"' in html
        assert f"{name}: result {result.pk}" in html
    assert (
        html.count("<svg") >= 2
        and "Browsers seen with both accounts (device key hashes, last 90 days): 1" in html
    )

    # A result never analysed still has its side: its pauses, without verdicts.
    GameAnalysis.objects.filter(submission=first).delete()
    case = ReplayFlag.objects.get(pk=case.pk)
    assert f'id="chart-title-r{first.pk}"' in str(case_evidence(case))

    client.force_login(player_make("mod", is_staff=True, is_superuser=True))
    answer = client.get(f"/admin/games/replayflag/{case.pk}/change/")
    assert answer.status_code == 200
    assert f'data-result="{first.pk}"' in answer.content.decode()
