"""A designed log case: what it shows, its log, and the refusal (or none) it must end with."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

from ..codes import GameCode, Rules
from ..game import Game
from ..verify import verify
from .search import Found, Predicate, find


@dataclass
class Case:
    name: str
    code: str
    log: list[str]
    expect: str | None  # the refusal code the log must stop at, or None for a legal log
    figures: dict[str, Any] = field(default_factory=dict)  # verdict fields the design promises
    tail_from: int = 0  # where the tokens the case is about start (the rest leads there)
    text: str | None = None  # the log as written, when not in canonical form

    @property
    def log_text(self) -> str:
        return " ".join(self.log) if self.text is None else self.text

    def to_vector(self) -> dict[str, Any]:
        """The ``logs.json`` shape, after checking that the log shows what its name says."""
        verdict = verify(self.code, self.log_text).to_dict()
        stopped_at = None if verdict["error"] is None else verdict["error"]["code"]
        if stopped_at != self.expect:
            raise AssertionError(f"{self.name}: expected {self.expect}, got {verdict}")
        before = verify(self.code, self.log[: self.tail_from]).to_dict()
        for key, value in self.figures.items():
            # "gain" and "counted": points gained and moves counted by the tokens shown
            shown = {
                "gain": verdict["points"] - before["points"],
                "counted": verdict["moves"] - before["moves"],
            }
            if shown.get(key, verdict.get(key)) != value:
                raise AssertionError(f"{self.name}: expected {key}={value}, got {verdict}")
        return {"name": self.name, "code": self.code, "log": self.log_text, "verdict": verdict}


def make(name: str, code: str, log: list[str], expect: str | None, **figures: Any) -> Case:
    return Case(name, code, list(log), expect, figures)


def case(name: str, found: Found, expect: str | None, **figures: Any) -> Case:
    """A case from a search hit; ``{tail}`` in the name is the tokens played at the position."""
    made = make(name.format(tail=" ".join(found.tail)), found.code, found.log, expect, **figures)
    made.tail_from = len(found.prefix)
    return made


def shown(
    name: str,
    predicate: Predicate,
    expect: str | None,
    *,
    rules: Rules = Rules.CLASSIC,
    promises: dict[str, Any] | None = None,
    **search: Any,
) -> Case:
    """Search deals for a position where ``predicate`` answers, and make the case of it.

    Each name starts its search at its own deal number, so the cases spread over many deals.
    """
    start = zlib.crc32(name.encode()) % 5000
    found = find(predicate, rules=rules, numbers=range(start, start + 500), **search)
    return case(name, found, expect, **(promises or {}))


def twin(code: str, rules: Rules) -> str:
    """The same deal number under the other rule letter."""
    return str(GameCode(rules, GameCode.parse(code).number))


def replayed(code: str, log: list[str]) -> Game:
    game = Game(code)
    for token in log:
        game.play(token)
    return game
