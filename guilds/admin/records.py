"""Admin of the Guild records, read mostly: balances change only through the services, so the
ledger and the balances stay equal (docs/architecture.md "Guilds and timers")."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import ActionLocation
from django.core.exceptions import ValidationError

from tabletop.errors import TabletopError

from .. import models, services


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class BuildingInline(ReadOnlyInline):
    model = models.Building
    fields = ("kind", "level")


class MercenaryInline(ReadOnlyInline):
    model = models.Mercenary
    fields = ("card", "status", "heal_feods", "status_note")


class LedgerInline(ReadOnlyInline):
    model = models.LedgerEntry
    fields = ("created_at", "currency", "amount", "balance_after", "reason", "note")
    readonly_fields = fields
    max_num = 0


class LimitBonusInline(admin.TabularInline):
    model = models.LimitBonus
    extra = 0


class GuildAdminForm(forms.ModelForm):
    """The Guild change form checks the name and colour as the app does
    (``services.guild_name_check``); ``GuildAdmin.save_model`` writes through
    ``services.guild_update``."""

    class Meta:
        model = models.Guild
        fields = ("name", "colour")

    def clean_name(self):
        try:
            return services.guild_name_check(
                self.cleaned_data.get("name", ""), exclude_id=self.instance.pk
            )
        except TabletopError as exc:
            raise ValidationError(exc.message, code=exc.code) from None


@admin.register(models.Guild)
class GuildAdmin(admin.ModelAdmin):
    list_display = ("name", "master", "colour", "fame", "feods", "blood_stones", "created_at")
    list_filter = ("colour",)
    search_fields = ("name", "master__username", "account_code__code")
    readonly_fields = ("master", "account_code", "fame", "feods", "blood_stones", "created_at")
    fields = ("name", "colour") + readonly_fields
    inlines = (BuildingInline, MercenaryInline, LimitBonusInline, LedgerInline)
    actions = ("grant_100_feods",)
    form = GuildAdminForm

    def has_add_permission(self, request):
        return False  # Guilds are founded with an account card (services.guild_create).

    def save_model(self, request, obj, form, change):
        services.guild_update(
            guild=obj, name=form.cleaned_data["name"], colour=form.cleaned_data["colour"]
        )

    @admin.action(description="Grant 100 feods (ledger: adjustment by staff)")
    def grant_100_feods(self, request, queryset):
        for guild in queryset:
            try:
                services.guild_balance_change(
                    guild_id=guild.pk,
                    reason="adjustment",
                    feods=100,
                    note=f"Granted by {request.user.get_username()}",
                )
            except TabletopError as exc:
                self.message_user(request, f"{guild}: {exc.message}", messages.ERROR)
        self.message_user(request, "Feods granted.")


@admin.register(models.LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "guild", "currency", "amount", "balance_after", "reason", "note")
    list_filter = ("currency", "reason")
    search_fields = ("guild__name", "note")
    date_hierarchy = "created_at"
    list_select_related = ("guild",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.Mercenary)
class MercenaryAdmin(admin.ModelAdmin):
    list_display = ("card", "guild", "status", "heal_feods", "status_note", "enlisted_at")
    list_filter = ("status", "card__type", "card__level")
    search_fields = ("card__name", "guild__name")
    list_select_related = ("card", "guild")
    readonly_fields = (
        "guild",
        "card",
        "status",
        "heal_feods",
        "status_note",
        "hold",
        "enlisted_at",
    )

    def has_delete_permission(self, request, obj=None):
        # Deleting is dismissing: only what the Dormitory allows (not dead, away or at a
        # table, 6.4), through the same service.
        if obj is not None and (obj.is_dead or obj.is_away):
            return False
        return super().has_delete_permission(request, obj)

    def delete_model(self, request, obj):
        try:
            services.mercenary_dismiss(guild=obj.guild, mercenary_id=obj.pk)
        except TabletopError as exc:
            self.message_user(request, f"{obj}: {exc.message}", messages.ERROR)

    def delete_queryset(self, request, queryset):
        for obj in queryset.select_related("guild", "card"):
            self.delete_model(request, obj)


class HeldByAtTableMixin:
    """A weapon or code held by a mercenary away (at a mission table, exploring) cannot be
    deleted: the Guild is frozen while it plays (6.4)."""

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.mercenary is not None and obj.mercenary.is_away:
            return False
        return super().has_delete_permission(request, obj)

    def delete_queryset(self, request, queryset):
        kept = queryset.filter(mercenary__status__in=["on_mission", "exploring"])
        if kept.exists():
            self.message_user(
                request,
                f"{kept.count()} kept: held by a mercenary away from the Guild (6.4).",
                messages.ERROR,
            )
        super().delete_queryset(request, queryset.exclude(pk__in=kept.values("pk")))


@admin.register(models.ArmoryWeapon)
class ArmoryWeaponAdmin(HeldByAtTableMixin, admin.ModelAdmin):
    list_display = ("card", "guild", "mercenary", "slot", "price_paid", "bought_at")
    list_filter = ("card__type", "card__characteristic", "slot")
    search_fields = ("card__name", "guild__name")
    list_select_related = ("card", "guild", "mercenary__card")
    readonly_fields = ("guild", "card", "mercenary", "slot", "price_paid", "bought_at")


@admin.register(models.LibraryCode)
class LibraryCodeAdmin(HeldByAtTableMixin, admin.ModelAdmin):
    list_display = ("card", "guild", "mercenary", "price_paid", "added_at")
    list_filter = ("card__kabbalah",)
    search_fields = ("card__name", "guild__name")
    readonly_fields = ("guild", "card", "mercenary", "price_paid", "added_at")


@admin.register(models.GuestFollower)
class GuestFollowerAdmin(admin.ModelAdmin):
    list_display = ("card", "guild", "price_paid", "enlisted_at")
    search_fields = ("card__name", "guild__name")
    readonly_fields = ("guild", "card", "price_paid", "enlisted_at")


@admin.register(models.PantheonDaemon)
class PantheonDaemonAdmin(admin.ModelAdmin):
    list_display = ("card", "guild", "added_at")
    list_filter = ("card__kabbalah", "card__level")
    search_fields = ("card__name", "guild__name")
    readonly_fields = ("guild", "card", "added_at")


@admin.register(models.MissionHold)
class MissionHoldAdmin(admin.ModelAdmin):
    """Guilds held by a running mission (6.4). Read-only; "Release" is the way out of a mission
    table abandoned without a close (``services.mission_hold_release``: its mercenaries back in
    the dormitory, its feods free; nothing of the mission is written)."""

    list_display = ("guild", "title", "reference", "feods", "created_at")
    search_fields = ("guild__name", "reference", "title")
    readonly_fields = ("guild", "reference", "title", "url", "feods", "created_at")
    actions = ("release",)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_actions(self, request, action_location=ActionLocation.CHANGE_LIST):
        actions = super().get_actions(request, action_location)
        actions.pop("delete_selected", None)
        return actions

    @admin.action(description="Release (the mission was abandoned: nothing is written)")
    def release(self, request, queryset):
        for hold in queryset:
            services.mission_hold_release(guild_id=hold.guild_id, reference=hold.reference)
        self.message_user(request, "Released.")


@admin.register(models.Building)
class BuildingAdmin(admin.ModelAdmin):
    list_display = ("guild", "kind", "level")
    list_filter = ("kind", "level")
    search_fields = ("guild__name",)
    readonly_fields = ("guild", "kind", "level")


@admin.register(models.LimitBonus)
class LimitBonusAdmin(admin.ModelAdmin):
    list_display = ("guild", "kind", "key", "amount", "source")
    list_filter = ("kind",)
    search_fields = ("guild__name", "source")
