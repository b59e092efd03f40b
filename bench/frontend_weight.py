"""What a first visit to the game costs, and how fast a move is drawn, in Chromium.

    python bench/frontend_weight.py                 # starts a production-like server itself
    python bench/frontend_weight.py --url http://127.0.0.1:8000   # or measures a running one

Without --url it collects the static files (hashed and compressed, as in production) into a
temporary folder and serves them with gunicorn and DEBUG=0. It reports:

- the bytes transferred for the first load of / (compressed bodies and headers, as on the
  wire): the page's own requests, and the service worker's install after it;
- time to interactive: navigation start → the table is playable (the `yukon:ready` mark);
- move → render over a 100-move scripted game played by taps and drags: p50/p99 of the
  `yukon:move` measures (the move handled and the DOM updated) and of `yukon:move-frame`
  (until the next animation frame, i.e. the frame that shows it).

Targets: first load ≤ 150 KB, no request to another host, a move drawn within one frame
(16.7 ms). Results also go to bench/results/frontend_weight.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import urlopen

PROJECT_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_DIR))
sys.path.insert(0, str(PROJECT_DIR / "tests" / "browser"))  # the gestures of the browser tests

from playwright.sync_api import sync_playwright  # noqa: E402

from games.engine import FOUNDATION, Game  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
CODE = "YU1-C-AAAAAAC"
MOVES = 100
SEED = 2026
BUDGET_BYTES = 150 * 1024
FRAME_MS = 1000 / 60
RESULTS = PROJECT_DIR / "bench" / "results" / "frontend_weight.json"


def scripted_game(code: str, moves: int, seed: int) -> list[str]:
    """`moves` legal moves from the deal, seeded: foundation moves first, else a random one."""
    rng = random.Random(seed)
    game = Game(code)
    tokens: list[str] = []
    while len(tokens) < moves:
        legal = list(game.legal_moves)
        home = [move for move in legal if move.dest == FOUNDATION]
        move = home[0] if home and rng.random() < 0.7 else rng.choice(legal)
        game.push(move)
        tokens.append(str(move))
    return tokens


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def production_server():
    """gunicorn with DEBUG=0 serving hashed, compressed static files from a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="yukon-bench-") as folder:
        port = free_port()
        env = {
            **os.environ,
            "DEBUG": "0",
            "HTTPS": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "STATIC_ROOT": str(Path(folder) / "static"),
            "DATABASE_URL": f"sqlite:///{Path(folder) / 'db.sqlite3'}",
            "GUNICORN_BIND": f"127.0.0.1:{port}",
            "WEB_CONCURRENCY": "1",
        }
        env.pop("REDIS_URL", None)
        python = sys.executable
        for command in ("collectstatic", "migrate"):
            command_line = [python, "manage.py", command, "--noinput", "-v", "0"]
            subprocess.run(command_line, cwd=PROJECT_DIR, env=env, check=True)
        log = open(Path(folder) / "gunicorn.log", "w")  # noqa: SIM115 - closed below
        server = subprocess.Popen(
            [python, "-m", "gunicorn", "-c", "python:yukon_site.gunicorn_conf", "yukon_site.wsgi"],
            cwd=PROJECT_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urlopen(f"{url}/healthz", timeout=2):
                        break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(f"the server did not start: see {log.name}") from None
                    time.sleep(0.3)
            yield url
        finally:
            server.terminate()
            server.wait(timeout=20)
            log.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure(url: str) -> dict:
    from helpers import READY, play_token, wait_for_moves  # the browser tests' gestures

    tokens = scripted_game(CODE, MOVES, SEED)
    origin = urlparse(url).netloc
    with urlopen(f"{url}/"):  # a warm server: its first request pays for lazy imports
        pass
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
        )
        context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
        page = context.new_page()
        problems = []  # uncaught errors and Content-Security-Policy violations
        page.on("pageerror", lambda error: problems.append(f"uncaught error: {error}"))
        page.on("console", lambda message: _note_csp(message, problems))
        context.add_init_script(REPORT_CSP)
        finished = []  # (url, bytes on the wire, from the service worker?)
        context.on("requestfinished", lambda request: finished.append(_finished(request)))
        page.goto(f"{url}/play/{CODE}", wait_until="load")
        page.wait_for_selector(READY)
        ready_ms = page.evaluate("() => performance.getEntriesByName('yukon:ready')[0].startTime")
        timing = page.evaluate(
            """() => {
                const nav = performance.getEntriesByType("navigation")[0];
                return {page_received_ms: nav.responseEnd, dom_ready_ms: nav.domContentLoadedEventEnd};
            }"""
        )
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_timeout(500)  # let the worker's last requests finish and be reported
        page_requests = [(u, size) for u, size, worker in finished if not worker]
        worker_requests = [(u, size) for u, size, worker in finished if worker]
        outside = [u for u, _, _ in finished if urlparse(u).netloc != origin]

        game = Game(CODE)
        for number, token in enumerate(tokens, start=1):
            play_token(page, game, token)
            wait_for_moves(page, number)
            page.wait_for_timeout(200)  # cards slide for 160 ms; the next gesture finds them at rest
        durations = "(name) => performance.getEntriesByName(name).map((measure) => measure.duration)"
        handled = page.evaluate(durations, "yukon:move")
        framed = page.evaluate(durations, "yukon:move-frame")
        browser.close()

    page_bytes = sum(size for _, size in page_requests)
    return {
        "url": url,
        "first_load": {
            "requests": len(page_requests),
            "bytes": page_bytes,
            "kilobytes": round(page_bytes / 1024, 1),
            "within_budget": page_bytes <= BUDGET_BYTES,
            "files": sorted(page_requests, key=lambda item: -item[1]),
        },
        "service_worker_install": {
            "requests": len(worker_requests),
            "bytes": sum(size for _, size in worker_requests),
        },
        "requests_to_other_hosts": outside,
        "page_problems": problems,
        "time_to_interactive_ms": round(ready_ms, 1),
        "navigation_ms": {name: round(value, 1) for name, value in timing.items()},
        "moves": len(handled),
        "move_render_ms": summary(handled),
        "move_to_frame_ms": summary(framed),
    }


