"""Cases for games with unknown face-down cards (docs/rules.md, "Positions with unknown face-down
cards"): hidden.json (games played from a visible deal, reveals answered from the real deal)
and visible_deals.json (visible deals, and those refused).

Every hidden game is played side by side with ``Game(code)``: after each step the two must
show the same position (but for the face-down cards not told yet), legal moves, refusals and
points, or the build stops. The files record what the hidden game answered.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import CARD_NAMES
from ..errors import UNKNOWN_CARD, InvalidPositionError, Refusal, RevealError
from ..game import Game
from ..hidden import HiddenCardGame
from ..move import UNDO, Move
from ..visible import FACE_DOWN_PLACES, Place, VisibleDeal, dealt_card, visible_deal
from .search import all_moves, exposes
from .wins import load_wins

DEALT = object()  # a reveal answered from the deal
RANDOM_GAMES = (  # (code, steps): random play with undos, refused moves and one redeal
    ("YU1-C-AAAAAAB", 140),
    ("YU1-R-AAAAAAB", 140),
    ("YU1-C-HIDDENC", 120),
    ("YU1-R-HIDDENR", 120),
    ("YU1-C-NXMRLXW", 120),
    ("YU1-R-ZZZZZZZ", 120),
    ("YU2-C-18MW0YNNFJRNFPJ0HV3ZGAWPX8NJB703ZDJRVAJJQRCZ1B", 120),  # a deck no YU1 code deals
)


def masked_position(known: Game, deal: VisibleDeal) -> dict[str, Any]:
    """``known.to_dict()`` as a game that knows only ``deal`` shows it: no code, and null at the
    face-down places it has not been told (their cards have never left them)."""
    position = known.to_dict()
    position["code"] = None
    for column, depth in deal.unknown_places:
        position["columns"][column][depth] = None
    return position


def outcome(game: Game, token: str) -> tuple[str, str | None]:
    """Play a token: ("played", None), or the refusal's code and message."""
    try:
        game.play(token)
    except Refusal as refusal:
        return refusal.code, refusal.message
    return "played", None


class Pair:
    """The game of ``code`` and the same deal from its visible deal, played step by step."""

    def __init__(self, code: str, revealed: tuple[Place, ...] = ()) -> None:
        self.code = code
        self.known = Game(code)
        self.revealed = [self.answer(place) for place in revealed]
        self.hidden = HiddenCardGame(
            visible_deal(code), {(r["column"], r["depth"]): r["card"] for r in self.revealed}
        )
        self.steps: list[dict[str, Any]] = []
        self.stack: list[str] = []  # the moves an undo would take back, oldest first

    def answer(self, place: Any, card: Any = DEALT) -> dict[str, Any]:
        """A reveal: ``card``, or the card the deal holds at ``place``; in the JSON form."""
        if card is DEALT:
            card = CARD_NAMES[dealt_card(self.code, place)]
        column, depth = (place.get("column"), place.get("depth")) if isinstance(place, dict) else place
        return {"column": column, "depth": depth, "card": card}

    def token(self, text: str) -> str:
        waiting = self.hidden.awaiting_reveal
        result, message = outcome(self.hidden, text)
        if waiting is None or text == UNDO or result == "bad_token":
            assert outcome(self.known, text) == (result, message), (self.code, self.steps, text)
        else:
            assert result == UNKNOWN_CARD, (self.code, text, result)
        if result == "played":
            if text == UNDO:
                self.stack.pop()
            else:
                self.stack.append(text)
        return self._record({"token": text}, result)

    def reveal(self, place: Any, card: Any = DEALT) -> str:
        answer = self.answer(place, card)
        try:
            self.hidden.reveal((answer["column"], answer["depth"]), answer["card"])
        except RevealError as refusal:
            return self._record({"reveal": answer}, refusal.code)
        return self._record({"reveal": answer}, "revealed")

    def play_on(self, text: str) -> None:
        """Play a move, and answer the reveal it asks for."""
        assert self.token(text) == "played", (self.code, text)
        waiting = self.hidden.awaiting_reveal
        if waiting is not None:
            self.reveal(waiting)

    def _record(self, step: dict[str, Any], result: str) -> str:
        hidden = self.hidden
        assert hidden.to_dict() == masked_position(self.known, hidden.known_deal()), (self.code, step)
        waiting = hidden.awaiting_reveal
        if waiting is None:
            assert list(hidden.legal_moves) == list(self.known.legal_moves), (self.code, step)
        else:
            assert not list(hidden.legal_moves)
        self.steps.append(
            {
                **step,
                "result": result,
                "awaiting": None if waiting is None else waiting.to_dict(),
                "points": hidden.points,
            }
        )
        return result

    def case(self, name: str) -> dict[str, Any]:
        return {
            "name": name,
            "code": self.code,
            "deal": visible_deal(self.code).to_dict(),
            "revealed": self.revealed,
            "steps": self.steps,
            "position": self.hidden.to_dict(),
            "moves": [str(move) for move in self.hidden.legal_moves],
        }


