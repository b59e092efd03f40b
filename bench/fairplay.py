"""The fair-play lab: a labelled corpus of games, analysed as the server analyses a result, and
how often each kind of player is reported and marked (docs/fairplay.md, "The lab").

    python bench/fairplay.py [--players 6] [--games 10] [--budget lab] [--seed 1] [--kinds K,…] [--json]
        [--searcher-samples 3] [--searcher-nodes 300]

Kinds of player, each `--players` players of `--games` games on random Classic deals:
- `cheater`: knows the face-down cards (a leaked deal): plays the solver's win of the true deal,
  at a person's pace (log-normal pauses, longer after a card turns up);
- `peeker`: the same line, with a move and its undo before it at a third of the moves that turn
  a card up (it looks before it commits);
- `searcher`: a program with no leak, at a person's pace: it plays a safe foundation move (or the
  only choice) at once, and elsewhere ranks the choices (fairplay/choices.py) on a few samples of
  the cards it has never seen (its own small search: SEARCHER_SAMPLES arrangements, solves of
  SEARCHER_NODES positions) and plays the top one (ties, which are most positions: the people's
  heuristic below decides), never back to a table it has left; it stops when won or when every
  move leads back;
- `person-<skill>`: no program and no leak, modelled: at each position it picks a move by a noisy
  heuristic (a foundation move, a card turned up, a King to an empty column, a move that frees a
  column), blunders (a random legal move) at a rate that falls with skill, thinks longer where
  there are more moves to choose from, and stops when it has gone round in circles. We have no
  real players' games: these are models, and the false-report figures are only as good as them.

Each game: fairplay.features.game_features and fairplay.verdicts.game_verdicts (the `--budget`:
`lab`, or `default` as shipped), scored by fairplay.scoring.game_score; a player is reported
after k games when one of their first k games scored FAIRPLAY_REPORT_SCORE or more or their luck
so far reached FAIRPLAY_REPORT_LUCK, marked when FAIRPLAY_MARK_GAMES of them scored
FAIRPLAY_MARK_SCORE or more or their luck reached FAIRPLAY_MARK_LUCK over that many lucky games
(the settings' defaults, as fairplay/cases.py weighs them).
Printed per kind: reported and marked after 1, 3, 5 and 10 games with a 95% Wilson interval,
the corpus size, and CPU seconds per analysed game. `--kinds` (comma-separated) runs only some
kinds; stderr has each player's scores, luck and games won.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from fairplay.choices import Solves, Table, candidates, is_safe, is_sideways, rank_moves  # noqa: E402
from fairplay.features import game_features  # noqa: E402
from fairplay.scoring import game_score  # noqa: E402
from fairplay.verdicts import BUDGETS, face_up_cards, game_verdicts  # noqa: E402
from games.engine import FOUNDATION, RANK, UNDO, Game, Move  # noqa: E402
from games.solver import solve  # noqa: E402

CHECKPOINTS = (1, 3, 5, 10)
SKILLS = {"novice": (0.15, 1.6), "casual": (0.07, 1.0), "skilled": (0.02, 0.5)}  # blunder rate, noise
MAX_PERSON_MOVES = 220
# The searcher's own search at a contested position: the lab budget's samples and solves.
SEARCHER_SAMPLES, SEARCHER_NODES, SEARCHER_SECONDS = 3, 300, 0.25
KINDS = ("cheater", "peeker", "searcher", *(f"person-{skill}" for skill in SKILLS))


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def pauses(
    rng: random.Random, game_tokens: list[str], code: str, *, think: list[float] | None = None
) -> list[int]:
    """The game's clock at each token: log-normal pauses, longer after a card turns up (and where
    `think` says a position was harder)."""
    game, clock, times = Game(code), 0.0, []
    for index, token in enumerate(game_tokens):
        before = sum(game.face_down)
        game.play(token)
        times.append(round(clock))
        pause = rng.lognormvariate(math.log(1100), 0.45) * (think[index] if think else 1.0)
        if sum(game.face_down) < before:
            pause *= rng.uniform(1.3, 2.2)  # a new card to look at
        clock += max(pause, 200)
    return times


def cheater_line(rng: random.Random, code: str) -> list[str] | None:
    solution = solve(code, time_limit=8.0)
    return [str(move) for move in solution.moves] if solution.won else None


def with_peeks(rng: random.Random, code: str, line: list[str]) -> list[str]:
    game, tokens = Game(code), []
    for token in line:
        before = sum(game.face_down)
        game.play(token)
        if sum(game.face_down) < before and rng.random() < 1 / 3:
            game.undo()  # it looked at the card, took the move back (still counted), and plays on
            game.play(token)
            tokens += [token, UNDO]
        tokens.append(token)
    return tokens


def heuristic(game: Game, move: Move) -> float:
    """A person's sense of a good move: the foundations, a card turned up, room made."""
    if move.dest == FOUNDATION:
        return 3.0
    for column, cards in enumerate(game.columns):
        if move.card in cards:
            depth = cards.index(move.card)
            frees = depth == game.face_down[column] and game.face_down[column] > 0
            empties = depth == 0
            king_to_empty = RANK[move.card] == 13 and not game.columns[move.dest] and depth > 0
            return 2.0 * frees + 1.0 * empties + 1.0 * king_to_empty
    return -2.0  # a take-back from a foundation


