"""Outages for real (docs/operations.md, "What happens when…"): the site's processes — gunicorn,
a Celery worker and beat, as `make stack` starts them — run on a Redis and a PostgreSQL this
test starts itself on spare ports, which it stops and starts again. The machine's own services
are never touched.

- Redis stopped: players sign in, get games, send results (2xx); the boards answer from
  PostgreSQL; /healthz says Redis is down. Once Redis is back the result is verified, once.
- PostgreSQL stopped: every /api/ answer is JSON, 503 with Retry-After and a code; a result the
  page sends again once PostgreSQL is back is stored and verified once: nothing lost.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import uuid
from datetime import UTC, datetime
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.parse import urlencode, urlparse, urlunparse
from urllib.request import HTTPCookieProcessor, Request, build_opener

import pytest
from factories import free_port
from waiting import wait_for

pytestmark = pytest.mark.stack

PROJECT_DIR = Path(__file__).resolve().parents[1]
PASSWORD = "a-long-pass-phrase"
WIN = next(
    case
    for case in json.loads((PROJECT_DIR / "games/solver/fixtures/winning_logs.json").read_text())
    if case["code"].startswith("YU1-C-")
)
SETTLE_S = 60


# --- Servers of the test's own -------------------------------------------------------------------------


class OwnRedis:
    """`redis-server` on a spare port, without persistence: stopped, it loses its data, as a
    Redis that crashed and came back empty (the harder case: Celery's queue is gone too)."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                   "--appendonly", "no", "--dir", str(self.directory)]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        wait_for(self._answers, 10, f"redis-server on {self.port}")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


class OwnPostgres:
    """A PostgreSQL cluster of the test's own (initdb) on a spare port, trust authentication.
    PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user."""

    def __init__(self) -> None:
        self.port = free_port()
        self.directory = Path(tempfile.mkdtemp(prefix="yukon-outage-pg-"))
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/yukon"
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres", "postgres")

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_postgres, *command], check=True, capture_output=True, timeout=60)

    def create(self) -> None:
        self._run("initdb", "-D", str(self.directory / "data"), "-U", "postgres", "--auth=trust", "--no-sync")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "yukon")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.directory / "data"), "-o", options, "-l",
                  str(self.directory / "log"), "-w", "start")  # fmt: skip

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass  # already stopped
        shutil.rmtree(self.directory, ignore_errors=True)


def machine_database(name: str) -> str:
    """A fresh database of the test's own on the machine's PostgreSQL (DATABASE_URL's server)."""
    import psycopg

    given = urlparse(os.environ["DATABASE_URL"])
    maintenance = urlunparse(given._replace(scheme="postgresql", path="/postgres", query=""))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    return urlunparse(given._replace(path=f"/{name}", query=""))


# --- The site's processes ---------------------------------------------------------------------------


class Site:
    """gunicorn, a Celery worker and beat on `database_url` and `redis_url`, the sweeper every 2 s
    for results pending 3 s (instead of every minute for 2 minutes), all else as shipped."""

    def __init__(self, *, database_url: str, redis_url: str, log_dir: Path) -> None:
        keep = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV"}
        self.env = {name: value for name, value in os.environ.items() if name in keep}
        self.env.update({
            "DATABASE_URL": database_url, "REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1",
            "SUBMISSION_SWEEP_INTERVAL_SECONDS": "2", "SUBMISSION_SWEEP_AFTER_SECONDS": "3",
        })  # fmt: skip
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_dir = log_dir
        self.processes: list[subprocess.Popen] = []

    def start(self) -> None:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=PROJECT_DIR,
                       env=self.env, check=True, timeout=120)  # fmt: skip
        python = [sys.executable, "-m"]
        self._spawn("web", [*python, "gunicorn", "-c", "python:yukon_site.gunicorn_conf", "yukon_site.wsgi"],
                    GUNICORN_BIND=f"127.0.0.1:{self.port}", WEB_CONCURRENCY="2")  # fmt: skip
        worker = f"outage-{uuid.uuid4().hex[:6]}@%h"
        self._spawn("worker", [*python, "celery", "-A", "yukon_site", "worker", "-c", "1",
                               "--loglevel", "INFO", "--hostname", worker])  # fmt: skip
        self._spawn("beat", [*python, "celery", "-A", "yukon_site", "beat", "--loglevel", "INFO",
                             "--schedule", str(self.log_dir / "beat-schedule")])  # fmt: skip
        wait_for(self._answers, 60, f"gunicorn on {self.port}\n{self.logs()}")

    def _spawn(self, name: str, command: list[str], **extra: str) -> None:
        log = (self.log_dir / f"{name}.log").open("a")
        process = subprocess.Popen(command, cwd=PROJECT_DIR, env={**self.env, **extra}, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        self.processes.append(process)

    def _answers(self) -> bool:
        try:
            build_opener().open(f"{self.url}/healthz", timeout=5)
        except HTTPError:
            return True  # 503 while a part is missing: the web answers
        except (URLError, OSError):
            return False
        return True

    def stop(self) -> None:
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        for process in self.processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text()[-3000:]}" for path in self.log_dir.glob("*.log")
        )


