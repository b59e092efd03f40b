"""/api/account/: read, change the display name, delete; deletion and suspension from the staff's side."""

from __future__ import annotations

import uuid

import pytest
from accounts_helpers import PASSWORD
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_suspend
from games.issuing.services import game_issue
from games.log_input import SubmissionInput
from games.models import IssuedGame, Submission
from games.submissions.intake import submission_create

pytestmark = pytest.mark.django_db


def a_result(user) -> Submission:
    """A stored (pending) unranked result of `user`, made by the real service."""
    data = SubmissionInput(
        client_id=uuid.uuid4(), code="YU1-C-AAAAAAA", log="9D>3", move_times_ms=[500], duration_ms=600,
        finished_at=timezone.now(),
    )  # fmt: skip
    submission, _ = submission_create(user=user, data=data)
    return submission


def test_the_account_is_read_by_its_player(api, player):
    response = api.get("/api/account/")

    assert response.status_code == 200
    assert response.json() == {
        "id": player.pk,
        "username": "alice",
        "email": "alice@example.com",
        "display_name": "alice",
        "date_joined": response.json()["date_joined"],
        "is_suspended": False,
        "suspension_reason": "",
        "language": "",
    }


def test_signed_out_has_no_account(db):
    response = APIClient().get("/api/account/")

    assert response.status_code == 403  # the pages ask /api/session/ instead
    assert response.json() == {
        "detail": "Authentication credentials were not provided.",
        "code": "not_authenticated",
    }


def test_the_session_says_who_is_signed_in_with_a_200_signed_out_too(api, player):
    """Every page asks /api/session/ on load: signed out, a 200 (a 403 is logged as an error)."""
    signed_in = api.get("/api/session/")
    assert signed_in.status_code == 200
    assert signed_in.json() == {"account": api.get("/api/account/").json()}

    signed_out = APIClient().get("/api/session/")
    assert signed_out.status_code == 200
    assert signed_out.json() == {"account": None}


def test_the_display_name_is_changed_by_patch(api, player):
    response = api.patch("/api/account/", {"display_name": "Queen_of-Clubs"}, format="json")

    assert response.status_code == 200
    assert response.json()["display_name"] == "Queen_of-Clubs"
    player.refresh_from_db()
    assert player.display_name == "Queen_of-Clubs"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ab", "Use 3–20 characters: letters A–Z, digits, _ or -."),
        ("a" * 21, "Ensure this field has no more than 20 characters."),
        ("<script>", "Use 3–20 characters: letters A–Z, digits, _ or -."),
        ("two words", "Use 3–20 characters: letters A–Z, digits, _ or -."),
        ("BOB", "That display name is taken."),
    ],
)
def test_a_bad_or_taken_display_name_is_refused(api, player, make_player, name, message):
    make_player("bob")

    response = api.patch("/api/account/", {"display_name": name}, format="json")

    assert response.status_code == 400
    assert response.json() == {"display_name": [message]}
    player.refresh_from_db()
    assert player.display_name == "alice"


def test_a_player_may_change_the_case_of_their_own_name(api, player):
    response = api.patch("/api/account/", {"display_name": "ALICE"}, format="json")

    assert response.status_code == 200
    assert response.json()["display_name"] == "ALICE"


def test_patch_without_the_csrf_token_is_refused(player):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(player)

    response = client.patch("/api/account/", {"display_name": "Other"}, format="json")

    assert response.status_code == 403
    assert response.json()["detail"].startswith("CSRF Failed")


def test_deleting_needs_the_right_password(api, player):
    wrong = api.delete("/api/account/", {"password": "wrong"}, format="json")
    missing = api.delete("/api/account/", {}, format="json")

    assert wrong.status_code == 400 and wrong.json() == {"password": ["That is not your password."]}
    assert missing.status_code == 400 and missing.json() == {"password": ["This field is required."]}
    assert User.objects.filter(pk=player.pk).exists()


def test_a_stolen_session_cannot_try_passwords_in_a_loop(api, player, client, clock):
    # The attacker holds the player's session, not the password, and loops over guesses: five
    # in five minutes, then every try is refused unchecked, the right password too, so the
    # answer tells nothing; the deletion page counts the same tries.
    guesses = [api.delete("/api/account/", {"password": f"guess-{n}"}, format="json") for n in range(5)]
    assert [answer.status_code for answer in guesses] == [400] * 5
    clock.now += 120  # a limit of 5 a minute would let the next try through
    right = api.delete("/api/account/", {"password": PASSWORD}, format="json")
    assert (right.status_code, right.json()["code"]) == (429, "throttled")
    assert right.json()["detail"] == "Too many password tries. Try again in 3 minutes."
    assert 170 < int(right["Retry-After"]) <= 180
    client.force_login(player)
    page = client.post("/accounts/delete/", {"password": PASSWORD})
    assert page.status_code == 200 and b"Too many password tries. Try again in 3 minutes." in page.content
    assert User.objects.filter(pk=player.pk).exists()
    clock.now += 181  # five minutes after the first guesses: the player may confirm again
    assert api.delete("/api/account/", {"password": PASSWORD}, format="json").status_code == 204


