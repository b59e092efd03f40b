"""The evidence of a review case on one screen (the case's admin page): each move's verdict and
pause drawn server-side as an inline SVG (no script, no library; a title, a description and a
table for those who cannot see it), the game's features against the player's own history and
everyone's (medians), the score's reasons and the decisions taken so far."""

from __future__ import annotations

import math
import statistics

from django.conf import settings
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from accounts.devices import SIGHTINGS_KEPT
from fairplay.collusion import browsers_shared, case_kind
from fairplay.models import CaseDecision, GameAnalysis
from fairplay.scoring import game_score
from games.models import ReplayFlag, Submission

FEATURES = (
    "hidden_edge", "hidden_edges", "top_choice_share", "blunders", "contested", "searched",
    "unknown_positions", "moves", "undos", "reveals", "peeks", "reveal_reaction", "rhythm_spread",
    "pause_after_reveal_ms", "pause_after_other_ms",
)  # fmt: skip
POPULATION = 1000  # the latest analyses the population's medians are taken over
WIDTH, HEIGHT, PAD = 720, 200, 30
PAUSE_MIN, PAUSE_MAX = 50, 60_000  # ms: the chart's log scale
COLOURS = {  # a verdict's colour; the table and each bar's title say it in words too
    "edge": "#c0392b", "searched": "#2e86c1", "below": "#e67e22", "forced": "#95a5a6",
    "safe": "#27ae60", "skipped": "#d5dbdb", "undo": "#8e44ad", "": "#bfc9ca",
}  # fmt: skip


def case_analyses(case: ReplayFlag) -> list[GameAnalysis]:
    """The case's games: those linked to it, and the analysis of the result it was opened on."""
    found = GameAnalysis.objects.filter(case=case) | GameAnalysis.objects.filter(
        submission_id=case.submission_id
    )
    return list(found.select_related("submission").distinct().order_by("-analysed_at", "-pk"))


def verdict_label(verdict: dict) -> tuple[str, str]:
    """(colour key, words) of one move's verdict."""
    kind = verdict.get("kind", "")
    if kind == "searched":
        if verdict.get("edge"):
            return "edge", f"searched: ranked {verdict.get('rank')} of {verdict.get('of')}, hidden edge"
        if verdict.get("rank") is None:
            return "searched", "searched: unknown"
        key = "searched" if verdict.get("rank") == 1 else "below"
        return key, f"searched: ranked {verdict['rank']} of {verdict.get('of')}"
    return kind, kind or "not judged"


def move_rows(analysis: GameAnalysis) -> list[dict]:
    submission = analysis.submission
    tokens, times = submission.log.split(), list(submission.move_times_ms)
    verdicts = analysis.verdicts or [{} for _ in tokens]
    rows = []
    for index, token in enumerate(tokens):
        pause = (
            times[index] - times[index - 1] if index and index < len(times) else (times[0] if times else 0)
        )
        key, words = verdict_label(verdicts[index] if index < len(verdicts) else {})
        rows.append({"index": index + 1, "token": token, "pause": max(pause, 0), "key": key, "words": words})
    return rows


def _y(pause: int) -> float:
    span = math.log(PAUSE_MAX) - math.log(PAUSE_MIN)
    share = (math.log(min(max(pause, PAUSE_MIN), PAUSE_MAX)) - math.log(PAUSE_MIN)) / span
    return HEIGHT - PAD - share * (HEIGHT - 2 * PAD)