class Browser:
    """What a page does over HTTP: a cookie jar, the CSRF token from its cookie, JSON both ways."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = build_opener(HTTPCookieProcessor(self.cookies))

    def csrf(self) -> str:
        return next((cookie.value for cookie in self.cookies if cookie.name == "csrftoken"), "")

    def call(self, method: str, path: str, *, json_body=None, form=None):
        """(status, headers, JSON body or text)."""
        headers = {"X-CSRFToken": self.csrf(), "Referer": f"{self.base_url}/"}
        data = None
        if json_body is not None:
            data, headers["Content-Type"] = json.dumps(json_body).encode(), "application/json"
        if form is not None:
            form = {**form, "csrfmiddlewaretoken": self.csrf()}
            data, headers["Content-Type"] = urlencode(form).encode(), "application/x-www-form-urlencoded"
        request = Request(self.base_url + path, data=data, headers=headers, method=method)
        try:
            with self.opener.open(request, timeout=30) as answer:
                status, answer_headers, content = answer.status, answer.headers, answer.read()
        except HTTPError as error:
            status, answer_headers, content = error.code, error.headers, error.read()
        text = content.decode()
        is_json = answer_headers.get("Content-Type", "").startswith("application/json")
        return status, answer_headers, json.loads(text) if is_json else text

    def sign_up(self, username: str) -> None:
        self.call("GET", "/accounts/signup/")
        status, _, _ = self.call("POST", "/accounts/signup/", form={
            "username": username, "email": f"{username}@example.com",
            "password1": PASSWORD, "password2": PASSWORD,
        })  # fmt: skip
        assert status == 200, status  # redirected to the page that follows

    def sign_in(self, username: str) -> int:
        self.cookies.clear()
        self.call("GET", "/accounts/login/")
        status, _, _ = self.call("POST", "/accounts/login/", form={"login": username, "password": PASSWORD})
        return status


def a_result(code: str = WIN["code"], log: str = WIN["log"]) -> dict:
    """An unranked win on a code, as the page sends it: 250 ms a move."""
    times = [250 * index for index in range(len(log.split()))]
    return {
        "client_id": str(uuid.uuid4()), "code": code, "log": log, "move_times_ms": times,
        "duration_ms": times[-1] + 400, "finished_at": datetime.now(UTC).isoformat(),
        "client_version": "outage",
    }  # fmt: skip


def settled(browser: Browser, submission_id: int) -> dict | None:
    status, _, data = browser.call("GET", f"/api/submissions/{submission_id}/")
    return data if status == 200 and data["status"] != "pending" else None


@pytest.fixture
def log_dir(tmp_path) -> Path:
    return tmp_path


def test_with_redis_down_players_sign_in_play_and_send_and_their_result_counts_once_redis_is_back(log_dir):
    redis = OwnRedis(log_dir)
    redis.start()
    site = Site(database_url=machine_database("yukon_outage_redis"), redis_url=redis.url, log_dir=log_dir)
    try:
        site.start()
        browser = Browser(site.url)
        browser.sign_up("rosa")

        redis.stop()
        signed_in = browser.sign_in("rosa")
        issued = browser.call("POST", "/api/games/", json_body={"rules": "classic"})
        sent = browser.call("POST", "/api/submissions/", json_body=a_result())
        board = browser.call("GET", "/api/leaderboards/?rules=classic")
        health = browser.call("GET", "/healthz")
        redis.start()  # empty: the queue, the cache and the boards' index are gone
        verdict = wait_for(lambda: settled(browser, sent[2]["id"]), SETTLE_S, "the result settled")

        assert signed_in == 200, signed_in
        assert issued[0] == 201, issued
        assert sent[0] == 202, sent
        assert board[0] == 200, board
        assert health[0] == 503 and "cache" in health[2]["failing"], health
        assert (verdict["status"], verdict["won"]) == ("verified", True), verdict
        status, _, mine = browser.call("GET", "/api/submissions/")
        assert [row["id"] for row in mine["results"]] == [sent[2]["id"]]  # once
    except BaseException:
        print(site.logs())
        raise
    finally:
        site.stop()
        redis.stop()


def test_with_postgresql_down_the_api_answers_json_503_and_a_result_sent_again_is_kept_once(log_dir):
    if shutil.which("initdb") is None or shutil.which("pg_ctl") is None:
        pytest.fail("PostgreSQL's initdb and pg_ctl are needed (Debian: postgresql)")
    postgres = OwnPostgres()
    redis = OwnRedis(log_dir)
    site = None
    try:
        postgres.create()
        redis.start()
        site = Site(database_url=postgres.url, redis_url=redis.url, log_dir=log_dir)
        site.start()
        browser = Browser(site.url)
        browser.sign_up("tomas")
        result = a_result()

        postgres.stop()
        answers = {
            "me": browser.call("GET", "/api/me/"),
            "send": browser.call("POST", "/api/submissions/", json_body=result),
            "issue": browser.call("POST", "/api/games/", json_body={"rules": "classic"}),
            "board": browser.call("GET", "/api/leaderboards/?rules=classic"),
        }
        postgres.start()

        def send_again():  # as the page's outbox does after a 503
            answer = browser.call("POST", "/api/submissions/", json_body=result)
            return answer if answer[0] < 500 else None

        sent = wait_for(send_again, 30, "the result accepted once PostgreSQL is back")
        verdict = wait_for(lambda: settled(browser, sent[2]["id"]), SETTLE_S, "the result settled")
        again = browser.call("POST", "/api/submissions/", json_body=result)  # the page's retry, late

        for name, (status, headers, data) in answers.items():
            assert status == 503, (name, status, data)
            assert headers.get("Content-Type", "").startswith("application/json"), (name, headers)
            assert headers.get("Retry-After") == "5", name
            assert data["code"] == "database_unavailable", (name, data)
        assert sent[0] == 202, sent
        assert (verdict["status"], verdict["won"]) == ("verified", True), verdict
        assert again[0] in (200, 202) and again[2]["id"] == sent[2]["id"], again  # the same result
        status, _, mine = browser.call("GET", "/api/submissions/")
        assert [row["id"] for row in mine["results"]] == [sent[2]["id"]]  # once
    except BaseException:
        if site is not None:
            print(site.logs())
        raise
    finally:
        if site is not None:
            site.stop()
        redis.stop()
        postgres.remove()
