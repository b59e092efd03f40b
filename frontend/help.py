"""What the help page draws and computes: small table positions for its examples, drawn with
the table's own card markup (templates/frontend/help/), and the worked score examples,
computed by the engine's own scoring so that the page can never disagree with the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine import REFUSAL_CODES, parse_card, ranked_score
from games.engine.cards import RANK, RANK_LABELS, SUIT, SUIT_CHARS, card_label
from games.engine.scoring import POINTS_PER_FLIP, POINTS_PER_FOUNDATION_CARD

FACE_DOWN = "##"
COURT_RANKS = {11, 12, 13}


@dataclass(frozen=True)
class DrawnCard:
    """A card as the table draws it; `name` is None for a face-down card."""

    name: str | None
    lifted: bool = False  # part of the group being moved: it lifts and glows, as at the table

    @property
    def up(self) -> bool:
        return self.name is not None

    @property
    def _index(self) -> int:
        return parse_card(self.name)

    @property
    def label(self) -> str:
        return card_label(self._index)

    @property
    def rank(self) -> str:
        return RANK_LABELS[RANK[self._index] - 1]

    @property
    def suit(self) -> str:
        return SUIT_CHARS[SUIT[self._index]]

    @property
    def court(self) -> bool:
        return RANK[self._index] in COURT_RANKS


@dataclass(frozen=True)
class Place:
    """A column (cards bottom to top) or a foundation (its top card) in a drawing."""

    cards: tuple[DrawnCard, ...] = ()
    foundation: str = ""  # the suit letter of a foundation; "" for a column
    mark: str = ""  # "target": where the move goes; "refused": where it may not go
    note: str = ""  # a word under the place: which rule sets allow it ("both", "relaxed", "none")


@dataclass(frozen=True)
class Drawing:
    """One example: the places before the move and, for a move that is made, after it."""

    before: tuple[Place, ...]
    after: tuple[Place, ...] = field(default_factory=tuple)


def cards(text: str, *, lifted_from: str | None = None) -> tuple[DrawnCard, ...]:
    """`cards("## 9C 3D")`: a column bottom to top; cards from `lifted_from` on are lifted."""
    drawn, lifting = [], False
    for name in text.split():
        lifting = lifting or name == lifted_from
        drawn.append(DrawnCard(None if name == FACE_DOWN else name, lifted=lifting and name != FACE_DOWN))
    return tuple(drawn)


def column(text: str = "", *, lifted_from: str | None = None, mark: str = "", note: str = "") -> Place:
    return Place(cards(text, lifted_from=lifted_from), mark=mark, note=note)


def foundation(suit: str, top: str | None = None, *, lifted: bool = False) -> Place:
    return Place((DrawnCard(top, lifted=lifted),) if top else (), foundation=suit)


# The drawings of the help page, by the rule each shows.
DRAWINGS = {
    # 9♣ fits on 10♥: it moves with 3♦, Q♠ and 6♥ (in no order); the card under it turns up.
    "group": Drawing(
        before=(column("## TH", mark="target"), column("## ## 9C 3D QS 6H", lifted_from="9C")),
        after=(column("## TH 9C 3D QS 6H"), column("## 5S")),
    ),
    # An empty column: Q♦ may not go there, K♣ (with 2♥ on it) may.
    "empty": Drawing(
        before=(column("## QD 5C", lifted_from="QD"), column(mark="refused"), column("## ## KC 2H")),
        after=(column("## QD 5C"), column("KC 2H"), column("## 4S")),
    ),
    # A take-back: 5♥ from its foundation onto 6♠.
    "takeback": Drawing(
        before=(foundation("H", "5H", lifted=True), column("## 6S", mark="target")),
        after=(foundation("H", "4H"), column("## 6S 5H")),
    ),
    # Colours: 7♥ on 8♠ in both rule sets, on 8♦ in Relaxed only; never on a 9.
    "colours": Drawing(
        before=(column("8S 7H", note="both"), column("8D 7H", note="relaxed"), column("9C 7H", note="none"))
    ),
}

# Each refusal the table can explain has a section of the page: /help#rule-<code>.
RULE_ANCHORS = {code: f"rule-{code}" for code in REFUSAL_CODES}


def _number(value: int) -> str:
    return f"{value:,}"


def score_examples() -> dict[str, dict[str, str]]:
    """The worked examples of the Scores section, computed as the game computes them."""
    win_moves, stop_cards, stop_moves = 112, 30, 250
    return {
        "win": {
            "moves": _number(win_moves),
            "score": _number(ranked_score(foundation_cards=52, won=True, moves=win_moves)),
        },
        "stopped": {
            "cards": _number(stop_cards),
            "moves": _number(stop_moves),
            "score": _number(ranked_score(foundation_cards=stop_cards, won=False, moves=stop_moves)),
        },
        "points": {
            "flipped": "21",
            "cards": _number(stop_cards),
            "points": _number(21 * POINTS_PER_FLIP + stop_cards * POINTS_PER_FOUNDATION_CARD),
        },
        "clean_win": {"points": _number(52 * POINTS_PER_FOUNDATION_CARD + 21 * POINTS_PER_FLIP)},
    }