def person_game(
    rng: random.Random, code: str, blunders: float, noise: float
) -> tuple[list[str], list[float]]:
    game, tokens, think, seen = Game(code), [], [], set()
    for _ in range(MAX_PERSON_MOVES):
        moves = list(game.legal_moves)
        if not moves or game.is_won():
            break
        if rng.random() < blunders:
            move = rng.choice(moves)
        else:
            move = max(moves, key=lambda m: heuristic(game, m) + rng.gauss(0, noise))
        game.push(move)
        key = (game.columns, game.foundations)
        if key in seen:  # round in circles: a person gives up here
            break
        seen.add(key)
        tokens.append(str(move))
        think.append(1.0 + 0.15 * min(len(moves), 12))
    return tokens, think


def choices_of(game: Game) -> list[Move]:
    """The choices at a position as the verdicts count them (fairplay.choices.candidates): legal
    moves to different tables, the sideways ones (a take-back, a group moved off a card it fits)
    left out (when nothing else is legal: the first of them alone)."""
    moves = list(game.legal_moves)
    if not moves:
        return []
    table = Table.of(game)
    chosen = next((move for move in moves if not is_sideways(table, move)), moves[0])
    return candidates(game, chosen)


def searcher_game(
    rng: random.Random,
    code: str,
    *,
    samples: int = SEARCHER_SAMPLES,
    nodes: int = SEARCHER_NODES,
    seconds: float = SEARCHER_SECONDS,
) -> tuple[list[str], list[float]]:
    """A program with no leak: the only choice or a safe foundation move at once, else the choice
    that wins the most samples of the cards it has never seen (ties: the heuristic's favourite). It never goes
    back to a table it has left (up to the order of the columns): a move back, or a King moved from
    one empty column to another, scores at least as well as any move on every sample, and would
    win every tie."""
    game, tokens, think, positions = Game(code), [], [], set()
    seen = face_up_cards(game)
    tables = {Table.of(game).key()}
    for ply in range(MAX_PERSON_MOVES):
        if game.is_won():
            break
        table = Table.of(game)
        choices = [choice for choice in choices_of(game) if table.after(choice).key() not in tables]
        # Ties (most positions: every choice wins every sample) go to a person's sense of a move.
        choices.sort(key=lambda choice: -heuristic(game, choice))
        if not choices:
            break
        safe = [choice for choice in choices if is_safe(choice, game.foundations, game.rules)]
        if len(choices) == 1:
            move = choices[0]
        elif safe:
            move = safe[0]
        else:
            ranking = rank_moves(
                table,
                frozenset(seen),
                choices,
                samples=samples,
                solves=Solves(nodes, seconds),
                seed=f"searcher:{code}:{ply}",
            )
            marks = [-1.0 if score is None else score for score in ranking.scores]
            move = choices[marks.index(max(marks))]
        game.push(move)
        key = (game.columns, game.foundations)
        if key in positions:  # round in circles: it gives up here
            break
        positions.add(key)
        tables.add(Table.of(game).key())
        seen |= face_up_cards(game)
        tokens.append(str(move))
        think.append(1.0 + 0.15 * min(len(choices), 12))
    return tokens, think


