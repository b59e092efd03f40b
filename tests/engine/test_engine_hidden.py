"""Games with unknown face-down cards (docs/rules.md, "Positions with unknown face-down cards"):
visible deals, reveals and their refusals, waiting for a reveal, and the shared vector files
hidden.json and visible_deals.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import (
    FACE_DOWN_PLACES,
    UNKNOWN_CARD,
    ConflictingRevealError,
    Game,
    GameCode,
    HiddenCardGame,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRevealError,
    Move,
    Place,
    Refusal,
    RevealError,
    Rules,
    VisibleDeal,
    card_name,
    dealt_card,
    parse_card,
    verify,
    visible_deal,
)
from games.engine.vectors import build, design_hidden

VECTORS = Path(build.__file__).parent
CODE = "YU1-C-AAAAAAB"  # column index 2: two face-down cards (the upper one 6♠), then TC 6D AD 8C JH
TURN_UP = Move.parse("TC>4")  # TC and the cards on it onto JD: turns up column index 2, depth 1
MALFORMED = "a face-down place is a column index (0–6) and a depth from the bottom"
NOT_DEALT = "no card was dealt face down at column index {}, depth {}"
NOT_A_CARD = "`9X` is not a card: expected a rank (A23456789TJQK) then a suit (SHDC)"
KNOWN_AS_10D = "column index 1, depth 0 is already known to hold 10♦"


def cases(name: str) -> list[dict]:
    return json.loads((VECTORS / f"{name}.json").read_text(encoding="utf-8"))["cases"]


def hidden(code: str = CODE, revealed: dict | None = None) -> HiddenCardGame:
    return HiddenCardGame.from_visible(visible_deal(code), revealed)


def masked(known: Game, game: Game) -> dict:
    """The known game's position with no code and null at the places ``game`` was not told."""
    position = known.to_dict()
    position["code"] = None
    for column, depth in game.known_deal().unknown_places:
        position["columns"][column][depth] = None
    return position


# --- Visible deals ------------------------------------------------------------------------------


def test_the_visible_deal_of_a_code_shows_the_31_face_up_cards_only():
    deal = visible_deal(CODE)
    assert deal.rules is Rules.CLASSIC
    assert deal.unknown_places == FACE_DOWN_PLACES and len(FACE_DOWN_PLACES) == 21
    assert FACE_DOWN_PLACES[:3] == ((1, 0), (2, 0), (2, 1))
    dealt = Game(CODE).columns
    for index, column in enumerate(deal.columns):
        assert column[index:] == dealt[index][index:] and column[:index] == (None,) * index
    assert deal.to_dict()["columns"][2] == [None, None, "TC", "6D", "AD", "8C", "JH"]
    assert deal.to_dict()["face_down"] == [0, 1, 2, 3, 4, 5, 6]
    assert VisibleDeal.from_dict(json.loads(json.dumps(deal.to_dict()))) == deal
    assert visible_deal(GameCode.parse(CODE)) == deal
    assert visible_deal("YU1-R-AAAAAAB").columns == deal.columns


@pytest.mark.parametrize(
    ("rules", "change", "message"),
    [
        ("classic", lambda c: None, "unknown rules 'classic': expected a Rules"),
        (Rules.CLASSIC, lambda c: c[0].clear(), "a deal has 7 columns of 1, 6, 7, 8, 9, 10, 11 cards"),
        (Rules.CLASSIC, lambda c: c.__setitem__(0, [None]), "column index 0, depth 0 is face up"),
        (Rules.CLASSIC, lambda c: c[2].__setitem__(0, c[2][3]), "6D appears twice"),
        (Rules.CLASSIC, lambda c: c[1].__setitem__(0, 52), "52 is not a card"),
        (Rules.CLASSIC, lambda c: c[1].__setitem__(0, "AS"), "'AS' is not a card"),
        (Rules.CLASSIC, lambda c: c.__setitem__(3, "AS 2S"), "a column is a sequence of cards"),
    ],
)
def test_a_visible_deal_no_deal_could_show_is_refused(rules, change, message):
    columns = [list(column) for column in visible_deal(CODE).columns]
    change(columns)
    with pytest.raises(InvalidPositionError, match=message):
        VisibleDeal(rules, columns)


def test_dealt_card_answers_a_reveal_from_the_deal():
    assert card_name(dealt_card(CODE, (2, 1))) == "6S"
    assert dealt_card(CODE, {"column": 2, "depth": 1}) == dealt_card(CODE, Place(2, 1))
    with pytest.raises(InvalidRevealError, match="column index 2, depth 2"):
        dealt_card(CODE, (2, 2))


# --- Playing with unknown cards ------------------------------------------------------------------


def test_a_game_from_a_visible_deal_starts_as_the_game_of_its_code_but_has_no_code():
    game, known = hidden(), Game(CODE)
    assert isinstance(game, Game) and game.code is None and game.to_dict()["code"] is None
    assert game.awaiting_reveal is None and known.awaiting_reveal is None
    assert list(game.legal_moves) == list(known.legal_moves)
    assert game.to_dict() == masked(known, game)
    assert str(game).startswith("hidden deal  Classic  moves 0")
    assert repr(game) == "<HiddenCardGame classic moves=0 foundations=0 unknown=21>"
    from_json = HiddenCardGame.from_visible(visible_deal(CODE).to_dict())
    assert from_json.to_dict() == game.to_dict()  # the JSON form too


