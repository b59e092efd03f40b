"""JSON types as strict as docs/api.md documents them: a UUID is a string, a boolean is true or
false, a text is a string. DRF would take 5 for a UUID (UUID(int=5)), 1 or "yes" for a boolean
and 1234 for a text."""

from __future__ import annotations

import pytest
from games_helpers import CLASSIC_WIN, body

from games.models import IssuedGame, Submission

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("client_id", 5),
        ("client_id", 0),
        ("client_id", ["6f1c1b3e-3f4e-4c8e-9a57-0c2a1b1c9d10"]),
        ("assisted", 1),
        ("assisted", "yes"),
        ("assisted", "true"),
        ("log", 1234),
        ("client_version", 5),
    ],
)
def test_a_submission_field_of_the_wrong_json_type_is_refused(submit, field, value):
    data = body(log=CLASSIC_WIN["log"], code=CLASSIC_WIN["code"])
    data[field] = value

    response = submit(data)

    assert response.status_code == 400, response.json()
    assert list(response.json()) == [field]
    assert Submission.objects.count() == 0


def test_a_uuid_string_is_the_client_id(submit):
    data = body(log=CLASSIC_WIN["log"], code=CLASSIC_WIN["code"])

    assert submit(data).status_code == 202
    assert str(Submission.objects.get().client_id) == data["client_id"]


@pytest.mark.parametrize("value", [1, 0, "true", "yes", "on"])
def test_hidden_must_be_a_json_boolean(api, value):
    response = api.post("/api/games/", {"hidden": value}, format="json")

    assert response.status_code == 400
    assert list(response.json()) == ["hidden"]
    assert IssuedGame.objects.count() == 0


def test_hidden_false_issues_a_game_with_its_code(api):
    response = api.post("/api/games/", {"hidden": False}, format="json")

    assert response.status_code == 201
    assert "code" in response.json()[0]
