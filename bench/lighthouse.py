"""Lighthouse on the game's pages, phone and desktop, against the app as `make run` serves it.

    python bench/lighthouse.py            # prints the table
    python bench/lighthouse.py --check    # and exits 1 if an accessibility, best-practices or
                                          # SEO score is under 100 (performance is only reported)

It starts the app as `make run` does (migrate, then `manage.py runserver`, DEBUG on, SQLite),
but on a fresh SQLite file in a temporary folder and a free port, then runs Lighthouse
(npm, pinned in package-lock.json; `make test` installs it) with Debian's Chromium on `/`,
`/leaderboard` and `/help`: the default (mobile, simulated throttling) and `--preset=desktop`.
Nothing is downloaded. The reports go to bench/results/lighthouse/ (not tracked).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.request import urlopen

PROJECT_DIR = Path(__file__).resolve().parents[1]
LIGHTHOUSE = PROJECT_DIR / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PAGES = ["/", "/leaderboard", "/help"]
FORMS = {"phone": [], "desktop": ["--preset=desktop"]}
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
CHECKED = ["accessibility", "best-practices", "seo"]
METRICS = {
    "FCP": ("first-contentful-paint", "ms"),
    "LCP": ("largest-contentful-paint", "ms"),
    "TBT": ("total-blocking-time", "ms"),
    "CLS": ("cumulative-layout-shift", ""),
}
REPORTS = PROJECT_DIR / "bench" / "results" / "lighthouse"
ATTEMPTS = 3


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def python() -> str:
    venv = PROJECT_DIR / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def start_server(folder: Path) -> tuple[subprocess.Popen, str, Path]:
    """`make run`'s two commands, on a fresh SQLite file and a free port."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "DJANGO_SETTINGS_MODULE"}
    }
    env["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"
    subprocess.run(
        [python(), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=PROJECT_DIR, env=env, check=True
    )
    port = free_port()
    log = folder / "runserver.log"
    server = subprocess.Popen(
        [python(), "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=PROJECT_DIR,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urlopen(f"{url}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    break
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            sys.exit(f"the server did not start:\n{log.read_text()}")
        time.sleep(0.3)
    for path in PAGES:  # the first request of each page warms Django's templates
        with urlopen(f"{url}{path}", timeout=30) as answer:
            answer.read()
    return server, url, log


def lighthouse(url: str, form: str, folder: Path) -> dict:
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE.relative_to(PROJECT_DIR)} is missing: run `npm ci` (`make test` does it)")
    out = folder / "report.json"
    command = [
        str(LIGHTHOUSE),
        url,
        *FORMS[form],
        "--output=json",
        f"--output-path={out}",
        "--quiet",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking "
        "--disable-component-update --disable-sync --no-first-run",
    ]
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    # Lighthouse now and then loses the trace of a load on a busy machine (NO_NAVSTART,
    # NO_FCP): such a run says nothing of the page, so it is run again, up to ATTEMPTS times.
    for attempt in range(1, ATTEMPTS + 1):
        out.unlink(missing_ok=True)
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        if done.returncode == 0 and out.exists():
            return json.loads(out.read_text())
        print(
            f"lighthouse failed on {url} ({form}), attempt {attempt} of {ATTEMPTS}, exit {done.returncode}:\n"
            f"{done.stderr[-3000:]}",
            file=sys.stderr,
        )
    sys.exit(f"lighthouse failed {ATTEMPTS} times on {url} ({form})")


def figures(report: dict) -> dict:
    row = {name: round((report["categories"][name]["score"] or 0) * 100) for name in CATEGORIES}
    for short, (audit, _) in METRICS.items():
        row[short] = report["audits"][audit]["numericValue"]
    row["failed"] = {
        name: [
            ref["id"]
            for ref in report["categories"][name]["auditRefs"]
            if ref["weight"] and (report["audits"][ref["id"]]["score"] or 0) < 1
        ]
        for name in CHECKED
    }
    # An audit that could not run is no pass: one in a checked category fails --check. (Lighthouse
    # 12.2.3 cannot read some of the traces of newer Chromiums: a few performance diagnostics,
    # such as layout-shifts' root causes, end in an error; the metrics are still measured.)
    checked = {ref["id"] for name in CHECKED for ref in report["categories"][name]["auditRefs"]}
    errored = [audit for audit, result in report["audits"].items() if result["scoreDisplayMode"] == "error"]
    row["errored"] = [audit for audit in errored if audit in checked]
    row["errored_elsewhere"] = [audit for audit in errored if audit not in checked]
    return row


def shown(short: str, value: float) -> str:
    return f"{value:.3f}" if short == "CLS" else f"{value:,.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if a checked score is under 100 or a checked audit could not run",
    )
    parser.add_argument("--url", help="measure a running server instead of starting one")
    args = parser.parse_args()

    started = time.monotonic()
    REPORTS.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="yukon-lighthouse-") as tmp:
        folder = Path(tmp)
        server = None
        if args.url:
            url = args.url.rstrip("/")
        else:
            server, url, _ = start_server(folder)
        try:
            for path in PAGES:
                for form in FORMS:
                    report = lighthouse(f"{url}{path}", form, folder)
                    name = path.strip("/") or "play"
                    (REPORTS / f"{name}-{form}.json").write_text(json.dumps(report))
                    rows.append((path, form, figures(report)))
        finally:
            if server is not None:
                server.terminate()
                try:
                    server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    server.kill()

    header = ["Page", "Form", "Perf", "A11y", "Best pr.", "SEO", "FCP", "LCP", "TBT", "CLS"]
    lines = [header]
    for path, form, row in rows:
        lines.append(
            [path, form, *(str(row[name]) for name in CATEGORIES), *(shown(m, row[m]) for m in METRICS)]
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))
    print(
        f"Lighthouse {report['lighthouseVersion']}, {time.monotonic() - started:.0f} s; reports in "
        f"{REPORTS.relative_to(PROJECT_DIR)}/"
    )

    below = [
        f"{path} ({form}): {name} {row[name]} — failing audits: {', '.join(row['failed'][name]) or '?'}"
        for path, form, row in rows
        for name in CHECKED
        if row[name] < 100
    ]
    below += [
        f"{path} ({form}): audits that could not run: {', '.join(row['errored'])}"
        for path, form, row in rows
        if row["errored"]
    ]
    elsewhere = sorted({audit for _, _, row in rows for audit in row["errored_elsewhere"]})
    if elsewhere:
        print(f"(not scored, could not run: {', '.join(elsewhere)})")
    for line in below:
        print(f"FAILED: {line}")
    if args.check and below:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
