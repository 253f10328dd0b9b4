"""Admin of the card catalogue (content): card sets and their codes, the cards of every kind,
the arcane powers, the city areas and the Kabbalah."""

from django.contrib import admin

from .. import models
from ..demo import new_code


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
