"""The prefix of a hidden-card game's log that the server has replayed and recorded (docs/security.md,
"Hidden-card games"): whether a later log agrees with it. Pure functions, no database."""

from __future__ import annotations


def prefix_conflict(game, *, tokens: list[str], times: list[int], must_extend: bool) -> str | None:
    """Why a log (`tokens`, `times`) disagrees with the prefix `game` has recorded (its
    `recorded_log` and `recorded_times_ms`), or None.

    They agree when the shorter is the start of the longer, tokens and times alike; with
    `must_extend`, the log may not be the shorter (a result must contain the whole record).
    """
    mismatch = prefix_mismatch(game, tokens=tokens, times=times, must_extend=must_extend)
    return mismatch[0] if mismatch else None


def prefix_mismatch(
    game, *, tokens: list[str], times: list[int], must_extend: bool
) -> tuple[str, dict] | None:
    """`prefix_conflict`'s reason and its figures (`variant`: a token, a time, or too short)."""
    recorded = game.recorded_log.split()
    pairs = zip(recorded, game.recorded_times_ms, tokens, times, strict=False)
    for index, (token, time, sent, sent_time) in enumerate(pairs):
        if sent != token:
            figures = {
                "variant": "token",
                "move": index + 1,
                "token": sent,
                "recorded": token,
                "tokens": len(recorded),
            }
            return (
                f"move {index + 1} `{sent}` differs from the server's record of this game (`{token}`): "
                f"the log must extend the {len(recorded)} tokens recorded"
            ), figures
        if sent_time != time:
            figures = {"variant": "time", "move": index + 1, "time_ms": sent_time, "recorded_ms": time}
            return (
                f"the time of move {index + 1} ({sent_time} ms) differs from the server's record "
                f"of this game ({time} ms)"
            ), figures
    if must_extend and len(tokens) < len(recorded):
        figures = {"variant": "short", "sent": len(tokens), "tokens": len(recorded)}
        return (
            f"the log has {len(tokens)} tokens, fewer than the {len(recorded)} the server has recorded "
            "for this game: it must extend them"
        ), figures
    return None
