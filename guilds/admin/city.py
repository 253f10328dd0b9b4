"""Admin of the city of DemLoc (DemLoc rulebook 6.2): its content (control points, random
events) and its timers with their operations (settle now, cancel), through the services."""

from django.contrib import admin, messages
from django.contrib.admin.options import ActionLocation
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from tabletop.errors import TabletopError

from .. import models, services


class ControlPointBonusInline(admin.TabularInline):
    model = models.ControlPointBonus
    extra = 1


@admin.register(models.ControlPoint)
class ControlPointAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "area",
        "kind",
        "holder",
        "base_chance",
        "explore_minutes",
        "acquire_minutes",
        "income",
        "is_demo",
    )
    list_filter = ("area", "kind", "is_demo", ("holder", admin.EmptyFieldListFilter))
    search_fields = ("name", "holder__name")
    list_select_related = ("area", "holder")
    readonly_fields = ("holder", "held_since")
    inlines = (ControlPointBonusInline,)
    actions = ("make_free",)

    def has_delete_permission(self, request, obj=None):
        # A party under way would never come back (its mercenaries stay "exploring").
        if obj is not None and obj.expeditions.filter(settled_at__isnull=True).exists():
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request, action_location=ActionLocation.CHANGE_LIST):
        actions = super().get_actions(request, action_location)
        actions.pop("delete_selected", None)  # one by one, so the check above applies
        return actions

    @admin.display(description="income per period")
    def income(self, obj):
        parts = [
            f"{obj.income_fame} fame" if obj.income_fame else "",
            f"{obj.income_feods} feods" if obj.income_feods else "",
            f"{obj.income_blood_stones} blood stones" if obj.income_blood_stones else "",
        ]
        text = ", ".join(p for p in parts if p) or "none"
        return f"{text} / {obj.income_period_minutes} min"

    @admin.action(description="Make free (the holder loses it; news to the Guild)")
    def make_free(self, request, queryset):
        for point in queryset.filter(holder__isnull=False):
            services.control_point_transfer(
                point_id=point.pk, to_guild_id=None, reason="Freed by the staff."
            )
        self.message_user(request, "Freed.")


class CityEventOptionInline(admin.TabularInline):
    model = models.CityEventOption
    extra = 1


@admin.register(models.CityEvent)
class CityEventAdmin(admin.ModelAdmin):
    list_display = ("title", "scope", "weight", "answer_minutes", "is_active", "is_demo")
    list_filter = ("scope", "is_active", "is_demo")
    search_fields = ("title", "text")
    inlines = (CityEventOptionInline,)
    actions = ("post_to_every_guild",)

    @admin.action(description="Post now to every Guild (a control point event: to its holders)")
    def post_to_every_guild(self, request, queryset):
        posted = 0
        for event in queryset:
            for guild in models.Guild.objects.all():
                point = None
                if event.scope == models.CityEvent.Scope.CONTROL_POINT:
                    point = guild.control_points.first()
                    if point is None:
                        continue
                services.city_event_post(
                    guild_id=guild.pk, event_id=event.pk, point_id=point.pk if point else None
                )
                posted += 1
        self.message_user(request, f"{posted} events posted.")


class TimerStateFilter(admin.SimpleListFilter):
    """Under way, overdue (should be none: the sweeper settles them within seconds), settled."""

    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return (("open", "Under way"), ("overdue", "Overdue"), ("settled", "Settled"))

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(settled_at__isnull=True)
        if self.value() == "overdue":
            return queryset.filter(settled_at__isnull=True, due_at__lte=timezone.now())
        if self.value() == "settled":
            return queryset.filter(settled_at__isnull=False)
        return queryset


