"""The language on the account: /api/account/ reads and changes it, sign-in applies it to the pages."""

from __future__ import annotations

import pytest
from accounts_helpers import PASSWORD
from django.conf import settings
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def test_an_account_without_a_choice_reads_an_empty_language(api):
    response = api.get("/api/account/")

    assert response.status_code == 200
    assert response.json()["language"] == ""


@pytest.mark.parametrize("language", ["ms", "hi", "tl", "en"])
def test_the_language_is_changed_by_patch(api, player, language):
    response = api.patch("/api/account/", {"language": language}, format="json")

    assert response.status_code == 200
    assert response.json()["language"] == language
    assert response.json()["display_name"] == "alice"
    player.refresh_from_db()
    assert player.language == language
    assert api.get("/api/account/").json()["language"] == language


def test_an_empty_language_forgets_the_choice(api, player):
    api.patch("/api/account/", {"language": "hi"}, format="json")

    response = api.patch("/api/account/", {"language": ""}, format="json")

    assert response.status_code == 200
    assert response.json()["language"] == ""
    player.refresh_from_db()
    assert player.language == ""


@pytest.mark.parametrize("language", ["xx", "fil", "EN", "ms-MY", 7])
def test_an_unsupported_language_is_refused_naming_the_field(api, player, language):
    api.patch("/api/account/", {"language": "tl"}, format="json")

    response = api.patch("/api/account/", {"language": language}, format="json")

    assert response.status_code == 400
    assert response.json() == {"language": [f'"{language}" is not a valid choice.']}
    player.refresh_from_db()
    assert player.language == "tl"


def test_display_name_and_language_change_together(api, player):
    response = api.patch("/api/account/", {"display_name": "Ratu_Kelab", "language": "ms"}, format="json")

    assert response.status_code == 200
    assert (response.json()["display_name"], response.json()["language"]) == ("Ratu_Kelab", "ms")
    player.refresh_from_db()
    assert (player.display_name, player.language) == ("Ratu_Kelab", "ms")


def test_a_refused_display_name_leaves_the_language_unchanged(api, player, make_player):
    make_player("bob")

    response = api.patch("/api/account/", {"display_name": "BOB", "language": "hi"}, format="json")

    assert response.status_code == 400
    assert response.json() == {"display_name": ["That display name is taken."]}
    player.refresh_from_db()
    assert (player.display_name, player.language) == ("alice", "")


def test_a_patch_with_nothing_to_change_is_refused(api):
    response = api.patch("/api/account/", {}, format="json")

    assert response.status_code == 400
    assert response.json() == {"non_field_errors": ["Send display_name, language or both."]}


def test_signed_out_cannot_set_a_language(player):
    response = APIClient().patch("/api/account/", {"language": "ms"}, format="json")

    assert response.status_code == 403
    assert "detail" in response.json()
    player.refresh_from_db()
    assert player.language == ""


def test_the_language_patch_needs_the_csrf_token(player):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(player)

    response = client.patch("/api/account/", {"language": "ms"}, format="json")

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    player.refresh_from_db()
    assert player.language == ""


# ---- server pages --------------------------------------------------------------------------


def test_sign_in_applies_the_accounts_language_to_the_pages(client, make_player):
    make_player("siti", language="ms")
    client.cookies[COOKIE] = "en"  # this browser was English before

    response = client.post("/accounts/login/", {"login": "siti", "password": PASSWORD})

    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "ms"
    assert response.cookies[COOKIE]["max-age"] == settings.LANGUAGE_COOKIE_AGE
    page = client.get("/help")
    assert page.status_code == 200
    assert '<html lang="ms">' in page.content.decode()
    assert "Log keluar" in page.content.decode()  # "Sign out" in the header


def test_sign_in_to_an_account_without_a_language_keeps_the_browsers(client, make_player):
    make_player("maria")
    client.cookies[COOKIE] = "tl"

    response = client.post("/accounts/login/", {"login": "maria", "password": PASSWORD})

    assert response.status_code == 302
    assert COOKIE not in response.cookies
    assert '<html lang="tl">' in client.get("/help").content.decode()


def test_a_signed_in_browser_without_the_cookie_gets_the_accounts_language(client, make_player):
    client.force_login(make_player("ravi", language="hi"))

    response = client.get("/help", headers={"accept-language": "en"})

    assert response.status_code == 200
    assert '<html lang="hi">' in response.content.decode()
    assert response.cookies[COOKIE].value == "hi"
    assert response["Content-Language"] == "hi"


def test_the_cookie_of_a_later_choice_wins_over_the_account(client, make_player):
    client.force_login(make_player("ravi", language="hi"))
    client.cookies[COOKIE] = "tl"

    response = client.get("/help")

    assert '<html lang="tl">' in response.content.decode()
    assert COOKIE not in response.cookies


def test_the_language_form_without_scripts_remembers_the_choice_on_the_account(client, player):
    client.force_login(player)

    response = client.post("/i18n/setlang/", {"language": "tl", "next": "/help"})

    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "tl"
    assert User.objects.get(pk=player.pk).language == "tl"


def test_the_language_form_signed_out_changes_only_the_cookie(client, player):
    response = client.post("/i18n/setlang/", {"language": "hi", "next": "/help"})

    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "hi"
    assert User.objects.get(pk=player.pk).language == ""