def test_a_move_that_turns_up_an_unknown_card_waits_for_its_reveal():
    game = hidden()
    game.push(TURN_UP)
    assert game.awaiting_reveal == Place(2, 1) == (2, 1)
    assert (game.points, game.moves_made, game.face_down[2], game.columns[2]) == (5, 1, 1, (None, None))
    assert "3  ##  ??" in str(game)
    assert not game.legal_moves and len(game.legal_moves) == 0 and TURN_UP not in game.legal_moves
    for move in ("3D>1", "6S>F", "QD>2"):
        with pytest.raises(IllegalMoveError) as caught:
            game.push(Move.parse(move))
        assert (caught.value.code, str(caught.value)) == (
            UNKNOWN_CARD,
            "the card turned up in column 3 is not known yet",
        )
    with pytest.raises(InvalidMoveError):  # the token is read first
        game.play("KC>9")
    game.reveal((2, 1), "6S")
    known = Game(CODE)
    known.push(TURN_UP)
    assert game.awaiting_reveal is None and game.columns[2] == (None, parse_card("6S"))
    assert list(game.legal_moves) == list(known.legal_moves)
    assert game.to_dict() == masked(known, game)


def test_undo_while_waiting_turns_the_card_down_still_unknown():
    game = hidden()
    game.push(TURN_UP)
    game.undo()
    assert game.awaiting_reveal is None and game.points == 0 and game.moves_made == 1
    assert game.known_deal().unknown_places == FACE_DOWN_PLACES
    game.push(TURN_UP)
    assert game.awaiting_reveal == (2, 1)  # asked for again


def test_a_revealed_card_stays_known_through_undo_and_redeal():
    game = hidden()
    game.push(TURN_UP)
    game.reveal(game.awaiting_reveal, dealt_card(CODE, game.awaiting_reveal))
    game.push(Move.parse("5H>3"))
    while game.can_undo:  # back to the deal
        game.undo()
    assert game.face_down[2] == 2 and game.columns[2][1] == parse_card("6S")
    assert game.check_move(parse_card("6S"), 3) == "face_down"
    game.push(TURN_UP)
    assert game.awaiting_reveal is None and game.points == 5


def test_a_card_not_known_anywhere_is_face_down():
    game = hidden()
    six = parse_card("6S")
    assert game.check_move(six, 3) == "face_down" == Game(CODE).check_move(six, 3)
    with pytest.raises(IllegalMoveError, match="^that card is face down$"):
        game.push(Move(six, 3))
    assert Move(six, 3) not in game.legal_moves


@pytest.mark.parametrize(
    ("place", "card", "error", "code", "message"),
    [
        ((0, 0), "6S", InvalidRevealError, "not_face_down_place", NOT_DEALT.format(0, 0)),
        ((2, 2), "6S", InvalidRevealError, "not_face_down_place", NOT_DEALT.format(2, 2)),
        ((7, 0), "6S", InvalidRevealError, "not_face_down_place", NOT_DEALT.format(7, 0)),
        ((2, -1), "6S", InvalidRevealError, "not_face_down_place", NOT_DEALT.format(2, -1)),
        ("21", "6S", InvalidRevealError, "not_face_down_place", MALFORMED),
        ((True, 1), "6S", InvalidRevealError, "not_face_down_place", MALFORMED),
        ({"column": 2}, "6S", InvalidRevealError, "not_face_down_place", MALFORMED),
        ((0, 0), "9X", InvalidRevealError, "not_face_down_place", None),  # the place is checked first
        ((2, 1), "9X", InvalidRevealError, "bad_card", NOT_A_CARD),
        ((2, 1), 52, InvalidRevealError, "bad_card", None),
        ((2, 1), None, InvalidRevealError, "bad_card", None),
        ((2, 1), [], InvalidRevealError, "bad_card", None),
        ((2, 1), "KC", ConflictingRevealError, "card_elsewhere", "K♣ is already elsewhere on the table"),
        ((1, 0), "7S", ConflictingRevealError, "reveal_conflict", KNOWN_AS_10D),
    ],
)
def test_reveals_refused(place, card, error, code, message):
    game = hidden(revealed={(1, 0): "TD"})
    before = game.to_dict()
    with pytest.raises(error) as caught:
        game.reveal(place, card)
    assert isinstance(caught.value, RevealError) and isinstance(caught.value, ValueError)
    assert caught.value.code == code
    if message is not None:
        assert str(caught.value) == caught.value.message == message
    assert game.to_dict() == before


