"""Mission content and mission records (DemLoc rulebook 6.4, 6.4.1, 7).

``MissionDefinition``: a mission as the admin writes it (type, objective, map, deployment,
rewards). ``Mission``: one mission played at one table (``tabletop.Table``), with its mode and,
once closed, the result written into the guilds. The game itself lives in the table's events.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from guilds.services import follower_data

from .rules.guildcards import follower_card
from .rules.resolution import DEFAULT_REWARDS
from .rules.setup_map import check_layout, picture
from .rules.setup_script import check_events, check_waves

TILES = range(1, 15)  # the 14 double-sided map tiles (6.4.1 map creation)
SIDES = ("A", "B")


class MissionKind(models.TextChoices):
    """The mission types of 6.4.1 (objective revealing phase) and 6.4.2 ("next turn")."""

    OBJECTIVE = "objective", "Reach an objective"
    TURNS = "turns", "Limited turns"
    CONTROL = "control", "Hold an area"
    WAVES = "waves", "Waves"
    RELIC = "relic", "Retrieve the relic"


class MissionMode(models.TextChoices):
    """6.4: a training mission changes nothing in any Guild; a standard one does."""

    STANDARD = "standard", "Standard mission"
    TRAINING = "training", "Training mission"


def _check_list(value, name: str, keys: dict[str, type], errors: dict) -> None:
    if not isinstance(value, list):
        errors[name] = "A list of objects."
        return
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            errors[name] = f"Item {i + 1} is not an object."
            return
        for key, kind in keys.items():
            if (
                not isinstance(item.get(key), kind)
                or isinstance(item.get(key), bool)
                and kind is int
            ):
                errors[name] = f"Item {i + 1}: {key!r} must be a {kind.__name__}."
                return


class MissionDefinition(models.Model):
    """A mission the app can propose (6.4.1 objective and map phases), edited in the admin.

    JSON fields (all lists of objects):

    - ``tiles``: ``[{"tile": 1..14, "side": "A" | "B", "where": "top left, rotated"}]``
    - ``scenery``: ``[{"name": "Barrel", "quantity": 2, "where": "...", "optional": true}]``
      (optional barrels and palisades are taken now and placed at deployment, 6.4.1)
    - ``deployment``: ``[{"name": "North gate", "where": "the two top rows", "shared": false}]``
      (each Guild deploys in its own area; ``"shared": true`` lets every Guild use that area,
      ``missions.rules.setup_stages.deployment_areas``)
    - ``waves`` (wave missions, any number): ``[{"turn": 3, "text": "what enters, where"}]``
    - ``events`` (6.4.2 mission events, shown when they happen): ``[{"turn": 4, "kind":
      "objective" | "turn_limit" | "area_closed" | "reinforcements" | "rule", "text": "..."}]``
      plus ``"objective"``, ``"turn_limit"`` or ``"area"`` for those kinds
      (``missions.rules.setup_script``)
    - ``layout`` (the map picture, ``missions.rules.setup_map``): ``{"columns", "rows",
      "tiles": [{"tile", "side", "col", "row", "rotation"}], "scenery": [{"name", "x", "y"}],
      "areas": [{"name", "x", "y", "w", "h"}]}``, in tile units from the top left

    Rewards are whole numbers (fame may go negative, feods never below 0 when paid): see
    ``missions.rules.resolution`` for how they add up.
    """

    name = models.CharField(max_length=80, unique=True)
    kind = models.CharField(max_length=20, choices=MissionKind.choices)
    objective = models.TextField(help_text="What the players must do, as the app shows it.")
    special_rules = models.TextField(blank=True)
    turn_limit = models.PositiveSmallIntegerField(
        default=0, help_text="0: no limit. Limited-turn missions need one."
    )
    turn_limit_hidden = models.BooleanField(
        default=False,
        help_text="Chapter 7: 'the number of turns available will not always be shown'. "
        "Players see 'Turn N' only; the app tells them when the turns are over.",
    )
    control_turns = models.PositiveSmallIntegerField(
        default=0, help_text="Hold-an-area missions: turns to hold the area."
    )
    relic_tokens = models.PositiveSmallIntegerField(
        default=0, help_text="Relic missions: relic tokens on the map."
    )
    waves = models.JSONField(
        default=list,
        blank=True,
        help_text='Wave missions, any number: [{"turn": 3, "text": "what enters, where"}].',
    )
    events = models.JSONField(
        default=list,
        blank=True,
        help_text="Mission events (6.4.2), shown to the players when they happen.",
    )
    tiles = models.JSONField(default=list)
    layout = models.JSONField(
        default=dict,
        blank=True,
        help_text="The map picture: where each tile, scenery element and deployment area goes.",
    )
    scenery = models.JSONField(default=list, blank=True)
    deployment = models.JSONField(default=list)
    slots = models.PositiveSmallIntegerField(default=4, help_text="Characters per player.")
    win_fame = models.IntegerField(default=DEFAULT_REWARDS["win"]["fame"])
    win_feods = models.IntegerField(default=DEFAULT_REWARDS["win"]["feods"])
    win_blood_stones = models.IntegerField(
        default=DEFAULT_REWARDS["win"]["blood_stones"], help_text="Items earned by the winner."
    )
    loss_fame = models.IntegerField(
        default=DEFAULT_REWARDS["loss"]["fame"], help_text="Taken from every other player."
    )
    loss_feods = models.IntegerField(
        default=DEFAULT_REWARDS["loss"]["feods"], help_text="Taken from every other player."
    )
    objective_fame = models.IntegerField(default=DEFAULT_REWARDS["objective"]["fame"])
    objective_feods = models.IntegerField(default=DEFAULT_REWARDS["objective"]["feods"])
    relic_fame = models.IntegerField(
        default=DEFAULT_REWARDS["relic"]["fame"], help_text="Per relic token retrieved."
    )
    relic_feods = models.IntegerField(
        default=DEFAULT_REWARDS["relic"]["feods"], help_text="Per relic token retrieved."
    )
    kill_mercenary_fame = models.IntegerField(
        default=DEFAULT_REWARDS["kill"]["mercenary"]["fame"], help_text="Per kill, times its level."
    )
    kill_mercenary_feods = models.IntegerField(
        default=DEFAULT_REWARDS["kill"]["mercenary"]["feods"],
        help_text="Per kill, times its level.",
    )
    kill_follower_fame = models.IntegerField(
        default=DEFAULT_REWARDS["kill"]["follower"]["fame"], help_text="Per kill, times its level."
    )
    kill_follower_feods = models.IntegerField(
        default=DEFAULT_REWARDS["kill"]["follower"]["feods"], help_text="Per kill, times its level."
    )
    kill_daemon_fame = models.IntegerField(
        default=DEFAULT_REWARDS["kill"]["daemon"]["fame"], help_text="Per kill, times its level."
    )
    kill_daemon_feods = models.IntegerField(
        default=DEFAULT_REWARDS["kill"]["daemon"]["feods"], help_text="Per kill, times its level."
    )
    possessed_escape_fame = models.IntegerField(
        default=DEFAULT_REWARDS["possessed_escape"]["fame"],
        help_text="Penalty per own character that escaped possessed.",
    )
    possessed_escape_feods = models.IntegerField(
        default=DEFAULT_REWARDS["possessed_escape"]["feods"]
    )
    heal_feods_per_heart = models.PositiveSmallIntegerField(
        default=DEFAULT_REWARDS["heal_feods_per_heart"],
        help_text="An injured mercenary heals for this many feods per broken heart.",
    )
    is_active = models.BooleanField(default=True, help_text="Offered in the mission lobby.")
    is_demo = models.BooleanField(default=False, help_text="Demo content chosen by the app.")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        errors: dict[str, str] = {}
        _check_list(self.tiles, "tiles", {"tile": int, "side": str}, errors)
        if "tiles" not in errors:
            numbers = [t["tile"] for t in self.tiles]
            if not numbers:
                errors["tiles"] = "A map needs at least one tile."
            elif any(n not in TILES for n in numbers) or len(set(numbers)) != len(numbers):
                errors["tiles"] = "Tiles are numbered 1 to 14, each used once."
            elif any(t["side"] not in SIDES for t in self.tiles):
                errors["tiles"] = "A tile's side is A or B."
        _check_list(self.scenery, "scenery", {"name": str, "quantity": int}, errors)
        _check_list(self.deployment, "deployment", {"name": str}, errors)
        if "deployment" not in errors and not self.deployment:
            errors["deployment"] = "At least one deployment area."
        problem = check_waves(self.waves, self.turn_limit)
        if problem:
            errors["waves"] = problem
        elif self.kind == MissionKind.WAVES and not self.waves:
            errors["waves"] = "A wave mission needs at least one later wave."
        if "deployment" not in errors:
            areas = [a["name"] for a in self.deployment]
            problem = check_events(self.events, areas, self.turn_limit)
            if problem:
                errors["events"] = problem
        if not any(k in errors for k in ("tiles", "scenery", "deployment")):
            problem = check_layout(self.layout, self.tiles, self.scenery, self.deployment)
            if problem:
                errors["layout"] = problem
        if self.turn_limit_hidden and not self.turn_limit:
            errors["turn_limit_hidden"] = "Only a turn limit can be hidden."
        if self.kind == MissionKind.TURNS and not self.turn_limit:
            errors["turn_limit"] = "A limited-turn mission needs a turn limit."
        if self.kind == MissionKind.CONTROL and not self.control_turns:
            errors["control_turns"] = "Say how many turns the area must be held."
        if self.kind == MissionKind.RELIC and not self.relic_tokens:
            errors["relic_tokens"] = "A relic mission needs relic tokens."
        if not 1 <= self.slots <= 12:
            errors["slots"] = "1 to 12 characters per player."
        if errors:
            raise ValidationError(errors)

    def map_picture(self) -> dict | None:
        """The map as ``missions/_map.html`` draws it (``missions.rules.setup_map.picture``)."""
        return picture({"layout": self.layout, "tiles": self.tiles})

    def rewards(self) -> dict:
        """What the mission pays, as ``missions.rules.resolution`` reads it (the shape of its
        ``DEFAULT_REWARDS``): the snapshot's ``rewards``, and the rules reference page's."""

        def pair(prefix: str, stones: bool = False) -> dict:
            out = {
                "fame": getattr(self, f"{prefix}_fame"),
                "feods": getattr(self, f"{prefix}_feods"),
            }
            if stones:
                out["blood_stones"] = getattr(self, f"{prefix}_blood_stones")
            return out

        return {
            "win": pair("win", stones=True),
            "loss": pair("loss"),
            "objective": pair("objective"),
            "relic": pair("relic"),
            "kill": {k: pair(f"kill_{k}") for k in ("mercenary", "follower", "daemon")},
            "possessed_escape": pair("possessed_escape"),
            "heal_feods_per_heart": self.heal_feods_per_heart,
        }

    def snapshot(self) -> dict:
        """The definition as JSON for the mission's opening event (``missions.rules.setup``):
        a later edit in the admin never changes a mission already played."""
        return {
            "id": self.pk,
            "name": self.name,
            "kind": self.kind,
            "objective": self.objective,
            "special_rules": self.special_rules,
            "turn_limit": self.turn_limit,
            "turn_limit_hidden": self.turn_limit_hidden,
            "control_turns": self.control_turns,
            "relic_tokens": self.relic_tokens,
            "waves": list(self.waves or []),
            "events": list(self.events or []),
            "tiles": list(self.tiles or []),
            "layout": dict(self.layout or {}),
            "scenery": list(self.scenery or []),
            "deployment": list(self.deployment or []),
            "slots": self.slots,
            "followers": [f.snapshot() for f in self.followers.select_related("card")],
            "rewards": self.rewards(),
        }


class MissionFollower(models.Model):
    """A follower offered for a mission (5.1.2): any player with the card in its database may
    enlist it for ``feods`` (default: the card's feods per mission); ``copies`` are shared by
    everyone at the table."""

    definition = models.ForeignKey(
        MissionDefinition, on_delete=models.CASCADE, related_name="followers"
    )
    card = models.ForeignKey("guilds.FollowerCard", on_delete=models.PROTECT, related_name="+")
    copies = models.PositiveSmallIntegerField(default=1)
    feods = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty: the card's feods per mission."
    )

    class Meta:
        ordering = ["definition", "card__name"]
        constraints = [
            models.UniqueConstraint(fields=["definition", "card"], name="mission_follower_once")
        ]

    def __str__(self) -> str:
        return f"{self.card.name} x{self.copies}"

    def snapshot(self) -> dict:
        """The offer as the mission carries it (5.1.2): the card with its factors, every
        ability and its fate-point cost, both fixed weapons (shooting and brawl damage, real
        range) and its arcane reference code (``guilds.services.follower_data``)."""
        card = self.card
        data = follower_data(card)
        return {
            "key": str(card.pk),
            "card_id": card.pk,
            "name": card.name,
            "feods": self.feods if self.feods is not None else card.feods_per_mission,
            "copies": self.copies,
            "card": follower_card(data, f"f{card.pk}"),
        }


class Mission(models.Model):
    """One mission at one table. ``closed_at`` is set, once, when the result is written into
    the guilds (``missions.services.mission_close``); ``result`` is what was written."""

    table = models.OneToOneField("tabletop.Table", on_delete=models.CASCADE, related_name="mission")
    definition = models.ForeignKey(
        MissionDefinition, on_delete=models.PROTECT, related_name="missions"
    )
    mode = models.CharField(max_length=10, choices=MissionMode.choices)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_missions",
    )
    previous = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_mission"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.definition.name} ({self.get_mode_display()}) at {self.table.code}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None
