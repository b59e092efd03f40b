"""The review queue (fairplay/cases.py, games/reviews.py): a game's score, the report and mark
thresholds, withholding from the boards and bringing back, decisions, appeals, calibration.
Games are played through the real services; only the solver's verdicts are set (conftest)."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone
from factories import WINNING_CODES, player_make, win
from rest_framework.test import APIClient

from fairplay.cases import case_decide
from fairplay.models import CaseDecision, GameAnalysis, PlayerScore
from fairplay.scoring import game_score
from games.models import ReplayFlag, Submission
from games.reviews import player_review
from leaderboard.models import BoardEntry

pytestmark = pytest.mark.django_db

CATALOGS = Path(__file__).resolve().parents[2] / "frontend/static/frontend/js/i18n"
NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
Level, State = ReplayFlag.Level, ReplayFlag.State


def games(user, count: int, *, start: int = 0) -> list[Submission]:
    return [win(user, at=NOON + dt.timedelta(minutes=start + n)) for n in range(count)]


def on_boards(user) -> bool:
    return BoardEntry.objects.filter(user=user).exists()


def board_names(client) -> list[str]:
    return [
        entry["player"]["name"] for entry in client.get("/api/leaderboards/?rules=classic").json()["results"]
    ]


def me_review(user):
    client = APIClient()
    client.force_login(user)
    answer = client.get("/api/me/")
    assert answer.status_code == 200
    return answer.json()["review"]


def test_the_score_counts_evidence_only_and_says_why(verdicts):
    STRONG = verdicts.STRONG
    assert game_score({}).total == 0  # nothing known: no evidence
    unknown = {"hidden_edge": None, "top_choice_share": None, "reveal_reaction": None, "rhythm_spread": None}
    assert game_score(unknown).total == 0
    few = {"top_choice_share": 1.0, "searched": 4, "unknown_positions": 0}  # too few positions to count
    assert game_score(few).total == 0
    strong = game_score({**STRONG, "moves": 90, "rhythm_spread": 0.9})
    assert strong.total == 62.5
    assert [part.feature for part in strong.parts] == ["hidden_edge", "top_choice_share"]
    assert "50%" in strong.parts[0].why
    assert game_score({"peeks": 9}).total == 20  # capped: peeks alone never mark anyone


def test_one_strong_game_goes_to_the_queue_and_stays_on_the_boards(verdicts, settings):
    settings.FAIRPLAY_MARK_GAMES = 1  # even asked to: one game never marks anyone
    verdicts.next = verdicts.STRONG
    ann = player_make("ann")
    (result,) = games(ann, 1)

    analysis = GameAnalysis.objects.get(submission=result)
    assert analysis.score >= settings.FAIRPLAY_MARK_SCORE
    case = ReplayFlag.objects.get(reason=ReplayFlag.Reason.ANALYSIS)
    assert (case.user, case.level, case.state, case.submission) == (ann, Level.REPORT, State.OPEN, result)
    assert analysis.case == case
    assert on_boards(ann) and not Submission.objects.filter(withheld=True).exists()
    assert me_review(ann) is None


def test_a_plain_game_opens_no_case(verdicts):
    games(player_make("ann"), 2)
    assert GameAnalysis.objects.filter(score__lt=30).count() == 2
    assert not ReplayFlag.objects.exists()


def test_repeated_strong_games_mark_the_player_and_withhold_their_results(verdicts, client, settings):
    settings.LEADERBOARD_HOT_PAGE_SECONDS = 0  # each read of the board answers from the index
    verdicts.next = verdicts.STRONG
    ann, bob = player_make("ann"), player_make("bob")
    win(bob, at=NOON, code=WINNING_CODES["classic"][1])
    games(ann, 2)
    assert ReplayFlag.objects.get(user=ann).level == Level.REPORT  # two: not yet
    assert on_boards(ann) and "ann" in board_names(client)

    games(ann, 1, start=2)
    case = ReplayFlag.objects.get(user=ann)  # one case, raised: not a second one
    assert (case.level, case.state) == (Level.MARK, State.OPEN)
    assert GameAnalysis.objects.filter(case=case).count() == 3
    assert not on_boards(ann) and on_boards(bob)
    assert board_names(client) == ["bob"]
    assert set(Submission.objects.filter(user=ann).values_list("withheld", flat=True)) == {True}
    assert me_review(ann) == {"state": "under_review", "reason": "analysis", "since": me_review(ann)["since"]}
    score = PlayerScore.objects.get(user=ann)
    assert (score.games, score.strong) == (3, 3)

    # A result settled while the mark is open joins the withheld ones.
    verdicts.next = verdicts.PLAIN
    later = win(ann, at=NOON + dt.timedelta(hours=1), code=WINNING_CODES["classic"][2])
    later.refresh_from_db()
    assert later.withheld and not on_boards(ann)


def test_luck_adds_up_over_games_to_a_report_then_a_mark_never_from_one_game(verdicts, settings):
    """Odds of 1 in 5 a game are no evidence alone; three such games are 1 in 126, five 1 in 3,162
    (docs/fairplay.md, "Luck"). One game at 1 in 100,000 reports, and marks no one."""
    verdicts.next = {**verdicts.PLAIN, "luck": 0.7}  # game_score: 14 (+ the factory's even pauses)
    ann = player_make("ann")
    games(ann, 2)
    assert not ReplayFlag.objects.filter(user=ann).exists()
    games(ann, 1, start=2)  # 2.1: report
    case = ReplayFlag.objects.get(user=ann)
    assert (case.level, case.state) == (Level.REPORT, State.OPEN) and on_boards(ann)
    games(ann, 1, start=3)  # 2.8: still a report
    case.refresh_from_db()
    assert case.level == Level.REPORT
    games(ann, 1, start=4)  # 3.5 over five lucky games: mark
    case.refresh_from_db()
    assert case.level == Level.MARK and not on_boards(ann)
    assert GameAnalysis.objects.filter(case=case).count() == 5
    assert PlayerScore.objects.get(user=ann).luck == pytest.approx(3.5)

    verdicts.next = {**verdicts.PLAIN, "luck": 5.0}
    bob = player_make("bob")
    games(bob, 1)
    analysis_case = ReplayFlag.objects.filter(user=bob, reason=ReplayFlag.Reason.ANALYSIS)
    assert analysis_case.get().level == Level.REPORT and on_boards(bob)

    verdicts.next = {**verdicts.PLAIN, "luck": -1.0}  # a lost game's blunder: no evidence, and less luck
    games(bob, 1, start=1)
    assert analysis_case.get().level == Level.REPORT
    assert PlayerScore.objects.get(user=bob).luck == pytest.approx(4.0)


def test_clearing_brings_the_results_back_and_those_games_never_mark_again(verdicts, client, settings):
    settings.LEADERBOARD_HOT_PAGE_SECONDS = 0
    verdicts.next = verdicts.STRONG
    ann, mod = player_make("ann"), player_make("mod")
    games(ann, 3)
    case = ReplayFlag.objects.get(user=ann)

    decision = case_decide(case=case, action="clear", by=mod, why="a strong player: their history agrees")
    assert (decision.by, decision.why, decision.level) == (
        mod,
        "a strong player: their history agrees",
        "mark",
    )
    case.refresh_from_db()
    assert case.state == State.CLEARED and case.reviewed_at is not None
    assert on_boards(ann) and "ann" in board_names(client)
    assert me_review(ann) == {"state": "cleared", "reason": "analysis", "since": me_review(ann)["since"]}
    assert not Submission.objects.filter(withheld=True).exists()
    assert PlayerScore.objects.get(user=ann).strong == 0  # the cleared games count no more

    games(ann, 1, start=10)  # one more strong game: a new case, a report, not a mark
    new = ReplayFlag.objects.exclude(pk=case.pk).get(user=ann)
    assert (new.level, new.state) == (Level.REPORT, State.OPEN)
    assert on_boards(ann)
    # The note that the results are back stays a month; a report the player never saw says nothing.
    later = timezone.now() + dt.timedelta(days=31)
    assert player_review(user_id=ann.pk, now=later) is None


def test_confirming_takes_the_results_off_the_boards_and_the_player_is_told(verdicts):
    verdicts.next = verdicts.STRONG
    ann, mod = player_make("ann"), player_make("mod")
    games(ann, 1)
    case = ReplayFlag.objects.get(user=ann)
    assert on_boards(ann)

    case_decide(case=case, action="confirm", by=mod, why="the edge at half the positions, again and again")
    assert not on_boards(ann)
    assert me_review(ann)["state"] == "confirmed"
    with pytest.raises(ValueError):
        case_decide(case=case, action="clear", by=mod, why="   ")  # no decision without a why
    assert CaseDecision.objects.count() == 1

    # Decided games mark no one again: a plain game opens nothing, a strong one a report only.
    games(ann, 2, start=5)
    verdicts.next = verdicts.PLAIN
    games(ann, 1, start=9)
    assert ReplayFlag.objects.filter(user=ann).count() == 2
    assert ReplayFlag.objects.exclude(pk=case.pk).get(user=ann).level == Level.REPORT


def test_a_players_report_opens_a_case_of_its_own_in_the_same_queue(verdicts, settings):
    settings.FAIRPLAY_TOP_RANK = 0
    settings.FAIRPLAY_SAMPLE_ONE_IN = 10**12
    ann, bob = player_make("ann"), player_make("bob")
    result = win(ann, at=NOON)
    client = APIClient()
    client.force_login(bob)
    assert (
        client.post(f"/api/replays/{result.pk}/reports/", {"reason": "program"}, format="json").status_code
        == 201
    )
    case = ReplayFlag.objects.get()
    assert (case.reason, case.user, case.submission, case.level) == ("report", ann, result, "")
    assert on_boards(ann)  # a report withholds nothing


def appeal(user, why="I play fast because I practise") -> tuple[int, dict]:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    answer = client.post("/api/fairplay/appeals/", {"why": why}, format="json")
    return answer.status_code, answer.json()


def test_an_appeal_reopens_the_confirmed_case(verdicts, settings):
    verdicts.next = verdicts.STRONG
    ann, mod = player_make("ann"), player_make("mod")
    games(ann, 3)
    case = ReplayFlag.objects.get(user=ann)
    assert appeal(ann)[1]["code"] == "nothing_to_appeal"  # open, not decided: nothing to appeal yet
    case_decide(case=case, action="confirm", by=mod, why="three games with the hidden edge")

    status, body = appeal(ann)
    assert status == 201 and (body["case"], body["state"]) == (case.pk, "open")
    case.refresh_from_db()
    assert case.state == State.OPEN and case.reviewed_at is None
    logged = CaseDecision.objects.filter(case=case).order_by("pk").last()
    assert (logged.action, logged.by, logged.why) == ("appeal", ann, "I play fast because I practise")
    assert not on_boards(ann)  # a reopened mark still withholds until a moderator decides
    assert appeal(ann)[1]["code"] == "appeal_open"
    assert appeal(player_make("bob"))[0] == 404
    assert appeal(None)[0] == 403

    case_decide(case=case, action="clear", by=mod, why="the appeal's explanation holds")
    assert on_boards(ann)


def test_appeals_are_rate_limited(verdicts, settings):
    settings.FAIRPLAY_APPEAL_RATE = "1/day"
    verdicts.next = verdicts.STRONG
    ann, mod = player_make("ann"), player_make("mod")
    games(ann, 1)
    case = ReplayFlag.objects.get(user=ann)
    case_decide(case=case, action="confirm", by=mod, why="x")
    assert appeal(ann)[0] == 201
    case_decide(case=case, action="confirm", by=mod, why="still")
    assert appeal(ann)[0] == 429


def test_calibration_counts_each_thresholds_confirmed_and_cleared_cases(verdicts):
    verdicts.next = verdicts.STRONG
    mod = player_make("mod")
    players = [player_make(name) for name in ("ann", "bob", "cat", "dan")]
    games(players[0], 3)  # a mark
    games(players[1], 3)  # a mark
    games(players[2], 1)  # a report
    games(players[3], 1)  # a report, left open
    # Their logs are identical, so the same queue holds identical-log cases too: those are not counted.
    assert ReplayFlag.objects.filter(reason=ReplayFlag.Reason.IDENTICAL_LOG).exists()
    analysed = ReplayFlag.objects.filter(reason=ReplayFlag.Reason.ANALYSIS).select_related("user")
    cases = {case.user.username: case for case in analysed}
    case_decide(case=cases["ann"], action="confirm", by=mod, why="edge")
    case_decide(case=cases["bob"], action="clear", by=mod, why="fine")
    case_decide(case=cases["cat"], action="confirm", by=mod, why="edge")

    out = StringIO()
    call_command("fairplay_calibration", stdout=out)
    lines = {line.split()[0]: line.split() for line in out.getvalue().splitlines()[1:]}
    # threshold, …, cases, confirmed, cleared, open, share
    assert lines["report"][-5:] == ["2", "1", "0", "1", "100%"]
    assert lines["mark"][-5:] == ["2", "1", "1", "0", "50%"]
    assert lines["player"][-5:] == ["0", "0", "0", "0", "—"]


@pytest.mark.parametrize("language", ["en", "ms", "hi", "tl"])
def test_every_review_state_and_reason_the_api_gives_has_words_in_each_catalog(language):
    catalog = json.loads((CATALOGS / f"{language}.json").read_text())["me"]["review"]
    assert {"under_review", "confirmed", "cleared"} <= set(catalog)
    assert all("{reason}" in catalog[state] for state in ("under_review", "confirmed"))
    assert set(catalog["reasons"]) == set(ReplayFlag.Reason.values)


@pytest.mark.parametrize(
    ("variables", "refused"),
    [({"FAIRPLAY_MARK_GAMES": "1"}, True), ({"FAIRPLAY_MARK_GAMES": "2"}, False)],
)
def test_the_settings_refuse_a_mark_from_one_game(variables, refused, tmp_path):
    shown = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
         "print(settings.FAIRPLAY_MARK_GAMES)"],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=120,
        env={"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
             "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3", **variables},
    )  # fmt: skip
    assert (shown.returncode != 0) == refused, shown.stderr
    assert ("One game never marks anyone" in shown.stderr) == refused
