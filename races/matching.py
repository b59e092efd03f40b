"""Quick match (docs/races.md): a queue per rule set that pairs two players of close rating into a
race; a player who waits may instead start an asynchronous match, a challenge that the queue
gives to the next player of close rating. Only people: a match is made of two asks, and never
of two accounts asking from one browser or one session (`Asker`: their hashes, never the values).

The page asks again every few seconds while it waits (`quick_match`, the same call): each ask
keeps its ticket alive and tries again with a wider rating window.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from races import services
from races.models import QuickMatchTicket, Race, Rating
from races.rating import new_skill

ALIVE = timedelta(seconds=10)  # a ticket not asked about for this long is no one waiting
WINDOW_START, WINDOW_GROWTH_PER_SECOND, WINDOW_MAX = 100.0, 10.0, 500.0  # shown-rating points
ASYNCHRONOUS_AFTER_SECONDS = 30  # when the page offers an asynchronous match instead
# A wait the player left: an ask of it still on its way (a page's last ask crossing its leave)
# must not put the player back in the queue.
LEFT_KEY = "quick-match-left:{user}:{rules}:{wait}"
LEFT_KEPT_SECONDS = 120


@dataclass(frozen=True)
class Asker:
    """Where an ask comes from: the hashes of the browser's device cookie and of the session
    (accounts.devices; "" when unknown). Two tickets sharing one are never paired."""

    device_hash: str = ""
    session_hash: str = ""

    def shares_with(self, ticket: QuickMatchTicket) -> bool:
        return bool(
            (self.device_hash and self.device_hash == ticket.device_hash)
            or (self.session_hash and self.session_hash == ticket.session_hash)
        )


@dataclass(frozen=True)
class QuickMatch:
    """The answer to an ask: a race or challenge to go to, or the wait so far."""

    race: Race | None
    waiting_since: datetime | None = None
    window: float | None = None
    left: bool = False  # the ask belongs to a wait the player has left: not queued


def _left(*, user, rules: str, wait: str) -> bool:
    return bool(wait) and cache.get(LEFT_KEY.format(user=user.pk, rules=rules, wait=wait)) is not None


def rating_window(*, waited: timedelta) -> float:
    """How far apart two ratings may be to pair: wider the longer someone has waited."""
    return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH_PER_SECOND * waited.total_seconds())


def _shown_rating(user, rules: str) -> float:
    row = Rating.objects.filter(user=user, rules=rules).values_list("ordinal", flat=True).first()
    return row if row is not None else new_skill().shown


def quick_match(
    *,
    user,
    rules: str,
    asynchronous: bool = False,
    wait: str = "",
    asker: Asker = Asker(),
    now: datetime | None = None,
) -> QuickMatch:
    """Pair the player with someone waiting (a new two-seat race, started at once), or with an
    asynchronous match someone waiting has started (the player joins that challenge); else the
    player waits (their ticket kept). `asynchronous`: stop waiting and start a challenge that
    the queue offers to the next player of close rating. `wait`: the page's name for this wait
    (one a press of Find); an ask of a wait the player has left (`quick_match_leave`) queues
    nothing, even when it arrives after the leave. `asker`: the ask's device and session: no
    ticket (nor asynchronous match) of the same device or session is a partner."""
    if _left(user=user, rules=rules, wait=wait):
        return QuickMatch(None, left=True)
    now = now or timezone.now()
    waiting = _quick_match_locked(user=user, rules=rules, asynchronous=asynchronous, asker=asker, now=now)
    if waiting.race is None and _left(user=user, rules=rules, wait=wait):
        # The leave crossed this ask: it may have found no ticket to take out, so take it out here.
        quick_match_leave(user=user, rules=rules)
        return QuickMatch(None, left=True)
    return waiting


def _quick_match_locked(*, user, rules: str, asynchronous: bool, asker: Asker, now: datetime) -> QuickMatch:
    with transaction.atomic():
        # One pairing at a time a rule set: the queue's tickets are locked in id order.
        tickets = list(
            QuickMatchTicket.objects.select_for_update(of=("self",))
            .filter(rules=rules)
            .select_related("challenge")
            .order_by("pk")
        )
        tickets = _stale_tickets_drop(tickets, now=now)
        mine = next((ticket for ticket in tickets if ticket.user_id == user.pk), None)
        if mine is not None and mine.race_id is not None:  # someone was paired with this player
            race = mine.race
            mine.delete()
            return QuickMatch(race)
        rating = mine.rating if mine is not None else _shown_rating(user, rules)
        since = mine.created_at if mine is not None else now
        seen = {"seen_at": now, "device_hash": asker.device_hash, "session_hash": asker.session_hash}
        if asynchronous:
            challenge = services.challenge_create(user=user, rules=rules, now=now)
            QuickMatchTicket.objects.update_or_create(
                user=user,
                rules=rules,
                defaults={
                    "rating": rating,
                    "created_at": since,
                    "challenge": challenge,
                    "race": None,
                    **seen,
                },
            )
            return QuickMatch(challenge)
        partner = _partner(tickets, user=user, asker=asker, rating=rating, since=since, now=now)
        if partner is not None:
            race = _paired(partner, user=user, rules=rules, now=now)
            if mine is not None:
                mine.delete()
            return QuickMatch(race)
        QuickMatchTicket.objects.update_or_create(
            user=user, rules=rules, defaults={"rating": rating, "created_at": since, **seen}
        )
    return QuickMatch(None, waiting_since=since, window=rating_window(waited=now - since))


def _partner(
    tickets, *, user, asker: Asker, rating: float, since: datetime, now: datetime
) -> QuickMatchTicket | None:
    """The closest rating among the others waiting (or offering a challenge still open) within
    the window of whichever of the two has waited longer; never a ticket of the asker's device
    or session (one person's other account)."""
    candidates = []
    for ticket in tickets:
        if ticket.user_id == user.pk or ticket.race_id is not None or asker.shares_with(ticket):
            continue
        if ticket.challenge_id is None and ticket.seen_at < now - ALIVE:
            continue  # nobody is waiting behind it any more
        window = rating_window(waited=now - min(since, ticket.created_at))
        if abs(ticket.rating - rating) <= window:
            candidates.append((abs(ticket.rating - rating), ticket.created_at, ticket.pk, ticket))
    return min(candidates)[3] if candidates else None


def _challenge_open(challenge: Race, *, now: datetime) -> bool:
    return (
        challenge.state == Race.State.RUNNING and now < challenge.deadline and challenge.seat_rows.count() < 2
    )


def _paired(partner: QuickMatchTicket, *, user, rules: str, now: datetime) -> Race:
    """The race (or challenge) of the player and the partner; the partner's ticket says so."""
    if partner.challenge_id is not None:  # the partner started an asynchronous match: take it up
        challenge = services.race_join(user=user, public_id=partner.challenge.public_id, now=now)
        partner.delete()
        return challenge
    lobby = services.race_create(user=partner.user, rules=rules, seats=2, time_limit_minutes=None, now=now)
    race = services.race_join(user=user, public_id=lobby.public_id, now=now)  # full: it starts
    partner.race = race
    partner.save(update_fields=["race"])
    return race


def quick_match_leave(*, user, rules: str, wait: str = "") -> Race | None:
    """The player stops waiting. An asynchronous match they started stays offered to the queue
    (a page leaving for it must not withdraw it). When someone was paired with them meanwhile,
    the match stands (the race has started with their seat): its race is answered. `wait`: the
    wait left, remembered for a while so that its asks still on their way queue nothing."""
    if wait:
        cache.set(LEFT_KEY.format(user=user.pk, rules=rules, wait=wait), 1, LEFT_KEPT_SECONDS)
    with transaction.atomic():
        ticket = (
            QuickMatchTicket.objects.select_for_update(of=("self",))
            .filter(user=user, rules=rules)
            .select_related("race")
            .first()
        )
        if ticket is None or (ticket.challenge_id is not None and ticket.race_id is None):
            return None
        paired = ticket.race
        ticket.delete()
    return paired


STALE = timedelta(hours=1)


def _stale_tickets_drop(tickets: list[QuickMatchTicket], *, now: datetime) -> list[QuickMatchTicket]:
    """The queue without the tickets nobody will come back for: paired or abandoned an hour ago,
    or offering a challenge that is no longer open. Deleted; the others returned."""
    kept, gone = [], []
    for ticket in tickets:
        if ticket.challenge_id is not None:
            (kept if _challenge_open(ticket.challenge, now=now) else gone).append(ticket)
        else:
            (gone if ticket.seen_at < now - STALE else kept).append(ticket)
    if gone:
        QuickMatchTicket.objects.filter(pk__in=[ticket.pk for ticket in gone]).delete()
    return kept
