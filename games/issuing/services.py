"""Issuing deals to players: ranked games (hidden-card or with their code), a daily deal's game,
a contest's seats; and their expiry. The deal itself is drawn by `games.issuing.dealing`."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import date, datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.engine import GameCode, Rules
from games.errors import TooManyUnplayedGames
from games.issuing.commitments import deal_commitment, deal_secret
from games.issuing.dealing import hidden_deal_draw, open_deal_draw
from games.models import IssuedGame, RulesChoice
from games.selectors import game_expiry_cutoff

logger = logging.getLogger(__name__)


def game_issue(
    *,
    user,
    rules: str = RulesChoice.CLASSIC,
    count: int = 1,
    hidden: bool = False,
    now: datetime | None = None,
    daily: tuple[date, GameCode] | None = None,
) -> list[IssuedGame]:
    """Issue up to `count` ranked deals to `user`, never past GAMES_MAX_UNPLAYED unplayed ones.

    `hidden`: hidden-card games, each a new whole shuffle (`games.issuing.dealing.hidden_deal_draw`) with
    a secret and a commitment (their answers never name the code), counted apart from the games
    issued with their code (an open deal number) while the page still plays those.
    `daily`: (the UTC day, its deal) for the one hidden-card game of that day's daily deal
    (daily.services.daily_game_issue), outside the count; a second one for the same
    player, rules and day breaks a unique constraint (IntegrityError).
    Raises TooManyUnplayedGames when the player already holds the maximum.
    """
    if daily is not None and not (hidden and daily[1].is_whole):
        raise ValueError("a daily-deal game is a hidden-card game of the day's whole-shuffle deal")
    now = now or timezone.now()
    limit = settings.GAMES_MAX_UNPLAYED
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one issuance per player at a time
        # The player's stale games expire here too: in eager mode no beat runs the hourly task.
        IssuedGame.objects.filter(
            user=user, state=IssuedGame.State.ISSUED, issued_at__lt=game_expiry_cutoff(now=now)
        ).update(state=IssuedGame.State.EXPIRED)
        held = IssuedGame.objects.filter(
            user=user, state=IssuedGame.State.ISSUED, hidden=hidden, daily_date__isnull=True, contest=""
        ).count()
        room = 1 if daily is not None else limit - held
        if room <= 0:
            kind = "hidden-card ranked games" if hidden else "ranked games"
            raise TooManyUnplayedGames(f"you hold {held} unplayed {kind}; finish one first (at most {limit})")
        games = []
        for _ in range(min(count, room)):
            if daily is not None:
                code = daily[1]
            elif hidden:
                code = hidden_deal_draw(rules=Rules(rules))
            else:
                code = open_deal_draw(rules=Rules(rules))
            games.append(
                _game_of_deal(
                    user=user,
                    code=code,
                    secret=deal_secret() if hidden else "",
                    issued_at=now,
                    daily_date=None if daily is None else daily[0],
                )
            )
        return IssuedGame.objects.bulk_create(games)  # PostgreSQL and SQLite set the ids


def _game_of_deal(*, user, code: GameCode, secret: str, issued_at: datetime, **fields) -> IssuedGame:
    """An unsaved issued game of the deal `code`: a hidden-card game (its commitment made) when
    it has a `secret`, else a game issued with its code."""
    return IssuedGame(
        user=user,
        code=str(code),
        rules=code.rules.value,
        issued_at=issued_at,
        hidden=bool(secret),
        secret=secret,
        commitment=deal_commitment(code=str(code), secret=secret) if secret else "",
        **fields,
    )


def contest_games_issue(
    *, users, rules: str, contest: str, issued_at: datetime, like: IssuedGame | None = None
) -> list[IssuedGame]:
    """One hidden-card game of one new whole-shuffle deal for each of `users` (a race's seats):
    the same code, secret and commitment, issued at `issued_at` (the race's start, so every
    page's clock and the server's start together). `like`: the deal, secret and commitment of
    that game instead of a new deal (a challenge's second player, who starts later). Outside
    GAMES_MAX_UNPLAYED; their code stays sealed until the contest publishes it
    (`contest_games_unseal`)."""
    if like is not None:
        code, secret = GameCode.parse(like.code), like.secret
    else:
        code, secret = hidden_deal_draw(rules=Rules(rules)), deal_secret()
    games = [
        _game_of_deal(
            user=user,
            code=code,
            secret=secret,
            issued_at=issued_at,
            contest=contest,
            code_sealed=True,
        )
        for user in users
    ]
    return IssuedGame.objects.bulk_create(games)


def contest_games_unseal(*, game_ids: Iterable[int]) -> int:
    """Publish the deal of these contest games (their code and secret), finished or not."""
    return IssuedGame.objects.filter(pk__in=list(game_ids), code_sealed=True).update(code_sealed=False)


def games_expire(*, now: datetime | None = None) -> int:
    """Mark issued games untouched for GAMES_EXPIRE_AFTER_DAYS as expired; returns how many."""
    cutoff = game_expiry_cutoff(now=now)
    expired = IssuedGame.objects.filter(state=IssuedGame.State.ISSUED, issued_at__lt=cutoff).update(
        state=IssuedGame.State.EXPIRED
    )
    if expired:
        logger.info("issued games expired", extra={"count": expired})
    return expired