def test_reveal_again_is_a_no_op_another_card_is_refused_and_a_card_is_known_once():
    game = hidden()
    game.reveal((2, 1), parse_card("6S"))  # by index …
    game.reveal(Place(2, 1), "6S")  # … and by name, again: nothing changes
    with pytest.raises(ConflictingRevealError) as caught:
        game.reveal((2, 1), "7S")
    assert caught.value.code == "reveal_conflict"
    with pytest.raises(ConflictingRevealError) as caught:
        game.reveal((2, 0), "6S")  # known at (2, 1)
    assert caught.value.code == "card_elsewhere"


def test_a_card_on_a_foundation_is_elsewhere():
    game = hidden("YU1-R-AAAAAAD")
    game.push(Move.parse("AC>F"))
    with pytest.raises(ConflictingRevealError, match="A♣ is already elsewhere"):
        game.reveal((6, 5), "AC")


def test_the_engine_cannot_tell_a_true_card_from_another_unknown_one():
    game = hidden()
    game.push(TURN_UP)
    true, other = dealt_card(CODE, (2, 1)), dealt_card(CODE, (2, 0))
    game.reveal((2, 1), other)  # the server's word: accepted
    assert game.columns[2][1] == other != true


def test_a_game_in_progress_resumes_from_its_known_deal():
    game = hidden(revealed={(6, 0): dealt_card(CODE, (6, 0))})
    game.push(TURN_UP)
    game.reveal(game.awaiting_reveal, "6S")
    deal = game.known_deal()
    assert set(FACE_DOWN_PLACES) - set(deal.unknown_places) == {(6, 0), (2, 1)}
    again = HiddenCardGame.from_visible(deal.to_dict())
    again.push(TURN_UP)
    assert again.awaiting_reveal is None and again.to_dict() == game.to_dict()
    assert Game(CODE).known_deal().unknown_places == ()  # a game from a code knows every card


def test_verify_and_games_from_a_code_are_as_before():
    assert Game(CODE).to_dict()["code"] == CODE
    assert verify(CODE, "TC>4 U TC>4").to_dict()["points"] == 5


# --- The shared vector files ---------------------------------------------------------------------


def take_step(game: Game, step: dict) -> dict:
    """A step of hidden.json as this engine takes it."""
    result = "played" if "token" in step else "revealed"
    try:
        if "token" in step:
            game.play(step["token"])
        else:
            game.reveal((step["reveal"]["column"], step["reveal"]["depth"]), step["reveal"]["card"])
    except (Refusal, RevealError) as refusal:
        result = refusal.code
    waiting = game.awaiting_reveal
    return {**step, "result": result, "awaiting": waiting and waiting.to_dict(), "points": game.points}


@pytest.mark.parametrize("case", cases("hidden"), ids=lambda case: case["name"])
def test_hidden(case):
    revealed = {(r["column"], r["depth"]): r["card"] for r in case["revealed"]}
    game = HiddenCardGame.from_visible(case["deal"], revealed)
    known = Game(case["code"])  # every reveal of the file was answered from this deal
    for index, step in enumerate(case["steps"]):
        assert take_step(game, step) == step, f"step {index}"
        if "token" in step and step["result"] != UNKNOWN_CARD:
            try:
                known.play(step["token"])
            except Refusal as refusal:
                assert refusal.code == step["result"]
        assert game.to_dict() == masked(known, game), f"step {index}"
    assert game.to_dict() == case["position"]
    assert [str(move) for move in game.legal_moves] == case["moves"]


@pytest.mark.parametrize("case", cases("visible_deals"), ids=lambda case: case["name"])
def test_visible_deals(case):
    if "error" in case:
        assert case["error"] == "invalid_position"
        with pytest.raises(InvalidPositionError):
            HiddenCardGame.from_visible(case["deal"])
        return
    if "code" in case:
        assert visible_deal(case["code"]).to_dict() == case["deal"]
    game = HiddenCardGame.from_visible(case["deal"])
    assert game.to_dict() == case["position"]
    assert game.known_deal().to_dict() == {**case["deal"], "face_down": [0, 1, 2, 3, 4, 5, 6]}


def test_the_hidden_files_cover_both_rule_sets_every_reveal_refusal_undo_and_redeal():
    hidden_cases = cases("hidden")
    assert {case["deal"]["rules"] for case in hidden_cases} == {"classic", "relaxed"}
    results = {step["result"] for case in hidden_cases for step in case["steps"]}
    assert {"played", "revealed", UNKNOWN_CARD, "face_down", "nothing_to_undo", "game_over"} <= results
    assert {"not_face_down_place", "bad_card", "reveal_conflict", "card_elsewhere"} <= results
    assert any(case["position"]["won"] for case in hidden_cases)
    undos = [
        [step.get("token") == "U" and step["result"] == "played" for step in case["steps"]]
        for case in hidden_cases
    ]
    redeals = [case for case in undos if any(all(case[i : i + 4]) for i in range(len(case) - 3))]
    assert len(redeals) >= 6  # runs of undos: the redeals of the random games
    refused = cases("visible_deals")
    assert sum("error" in case for case in refused) >= 15 and sum("code" in case for case in refused) >= 4


def test_the_hidden_files_are_up_to_date():
    assert cases("hidden") == design_hidden.hidden_cases()
    assert cases("visible_deals") == design_hidden.visible_deal_cases()
