"""Races: rooms of players who play one hidden-card deal at once (docs/races.md), and ratings.

A race's state is its rows, never a process's memory: any ASGI process (or a Celery worker)
reads them and tells the room through the channel layer.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import CODE_LENGTH, IssuedGame, RulesChoice


class Race(models.Model):
    class State(models.TextChoices):
        LOBBY = "lobby", "Lobby"
        RUNNING = "running", "Running"  # from the start of its countdown (starts_at ahead)
        FINISHED = "finished", "Finished"  # every seat has a result; places final when all settled
        CANCELLED = "cancelled", "Cancelled"  # everyone left the lobby

    class Kind(models.TextChoices):
        RACE = "race", "Race"  # every seat plays at once, live
        CHALLENGE = "challenge", "Challenge"  # two players, each when they like, before the deadline

    public_id = models.CharField(max_length=12, unique=True)  # in /race/<id>: unguessable
    kind = models.CharField(max_length=9, choices=Kind.choices, default=Kind.RACE)
    # A challenge's end: a seat still playing then is out, and a seat never taken stays empty.
    deadline = models.DateTimeField(null=True, blank=True)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_races")
    rules = models.CharField(max_length=7, choices=RulesChoice.choices)
    seats = models.PositiveSmallIntegerField()  # 2–6
    time_limit_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    state = models.CharField(max_length=9, choices=State.choices, default=State.LOBBY)
    created_at = models.DateTimeField()
    starts_at = models.DateTimeField(null=True, blank=True)  # the end of the countdown
    finished_at = models.DateTimeField(null=True, blank=True)
    places_final = models.BooleanField(default=False)  # every result settled, the rating moved
    # The deal, shared by every seat's game (its games hold their own copies); published when over.
    code = models.CharField(max_length=CODE_LENGTH, blank=True)
    secret = models.CharField(max_length=64, blank=True)
    commitment = models.CharField(max_length=64, blank=True)
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )

    class Meta:
        indexes = [models.Index(fields=["state", "starts_at"])]

    def __str__(self) -> str:
        return f"race {self.public_id} ({self.state})"


class RaceSeat(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"  # its result is stored (submitted, or settled from its record)
        OUT = "out", "Out"  # left, away past the grace period, or out of time: settled from its record

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="seat_rows")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_seats")
    joined_at = models.DateTimeField()
    last_seen_at = models.DateTimeField()  # the player's last message or ping on the race's socket
    game = models.OneToOneField(
        IssuedGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="race_seat"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    out_reason = models.CharField(max_length=8, blank=True)  # left | away | time
    # The figures of the seat's last replayed log (games.hidden.progress.game_progress_record).
    moves = models.PositiveIntegerField(default=0)
    foundation_cards = models.PositiveSmallIntegerField(default=0)
    time_ms = models.PositiveBigIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    # Ordinals, when the places were final; null when the seat's rating did not move
    # (races.settling: a thrown game's opponents, a pair past its daily limit).
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    rated_at = models.DateTimeField(null=True, blank=True)  # when its rating moved: a pair's daily count
    # The player turned down the rematch of this (finished) race: it is no longer offered to them.
    rematch_declined = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["race", "user"], name="one_seat_per_player_and_race")]
        indexes = [models.Index(fields=["user", "rated_at"], name="race_seat_user_rated_at")]
        ordering = ["joined_at", "pk"]

    def __str__(self) -> str:
        return f"seat of user {self.user_id} in race {self.race_id}"


class Rating(models.Model):
    """A player's skill in races of one rule set (openskill's Plackett–Luce model)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_ratings")
    rules = models.CharField(max_length=7, choices=RulesChoice.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)  # the shown rating: races.rating.shown()
    races = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "rules"], name="one_rating_per_player_and_rules")
        ]
        indexes = [models.Index(fields=["rules", "-ordinal"])]

    def __str__(self) -> str:
        return f"rating of user {self.user_id} ({self.rules}): {self.ordinal:.0f}"


class QuickMatchTicket(models.Model):
    """A player waiting in the quick-match queue of a rule set (races.matching)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quick_match_tickets"
    )
    rules = models.CharField(max_length=7, choices=RulesChoice.choices)
    rating = models.FloatField()  # the shown rating when the player joined the queue
    created_at = models.DateTimeField()
    seen_at = models.DateTimeField()  # the player's last ask: a ticket not asked about for long is gone
    # Filled when another player was paired with this one: the race the player is now seated in.
    race = models.ForeignKey(Race, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    # An asynchronous match this player started while waiting: a challenge open to the queue.
    challenge = models.ForeignKey(Race, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    # Hashes of the asker's browser (accounts.devices) and session, never the values: two tickets
    # sharing either are one person's two accounts, never paired.
    device_hash = models.CharField(max_length=64, blank=True)
    session_hash = models.CharField(max_length=64, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "rules"], name="one_quick_match_ticket_per_player_and_rules"
            )
        ]
        indexes = [models.Index(fields=["rules", "seen_at"])]

    def __str__(self) -> str:
        return f"quick match of user {self.user_id} ({self.rules})"
