"""Test data made through the real code: players, wins, reveals along a log, and a free port for
a server a test starts. The fixtures built on them (`make_player`, `player`, `other_player`,
`api`) are in conftest.py.

Wins are real games: a known winning log from the engine's vectors, optionally lengthened by
"move, undo" pairs (each adds one move, so the ranked score drops by one), verified by the
engine. Scores in tests are therefore `best − extra_moves`. A ranked win is a hidden-card game's
by default (the global boards rank no other), its face-down cards asked for one by one as the
page does; `hidden=False` makes it a game issued with its code (an open deal).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import socket
import uuid
from functools import cache
from pathlib import Path

from django.test import TestCase

from games.engine import Game, GameCode, verify
from games.hidden.reveals import game_reveal
from games.issuing.dealing import known_deals
from games.issuing.services import game_issue
from games.log_input import SubmissionInput
from games.models import IssuedGame, Submission
from games.submissions.intake import submission_create
from games.submissions.settle import submission_verify

PASSWORD = "a-long-pass-phrase"
VECTORS = Path(__file__).resolve().parents[1] / "games" / "engine" / "vectors" / "logs.json"
_numbers = itertools.count(1)


def player_make(name: str | None = None, **extra):
    """A player (an account) named `name`, or a new name; `extra`: more of the user's fields."""
    from accounts.models import User

    name = name or f"player{next(_numbers)}"
    return User.objects.create_user(name, f"{name}@example.com", PASSWORD, **extra)


def free_port() -> int:
    """A TCP port nothing listens on now, for a server the test starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def whole(code: str) -> str:
    """The YU2 code of a deal: what a hidden-card game of it is dealt as, and so its deal board."""
    return str(GameCode.parse(code).whole())


# Deals with a known winning log (the vectors' YU1 deals, as whole shuffles: hidden-card games and
# wins by code share each one's deal board), per rule set; the first is the default.
WINNING_CODES = {
    "classic": [whole(code) for code in ("YU1-C-AAAAAAA", "YU1-C-AAAAAAC", "YU1-C-AAAAAAF", "YU1-C-AAAAAAH")],
    "relaxed": [whole(code) for code in ("YU1-R-AAAAAAB", "YU1-R-AAAAAAD", "YU1-R-AAAAAAG")],
}
MOVE_MS = 300
LOOK_MS = 5_000  # a hidden-card game: from its issue to the first move, on the server's clock


@cache
def winning_log(code: str) -> str:
    """The shortest legal winning log of the vectors for the deal of `code` (YU1 or YU2)."""
    cases = json.loads(VECTORS.read_text())["cases"]
    logs = [
        case["log"]
        for case in cases
        if whole(case["code"]) == whole(code) and case["verdict"]["won"] and case["verdict"]["legal"]
    ]
    return min(logs, key=lambda log: len(log.split()))


def then_legal_moves(code: str, tokens: list[str], extra: int) -> list[str]:
    """`tokens` played on `code`'s deal, then `extra` more legal moves (the first the engine lists
    each time): a game that goes on after a given move."""
    game, tokens = Game(code), list(tokens)
    for token in tokens:
        game.play(token)
    for _ in range(extra):
        move = next(iter(game.legal_moves))
        game.push(move)
        tokens.append(str(move))
    return tokens


@cache
def padded_log(code: str, extra_moves: int) -> str:
    """The winning log of `code` with `extra_moves` "move, undo" pairs first: score − extra_moves."""
    first = next(iter(Game(code).legal_moves))
    return " ".join([f"{first} U"] * extra_moves + [winning_log(code)])


def best_score(code: str) -> int:
    return verify(code, winning_log(code)).score


def reveal_along(game: IssuedGame, log: str, times: list[int]) -> int:
    """Ask for each face-down card the log turns up, when it first does, as the page would (the
    server's clock running with the page's); the number of cards revealed."""
    position, tokens, revealed = Game(game.code), log.split(), set()
    for index, token in enumerate(tokens):
        before = position.face_down
        position.play(token)
        for column, (down_before, down_now) in enumerate(zip(before, position.face_down, strict=True)):
            if down_now < down_before and (column, down_now) not in revealed:
                revealed.add((column, down_now))
                game_reveal(
                    user=game.user,
                    game_id=game.pk,
                    log=" ".join(tokens[: index + 1]),
                    move_times_ms=times[: index + 1],
                    now=game.issued_at + dt.timedelta(milliseconds=LOOK_MS + times[index]),
                )
    return len(revealed)


def win(
    user,
    *,
    at: dt.datetime,
    rules: str = "classic",
    code: str | None = None,
    extra_moves: int = 0,
    ranked: bool = True,
    hidden: bool = True,
    assisted: bool = False,
    log: str | None = None,
) -> Submission:
    """A win of `user` received at `at`, through the real services: issued (when ranked: a
    hidden-card game played through its reveals, or with `hidden=False` a game issued with its
    code), submitted, verified by replay and recorded on the boards (Redis after the commit)."""
    code = code or WINNING_CODES[rules][0]
    log = log or padded_log(code, extra_moves)
    times = [MOVE_MS * (index + 1) for index in range(len(log.split()))]
    game_id = None
    if ranked:
        with known_deals([code]):
            (game,) = game_issue(user=user, rules=rules, hidden=hidden, now=at - dt.timedelta(hours=1))
        if hidden:
            reveal_along(game, log, times)
        game_id = game.pk
    data = SubmissionInput(
        client_id=uuid.uuid4(), log=log, move_times_ms=times, duration_ms=times[-1], finished_at=at,
        game_id=game_id, code=None if ranked else code, assisted=assisted,
    )  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        submission, _ = submission_create(user=user, data=data, now=at)
        # Eager Celery has settled it already; with a broker and no worker, settle it here.
        submission = submission_verify(submission_id=submission.pk)
    assert (submission.status, submission.won) == (Submission.Status.VERIFIED, True), submission.reason
    return submission


def moderators():
    """The moderators group as its data migration makes it: a transactional test run before on the
    same database flushed the migration's rows (the permissions come back after a flush)."""
    from importlib import import_module

    from django.contrib.auth.models import Group, Permission

    migration = import_module("fairplay.migrations.0005_moderators_group")
    group, _ = Group.objects.get_or_create(name=migration.GROUP)
    group.permissions.set(
        Permission.objects.get(content_type__app_label=app_label, codename=codename)
        for app_label, codename in migration.PERMISSIONS
    )
    return group