def move_chart(analysis: GameAnalysis) -> SafeString:
    """Each move's pause (bar height, log scale) coloured by its verdict, with a table fallback."""
    rows = move_rows(analysis)
    step = (WIDTH - 2 * PAD) / max(len(rows), 1)
    bar = '<rect x="{}" y="{}" width="{}" height="{}" fill="{}" data-verdict="{}"><title>{}</title></rect>'
    bars = format_html_join(
        "",
        bar,
        (
            (
                f"{PAD + i * step:.1f}",
                f"{_y(r['pause']):.1f}",
                f"{max(step - 1, 1):.1f}",
                f"{HEIGHT - PAD - _y(r['pause']):.1f}",
                COLOURS.get(r["key"], COLOURS[""]),
                r["key"],
                f"move {r['index']} {r['token']}: {r['pause']} ms, {r['words']}",
            )
            for i, r in enumerate(rows)
        ),
    )
    chart = format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
        'aria-labelledby="chart-title-{id} chart-desc-{id}" class="fairplay-chart">'
        '<title id="chart-title-{id}">Result {sub}: each move\'s pause and verdict</title>'
        '<desc id="chart-desc-{id}">{n} moves; a bar\'s height is the pause before the move, '
        "{lo} ms to {hi} s on a log scale; its colour the solver's verdict; {edges} move(s) with the "
        "hidden edge.</desc>"
        '<line x1="{pad}" y1="{base}" x2="{right}" y2="{base}" stroke="#555"/>'
        '<text x="{pad}" y="{label}" font-size="11">moves 1–{n}</text>{bars}</svg>',
        w=WIDTH,
        h=HEIGHT,
        id=analysis.pk or f"r{analysis.submission_id}",  # a result never analysed: by its id
        sub=analysis.submission_id,
        n=len(rows),
        lo=PAUSE_MIN,
        hi=PAUSE_MAX // 1000,
        edges=sum(r["key"] == "edge" for r in rows),
        pad=PAD,
        base=HEIGHT - PAD,
        right=WIDTH - PAD,
        label=HEIGHT - 8,
        bars=bars,
    )
    legend = format_html_join(
        " ",
        '<span style="color:{}">■</span> {}',
        ((colour, key or "not judged") for key, colour in COLOURS.items()),
    )
    cells = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        ((r["index"], r["token"], r["pause"], r["words"]) for r in rows),
    )
    table = format_html(
        "<details><summary>The moves as a table</summary><table><thead><tr><th>Move</th><th>Token</th>"
        "<th>Pause (ms)</th><th>Verdict</th></tr></thead><tbody>{}</tbody></table></details>",
        cells,
    )
    return format_html("<figure>{}<figcaption>{}</figcaption></figure>{}", chart, legend, table)


def _median(values) -> float | None:
    known = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    return round(statistics.median(known), 3) if known else None


def feature_comparison(analysis: GameAnalysis) -> list[tuple[str, object, float | None, float | None]]:
    """(feature, this game, the player's median over their other games, everyone's median)."""
    done = GameAnalysis.objects.filter(state=GameAnalysis.State.DONE).exclude(pk=analysis.pk)
    own = list(
        done.filter(submission__user_id=analysis.submission.user_id).values_list("features", flat=True)
    )
    everyone = list(done.order_by("-pk").values_list("features", flat=True)[:POPULATION])
    return [
        (
            name,
            analysis.features.get(name),
            _median(f.get(name) for f in own),
            _median(f.get(name) for f in everyone),
        )
        for name in FEATURES
    ]


def case_evidence(case: ReplayFlag) -> SafeString:
    """The whole screen's evidence: per game the replay link, the score and why, the chart, the
    features against history; then the decisions on the player's cases. A collusion case shows
    its two results side by side first."""
    parts = [_game_evidence(analysis) for analysis in case_analyses(case)]
    if case.reason == ReplayFlag.Reason.COLLUSION:
        parts.insert(0, collusion_sides(case))
    decisions = (
        CaseDecision.objects.filter(case__user_id=case.user_id).select_related("by").order_by("-decided_at")
    )
    history = format_html_join(
        "",
        "<li>{} case {}: {} by {}: “{}”</li>",
        (
            (d.decided_at.strftime("%Y-%m-%d %H:%M"), d.case_id, d.get_action_display(), d.by, d.why)
            for d in decisions
        ),
    )
    parts.append(
        format_html(
            "<section><h3>Decisions on this player's cases</h3><ul>{}</ul></section>",
            history or mark_safe("<li>none yet</li>"),
        )
    )
    return format_html_join("", "{}", ((part,) for part in parts))