def is_won(code: str, tokens: list[str]) -> bool:
    game = Game(code)
    for token in tokens:
        game.play(token)
    return game.is_won()


@dataclass
class Player:
    kind: str
    scores: list[float] = field(default_factory=list)
    lucks: list[float] = field(default_factory=list)
    won: int = 0
    play_cpu: list[float] = field(default_factory=list)  # its own play, a game (the searcher's search)
    analysis_cpu: list[float] = field(default_factory=list)

    def reported(self, k: int) -> bool:
        """As fairplay/cases.py: a game at the report score, or the luck of the games so far."""
        return any(s >= settings.FAIRPLAY_REPORT_SCORE for s in self.scores[:k]) or any(
            self.lucks[n] > 0 and sum(self.lucks[: n + 1]) >= settings.FAIRPLAY_REPORT_LUCK for n in range(k)
        )

    def marked(self, k: int, mark_games: int) -> bool:
        strong = sum(s >= settings.FAIRPLAY_MARK_SCORE for s in self.scores[:k]) >= mark_games
        lucky = any(
            self.lucks[n] > 0
            and sum(self.lucks[: n + 1]) >= settings.FAIRPLAY_MARK_LUCK
            and sum(luck > 0 for luck in self.lucks[: n + 1]) >= mark_games
            for n in range(k)
        )
        return strong or lucky


def analyse(code: str, tokens: list[str], times: list[int], budget) -> tuple[float, float, float]:
    started = time.process_time()
    features = game_features(code, tokens, times).to_dict()
    features.update(game_verdicts(code, tokens, budget).features())
    if os.environ.get("FAIRPLAY_LAB_TRACE"):
        trace = {name: features.get(name) for name in ("luck", "hidden_edge", "top_choice_share")}
        print(f"  {code} moves={len(tokens)} {trace} score={game_score(features).total}", file=sys.stderr)
    return game_score(features).total, features.get("luck") or 0.0, time.process_time() - started


