"""Cards, game codes and the deal (docs/rules.md, "Cards", "The deal", "Game codes")."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    CODE_MAX_LENGTH,
    DEAL_COUNT,
    WHOLE_DEAL_COUNT,
    Game,
    GameCode,
    InvalidCodeError,
    Rules,
    card_label,
    card_name,
    deal_columns,
    format_code,
    parse_card,
)
from games.engine.deal import reference_shuffle, shuffled_deck

# --- Cards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "index"), [("AS", 0), ("KS", 12), ("AH", 13), ("TD", 35), ("KC", 51)])
def test_card_index(name, index):
    assert parse_card(name) == index and card_name(index) == name


def test_card_labels_use_symbols_and_10():
    assert [card_label(parse_card(n)) for n in ("TD", "AS", "KC", "7H")] == ["10♦", "A♠", "K♣", "7♥"]


@pytest.mark.parametrize("text", ["10D", "td", "1S", "AX", "", "AS "])
def test_not_a_card(text):
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(text)


# --- Codes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rules", "number"),
    [
        ("YU1-C-AAAAAAA", Rules.CLASSIC, 0),
        ("YU1-C-AAAAAAB", Rules.CLASSIC, 1),
        ("YU1-R-AAAAABA", Rules.RELAXED, 26),
        ("YU1-R-ZZZZZZZ", Rules.RELAXED, 26**7 - 1),
        ("YU1-C-NXMRLXW", Rules.CLASSIC, 2**32),
        (" yu1-c-aaaaaab\n", Rules.CLASSIC, 1),
        ("Yu1-r-zZzZzZz", Rules.RELAXED, 8_031_810_175),
    ],
)
def test_codes_parse(text, rules, number):
    code = GameCode.parse(text)
    assert (code.rules, code.number) == (rules, number)
    assert str(code) == text.strip().upper()


def test_nxmrlxw_is_two_to_the_32():
    # N=13 X=23 M=12 R=17 L=11 X=23 W=22, base 26, most significant first.
    digits = [13, 23, 12, 17, 11, 23, 22]
    assert sum(d * 26 ** (6 - i) for i, d in enumerate(digits)) == 4_294_967_296


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("YU3-C-AAAAAAA", "expected YU1 or YU2"),
        ("YU0-C-AAAAAAA", "expected YU1 or YU2"),
        ("YU1-X-AAAAAAA", "expected C (Classic) or R (Relaxed)"),
        ("YU1-C-AAAAAA", "exactly 7 letters"),
        ("YU1-C-AAAAAAAA", "exactly 7 letters"),
        ("YU1-C-AAA1AAA", "exactly 7 letters"),
        ("YU1-C-AAAAAAA-B", "three parts"),
        ("YU1C-AAAAAAA", "three parts"),
        ("", "three parts"),
        ("yu1-c-aaaaaaı", "letters A–Z"),  # dotless i: must not be read as I
        ("YU1-C-AAAAAAſ", "letters A–Z"),  # long s: must not be read as S
    ],
)
def test_bad_codes_say_what_is_wrong(text, says):
    with pytest.raises(InvalidCodeError, match=re.escape(says)):
        GameCode.parse(text)


def test_invalid_code_is_a_value_error():
    assert issubclass(InvalidCodeError, ValueError)
    with pytest.raises(InvalidCodeError):
        GameCode.parse(None)  # type: ignore[arg-type]


def test_format_and_range():
    assert format_code(Rules.RELAXED, 1) == "YU1-R-AAAAAAB"
    assert repr(GameCode.parse("yu1-c-aaaaaab")) == "GameCode.parse('YU1-C-AAAAAAB')"
    with pytest.raises(InvalidCodeError):
        GameCode(Rules.CLASSIC, DEAL_COUNT)
    with pytest.raises(InvalidCodeError):
        GameCode(Rules.CLASSIC, -1)


@given(st.integers(0, DEAL_COUNT - 1), st.sampled_from(list(Rules)))
def test_codes_round_trip(number, rules):
    code = GameCode(rules, number)
    assert GameCode.parse(str(code)) == code
    assert GameCode.parse(str(code).lower()) == code


# --- YU2 codes: a whole deck -------------------------------------------------------------------

ORDERED = "0" * 46
LAST = "1FVS99MCKMRS4WZTTB305DPQ5SC0N9W1HRNCFZZZZZZZZZ"  # 52! − 1
NO_DEAL = "1FVS99MCKMRS4WZTTB305DPQ5SC0N9W1HRNCG000000000"  # 52!
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def reference_index(deal: str) -> int:
    """docs/rules.md, YU2's deal part: base 32, most significant first, Crockford's digits."""
    return sum(ALPHABET.index(ch) * 32 ** (45 - i) for i, ch in enumerate(deal))


def reference_deck(index: int) -> list[int]:
    """docs/rules.md, index to deck, word for word."""
    r = [0] * 52
    for i in range(51, -1, -1):
        r[i] = index % (52 - i)
        index = index // (52 - i)
    remaining = list(range(52))
    return [remaining.pop(r[i]) for i in range(52)]


def test_yu2_constants():
    assert WHOLE_DEAL_COUNT == math.factorial(52) and CODE_MAX_LENGTH == 52
    assert 32**45 < WHOLE_DEAL_COUNT <= 32**46
    assert reference_index(LAST) == WHOLE_DEAL_COUNT - 1 and reference_index(NO_DEAL) == WHOLE_DEAL_COUNT


@pytest.mark.parametrize(
    ("text", "rules", "number", "deck"),
    [
        (f"YU2-C-{ORDERED}", Rules.CLASSIC, 0, list(range(52))),
        (f" yu2-r-{ORDERED.lower()}\t", Rules.RELAXED, 0, list(range(52))),
        (f"YU2-R-{LAST}", Rules.RELAXED, WHOLE_DEAL_COUNT - 1, list(range(51, -1, -1))),
        (f"Yu2-c-{LAST.lower()}", Rules.CLASSIC, WHOLE_DEAL_COUNT - 1, list(range(51, -1, -1))),
        (f"YU2-C-{'0' * 45}1", Rules.CLASSIC, 1, [*range(50), 51, 50]),  # the next order: last two swapped
    ],
)
def test_yu2_codes_parse(text, rules, number, deck):
    code = GameCode.parse(text)
    assert (code.rules, code.number, code.version) == (rules, number, 2)
    assert str(code) == text.strip().upper() and len(str(code)) == CODE_MAX_LENGTH
    assert code.deck() == deck and GameCode.of_deck(rules, deck) == code
    assert repr(code) == f"GameCode.parse({str(code)!r})"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("YU2-C-AAAAAAA", "exactly 46 characters, not 7"),
        (f"YU2-C-{ORDERED}0", "exactly 46 characters, not 47"),
        ("YU2-C-", "exactly 46 characters, not 0"),
        (f"YU2-C-{'0' * 45}I", "'I' is not a YU2 deal character"),
        (f"YU2-C-{'0' * 45}o", "'O' is not a YU2 deal character"),
        (f"YU2-C-U{'0' * 45}", "'U' is not a YU2 deal character"),
        (f"YU2-C-{'0' * 20}L{'0' * 25}", "'L' is not a YU2 deal character"),
        (f"YU2-C-{'0' * 45}_", "'_' is not a YU2 deal character"),
        (f"YU2-C-{NO_DEAL}", "names no deal"),
        (f"YU2-C-{'Z' * 46}", "names no deal"),
        (f"YU2-X-{ORDERED}", "expected C (Classic) or R (Relaxed)"),
        (f"YU3-C-{ORDERED}", "expected YU1 or YU2"),
    ],
)
def test_bad_yu2_codes_say_what_is_wrong(text, says):
    with pytest.raises(InvalidCodeError, match=re.escape(says)):
        GameCode.parse(text)


def test_yu2_numbers_and_decks_are_checked():
    assert GameCode(Rules.CLASSIC, 5) == GameCode(Rules.CLASSIC, 5, 1) != GameCode(Rules.CLASSIC, 5, 2)
    with pytest.raises(InvalidCodeError):
        GameCode(Rules.CLASSIC, WHOLE_DEAL_COUNT, 2)
    with pytest.raises(InvalidCodeError):
        GameCode(Rules.CLASSIC, -1, 2)
    with pytest.raises(InvalidCodeError):
        GameCode(Rules.CLASSIC, 0, 3)
    for deck in ([*range(51), 0], list(range(51)), [*range(52), 0], [*range(51), "KC"], [*range(51), 52]):
        with pytest.raises(InvalidCodeError, match="52 cards"):
            GameCode.of_deck(Rules.CLASSIC, deck)


@pytest.mark.parametrize("text", ["YU1-C-AAAAAAA", "YU1-C-AAAAAAB", "YU1-R-ZZZZZZZ", "YU1-C-NXMRLXW"])
def test_the_whole_of_a_yu1_code_deals_the_same_layout(text):
    code = GameCode.parse(text)
    whole = code.whole()
    assert (whole.version, whole.rules) == (2, code.rules) and whole.whole() is whole
    assert whole.deck() == code.deck() == shuffled_deck(code.number)
    assert Game(whole).columns == Game(code).columns and Game(whole).code == whole
    assert deal_columns(whole) == deal_columns(code) == reference_deal(code.number)


@given(st.permutations(range(52)), st.sampled_from(list(Rules)))
def test_of_deck_deals_that_deck(deck, rules):
    code = GameCode.of_deck(rules, deck)
    assert code.deck() == deck == reference_deck(code.number)
    assert GameCode.parse(str(code).lower()) == code
    assert reference_index(str(code).split("-")[2]) == code.number


@given(st.integers(0, WHOLE_DEAL_COUNT - 1), st.integers(0, WHOLE_DEAL_COUNT - 1))
def test_the_index_is_the_lexicographic_rank(a, b):
    deck_a, deck_b = GameCode(Rules.CLASSIC, a, 2).deck(), GameCode(Rules.CLASSIC, b, 2).deck()
    assert (a < b) == (deck_a < deck_b) and (a == b) == (deck_a == deck_b)
    assert GameCode.parse(str(GameCode(Rules.RELAXED, a, 2))).number == a


# --- The deal: an independent transcription of docs/rules.md -----------------------------------


def reference_deal(n: int) -> list[list[int]]:
    m = 2**32

    def fmix(x: int) -> int:
        x ^= x >> 16
        x = x * 0x85EBCA6B % m
        x ^= x >> 13
        x = x * 0xC2B2AE35 % m
        return x ^ (x >> 16)

    def rotl(x: int, k: int) -> int:
        return (x << k | x >> (32 - k)) % m

    s = [fmix((n % m) ^ 0x9E3779B9), fmix((n // m) ^ 0x85EBCA6B)]
    s += [fmix(s[0] ^ s[1] ^ 0x6A09E667), fmix((s[0] + s[1] + 0xBB67AE85) % m)]

    def draw() -> int:
        result = rotl(s[1] * 5 % m, 7) * 9 % m
        t = (s[1] << 9) % m
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 11)
        return result

    for _ in range(8):
        draw()
    deck = list(range(52))
    for i in range(51, 0, -1):
        limit = m - m % (i + 1)
        while (x := draw()) >= limit:
            pass
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    sizes, columns, start = (1, 6, 7, 8, 9, 10, 11), [], 0
    for size in sizes:
        columns.append(deck[start : start + size])
        start += size
    return columns


@pytest.mark.parametrize("number", [0, 1, 2, 25, 26, 2**32 - 1, 2**32, 2**32 + 1, 26**7 - 1])
def test_deal_follows_the_contract(number):
    assert deal_columns(GameCode(Rules.CLASSIC, number)) == reference_deal(number)


@given(st.integers(0, DEAL_COUNT - 1))
def test_deal_follows_the_contract_everywhere(number):
    assert deal_columns(GameCode(Rules.CLASSIC, number)) == reference_deal(number)


@given(st.integers(0, DEAL_COUNT - 1))
def test_the_fast_shuffle_is_the_plain_one(number):
    assert shuffled_deck(number) == reference_shuffle(number)


def test_the_deal_shape():
    game = Game("YU1-C-AAAAAAA")
    assert [len(column) for column in game.columns] == [1, 6, 7, 8, 9, 10, 11]
    assert game.face_down == (0, 1, 2, 3, 4, 5, 6)
    assert sorted(card for column in game.columns for card in column) == list(range(52))
    assert game.foundations == (0, 0, 0, 0) and game.points == 0 and game.moves_made == 0


def test_classic_and_relaxed_share_the_layout():
    assert Game("YU1-C-QWERTYU").columns == Game("YU1-R-QWERTYU").columns


def test_neighbouring_and_far_numbers_are_different_deals():
    codes = ["YU1-C-AAAAAAA", "YU1-C-AAAAAAB", "YU1-C-ZZZZZZZ", "YU1-C-NXMRLXW", "YU1-C-NXMRLXV"]
    layouts = {Game(code).columns for code in codes}
    assert len(layouts) == len(codes)  # 2^32 differs from 0: the high word seeds the generator
