"""Admin: mission content (definitions with their followers) and mission records."""

from django.contrib import admin
from django.template.loader import render_to_string

from .models import Mission, MissionDefinition, MissionFollower


class MissionFollowerInline(admin.TabularInline):
    model = MissionFollower
    extra = 0
    autocomplete_fields = ["card"]


@admin.register(MissionDefinition)
class MissionDefinitionAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "turn_limit", "slots", "win_fame", "win_feods", "is_active"]
    list_filter = ["kind", "is_active", "is_demo"]
    search_fields = ["name", "objective"]
    inlines = [MissionFollowerInline]
    readonly_fields = ["map_preview"]

    @admin.display(description="Map as the players see it")
    def map_preview(self, obj):
        """The saved layout drawn as on the mission page (``missions/_map.html``)."""
        picture = obj.map_picture() if obj and obj.pk else None
        if not picture:
            return "No layout yet."
        return render_to_string("missions/_map.html", {"map": picture, "id": "admin-map"})

    fieldsets = [
        (None, {"fields": ["name", "kind", "objective", "special_rules", "is_active", "order"]}),
        (
            "Turns and objectives",
            {"fields": ["turn_limit", "turn_limit_hidden", "control_turns", "relic_tokens"]},
        ),
        (
            "Waves and mission events (JSON lists, checked when you save)",
            {
                "fields": ["waves", "events"],
                "description": "waves (any number, wave missions): "
                '[{"turn": 3, "text": "what enters and where"}, {"turn": 5, "text": "..."}] '
                "- turns 2 to 30, each once, not after the turn limit. "
                "events (6.4.2: shown to the players at the start of their turn, never before): "
                '[{"turn": 3, "kind": "objective", "objective": "the new objective", '
                '"text": "what the players do"}, '
                '{"turn": 4, "kind": "turn_limit", "turn_limit": 6, "text": "..."}, '
                '{"turn": 2, "kind": "area_closed", "area": "South quay", "text": "..."}, '
                '{"turn": 5, "kind": "reinforcements", "text": "..."}, '
                '{"turn": 3, "kind": "rule", "text": "..."}]. '
                "A closed area must be one of the deployment areas.",
            },
        ),
        (
            "Map (JSON, see the help of each)",
            {
                "fields": ["tiles", "scenery", "deployment", "layout", "slots"],
                "description": 'tiles: [{"tile": 1..14, "side": "A"|"B", "where": "..."}]; '
                'scenery: [{"name": "Barrel", "quantity": 2, "where": "...", "optional": true}]; '
                'deployment: [{"name": "North gate", "where": "..."}]; '
                "layout (the picture; tile units from the top left, a tile is 1 x 1): "
                '{"columns": 2, "rows": 2, "tiles": [{"tile": 1, "side": "A", "col": 1, '
                '"row": 1, "rotation": 0}], "scenery": [{"name": "Barrel", "x": 0.5, '
                '"y": 1.5}], "areas": [{"name": "North gate", "x": 0, "y": 0, "w": 2, '
                '"h": 0.3}]}. Every tile once, on its side; scenery and areas by their names. '
                "The picture is shown below once saved.",
            },
        ),
        ("Map picture", {"fields": ["map_preview"]}),
        (
            "Rewards and penalties",
            {
                "fields": [
                    ("win_fame", "win_feods", "win_blood_stones"),
                    ("loss_fame", "loss_feods"),
                    ("objective_fame", "objective_feods"),
                    ("relic_fame", "relic_feods"),
                    ("kill_mercenary_fame", "kill_mercenary_feods"),
                    ("kill_follower_fame", "kill_follower_feods"),
                    ("kill_daemon_fame", "kill_daemon_feods"),
                    ("possessed_escape_fame", "possessed_escape_feods"),
                    "heal_feods_per_heart",
                ]
            },
        ),
    ]


@admin.register(Mission)
class MissionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "mode", "created_at", "closed_at"]
    list_filter = ["mode", "definition"]
    readonly_fields = ["table", "definition", "mode", "host", "previous", "closed_at", "result"]
    search_fields = ["table__code", "definition__name"]

    def has_add_permission(self, request):
        return False  # missions are opened from the lobby, never by hand
