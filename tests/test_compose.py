"""docker-compose.yml and the Dockerfile, read as data: no Docker engine runs on these machines."""

import re
from pathlib import Path

import pytest
import yaml

PROJECT_DIR = Path(__file__).resolve().parent.parent
SERVICES = {"postgres", "redis", "web", "ws", "worker", "solver", "hints", "fairplay", "beat"}
APP_SERVICES = {"web", "ws", "worker", "solver", "hints", "fairplay", "beat"}


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())


def words(command) -> str:
    return command if isinstance(command, str) else " ".join(command)


def test_the_stack_has_its_nine_services(compose):
    assert set(compose["services"]) == SERVICES


def test_every_service_runs_something(compose):
    for name, service in compose["services"].items():
        assert "image" in service or "build" in service, name
        if name in APP_SERVICES:
            assert service["build"] == "."
            assert service["command"], name


def test_data_lives_in_named_volumes(compose):
    declared = set(compose["volumes"])
    for name in ("postgres", "redis"):
        mounts = compose["services"][name]["volumes"]
        assert mounts, name
        for mount in mounts:
            source = mount.split(":")[0]
            assert source in declared, f"{name} mounts {source}, which is not a named volume"


def test_redis_persists_and_never_evicts(compose):
    command = words(compose["services"]["redis"]["command"])

    assert "--appendonly yes" in command
    assert "--maxmemory-policy noeviction" in command


def test_servers_have_health_checks_and_apps_wait_for_them(compose):
    services = compose["services"]
    for name in ("postgres", "redis", "web", "ws", "worker", "solver"):
        assert services[name]["healthcheck"]["test"], name
    for name in APP_SERVICES:
        depends = services[name]["depends_on"]
        for dependency in ("postgres", "redis"):
            assert depends[dependency]["condition"] == "service_healthy"
            assert "healthcheck" in services[dependency]


def test_apps_run_in_production_mode_against_postgres_and_redis(compose):
    for name in APP_SERVICES:
        environment = compose["services"][name]["environment"]
        assert environment["DEBUG"] == "0"
        assert environment["DATABASE_URL"].startswith("postgres://")
        assert environment["DATABASE_URL"].endswith("@postgres:5432/yukon")
        assert environment["REDIS_URL"].startswith("redis://redis:6379/")
        assert environment["SECRET_KEY"].startswith("${SECRET_KEY:?"), "never a default secret key"


def test_each_app_service_starts_its_own_process(compose):
    services = compose["services"]
    assert "gunicorn" in words(services["web"]["command"])
    assert "manage.py migrate" in words(services["web"]["command"])
    assert "celery -A yukon_site worker" in words(services["worker"]["command"])
    assert "celery -A yukon_site beat" in words(services["beat"]["command"])
    assert "/healthz" in words(services["web"]["healthcheck"]["test"])


def test_the_solver_worker_takes_only_its_queue_one_task_at_a_time(compose):
    services = compose["services"]
    solver = words(services["solver"]["command"])

    assert "celery -A yukon_site worker -Q solver -c 1" in solver
    assert "--hostname solver@%h" in solver
    assert "--destination solver@$$HOSTNAME" in words(services["solver"]["healthcheck"]["test"])
    assert "-Q" not in words(services["worker"]["command"])  # the default queue only: verification


def test_hints_have_a_worker_of_their_own_one_search_at_a_time(compose):
    services = compose["services"]

    assert "celery -A yukon_site worker -Q hints -c 1" in words(services["hints"]["command"])
    assert "--destination hints@$$HOSTNAME" in words(services["hints"]["healthcheck"]["test"])


def test_fair_play_has_a_worker_of_its_own_one_analysis_at_a_time(compose):
    services = compose["services"]

    assert "celery -A yukon_site worker -Q fairplay -c 1" in words(services["fairplay"]["command"])
    assert "--destination fairplay@$$HOSTNAME" in words(services["fairplay"]["healthcheck"]["test"])


def test_the_dockerfile_installs_the_pins_and_runs_unprivileged():
    dockerfile = (PROJECT_DIR / "Dockerfile").read_text()

    assert re.search(r"^FROM python:3\.11", dockerfile, re.MULTILINE)
    assert "pip install -r requirements.txt" in dockerfile
    assert "collectstatic" in dockerfile
    assert re.search(r"^USER (?!root)", dockerfile, re.MULTILINE)


def test_local_secrets_stay_out_of_the_image():
    ignored = (PROJECT_DIR / ".dockerignore").read_text().split()

    for path in (".secret_key", ".env", ".venv", ".git"):
        assert path in ignored


def resolved(value: str, given: dict[str, str]) -> str:
    """A compose value with its ${NAME:-default} and ${NAME:?message} filled as compose would,
    from `given` (the variables set), else the default."""

    def fill(match: re.Match) -> str:
        name, kind, rest = match.group(1), match.group(2), match.group(3)
        if name in given:
            return given[name]
        assert kind == ":-", f"${{{name}}} has no default and is not given"
        return rest

    return re.sub(r"\$\{(\w+)(:-|:\?)([^}]*)\}", fill, str(value))


def test_the_stack_is_secure_behind_a_tls_proxy_by_default(compose):
    for name in APP_SERVICES:
        environment = compose["services"][name]["environment"]
        assert resolved(environment["HTTPS"], {}) == "1"
        assert resolved(environment["BEHIND_TLS_PROXY"], {}) == "1"
        assert resolved(environment["HTTPS"], {"HTTPS": "0"}) == "0"  # the local override


def test_check_deploy_is_clean_on_the_stacks_settings(compose):
    """`manage.py check --deploy` with the web service's environment as compose gives it (the
    defaults, a SECRET_KEY as README makes one, a public host name): no warning at all."""
    import os
    import secrets
    import subprocess
    import sys

    given = {"SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "yukon.example",
             "CSRF_TRUSTED_ORIGINS": "https://yukon.example"}  # fmt: skip
    environment = {
        name: resolved(value, given) for name, value in compose["services"]["web"]["environment"].items()
    }
    keep = {"PATH", "HOME", "LANG", "VIRTUAL_ENV"}
    env = {name: value for name, value in os.environ.items() if name in keep} | environment
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout, result.stdout


def test_the_websockets_run_in_their_own_asgi_process(compose):
    """Races' sockets on Daphne beside gunicorn, so the HTTP figures stay those of gunicorn."""
    assert words(compose["services"]["ws"]["command"]).startswith("daphne ")
    assert "yukon_site.asgi:application" in words(compose["services"]["ws"]["command"])
    assert "gunicorn" in words(compose["services"]["web"]["command"])