def _game_evidence(analysis: GameAnalysis) -> SafeString:
    score = game_score(analysis.features)
    reasons = format_html_join(
        "", "<li>+{} {}: {}</li>", ((f"{p.points:.1f}", p.feature, p.why) for p in score.parts)
    )
    rows = format_html_join(
        "",
        "<tr><th scope='row'>{}</th><td>{}</td><td>{}</td><td>{}</td></tr>",
        (
            (name, _shown(mine), _shown(own), _shown(all_))
            for name, mine, own, all_ in feature_comparison(analysis)
        ),
    )
    return format_html(
        '<section><h3>Result {sub}: <a href="/replay/{sub}">replay</a>, analysed as “{reason}”</h3>'
        "<p>Score {score} (report at {report}, mark at {mark} in {games} games)</p><ul>{reasons}</ul>{chart}"
        "<table><caption>Features: this game, the player's median, everyone's median</caption>"
        "<thead><tr><th>Feature</th><th>This game</th><th>Player</th><th>Everyone</th></tr></thead>"
        "<tbody>{rows}</tbody></table></section>",
        sub=analysis.submission_id,
        reason=analysis.get_reason_display(),
        score=score.total,
        report=settings.FAIRPLAY_REPORT_SCORE,
        mark=settings.FAIRPLAY_MARK_SCORE,
        games=settings.FAIRPLAY_MARK_GAMES,
        reasons=reasons or mark_safe("<li>no feature raised it</li>"),
        chart=move_chart(analysis),
        rows=rows,
    )


def collusion_sides(case: ReplayFlag) -> SafeString:
    """Both accounts' results side by side: player, replay link, key figures and the chart of
    each (its analysis's verdicts when there is one, else the pauses alone)."""
    sides = [s for s in (case.submission, case.matches) if s is not None]
    shared = browsers_shared(sides[0].user_id, sides[1].user_id) if len(sides) == 2 else 0
    columns = format_html_join("", "{}", ((_side(s),) for s in sides))
    return format_html(
        "<section><h3>Two accounts: {kind}</h3><p>{note}</p><p>Browsers seen with both accounts "
        "(device key hashes, last {days} days): {shared}</p>"
        '<div class="fairplay-sides" style="display:flex;gap:1em;flex-wrap:wrap">{columns}</div></section>',
        kind=case_kind(case) or "collusion",
        note=case.note,
        days=SIGHTINGS_KEPT.days,
        shared=shared,
        columns=columns,
    )


def _side(result: Submission) -> SafeString:
    analysis = getattr(result, "analysis", None) or GameAnalysis(submission=result, verdicts=[])
    game = result.game
    where = f"daily deal of {game.daily_date}" if game and game.daily_date else (game and game.contest) or "—"
    figures = (
        ("Player", result.user),
        ("Played", where),
        ("Won", "yes" if result.won else "no"),
        ("Moves", result.moves),
        ("Play time (s)", round(result.duration_ms / 1000, 1)),
        ("Score", result.score),
        ("Received", result.received_at.strftime("%Y-%m-%d %H:%M:%S")),
        ("Analysis score", analysis.score),
    )
    rows = format_html_join(
        "", "<tr><th scope='row'>{}</th><td>{}</td></tr>", ((k, _shown(v)) for k, v in figures)
    )
    return format_html(
        '<div class="fairplay-side" style="flex:1 1 22em;min-width:0" data-result="{sub}">'
        '<h4>{user}: result {sub}, <a href="/replay/{sub}">replay</a></h4><table>{rows}</table>{chart}</div>',
        sub=result.pk,
        user=result.user,
        rows=rows,
        chart=move_chart(analysis),
    )


def _shown(value) -> str:
    return "—" if value is None else str(value)
