"""Admin for the card catalog (content) and the Guild records (read mostly: balances change
only through the services, so the ledger and the balances stay equal)."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import ActionLocation
from django.core.exceptions import ValidationError
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from tabletop.errors import TabletopError

from . import models, services
from .demo import new_code


class DemoFilterMixin:
    list_filter = ("is_demo",)


class SetCardInline(admin.TabularInline):
    model = models.SetCard
    extra = 1
    autocomplete_fields = ("card",)


class SetCodeInline(admin.TabularInline):
    model = models.SetCode
    extra = 0
    fields = ("code", "redeemed_by", "redeemed_at")
    readonly_fields = ("redeemed_by", "redeemed_at")


class AccountCodeInline(admin.TabularInline):
    model = models.AccountCode
    extra = 0
    fields = ("code", "guild_name")
    readonly_fields = ("guild_name",)

    @admin.display(description="Guild")
    def guild_name(self, obj):
        guild = getattr(obj, "guild", None)
        return guild.name if guild else "unused"


@admin.register(models.CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "box", "card_count", "unused_codes", "is_demo")
    list_filter = ("kind", "box", "is_demo")
    search_fields = ("name", "slug", "codes__code")
    prepopulated_fields = {"slug": ("name",)}
    inlines = (SetCardInline, SetCodeInline, AccountCodeInline)
    actions = ("add_three_codes",)

    @admin.display(description="cards")
    def card_count(self, obj):
        return sum(obj.contents.values_list("quantity", flat=True))

    @admin.display(description="unused codes")
    def unused_codes(self, obj):
        return obj.codes.filter(redeemed_by__isnull=True).count()

    @admin.action(description="Add three new set codes")
    def add_three_codes(self, request, queryset):
        for card_set in queryset:
            for _ in range(3):
                models.SetCode.objects.create(card_set=card_set, code=new_code(models.SetCode))
        self.message_user(request, "Codes added.")


@admin.register(models.SetCode)
class SetCodeAdmin(admin.ModelAdmin):
    list_display = ("code", "card_set", "redeemed_by", "redeemed_at")
    list_filter = ("card_set", ("redeemed_by", admin.EmptyFieldListFilter))
    search_fields = ("code", "redeemed_by__name")
    readonly_fields = ("redeemed_by", "redeemed_at")
    list_select_related = ("card_set", "redeemed_by")


@admin.register(models.AccountCode)
class AccountCodeAdmin(admin.ModelAdmin):
    list_display = ("code", "card_set", "created_at")
    list_filter = ("card_set",)
    search_fields = ("code", "guild__name")


@admin.register(models.CityArea)
class CityAreaAdmin(DemoFilterMixin, admin.ModelAdmin):
    list_display = ("name", "symbol", "order", "is_demo")
    search_fields = ("name",)


@admin.register(models.Kabbalah)
class KabbalahAdmin(DemoFilterMixin, admin.ModelAdmin):
    list_display = ("name", "symbol", "is_demo")
    search_fields = ("name",)


@admin.register(models.Card)
class CardAdmin(admin.ModelAdmin):
    """All cards, for search (set contents pick from here); edit them in their own list."""

    list_display = ("name", "kind", "is_demo")
    list_filter = ("kind", "is_demo")
    search_fields = ("name",)

    def has_add_permission(self, request):
        return False


class AbilityInline(admin.TabularInline):
    model = models.CharacterAbility
    extra = 0
    fields = ("activation", "fate_cost", "standard", "x", "name", "text")


STATS = (
    "level",
    ("armor", "impact_resistance", "hit_factor", "movement"),
    ("hand_to_hand_dice", "hand_to_hand_modifier"),
    ("ranged_dice", "ranged_modifier"),
    "arcane_ability",
)
FIXED_WEAPONS = (
    ("primary_weapon", "primary_weapon_type", "primary_damage", "primary_features"),
    ("primary_melee_damage", "primary_range"),
    ("secondary_weapon", "secondary_weapon_type", "secondary_damage", "secondary_features"),
    ("secondary_melee_damage", "secondary_range"),
)


@admin.register(models.MercenaryCard)
class MercenaryCardAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "type",
        "area",
        "level",
        "armor",
        "hit_factor",
        "arcane_ability",
        "favourite_weapon",
        "is_demo",
    )
    list_filter = ("type", "area", "level", "favourite_weapon", "is_demo")
    search_fields = ("name", "abilities__name")
    fieldsets = (
        (None, {"fields": ("name", "type", "area", "text", "is_demo")}),
        ("Factors", {"fields": STATS}),
        ("Weapons", {"fields": ("favourite_weapon", ("primary_coupling", "secondary_coupling"))}),
    )
    inlines = (AbilityInline,)


@admin.register(models.FollowerCard)
class FollowerCardAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "level",
        "feods_per_mission",
        "can_enlist_permanently",
        "permanent_feods",
        "is_demo",
    )
    list_filter = ("can_enlist_permanently", "level", "is_demo")
    search_fields = ("name",)
    fieldsets = (
        (None, {"fields": ("name", "text", "is_demo")}),
        ("Factors", {"fields": STATS + ("arcane_code",)}),
        ("Weapons", {"fields": FIXED_WEAPONS}),
        ("Cost", {"fields": ("feods_per_mission", "can_enlist_permanently", "permanent_feods")}),
    )
    inlines = (AbilityInline,)


@admin.register(models.DaemonCard)
class DaemonCardAdmin(admin.ModelAdmin):
    list_display = ("name", "kabbalah", "level", "armor", "hit_factor", "is_demo")
    list_filter = ("kabbalah", "level", "is_demo")
    search_fields = ("name",)
    fieldsets = (
        (None, {"fields": ("name", "kabbalah", "text", "is_demo")}),
        ("Factors", {"fields": STATS}),
        ("Weapons", {"fields": FIXED_WEAPONS}),
    )
    inlines = (AbilityInline,)


class WeaponFeatureInline(admin.TabularInline):
    model = models.WeaponFeature
    extra = 0


@admin.register(models.WeaponCard)
class WeaponCardAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "type",
        "characteristic",
        "grip",
        "damage",
        "melee_damage",
        "range",
        "price_feods",
        "is_demo",
    )
    list_filter = ("type", "characteristic", "grip", "is_demo")
    search_fields = ("name", "features__text")
    inlines = (WeaponFeatureInline,)


class ArcanePowerInline(admin.StackedInline):
    model = models.ArcanePower
    extra = 0
    max_num = 2


class PentacleEffectInline(admin.TabularInline):
    model = models.PentacleEffect
    extra = 0


@admin.register(models.ArcanePower)
class ArcanePowerAdmin(admin.ModelAdmin):
    """Edit a power's effects here (nested inlines are not in Django's admin)."""

    list_display = ("name", "code", "position", "range", "white_mana", "black_mana")
    list_filter = ("code__kabbalah",)
    search_fields = ("name", "code__name")

    class EffectInline(admin.TabularInline):
        model = models.ArcaneEffect
        extra = 0

    inlines = (EffectInline,)


@admin.register(models.ArcaneCodeCard)
class ArcaneCodeCardAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "kabbalah",
        "summoning_white",
        "summoning_black",
        "pentacle_name",
        "price_feods",
        "is_demo",
    )
    list_filter = ("kabbalah", "is_demo")
    search_fields = ("name", "pentacle_name", "powers__name")
    inlines = (ArcanePowerInline, PentacleEffectInline)


# --- guild records ------------------------------------------------------------------------------


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


# --- the city of DemLoc (6.2): content, and the timers with their operations ----------------------


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
