"""`Game.refusal_params`: the figures of a refusal as the browser engine's catalogs take them
(refusals.js `MESSAGES_EN`, a `variant` picking a template), so that a page words the server's
reason for a refused move in its own language. Filled into the English catalog, they say what
`Game.explain` says, for every refusal met in many positions of both rule sets.
"""

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engine import Game
from games.engine.move import MOVES_BY_TEXT

REFUSALS_MODULE = (
    Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "js" / "engine" / "refusals.js"
)


@pytest.fixture(scope="module")
def messages_en() -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is needed to read the engine's English refusal catalog")
    module = json.dumps(REFUSALS_MODULE.as_uri())
    script = f"import {{ MESSAGES_EN }} from {module}; console.log(JSON.stringify(MESSAGES_EN));"
    result = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def fill(template: str, params: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda found: str(params[found.group(1)]), template)


@pytest.mark.parametrize("code", ["YU1-C-AAAAAAA", "YU1-C-AAAAABR", "YU1-R-AAAAAAA", "YU1-R-AAAAABR"])
def test_the_figures_fill_the_english_catalog_as_explain_words_it(code, messages_en):
    chance = random.Random(code)
    game = Game(code)
    met = set()
    for _ in range(120):
        for move in MOVES_BY_TEXT.values():
            refusal = game.check_move(move.card, move.dest)
            if refusal is None:
                continue
            met.add(refusal)
            params = game.refusal_params(refusal, move)
            entry = messages_en[refusal]
            template = entry[params["variant"]] if isinstance(entry, dict) else entry
            assert fill(template, params) == game.explain(refusal, move), (code, str(move))
        legal = list(game.legal_moves)
        if not legal:
            break
        game.push(chance.choice(legal))
    assert {"same_column", "wrong_rank", "not_last_card", "foundation_order"} <= met
