"""Sign up, sign in, sign out, passwords and e-mail (django-allauth), in the game's own layout."""

from __future__ import annotations

import re

import pytest
from accounts_helpers import PASSWORD
from allauth.account.models import EmailAddress
from django.core import mail

from accounts.models import User

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-pass-phrase"


def signup(client, **fields):
    data = {"username": "carol", "email": "carol@example.com", "password1": PASSWORD, "password2": PASSWORD}
    data.update(fields)
    return client.post("/accounts/signup/", data)


def form_errors(response) -> str:
    return " ".join(str(error) for error in response.context["form"].errors.values())


@pytest.mark.parametrize(
    ("url", "signed_in"),
    [("/accounts/login/", False), ("/accounts/signup/", False), ("/accounts/password/reset/", False),
     ("/accounts/logout/", True), ("/accounts/password/change/", True), ("/accounts/email/", True),
     ("/accounts/profile/", True), ("/accounts/delete/", True)],
)  # fmt: skip
def test_account_pages_use_the_game_layout_without_inline_script_or_style(client, player, url, signed_in):
    if signed_in:
        client.force_login(player)

    response = client.get(url)

    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="site-header"' in html and "Yukon Online" in html
    assert "/static/accounts/css/accounts.css" in html
    # Scripts come from files; a JSON data block (allauth's e-mail page) is never executed.
    assert not re.search(r"<script(?![^>]*\b(src=|type=\"application/json\"))", html), "inline script"
    assert not re.search(r"<style|\sstyle=", html), "inline style"
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_sign_up_with_a_display_name_signs_in_and_asks_to_confirm_the_email(client):
    response = signup(client, display_name="Carol_99")

    assert response.status_code == 302
    user = User.objects.get(username="carol")
    assert user.display_name == "Carol_99"
    assert client.get("/api/account/").json()["display_name"] == "Carol_99"
    (message,) = mail.outbox
    assert message.to == ["carol@example.com"]
    key_url = re.search(r"https?://[^/]+(/accounts/confirm-email/[^/\s]+/)", message.body).group(1)
    assert client.post(key_url).status_code == 302
    assert EmailAddress.objects.get(user=user).verified is True


def test_sign_up_without_a_display_name_uses_the_username(client):
    signup(client)

    assert User.objects.get(username="carol").display_name == "carol"


def test_a_display_name_taken_in_another_case_is_refused(client, make_player):
    make_player("dave", display_name="CarolX")

    response = signup(client, display_name="carolx")

    assert response.status_code == 200
    assert "That display name is taken." in form_errors(response)
    assert not User.objects.filter(username="carol").exists()


def test_a_username_taken_as_a_display_name_needs_a_display_name(client, make_player):
    make_player("dave", display_name="carol")

    response = signup(client)

    assert "Your username is taken as a display name: choose one." in form_errors(response)
    assert signup(client, display_name="carol2").status_code == 302


@pytest.mark.parametrize("username", ["ab", "c" * 21, "carol smith", "<b>carol</b>", "carol@home"])
def test_usernames_follow_the_display_name_rule(client, username):
    response = signup(client, username=username)

    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert User.objects.count() == 0


@pytest.mark.parametrize("login", ["alice", "alice@example.com"])
def test_sign_in_by_username_or_email_then_sign_out(client, player, login):
    response = client.post("/accounts/login/", {"login": login, "password": PASSWORD})

    assert response.status_code == 302
    assert client.get("/api/account/").status_code == 200
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/api/account/").status_code == 403


def test_failed_sign_ins_are_rate_limited(client, player):
    for _ in range(5):
        client.post("/accounts/login/", {"login": "alice", "password": "wrong"})

    response = client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})

    assert response.status_code == 200
    assert "Too many failed sign-ins. Try again in 5 minutes." in form_errors(response)


def test_sign_ups_are_rate_limited(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {"signup": "2/m/ip"}
    signup(client, username="one", email="one@example.com")
    client.logout()
    signup(client, username="two", email="two@example.com")
    client.logout()

    response = signup(client, username="three", email="three@example.com")

    assert response.status_code == 429
    assert User.objects.count() == 2


def test_password_reset_by_email(client, player):
    response = client.post("/accounts/password/reset/", {"email": "alice@example.com"})

    assert response.status_code == 302
    (message,) = mail.outbox
    reset_url = re.search(r"https?://[^/]+(/accounts/password/reset/key/\S+/)", message.body).group(1)
    form_url = client.get(reset_url).url  # allauth moves the key into the session
    done = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)


def test_password_change(client, player):
    client.force_login(player)

    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)


def test_the_account_page_changes_the_display_name(client, player):
    client.force_login(player)

    response = client.post("/accounts/profile/", {"display_name": "Alice-2"}, follow=True)

    assert response.status_code == 200
    assert b"Your display name is saved." in response.content
    assert b"Alice-2" in response.content
    player.refresh_from_db()
    assert player.display_name == "Alice-2"


def test_the_account_page_refuses_a_bad_display_name_escaped(client, player):
    client.force_login(player)

    response = client.post("/accounts/profile/", {"display_name": "<i>x</i>"})

    assert response.status_code == 200
    assert b"<i>x</i>" not in response.content
    assert b"&lt;i&gt;x&lt;/i&gt;" in response.content
    player.refresh_from_db()
    assert player.display_name == "alice"


def test_the_account_pages_need_a_signed_in_player(client):
    for url in ("/accounts/profile/", "/accounts/delete/"):
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith("/accounts/login/")