def test_changing_the_password_is_no_oracle_for_a_loop_either(client, player, clock):
    client.force_login(player)
    change = {"password1": "N3w-pass!x", "password2": "N3w-pass!x"}
    tries = [
        client.post("/accounts/password/change/", {"oldpassword": f"guess-{n}", **change}) for n in range(5)
    ]
    assert [answer.status_code for answer in tries] == [200] * 5  # the form, with its error
    clock.now += 120
    assert client.post("/accounts/password/change/", {"oldpassword": PASSWORD, **change}).status_code == 429
    assert User.objects.get(pk=player.pk).check_password(PASSWORD)


def test_deleting_removes_the_player_and_detaches_their_results(api, player, make_player):
    submission = a_result(player)
    game_issue(user=player, count=2)
    other = make_player("bob")
    kept = a_result(other)

    response = api.delete("/api/account/", {"password": PASSWORD}, format="json")

    assert response.status_code == 204
    assert not User.objects.filter(pk=player.pk).exists()
    submission.refresh_from_db()
    assert submission.user_id is None  # an anonymous total
    assert IssuedGame.objects.filter(user_id=player.pk).count() == 0
    assert api.get("/api/account/").status_code == 403  # signed out
    stranger = APIClient()
    stranger.force_login(other)
    assert stranger.get(f"/api/submissions/{submission.pk}/").status_code == 404
    assert stranger.get(f"/api/submissions/{kept.pk}/").status_code == 200


def test_the_deletion_page(client, player):
    a_result(player)
    client.force_login(player)

    wrong = client.post("/accounts/delete/", {"password": "wrong"})
    right = client.post("/accounts/delete/", {"password": PASSWORD})

    assert wrong.status_code == 200 and b"That is not your password." in wrong.content
    assert right.status_code == 200 and b"Your account is deleted" in right.content
    assert not User.objects.filter(username="alice").exists()
    assert Submission.objects.get().user is None


@pytest.fixture
def staff(client, make_player):
    admin = make_player("admin", is_staff=True, is_superuser=True)
    client.force_login(admin)
    return client


def add_user(staff, **fields):
    form = {"username": "newcomer", "usable_password": "true", "password1": PASSWORD, "password2": PASSWORD}
    return staff.post("/admin/accounts/user/add/", {**form, **fields})


def test_staff_adding_a_user_gives_a_display_name_or_the_username(staff):
    assert add_user(staff, display_name="New_Star").status_code == 302
    assert User.objects.get(username="newcomer").display_name == "New_Star"

    assert add_user(staff, username="quiet_one").status_code == 302
    assert User.objects.get(username="quiet_one").display_name == "quiet_one"


def test_staff_adding_a_user_cannot_take_a_display_name_in_use(staff, player):
    response = add_user(staff, display_name=player.display_name.upper())

    assert response.status_code == 200  # the form again, with the error
    assert "That display name is taken." in response.content.decode()
    assert not User.objects.filter(username="newcomer").exists()


def test_staff_suspend_a_player_with_a_reason_and_lift_it(staff, player):
    response = staff.post(
        "/admin/accounts/user/",
        {"action": "suspend_players", "_selected_action": [player.pk], "reason": "impossible times"},
    )

    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.is_suspended, player.suspension_reason) == (True, "impossible times")
    assert player.suspended_at is not None

    staff.post("/admin/accounts/user/", {"action": "unsuspend_players", "_selected_action": [player.pk]})
    player.refresh_from_db()
    assert (player.is_suspended, player.suspension_reason) == (False, "")


def test_a_suspended_player_sees_why(api, player):
    user_suspend(user=player, reason="bot play")

    assert api.get("/api/account/").json()["suspension_reason"] == "bot play"


def test_staff_void_and_reverify_results(staff, player):
    from games.submissions.settle import submission_verify

    submission = submission_verify(submission_id=a_result(player).pk)

    staff.post("/admin/games/submission/", {"action": "void", "_selected_action": [submission.pk]})
    submission.refresh_from_db()
    assert submission.voided is True
    response = staff.post(
        "/admin/games/submission/", {"action": "reverify", "_selected_action": [submission.pk]}, follow=True
    )
    assert b"Re-verified 1; 0 verdict(s) changed." in response.content
    assert staff.get("/admin/games/submission/?status__exact=verified&reason_code=").status_code == 200


def test_staff_deleting_a_player_detaches_their_results(staff, player):
    submission = a_result(player)

    response = staff.post(
        "/admin/accounts/user/", {"action": "delete_selected", "_selected_action": [player.pk], "post": "yes"}
    )

    assert response.status_code == 302
    assert not User.objects.filter(pk=player.pk).exists()
    submission.refresh_from_db()
    assert submission.user_id is None