def survey(rng: random.Random, deals: int) -> None:
    """What knowing the face-down cards is worth, move by move: the solver's win of the true deal,
    every contested position searched (the default budget's samples and solves, no CPU cap), and
    at each the odds, on what could be seen, that the line's move keeps the deal winnable."""
    budget = replace(BUDGETS["default"], seconds=600.0)
    contested = below = 0
    lucks = []
    for _ in range(deals):
        code = line = None
        while line is None:
            code = f"YU1-C-{''.join(rng.choice('ABCDEFGHIJKLMNOPQRSTUVWXYZ') for _ in range(7))}"
            line = cheater_line(rng, code)
        verdicts = game_verdicts(code, line, budget)
        odds = [v.odds for v in verdicts.moves if v.odds is not None]
        contested += len(odds)
        below += sum(o < 1 for o in odds)
        lucks.append(verdicts.features()["luck"] or 0.0)
        print(f"{code}: {len(line)} moves, {len(odds)} contested, odds below 1: "
              f"{sorted(o for o in odds if o < 1)}, luck {lucks[-1]}", file=sys.stderr)  # fmt: skip
    print(f"{deals} solver wins of the true deal: {below} of {contested} contested positions "
          f"({below / max(contested, 1):.1%}) had the line's move at odds below 1 on what could be seen; "
          f"luck a game: median {sorted(lucks)[len(lucks) // 2]:.3f}, "
          f"max {max(lucks):.3f} (log10)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=6, help="players of each kind")
    parser.add_argument("--games", type=int, default=10, help="games a player")
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="lab")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of: {', '.join(KINDS)}")
    parser.add_argument("--searcher-samples", type=int, default=SEARCHER_SAMPLES, help="its samples")
    parser.add_argument("--searcher-nodes", type=int, default=SEARCHER_NODES, help="its positions a solve")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--survey", type=int, metavar="DEALS", help="only: what knowing the deal is worth")
    args = parser.parse_args()
    kinds = [kind.strip() for kind in args.kinds.split(",") if kind.strip()]
    if not kinds or any(kind not in KINDS for kind in kinds):
        parser.error(f"--kinds: comma-separated, of: {', '.join(KINDS)}")
    rng = random.Random(args.seed)
    if args.survey:
        survey(rng, args.survey)
        return
    budget = BUDGETS[args.budget]
    report, mark = settings.FAIRPLAY_REPORT_SCORE, settings.FAIRPLAY_MARK_SCORE
    mark_games = max(2, settings.FAIRPLAY_MARK_GAMES)
    players, cpu = [], []
    for kind in kinds:
        for _ in range(args.players):
            player = Player(kind)
            while len(player.scores) < args.games:
                code = f"YU1-C-{''.join(rng.choice('ABCDEFGHIJKLMNOPQRSTUVWXYZ') for _ in range(7))}"
                started = time.process_time()
                if kind in ("cheater", "peeker"):
                    line = cheater_line(rng, code)
                    if line is None:
                        continue  # a deal the solver does not win at once: the program takes another
                    tokens = line if kind == "cheater" else with_peeks(rng, code, line)
                    times = pauses(rng, tokens, code)
                elif kind == "searcher":
                    tokens, think = searcher_game(
                        rng, code, samples=args.searcher_samples, nodes=args.searcher_nodes
                    )
                    if not tokens:
                        continue
                    times = pauses(rng, tokens, code, think=think)
                else:
                    blunders, noise = SKILLS[kind.split("-", 1)[1]]
                    tokens, think = person_game(rng, code, blunders, noise)
                    if not tokens:
                        continue
                    times = pauses(rng, tokens, code, think=think)
                player.play_cpu.append(time.process_time() - started)
                score, luck, seconds = analyse(code, tokens, times, budget)
                player.scores.append(score)
                player.lucks.append(luck)
                player.won += is_won(code, tokens)
                player.analysis_cpu.append(seconds)
                cpu.append(seconds)
            players.append(player)
            print(f"{kind}: scores {' '.join(f'{s:.0f}' for s in player.scores)}; "
                  f"luck {' '.join(f'{luck:.2f}' for luck in player.lucks)}; "
                  f"won {player.won}/{len(player.scores)}; "
                  f"CPU s play {' '.join(f'{s:.1f}' for s in player.play_cpu)}, "
                  f"analysis {' '.join(f'{s:.1f}' for s in player.analysis_cpu)}",
                  file=sys.stderr)  # fmt: skip

    rows = []
    for kind in kinds:
        group = [p for p in players if p.kind == kind]
        row = {
            "kind": kind,
            "players": len(group),
            "games": sum(len(p.scores) for p in group),
            "won": sum(p.won for p in group),
        }
        for k in CHECKPOINTS:
            if k > args.games:
                continue
            reported = sum(p.reported(k) for p in group)
            marked = sum(p.marked(k, mark_games) for p in group)
            row[f"reported_{k}"] = (reported, wilson(reported, len(group)))
            row[f"marked_{k}"] = (marked, wilson(marked, len(group)))
        rows.append(row)
    figures = {
        "budget": args.budget,
        "thresholds": {"report": report, "mark": mark, "mark_games": mark_games},
        "cpu_s_per_game": {"median": sorted(cpu)[len(cpu) // 2], "max": max(cpu), "games": len(cpu)},
        "kinds": rows,
    }
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    print(f"budget {args.budget}; report ≥ {report} or luck ≥ {settings.FAIRPLAY_REPORT_LUCK}, "
          f"mark: {mark_games} games ≥ {mark} or luck ≥ {settings.FAIRPLAY_MARK_LUCK}")  # fmt: skip
    print(f"CPU per analysed game: median {figures['cpu_s_per_game']['median']:.2f} s, "
          f"max {figures['cpu_s_per_game']['max']:.2f} s, {len(cpu)} games")  # fmt: skip
    for row in rows:
        cells = []
        for k in CHECKPOINTS:
            if f"reported_{k}" not in row:
                continue
            (r, (rl, rh)), (m, (ml, mh)) = row[f"reported_{k}"], row[f"marked_{k}"]
            cells.append(f"after {k}: reported {r}/{row['players']} [{rl:.0%}–{rh:.0%}], "
                         f"marked {m}/{row['players']} [{ml:.0%}–{mh:.0%}]")  # fmt: skip
        print(f"{row['kind']} ({row['players']} players, {row['games']} games, {row['won']} won): "
              + "; ".join(cells))  # fmt: skip


if __name__ == "__main__":
    main()
