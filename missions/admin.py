"""Admin: mission content (definitions with their followers) and mission records."""

from django.contrib import admin

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
    fieldsets = [
        (None, {"fields": ["name", "kind", "objective", "special_rules", "is_active", "order"]}),
        (
            "Turns and objectives",
            {"fields": ["turn_limit", "control_turns", "relic_tokens", "waves"]},
        ),
        (
            "Map (JSON lists, see the help of each)",
            {
                "fields": ["tiles", "scenery", "deployment", "slots"],
                "description": 'tiles: [{"tile": 1..14, "side": "A"|"B", "where": "..."}]; '
                'scenery: [{"name": "Barrel", "quantity": 2, "where": "...", "optional": true}]; '
                'deployment: [{"name": "North gate", "where": "..."}]; '
                'waves: [{"turn": 3, "text": "..."}].',
            },
        ),
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
