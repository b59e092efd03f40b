"""Every reason the server can give for refusing a result has a stable code, its figures as data
(`reason_params`), and words in every catalog of the pages (frontend/static/frontend/js/i18n/,
`submissionReasons`, with the engine's `refusals` for a refused move). docs/api.md, "Rejected".

The judge is run on each case the way the verification runs it (`submission_judge`); the
English words of the catalog, filled with the figures, say what the server's English sentence
says, so a page in any language says the same thing.
"""

import json
import re
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from games.engine import Game
from games.engine.errors import REFUSAL_CODES
from games.engine.move import MOVES_BY_TEXT
from games.hidden.record import prefix_mismatch
from games.models import IssuedGame, Submission
from games.submissions.judge import REJECTION_CODES, SERVER_REJECTION_PARAMS, submission_judge

CATALOG_DIR = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "js" / "i18n"
LANGUAGES = [code for code, _ in django_settings.LANGUAGES]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
CODE = "YU1-C-AAAAAAA"
# Words the page makes from figures: the reveals clock's marks (reasons.js `mark`).
DERIVED = {"timing_reveals": {"since", "until"}}


def catalog(language: str) -> dict:
    return json.loads((CATALOG_DIR / f"{language}.json").read_text(encoding="utf-8"))


def submission(**fields) -> Submission:
    values = {
        "user_id": 1, "code": CODE, "rules": "classic", "ranked": False, "log": "", "move_times_ms": [],
        "duration_ms": 1000, "received_at": timezone.now(), "game": None,
    }  # fmt: skip
    return Submission(**{**values, **fields})


def refused_token(game: Game, codes: tuple[str, ...]) -> str:
    for move in MOVES_BY_TEXT.values():
        if game.check_move(move.card, move.dest) in codes:
            return str(move)
    raise AssertionError(f"no move refused with {codes}")


def judged(**fields):
    return submission_judge(submission=submission(**fields), player_suspended=False, game_used=False)


def cases(settings) -> dict[str, list]:
    """Judgements (or prefix problems) for each server check and a refused move, keyed by code."""
    settings.SUBMISSION_MIN_MOVE_MS = 40
    settings.SUBMISSION_MIN_AVERAGE_MOVE_MS = 150
    game = Game(CODE)
    legal = [str(move) for move in list(game.legal_moves)[:1]]
    colour = refused_token(game, ("wrong_colour",))
    issued = IssuedGame(user_id=1, issued_at=timezone.now() - timedelta(seconds=2), hidden=False)
    found = {
        "suspended": [
            submission_judge(submission=submission(), player_suspended=True, suspension_reason="bot play"),
            submission_judge(submission=submission(), player_suspended=True),
        ],
        "game_not_issued": [judged(ranked=True)],
        "game_used": [
            submission_judge(
                submission=submission(ranked=True, game=issued), player_suspended=False, game_used=True
            )
        ],
        "bad_code": [judged(code="YU1-X-AAAAAAB")],
        "wrong_colour": [judged(log=colour, move_times_ms=[0])],
        "timing_duration": [
            judged(ranked=True, game=issued, log=" ".join(legal), move_times_ms=[0], duration_ms=60_000)
        ],
    }
    # Two moves 10 ms apart; then many moves at 100 ms a move on average (each gap above 40 ms).
    tokens = Game(CODE)
    log = []
    while len(log) < 6:
        move = next(iter(tokens.legal_moves))
        tokens.push(move)
        log.append(str(move))
    found["timing_move"] = [judged(log=" ".join(log[:2]), move_times_ms=[0, 10])]
    found["timing_average"] = [judged(log=" ".join(log), move_times_ms=[0, 100, 200, 300, 400, 500])]
    recorded = SimpleNamespace(recorded_log=" ".join(log[:3]), recorded_times_ms=[0, 200, 400])
    found["prefix_conflict"] = [
        prefix_mismatch(recorded, tokens=[log[0], "U", *log[2:]], times=[0, 200, 400], must_extend=True),
        prefix_mismatch(recorded, tokens=log[:3], times=[0, 200, 401], must_extend=True),
        prefix_mismatch(recorded, tokens=log[:2], times=[0, 200], must_extend=True),
    ]
    return found


def words_for(language: str, code: str, params: dict) -> str:
    """The catalog's entry for a reason with these figures (reasons.js picks the same)."""
    reasons = catalog(language)["submissionReasons"]
    if code in REFUSAL_CODES:
        return reasons["move"]
    entry = reasons[code]
    if code == "suspended":
        return entry["note" if params.get("note") else "none"]
    if code == "prefix_conflict":
        return entry[params["variant"]]
    return entry


def fill(template: str, params: dict) -> str:
    return PLACEHOLDER.sub(lambda found: str(params[found.group(1)]), template)


@pytest.mark.django_db
def test_each_reason_comes_with_its_code_and_the_figures_its_words_need(settings):
    found = cases(settings)
    english = catalog("en")["submissionReasons"]
    for code, results in found.items():
        for result in results:
            if isinstance(result, tuple):  # a prefix problem: (English reason, figures)
                reason, params = result
            else:
                assert (result.status, result.reason_code) == ("rejected", code)
                reason, params = result.reason, result.reason_params
            if code in REFUSAL_CODES:
                assert set(params) >= {"move", "token", "variant", "card", "rank"}
                assert fill(english["move"], {**params, "refusal": reason.split(": ", 1)[1]}) == reason
                continue
            assert set(params) <= set(SERVER_REJECTION_PARAMS[code]), code
            template = words_for("en", code, params)
            assert set(PLACEHOLDER.findall(template)) <= set(params), code
            if code not in ("bad_code", "suspended") or params.get("note"):
                assert fill(template, params) == reason, code  # the same sentence as the server's
    assert set(found) | {"unrevealed_card", "timing_reveals"} >= set(SERVER_REJECTION_PARAMS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rejection_code_has_words_in_the_catalog(language):
    """Walks the closed list of codes: each has its words, with no placeholder the server does
    not send (a refused move: the engine's refusal, its number and token)."""
    reasons = catalog(language)["submissionReasons"]
    english = catalog("en")["submissionReasons"]
    assert set(PLACEHOLDER.findall(reasons["move"])) == {"move", "token", "refusal"}
    for code in REJECTION_CODES:
        if code in REFUSAL_CODES:
            continue  # its words: the refusals (tests/frontend/test_translations.py), in "move"
        entry = reasons.get(code)
        assert entry, f"{language}: no words for {code}"
        variants = entry if isinstance(entry, dict) else {"": entry}
        expected = english[code] if isinstance(english[code], dict) else {"": english[code]}
        assert set(variants) == set(expected), f"{language}: the variants of {code}"
        allowed = set(SERVER_REJECTION_PARAMS[code]) | DERIVED.get(code, set())
        for variant, text in variants.items():
            assert text.strip(), f"{language}: {code} {variant} is empty"
            assert set(PLACEHOLDER.findall(text)) <= allowed, f"{language}: {code} {variant}"
    for mark in ("markIssue", "markReveal", "markResult"):
        assert reasons[mark].strip()
    assert set(PLACEHOLDER.findall(reasons["markReveal"])) == {"move"}


def test_the_variants_are_those_the_server_gives():
    english = catalog("en")["submissionReasons"]
    assert set(english["suspended"]) == {"none", "note"}
    assert set(english["prefix_conflict"]) == {"token", "time", "short"}
