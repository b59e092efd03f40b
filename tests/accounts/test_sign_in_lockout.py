"""The sign-in lockout (django-allauth's failed sign-in rate limit): the refusal says how long to
wait, from allauth's own window, in the page's language, and reads the same whether or not an
account has the login typed."""

from __future__ import annotations

import pytest
from accounts_helpers import PASSWORD
from allauth.core.internal.ratelimit import Rate, get_rates
from django.conf import settings
from django.utils import translation

from accounts.lockout import login_lockout_message, seconds_until_allowed, whole_minutes

WRONG_PASSWORD = "not-the-pass-phrase"
MISMATCH = "The username and/or password you specified are not correct."
PER_LOGIN = Rate(5, 300, "key")


def test_the_site_signs_in_through_its_own_adapter():
    # Only then does a locked sign-in say how long to wait (accounts/adapter.py).
    assert getattr(settings, "ACCOUNT_ADAPTER", None) == "accounts.adapter.AccountAdapter"


def test_the_window_read_is_allauths_failed_sign_in_limit():
    # The defaults the refusal's wait comes from: 10 a minute per address, 5 in 5 minutes per login.
    assert get_rates(app="allauth.account", action="login_failed") == [Rate(10, 60, "ip"), PER_LOGIN]


# --- the wait, from the failure times -------------------------------------------------------------


@pytest.mark.parametrize(
    ("failures", "now", "seconds"),
    [
        ([], 1000.0, 0.0),
        ([990.0, 980.0, 970.0, 960.0], 1000.0, 0.0),  # four: one more may fail
        ([990.0, 980.0, 970.0, 960.0, 950.0], 1000.0, 250.0),  # five: until the first leaves
        ([950.0, 960.0, 970.0, 980.0, 990.0], 1000.0, 250.0),  # in any order
        ([990.0, 980.0, 970.0, 960.0, 950.0, 600.0], 1000.0, 250.0),  # one already out of the window
        ([995.0, 990.0, 980.0, 970.0, 960.0, 950.0], 1000.0, 260.0),  # six: until two have left
        ([990.0, 980.0, 970.0, 960.0, 700.0], 1000.0, 0.0),  # the oldest left exactly now
    ],
)
def test_the_wait_is_until_the_window_has_room_for_one_more(failures, now, seconds):
    assert seconds_until_allowed(failures, rate=PER_LOGIN, now=now) == pytest.approx(seconds)


@pytest.mark.parametrize(
    ("seconds", "minutes"), [(0, 1), (1, 1), (59.5, 1), (60, 1), (61, 2), (240, 4), (299.9, 5)]
)
def test_the_wait_is_said_in_whole_minutes_rounded_up(seconds, minutes):
    assert whole_minutes(seconds) == minutes


@pytest.mark.parametrize(
    ("language", "seconds", "said"),
    [
        ("en", 45, "Too many failed sign-ins. Try again in a minute."),
        ("en", 240, "Too many failed sign-ins. Try again in 4 minutes."),
        ("ms", 45, "Terlalu banyak log masuk yang gagal. Cuba lagi dalam seminit."),
        ("ms", 240, "Terlalu banyak log masuk yang gagal. Cuba lagi dalam 4 minit."),
        ("hi", 45, "साइन इन की बहुत-सी कोशिशें विफल रहीं। एक मिनट बाद फिर से कोशिश करें।"),
        ("hi", 240, "साइन इन की बहुत-सी कोशिशें विफल रहीं। 4 मिनट बाद फिर से कोशिश करें।"),
        ("tl", 45, "Masyadong maraming nabigong pag-sign in. Subukang muli pagkalipas ng isang minuto."),
        ("tl", 240, "Masyadong maraming nabigong pag-sign in. Subukang muli pagkalipas ng 4 na minuto."),
    ],
)
def test_the_refusal_is_worded_in_each_language(language, seconds, said):
    with translation.override(language):
        assert login_lockout_message(seconds) == said


# --- through the sign-in page ---------------------------------------------------------------------


def sign_in(client, login: str, password: str, **headers):
    return client.post("/accounts/login/", {"login": login, "password": password}, **headers)


def refusal(response) -> str:
    assert response.status_code == 200, "signed in"
    return " ".join(response.context["form"].non_field_errors())


def fail_five_times(client, clock, login: str, *, seconds_apart: float = 10) -> list[str]:
    said = []
    for _ in range(5):
        said.append(refusal(sign_in(client, login, WRONG_PASSWORD)))
        clock.now += seconds_apart
    return said


@pytest.mark.django_db
def test_after_five_failures_the_right_password_is_refused_with_the_time_left(client, player, clock):
    assert fail_five_times(client, clock, "alice") == [MISMATCH] * 5  # at 0, 10, … 40 s

    # 50 s after the first failure: 250 s left
    assert refusal(sign_in(client, "alice", PASSWORD)) == "Too many failed sign-ins. Try again in 5 minutes."
    clock.now += 80  # 170 left
    assert refusal(sign_in(client, "alice", PASSWORD)) == "Too many failed sign-ins. Try again in 3 minutes."
    clock.now += 130  # 40 left
    assert refusal(sign_in(client, "alice", PASSWORD)) == "Too many failed sign-ins. Try again in a minute."
    assert "_auth_user_id" not in client.session

    clock.now += 40  # the first failure leaves the window
    assert sign_in(client, "alice", PASSWORD).status_code == 302
    assert client.session["_auth_user_id"] == str(player.pk)


@pytest.mark.django_db
def test_a_wrong_password_during_the_lockout_reads_as_the_right_one(client, player, clock):
    fail_five_times(client, clock, "alice@example.com")

    right, wrong = (
        refusal(sign_in(client, "alice@example.com", password)) for password in (PASSWORD, WRONG_PASSWORD)
    )

    assert right == wrong == "Too many failed sign-ins. Try again in 5 minutes."


@pytest.mark.django_db
@pytest.mark.parametrize("login", ["alice", "alice@example.com"])
def test_an_unknown_login_is_locked_out_in_the_same_words_as_an_account(client, player, clock, login):
    unknown = login.replace("alice", "nobody")
    said = {}
    for typed in (login, unknown):
        start = clock.now
        said[typed] = fail_five_times(client, clock, typed)
        said[typed].append(refusal(sign_in(client, typed, PASSWORD)))
        clock.now = start + 301  # the next login's attempts in a window of their own

    assert said[login] == said[unknown]
    assert said[unknown][-1] == "Too many failed sign-ins. Try again in 5 minutes."


@pytest.mark.django_db
def test_ten_failures_from_one_address_lock_it_for_the_rest_of_the_minute(client, player, clock):
    for number in range(10):
        assert refusal(sign_in(client, f"someone{number}", WRONG_PASSWORD)) == MISMATCH
        clock.now += 2  # the tenth at 18 s: 42 s left of the address's minute

    assert refusal(sign_in(client, "alice", PASSWORD)) == "Too many failed sign-ins. Try again in a minute."


@pytest.mark.django_db
def test_the_refusal_is_in_the_pages_language(client, player, clock):
    fail_five_times(client, clock, "alice", seconds_apart=30)  # at 0, 30, … 120 s; now 150 s: 150 left

    response = sign_in(client, "alice", PASSWORD, HTTP_ACCEPT_LANGUAGE="ms")

    assert response["Content-Language"] == "ms"
    assert refusal(response) == "Terlalu banyak log masuk yang gagal. Cuba lagi dalam 3 minit."
