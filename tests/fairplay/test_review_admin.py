"""A case's evidence on one screen in the admin, and decisions taken there: the moderators group's
permissions (fairplay/migrations/0005) suffice, and staff without them are refused."""

from __future__ import annotations

import datetime as dt

import pytest
from factories import moderators, player_make, win

from fairplay.models import CaseDecision
from games.models import ReplayFlag
from leaderboard.models import BoardEntry

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)


def staff(name: str, *, moderator: bool):
    user = player_make(name, is_staff=True)
    if moderator:
        user.groups.add(moderators())
    return user


@pytest.fixture
def case(verdicts) -> ReplayFlag:
    verdicts.next = verdicts.STRONG
    ann = player_make("ann")
    for minute in range(3):
        win(ann, at=NOON + dt.timedelta(minutes=minute))
    return ReplayFlag.objects.get(user=ann, reason=ReplayFlag.Reason.ANALYSIS)


def page(client, case: ReplayFlag):
    return client.get(f"/admin/games/replayflag/{case.pk}/change/")


def test_a_moderator_sees_the_evidence_on_one_screen(client, case):
    client.force_login(staff("mod", moderator=True))
    answer = page(client, case)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" role="img"') == 3  # one chart a game
    assert "<desc id=" in html and "each move's pause and verdict</title>" in html
    assert 'data-verdict="edge"' in html and 'data-verdict="forced"' in html
    assert "The moves as a table" in html  # the chart's words for those who cannot see it
    assert f'href="/replay/{case.submission_id}"' in html
    assert "Everyone" in html and "hidden_edge" in html and "beat what could be seen at 50%" in html
    assert 'name="decision"' in html and 'name="why"' in html
    assert client.get("/admin/games/replayflag/").status_code == 200  # the queue's list


def test_staff_without_the_groups_permissions_are_refused(client, case):
    client.force_login(staff("clerk", moderator=False))
    assert page(client, case).status_code == 403
    assert client.get("/admin/games/replayflag/").status_code == 403


def test_a_moderators_decision_is_logged_with_who_and_why(client, case):
    moderator = staff("mod", moderator=True)
    client.force_login(moderator)
    url = f"/admin/games/replayflag/{case.pk}/change/"

    refused = client.post(url, {"decision": "confirm", "why": "  ", "_save": "Save"})
    assert refused.status_code == 200 and "Say why" in refused.content.decode()
    assert not CaseDecision.objects.exists()

    done = client.post(url, {"decision": "confirm", "why": "the edge in every game", "_save": "Save"})
    assert done.status_code == 302
    decision = CaseDecision.objects.get()
    assert (decision.case, decision.action, decision.by, decision.why) == (
        case, "confirm", moderator, "the edge in every game"
    )  # fmt: skip
    case.refresh_from_db()
    assert case.state == ReplayFlag.State.CONFIRMED
    assert not BoardEntry.objects.filter(user=case.user).exists()
    assert "the edge in every game" in page(client, case).content.decode()  # earlier decisions shown