class TimerAdmin(admin.ModelAdmin):
    """Timers are read-only records; "Settle now" runs the same idempotent settlement as the
    Celery task and the sweeper. The list warns when timers are overdue."""

    settle = None  # the service, set per model
    list_filter = (TimerStateFilter,)
    actions = ("settle_now",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="state")
    def state(self, obj):
        if obj.settled_at is not None:
            return "settled"
        return "overdue" if obj.due_at <= timezone.now() else "under way"

    @admin.display(description="")
    def settle_button(self, obj):
        if obj.settled_at is not None:
            return ""
        meta = self.model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_settle", args=[obj.pk])
        return format_html(
            '<button type="submit" class="button" formaction="{}" formmethod="post">'
            "Settle now</button>",
            url,
        )

    def get_urls(self):
        meta = self.model._meta
        return [
            path(
                "<int:pk>/settle/",
                self.admin_site.admin_view(self.settle_view),
                name=f"{meta.app_label}_{meta.model_name}_settle",
            )
        ] + super().get_urls()

    def _settle(self, pk):
        type(self).settle(pk)

    def settle_view(self, request, pk):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        try:
            self._settle(pk)
        except TabletopError as exc:
            self.message_user(request, exc.message, messages.ERROR)
        else:
            self.message_user(request, f"{self.model._meta.verbose_name} {pk} settled.")
        meta = self.model._meta
        return redirect(f"admin:{meta.app_label}_{meta.model_name}_changelist")

    @admin.action(description="Settle now (idempotent: settled ones are left alone)")
    def settle_now(self, request, queryset):
        for pk in queryset.filter(settled_at__isnull=True).values_list("pk", flat=True):
            self._settle(pk)
        self.message_user(request, "Settled.")

    def changelist_view(self, request, extra_context=None):
        overdue = self.model.objects.filter(
            settled_at__isnull=True, due_at__lte=timezone.now()
        ).count()
        if overdue:
            self.message_user(
                request,
                f"{overdue} overdue (should be none: is a worker with beat running?).",
                messages.WARNING,
            )
        return super().changelist_view(request, extra_context)


@admin.register(models.Expedition)
class ExpeditionAdmin(TimerAdmin):
    """Deleting or cancelling a party under way calls it back first
    (``services.expedition_cancel``): its mercenaries are active in the dormitory again."""

    settle = staticmethod(lambda pk: services.expedition_settle(expedition_id=pk))
    actions = ("settle_now", "cancel")

    @admin.action(description="Cancel (call the party back; its mercenaries are free again)")
    def cancel(self, request, queryset):
        for pk in queryset.filter(settled_at__isnull=True).values_list("pk", flat=True):
            try:
                services.expedition_cancel(
                    expedition_id=pk, note=f"Cancelled by {request.user.get_username()}."
                )
            except TabletopError as exc:
                self.message_user(request, f"Expedition {pk}: {exc.message}", messages.ERROR)
        self.message_user(request, "Called back.")

    def delete_model(self, request, obj):
        if obj.settled_at is None:
            services.expedition_cancel(expedition_id=obj.pk, note="Deleted in the admin.")
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        for pk in queryset.filter(settled_at__isnull=True).values_list("pk", flat=True):
            try:
                services.expedition_cancel(expedition_id=pk, note="Deleted in the admin.")
            except TabletopError:
                pass  # settled meanwhile: its mercenaries came back with the settlement
        super().delete_queryset(request, queryset)
    list_display = (
        "id",
        "guild",
        "point",
        "action",
        "party_size",
        "chance",
        "state",
        "due_at",
        "settled_at",
        "outcome",
        "settle_button",
    )
    list_filter = (TimerStateFilter, "action", "outcome")
    search_fields = ("guild__name", "point__name")
    list_select_related = ("guild", "point")
    date_hierarchy = "due_at"


@admin.register(models.IncomePeriod)
class IncomePeriodAdmin(TimerAdmin):
    settle = staticmethod(lambda pk: services.income_settle(period_id=pk))
    list_display = (
        "id",
        "guild",
        "point",
        "fame",
        "feods",
        "blood_stones",
        "state",
        "due_at",
        "settled_at",
        "stopped",
        "settle_button",
    )
    list_filter = (TimerStateFilter, "stopped")
    search_fields = ("guild__name", "point__name")
    list_select_related = ("guild", "point")


@admin.register(models.GuildEvent)
class GuildEventAdmin(TimerAdmin):
    settle = staticmethod(lambda pk: services.city_event_settle(event_id=pk))
    list_display = (
        "id",
        "guild",
        "title",
        "point",
        "state",
        "due_at",
        "settled_at",
        "chosen",
        "answered_by_default",
        "settle_button",
    )
    search_fields = ("guild__name", "title")
    list_select_related = ("guild", "point", "chosen")


@admin.register(models.CityNews)
class CityNewsAdmin(admin.ModelAdmin):
    list_display = ("created_at", "guild", "headline", "reference", "seen_at")
    search_fields = ("guild__name", "headline", "reference")
    list_select_related = ("guild",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(models.KnownPoint)
class KnownPointAdmin(admin.ModelAdmin):
    list_display = ("guild", "point", "known_at")
    search_fields = ("guild__name", "point__name")
    list_select_related = ("guild", "point")
