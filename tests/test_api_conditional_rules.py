"""Rules between the fields of a request, as the schema states them (/api/schema/): a body the
schema takes is accepted, and a refusal of a rule the schema states names its field."""

from __future__ import annotations

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def operation(schema: dict, path: str, method: str) -> dict:
    return schema["paths"][path][method]


def body_fits(schema: dict, path: str, method: str, body: dict) -> bool:
    """Whether `body` is one the operation's request schema takes."""
    body_schema = operation(schema, path, method)["requestBody"]["content"]["application/json"]["schema"]
    return jsonschema.Draft7Validator({**body_schema, "components": schema["components"]}).is_valid(body)


@pytest.fixture
def player_client() -> APIClient:
    client = APIClient()
    client.force_login(User.objects.create_user("rules", "rules@example.com", "a-long-pass-phrase"))
    return client


def test_a_daily_board_needs_period_day_and_the_schema_says_so(client, schema):
    board = operation(schema, "/api/leaderboards/", "get")
    parameters = {parameter["name"]: parameter for parameter in board["parameters"]}

    assert "deals=daily" in parameters["period"]["description"], parameters["period"]
    assert "period=day" in parameters["deals"]["description"]
    assert "`period`" in board["responses"]["400"]["description"]
    response = client.get("/api/leaderboards/?rules=classic&deals=daily")
    assert response.status_code == 400
    assert list(response.json()) == ["period"]
    assert client.get("/api/leaderboards/?rules=classic&deals=daily&period=day").status_code == 200


@pytest.mark.parametrize(
    ("body", "fits", "status"),
    [
        ({"rules": "classic"}, False, 400),  # a race (the default kind) without its seats
        ({"rules": "classic", "kind": "race"}, False, 400),
        ({"rules": "classic", "seats": 2}, True, 201),
        ({"rules": "classic", "kind": "race", "seats": 6, "time_limit_minutes": 10}, True, 201),
        ({"rules": "classic", "kind": "challenge"}, True, 201),  # two players: no seats to say
        ({"rules": "relaxed", "kind": "challenge", "seats": 2}, True, 201),
    ],
)
def test_a_race_needs_its_seats_and_the_schema_says_so(player_client, schema, body, fits, status):
    assert body_fits(schema, "/api/races/", "post", body) is fits, f"the schema says {body} fits: {not fits}"
    response = player_client.post("/api/races/", body, format="json")
    assert response.status_code == status, response.json()
    if status == 400:
        assert list(response.json()) == ["seats"]


@pytest.mark.parametrize("body", [{"rules": "classic", "wait": ""}, {"rules": "classic"}])
def test_an_empty_wait_name_is_no_wait_name(player_client, schema, body):
    assert body_fits(schema, "/api/races/quick/", "post", body)
    response = player_client.post("/api/races/quick/", body, format="json")

    assert response.status_code == 200, response.json()
    assert response.json()["state"] == "waiting"
