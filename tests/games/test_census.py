"""The census shared through Celery (games/solving/census.py, `manage.py census`): each deal is
settled once whatever is sent twice, its answer joins the deal's row, and the JSON lines are those
of the pure census. Tasks run eagerly here; tests/games/test_census_stack.py runs real workers."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from games.engine import GameCode, Rules
from games.models import CensusVerdict, SolvedDeal
from games.solver.census import census_line, parse_deals
from games.solving.census import census_codes, census_enqueue, census_export, census_progress

pytestmark = pytest.mark.django_db

WON = "YU1-C-AAAAAAC"  # won in milliseconds
UNWINNABLE = "YU1-C-AAAAACX"  # proven unwinnable in well under a second


def test_a_deal_is_settled_once_however_often_it_is_sent():
    assert census_enqueue(census="c", codes=[WON, UNWINNABLE], seconds=30, max_nodes=200_000) == 2
    assert census_enqueue(census="c", codes=[WON, UNWINNABLE], seconds=30, max_nodes=200_000) == 0

    rows = {row.code: row for row in CensusVerdict.objects.filter(census="c")}
    assert {code: row.result for code, row in rows.items()} == {WON: "won", UNWINNABLE: "unwinnable"}
    assert rows[WON].moves > 0 and rows[UNWINNABLE].moves is None and rows[WON].nodes > 0
    assert census_progress(census="c") == {"won": 1, "unwinnable": 1}
    # The deal's own row knows it too (its page shows the verdict and par).
    assert dict(SolvedDeal.objects.values_list("code", "result")) == {WON: "won", UNWINNABLE: "unwinnable"}


def test_censuses_are_apart():
    census_enqueue(census="a", codes=[WON], seconds=30, max_nodes=200_000)
    assert census_enqueue(census="b", codes=[WON], seconds=30, max_nodes=200_000) == 1
    assert CensusVerdict.objects.filter(code=WON).count() == 2


def test_the_export_has_the_pure_census_lines(tmp_path):
    census_enqueue(census="c", codes=[UNWINNABLE, WON], seconds=30, max_nodes=200_000)
    out = tmp_path / "c.jsonl"

    assert census_export(census="c", out=out) == 2
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["code"] for line in lines] == sorted([WON, UNWINNABLE])
    assert all(set(line) == {"code", "result", "seconds", "nodes", "by", "moves"} for line in lines)
    # The same keys as the pure census's lines.
    from games.solver import solve

    assert set(census_line(WON, solve(WON, max_nodes=1000))) == set(lines[0])


def test_the_deals_are_read_as_the_pure_census_reads_them():
    assert census_codes(rules="classic", deals="0-2") == ["YU1-C-AAAAAAA", "YU1-C-AAAAAAB", "YU1-C-AAAAAAC"]
    sample = [str(GameCode(Rules.RELAXED, number)) for number in parse_deals("random:7:3")]
    assert census_codes(rules="relaxed", deals="random:7:3") == sample


def test_the_command_sends_shows_and_exports(tmp_path, capsys):
    call_command("census", "--name", "cmd", "--deals", "2-2", "--seconds", "30", "--max-nodes", "200000")
    call_command("census", "--name", "cmd", "--progress")
    call_command("census", "--name", "cmd", "--export", str(tmp_path / "out.jsonl"))

    said = capsys.readouterr().out
    assert "cmd: 1 deals, 1 sent to the census queue" in said and "{'won': 1}" in said
    assert json.loads((tmp_path / "out.jsonl").read_text())["code"] == "YU1-C-AAAAAAC"
    with pytest.raises(CommandError, match="--deals"):
        call_command("census", "--name", "cmd")
    with pytest.raises(CommandError, match="START-END"):
        call_command("census", "--name", "cmd", "--deals", "nonsense")
