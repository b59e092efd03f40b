"""The API does what its schema (/api/schema/) says: a bounded Schemathesis run, signed out and
signed in, against the site's WSGI application in this process (SQLite, eager tasks).

Every answer is checked: no 5xx, every status code, content type, header and body as documented,
schema-valid requests accepted and schema-violating ones refused. A few operations check rules of
the game that no schema can state (whether a move is legal, a cursor is this board's, a game is
the player's); there a 400 to a schema-valid request is the documented refusal, in the fuzzing and
coverage phases; every example body of the schema must still be accepted (the last test).
Seeded and derandomized, so a run is the same every time; about a minute on two cores
(docs/api.md, "The schema")."""

from __future__ import annotations

import pytest
import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import negative_data_rejection

from accounts.models import User

pytestmark = pytest.mark.django_db

SEED = 20261202
# Examples per operation and mode (positive, negative) in the fuzzing phase; the coverage phase
# adds its own (boundaries, missing and wrong-typed fields) on top.
MAX_EXAMPLES = 15
# Wall time of one run (signed out or in) on a quiet two-core machine is well under this.
TIME_BUDGET_SECONDS = 150
CSRF_SECRET = "schemathesisschemathesisschemat1"  # 32 characters of the CSRF alphabet

# Operations that check rules of the game no schema can state: a 400 to a schema-valid request
# is their documented answer in the generated phases (the examples: the last test sends them).
GAME_RULES_OPERATIONS = [
    "submissions_create",  # a legal log, times that fit it, a game still open
    "games_reveal",  # a log that turns a card up and extends the recorded prefix
    "hint",  # a legal log on a readable deal
    "leaderboard_page",  # deals=daily needs period=day; a real week or day key; a cursor of this board
    "deal_leaderboard_page",  # a cursor of this board
    "account_update",  # a display name nobody has; at least one field
    "account_delete",  # the account's own password
    "result_report",  # a result one may watch, not one's own, not reported yet
    "review_appeal",  # a confirmed fair-play case of one's own, not appealed yet
]


def schemathesis_config(*, signed_in: bool, session_key: str = "") -> SchemathesisConfig:
    lenient = {
        "positive_data_acceptance": {"expected-statuses": ["2xx", "3xx", 400, 401, 403, 404, 409, 429]}
    }
    operations = [
        {
            "include-operation-id": operation_id,
            "phases": {"fuzzing": {"checks": lenient}, "coverage": {"checks": lenient}},
        }
        for operation_id in GAME_RULES_OPERATIONS
    ]
    config: dict = {
        "seed": SEED,
        "generation": {
            "deterministic": True,
            "max-examples": MAX_EXAMPLES,
            "database": "none",
            # Unknown query parameters are ignored, as unknown fields of a body (docs/api.md).
            "allow-extra-parameters": True,
        },
        "phases": {
            "examples": {"enabled": True},
            "coverage": {"enabled": True},
            "fuzzing": {"enabled": True},
        },
        "checks": {"enabled": True},
        "operations": operations,
        # The WSGI client hands over the body as sent: no compression to undo.
        "headers": {"Accept-Encoding": "identity"},
    }
    if signed_in:
        config["auth"] = {"openapi": {"cookieAuth": {"api_key": session_key}}}
        # The CSRF token: a cookie and the same value in the header, as the page sends it.
        config["headers"]["X-CSRFToken"] = CSRF_SECRET
    return SchemathesisConfig.from_dict(config)


@pytest.fixture(autouse=True)
def _node_id_for_schemathesis(request):
    # Schemathesis 4.32 names each operation's subtest through `node._nodeid`, which pytest 9
    # no longer has; give it the node's id to read and rewrite.
    request.node._nodeid = request.node.nodeid


@pytest.fixture
def wsgi_app():
    """The site's WSGI application, inside the test's transaction: Django would close the test's
    connection at each request's start and end (close_old_connections), as its own test client
    prevents too."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def short_hints(settings):
    # A hint searches for up to 2 s; the run wants the answers, not the search.
    settings.SOLVER_HINT_TIME_LIMIT = 0.05
    settings.SOLVER_HINT_MAX_NODES = 2000


@pytest.fixture
def signed_out_schema(wsgi_app, short_hints):
    return schemathesis.openapi.from_wsgi(
        "/api/schema/", wsgi_app, config=schemathesis_config(signed_in=False)
    )


@pytest.fixture
def signed_in_schema(wsgi_app, short_hints):
    player = User.objects.create_user("fuzzer", "fuzzer@example.com", "a-long-pass-phrase")
    client = Client()
    client.force_login(player)
    session_key = client.cookies["sessionid"].value
    config = schemathesis_config(signed_in=True, session_key=session_key)
    return schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app, config=config)


signed_out = schemathesis.pytest.from_fixture("signed_out_schema")
signed_in = schemathesis.pytest.from_fixture("signed_in_schema")


def call_and_validate(case) -> None:
    """Send the case and run every check on the answer. A query with a name the operation does
    not declare is not a wrong request: unknown parameters are ignored, as unknown fields of a
    body are (docs/api.md), while Schemathesis's coverage phase expects them refused."""
    declared = {parameter.name for parameter in case.operation.query}
    unknown_names = set(case.query or {}) - declared
    case.call_and_validate(excluded_checks=[negative_data_rejection] if unknown_names else [])


@signed_out.parametrize()
def test_the_api_does_what_its_schema_says_signed_out(case):
    call_and_validate(case)


@signed_in.parametrize()
def test_the_api_does_what_its_schema_says_signed_in(case):
    case.cookies = {**(case.cookies or {}), "csrftoken": CSRF_SECRET}
    call_and_validate(case)


def request_examples() -> list[tuple[str, str, dict]]:
    """(method, path, body) of every request example of the schema, on a path without an id."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            for example in content.get("examples", {}).values():
                if "{" not in path:  # an id in the path would need a game of this example's deal
                    found.append((method, path, example["value"]))
    return found


def test_every_example_body_of_the_schema_is_accepted(short_hints):
    """The schema's examples are requests a client may copy: each is answered, never refused."""
    examples = request_examples()
    assert ("post", "/api/hint/") in [(method, path) for method, path, _ in examples]
    client = APIClient()
    client.force_login(User.objects.create_user("example", "example@example.com", "a-long-pass-phrase"))
    for method, path, body in examples:
        response = getattr(client, method)(path, body, format="json")
        assert 200 <= response.status_code < 300, (method, path, body, response.json())
