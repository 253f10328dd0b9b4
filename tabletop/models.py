"""Tables, seats and the append-only event log (docs/architecture.md, "The event-sourced table")."""

import secrets

from django.conf import settings
from django.db import models

from tabletop.log import LoggedEvent

# Easy to read aloud: no 0/O, 1/I/L, 5/S, 2/Z, 8/B.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY3479"
CODE_LENGTH = 6


def new_join_code() -> str:
    """A random 6-character join code from an alphabet without look-alike characters."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_nonce() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    """One game at a physical table. ``state``/``version`` are the stored projection of its
    events; ``meta`` holds the kit's undo bookkeeping (also rebuilt by a replay)."""

    class Status(models.TextChoices):
        LOBBY = "lobby", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    code = models.CharField(max_length=12, unique=True, default=new_join_code)
    ruleset = models.CharField(max_length=40)
    title = models.CharField(max_length=80, blank=True)
    options = models.JSONField(default=dict, blank=True)
    #: The content the game's ``setup`` reads (a mission snapshot, demons, cards), gathered by
    #: the service that opens the table: ``setup`` itself reads no database (docs/architecture.md).
    setup = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_tables",
    )
    state = models.JSONField(null=True, blank=True)
    meta = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    #: Not a column: a row of ``tabletop.services.READ_COLUMNS`` of this table, read together
    #: with a seat (``tabletop.seats.seat_with_table``) so that ``run_command`` decides the next
    #: command of this copy on it instead of reading the table again. ``run_command`` takes it
    #: once and clears it; a row that is stale by then only costs a second try (the write is
    #: guarded by the version).
    first_read: tuple | None = None

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"{self.code} ({self.ruleset})"

    @property
    def group_name(self) -> str:
        return f"table.{self.pk}"


class Seat(models.Model):
    """A player's place at a table: ``number`` 0..n-1 in joining order. Held by a logged-in
    ``user`` or by a guest who carries a signed seat token (``tabletop.seats``); changing
    ``nonce`` revokes every token issued for the seat."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    nonce = models.CharField(max_length=32, default=new_nonce)
    # Taken from its phone by the host (``seat_revoke``) and not yet opened on another: only
    # then may the host show its move link (a live seat's link would show its hand).
    handover = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_user_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.number + 1})"


class Event(models.Model):
    """One fact in a table's stream. ``version`` is 1, 2, 3... per table (unique together);
    ``command_id`` is the version of the first event its command appended; ``tape`` the dice
    draws of that command (on its first event); ``final`` marks events undo cannot pass."""

    # No index of its own: the unique (table, version) index serves every lookup by table
    # (one index less to update per event appended).
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=80)
    data = models.JSONField(default=dict, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    command_id = models.PositiveIntegerField()
    command_type = models.CharField(max_length=80)
    idempotency_key = models.CharField(max_length=80, null=True, blank=True)  # noqa: DJ001 (NULL: no key, unique otherwise)
    final = models.BooleanField(default=False)
    tape = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="event_version_unique"),
            models.UniqueConstraint(
                fields=["table", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="event_idempotency_unique",
            ),
        ]
        indexes = [models.Index(fields=["table", "type"])]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.version} {self.type}"

    def logged(self):
        """This row as the pure ``tabletop.log.LoggedEvent`` the folds work on."""
        return LoggedEvent(
            version=self.version,
            type=self.type,
            data=self.data,
            seat=self.seat,
            command_id=self.command_id,
            command_type=self.command_type,
            final=self.final,
            tape=self.tape,
        )


class Heartbeat(models.Model):
    """One row per health probe that writes (``POST /api/health``): shows in the admin that
    the service can write, and is the bare one-row endpoint the benchmark compares with."""

    source = models.CharField(max_length=40, default="probe")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.source} at {self.created_at:%Y-%m-%d %H:%M:%S}"
