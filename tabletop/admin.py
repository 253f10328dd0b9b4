"""Admin for tables: seats inline, the event log read-only with filters, the replayed state."""

import json

from django.contrib import admin
from django.utils.html import format_html

from tabletop.models import Event, Heartbeat, Seat, Table
from tabletop.services import notify_table, table_replay


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "name", "user", "joined_at")
    readonly_fields = ("joined_at",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "ruleset", "title", "status", "version", "updated_at")
    list_filter = ("ruleset", "status")
    search_fields = ("code", "title", "seats__name")
    readonly_fields = ("state", "meta", "version", "created_at", "updated_at", "replayed")
    inlines = [SeatInline]

    def save_related(self, request, form, formsets, change):
        """After the table and its seats are saved: the phones re-read it (a lobby update,
        after commit). A command's update carries only the columns the command wrote and the
        fan-out applies it to the table it last rendered (``tabletop.fanout.with_row``), so a
        title, host, options or seat name changed here would never reach a connected phone."""
        super().save_related(request, form, formsets, change)
        table = form.instance
        notify_table(table.pk, table.version, lobby=True)

    @admin.display(description="Replayed from the log")
    def replayed(self, obj):
        if obj.pk is None:
            return "-"
        report = table_replay(obj)
        verdict = (
            "matches the stored projection"
            if report["state_matches"]
            else "DIFFERS from the stored projection"
        )
        return format_html(
            "<p><strong>{} events, {}</strong></p><pre>{}</pre>",
            report["events"],
            verdict,
            json.dumps(report["state"], indent=1)[:20000],
        )


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """The log is append-only: nothing here can be added, changed or deleted."""

    list_display = ("table", "version", "type", "seat", "command_type", "final", "created_at")
    list_filter = ("type", "final", "table__ruleset")
    search_fields = ("table__code", "type")
    list_select_related = ("table",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "name", "user", "joined_at")
    search_fields = ("name", "table__code", "user__username")
    list_select_related = ("table", "user")


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    list_display = ("created_at", "source")
