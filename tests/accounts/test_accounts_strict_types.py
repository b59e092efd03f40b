"""/api/account/ takes texts as JSON strings only: DRF's CharField would store 1234 as "1234"."""

from __future__ import annotations

import pytest
from accounts_helpers import PASSWORD
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value", [1234, 12345.5, True, ["abcd"]])
def test_a_display_name_that_is_not_a_string_is_refused(api, player, value):
    response = api.patch("/api/account/", {"display_name": value}, format="json")

    assert response.status_code == 400
    assert list(response.json()) == ["display_name"]
    player.refresh_from_db()
    assert player.display_name == "alice"


def test_a_display_name_of_digits_sent_as_a_string_is_taken(api, player):
    response = api.patch("/api/account/", {"display_name": "1234"}, format="json")

    assert response.status_code == 200
    player.refresh_from_db()
    assert player.display_name == "1234"


def test_a_password_that_is_not_a_string_is_refused(make_player):
    numeric = make_player("bob")  # a password of digits: DRF would compare 8675309123 as "8675309123"
    numeric.set_password("8675309123")
    numeric.save()
    client = APIClient()
    client.force_login(numeric)

    response = client.delete("/api/account/", {"password": 8675309123}, format="json")

    assert response.status_code == 400
    assert list(response.json()) == ["password"]
    assert User.objects.filter(pk=numeric.pk).exists()


def test_the_password_as_a_string_deletes_the_account(api, player):
    response = api.delete("/api/account/", {"password": PASSWORD}, format="json")

    assert response.status_code == 204