def random_game(code: str, length: int) -> dict[str, Any]:
    return random_pair(code, length).case(f"random play with undos and a redeal on {code}")


def random_pair(code: str, length: int) -> Pair:
    """Seeded random play: moves that turn cards up preferred, some undos and refused moves,
    moves tried and undos taken while a reveal is awaited, and halfway a redeal (undo to the
    start) followed by the first moves again, which turn up cards known by then."""
    rng = random.Random(f"hidden/{code}")
    pair = Pair(code)
    redealt = False
    while len(pair.steps) < length:
        known, waiting = pair.known, pair.hidden.awaiting_reveal
        moves = list(known.legal_moves)
        roll = rng.random()
        if waiting is not None:
            if roll < 0.15 and moves:
                pair.token(str(rng.choice(moves)))  # refused: unknown_card
            elif roll < 0.3:
                pair.token(UNDO)  # the card turns face down, still unknown
            else:
                pair.reveal(waiting)
        elif not redealt and len(pair.steps) >= length // 2 and len(pair.stack) > 2:
            again = pair.stack[: len(pair.stack) // 2 + 1]
            while pair.stack:
                pair.token(UNDO)
            known_again = 0  # cards turned up again that need no reveal
            for text in again:
                down, at = sum(known.face_down), len(pair.steps)
                pair.play_on(text)
                known_again += sum(known.face_down) < down and pair.steps[at]["awaiting"] is None
            assert known_again, code
            redealt = True
        elif roll < 0.07 and pair.stack or not moves:
            pair.token(UNDO)
        elif roll < 0.14:
            refused = [m for m in all_moves() if known.check_move(m.card, m.dest) is not None]
            pair.token(str(rng.choice(refused)))
        else:
            flips = [m for m in moves if _flips(known, m)]
            pair.token(str(rng.choice(flips if flips and rng.random() < 0.8 else moves)))
    assert redealt, code
    return pair


def won_game(code: str, log: list[str]) -> dict[str, Any]:
    """A whole win from a visible deal, each card revealed as it turns up; then U is game_over."""
    pair = Pair(code)
    for text in log:
        pair.play_on(text)
    assert pair.hidden.is_won() and pair.token(UNDO) == "game_over"
    return pair.case(f"a win from the visible deal of {code}: {len(log)} moves, 21 reveals")


def _first_move(pair: Pair, accept: Any = lambda move: True) -> str:
    return next(str(m) for m in pair.known.legal_moves if accept(m))


def _flips(game: Game, move: Move) -> bool:
    """Does the move turn up a face-down card (not just empty a column)?"""
    return exposes(game, move) and any(
        move.card in column and hidden for column, hidden in zip(game.columns, game.face_down, strict=True)
    )


def reveal_cases() -> list[dict[str, Any]]:
    """Short designed cases: each shows one thing about reveals and waiting."""
    cases = []
    code = "YU1-C-AAAAAAB"  # column 3 (index 2): two face-down cards, then TC; TC>4 turns index 2, depth 1 up

    pair = Pair(code)
    for place in ((0, 0), (2, 2), (6, 6), (7, 0), (2, -1), {"column": "2", "depth": 1}, {"column": 2}):
        assert pair.reveal(place, "6S") == "not_face_down_place"
    cases.append(pair.case("reveals refused: places that are not face-down places of the deal"))

    pair = Pair(code)
    for card in ("9X", "td", "10S", "", 52, -1, True, None):
        assert pair.reveal(Place(2, 1), card) == "bad_card"
    cases.append(pair.case("reveals refused: not a card"))

    pair = Pair(code)
    assert pair.reveal(Place(2, 1), "KC") == "card_elsewhere"  # face up in column 2
    assert pair.reveal(Place(2, 1)) == "revealed"
    assert pair.reveal(Place(2, 1)) == "revealed"  # the same again: nothing changes
    wrong = CARD_NAMES[dealt_card(code, Place(2, 0))]
    assert pair.reveal(Place(2, 1), wrong) == "reveal_conflict"
    assert pair.reveal(Place(2, 0), CARD_NAMES[dealt_card(code, Place(2, 1))]) == "card_elsewhere"
    assert pair.reveal(Place(2, 0), dealt_card(code, Place(2, 0))) == "revealed"  # by index
    assert pair.token("TC>4") == "played" and pair.hidden.awaiting_reveal is None
    cases.append(pair.case("revealed before it turns up: no wait; the same again is fine, another card not"))

    pair = Pair(code)
    assert pair.token("TC>4") == "played" and pair.hidden.awaiting_reveal == (2, 1)
    assert pair.token("3D>1") == UNKNOWN_CARD
    assert pair.token("6S>F") == UNKNOWN_CARD  # the card waiting itself
    assert pair.token("KS>9") == "bad_token"  # the token is read first
    assert pair.reveal(Place(2, 1), "JH") == "card_elsewhere"  # still waiting
    assert pair.reveal(Place(2, 0)) == "revealed"  # another place: still waiting
    assert pair.reveal(Place(2, 1)) == "revealed"
    pair.token(_first_move(pair))
    cases.append(pair.case("waiting: every move is unknown_card until the place is revealed"))

    pair = Pair(code)
    assert pair.token(UNDO) == "nothing_to_undo"
    pair.token("TC>4")
    assert pair.token(UNDO) == "played" and pair.hidden.awaiting_reveal is None  # face down, unknown
    assert pair.token("TC>4") == "played" and pair.hidden.awaiting_reveal == (2, 1)  # asked again
    pair.reveal(Place(2, 1))
    pair.token(UNDO)
    assert pair.token("TC>4") == "played" and pair.hidden.awaiting_reveal is None  # known now
    cases.append(pair.case("undo before the reveal: asked again; after it: known when turned up again"))

    pair = Pair("YU1-R-AAAAAAD")  # AC>F first: A♣ goes home, and is then no face-down card's
    pair.play_on("AC>F")
    assert pair.reveal(FACE_DOWN_PLACES[-1], "AC") == "card_elsewhere"
    pair.play_on(_first_move(pair, lambda m: _flips(pair.known, m)))
    cases.append(pair.case("a card on a foundation is elsewhere"))

    pair = Pair("YU1-C-AAAAAAC", revealed=FACE_DOWN_PLACES[-6:])
    for _ in range(30):
        moves = list(pair.known.legal_moves)
        flips = [m for m in moves if _flips(pair.known, m)]
        pair.play_on(str((flips or moves)[0]))
    cases.append(pair.case("built with the cards of column 7 revealed: they turn up with no wait"))
    return cases


def resumed_case() -> dict[str, Any]:
    """A page reloads: the known deal of a game so far, and its log (the tokens played, undos
    included) again from the start. Only a card undone before its reveal is asked for again,
    and the undo that follows it in the log is allowed."""
    first = random_pair(*RANDOM_GAMES[0])
    known = first.hidden.known_deal()
    pair = Pair(first.code)
    pair.hidden = HiddenCardGame(known)
    for step in first.steps:
        if "token" in step and step["result"] == "played":
            assert pair.token(step["token"]) == "played"
    assert pair.hidden.to_dict() == first.hidden.to_dict()
    resumed = pair.case("resumed: the known deal of a game in progress, and its log again")
    resumed["deal"] = known.to_dict()
    return resumed


def hidden_cases() -> list[dict[str, Any]]:
    cases = [random_game(code, length) for code, length in RANDOM_GAMES]
    cases += [resumed_case(), *reveal_cases()]
    wins = dict(load_wins())
    cases += [won_game(code, wins[code]) for code in ("YU1-C-AAAAAAC", "YU1-R-AAAAAAD")]
    shown = {step["result"] for case in cases for step in case["steps"]}
    assert {"played", "revealed", UNKNOWN_CARD, "face_down", "game_over", "nothing_to_undo"} <= shown, shown
    assert {"not_face_down_place", "bad_card", "reveal_conflict", "card_elsewhere"} <= shown, shown
    return cases


VISIBLE_CODES = (
    "YU1-C-AAAAAAA",
    "YU1-R-AAAAAAB",
    "YU1-C-NXMRLXW",
    "YU1-R-ZZZZZZZ",
    "YU2-R-0PM0029RF6ZBYJQ0TG3XEPW2MHEADYCYCD2WM7QHWRX9SN",
)


def _changed(code: str, change: Any) -> dict[str, Any]:
    deal = visible_deal(code).to_dict()
    change(deal)
    return deal


def _set(column: int, depth: int, value: Any) -> Any:
    return lambda deal: deal["columns"][column].__setitem__(depth, value)


# Visible deals no Yukon deal could show: (what is wrong, how the deal of AAAAAAB is changed).
REFUSED_DEALS: tuple[tuple[str, Any], ...] = (
    ("a face-up card unknown", _set(0, 0, None)),
    ("the top face-up card of a column unknown", _set(6, 10, None)),
    ("a card twice", _set(2, 2, "4C")),
    ("a face-down card known at two places", lambda d: (_set(3, 0, "6S")(d), _set(4, 0, "6S")(d))),
    ("a column one card short", lambda d: d["columns"][2].pop()),
    ("a column one card long", lambda d: d["columns"][0].append("AS")),
    ("six columns", lambda d: d["columns"].pop()),
    ("a card that is not a name", _set(1, 1, "10H")),
    ("a card as an index", _set(1, 1, 14)),
    ("unknown rules", lambda d: d.update(rules="klondike")),
    ("the rules as a letter", lambda d: d.update(rules="C")),
    ("no rules", lambda d: d.pop("rules")),
    ("another count of face-down cards", lambda d: d.update(face_down=[0, 0, 0, 0, 0, 0, 0])),
    ("columns as text", lambda d: d.update(columns="4C TD")),
    ("no columns", lambda d: d.pop("columns")),
)


def visible_deal_cases() -> list[dict[str, Any]]:
    """The visible deals of codes, others a game may be built from, and deals that are refused."""
    cases: list[dict[str, Any]] = [
        {"name": f"the visible deal of {code}", "code": code, "deal": visible_deal(code).to_dict()}
        for code in VISIBLE_CODES
    ]
    known = Game("YU1-C-AAAAAAA").known_deal().to_dict()
    cases += [
        {"name": "every card known", "deal": known},
        {"name": "face_down left out", "deal": _changed("YU1-R-AAAAAAB", lambda d: d.pop("face_down"))},
        {
            "name": "some face-down cards known",
            "deal": _changed("YU1-C-AAAAAAA", _set(6, 3, known["columns"][6][3])),
        },
    ]
    for case in cases:
        case["position"] = HiddenCardGame.from_visible(case["deal"]).to_dict()
    refused = [
        {"name": f"refused: {why}", "deal": _changed("YU1-C-AAAAAAB", change)}
        for why, change in REFUSED_DEALS
    ]
    refused += [
        {"name": f"refused: not an object ({what})", "deal": deal}
        for what, deal in (("null", None), ("a list", []), ("a code", "YU1-C-AAAAAAB"))
    ]
    for case in refused:
        try:
            HiddenCardGame.from_visible(case["deal"])
        except InvalidPositionError:
            case["error"] = "invalid_position"
        else:
            raise AssertionError(f"{case['name']}: accepted")
    return cases + refused