REPORT_CSP = """document.addEventListener("securitypolicyviolation", (event) =>
    console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"}`));"""


def _note_csp(message, problems: list[str]) -> None:
    if message.type == "error" and ("CSP" in message.text or "Content Security Policy" in message.text):
        problems.append(message.text)


def _finished(request) -> tuple[str, int, bool]:
    """(url, bytes on the wire: compressed body and headers, asked by the service worker?)"""
    sizes = request.sizes()
    wire = sizes["responseBodySize"] + sizes["responseHeadersSize"]
    return request.url, wire, request.service_worker is not None


def summary(durations: list[float]) -> dict:
    if not durations:
        return {}
    return {
        "p50": round(percentile(durations, 0.5), 2),
        "p99": round(percentile(durations, 0.99), 2),
        "max": round(max(durations), 2),
        "mean": round(statistics.fmean(durations), 2),
        "within_one_frame": percentile(durations, 0.99) <= FRAME_MS,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="measure this running server instead of starting one")
    args = parser.parse_args()
    if args.url:
        results = measure(args.url.rstrip("/"))
    else:
        with production_server() as url:
            results = measure(url)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    first = results["first_load"]
    print(f"first load of /: {first['kilobytes']} KB in {first['requests']} requests (budget 150 KB)")
    for file_url, size in first["files"]:
        print(f"  {size:>7} B  {urlparse(file_url).path}")
    worker = results["service_worker_install"]
    print(f"service worker install: {worker['bytes']} B in {worker['requests']} requests")
    print(f"requests to other hosts: {len(results['requests_to_other_hosts'])}")
    print(f"uncaught errors and CSP violations: {results['page_problems'] or 'none'}")
    navigation = results["navigation_ms"]
    print(
        f"time to interactive: {results['time_to_interactive_ms']} ms"
        f" (page received {navigation['page_received_ms']} ms, DOM ready {navigation['dom_ready_ms']} ms)"
    )
    for name in ("move_render_ms", "move_to_frame_ms"):
        figures = results[name]
        shown = ", ".join(f"{key} {figures[key]}" for key in ("p50", "p99", "max"))
        print(f"{name} over {results['moves']} moves: {shown}")
    print(f"written to {RESULTS.relative_to(PROJECT_DIR)}")


if __name__ == "__main__":
    main()
