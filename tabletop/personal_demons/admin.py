"""Admin for the Personal Demons card faces (content as data)."""

from django.contrib import admin

from .models import CardFace


@admin.register(CardFace)
class CardFaceAdmin(admin.ModelAdmin):
    list_display = ("card_id", "name", "deck", "size", "value", "sin", "sin_amount", "active")
    list_filter = ("deck", "size", "sin", "active")
    search_fields = ("card_id", "name")
    list_editable = ("active",)
    fieldsets = (
        (None, {"fields": ("card_id", "deck", "size", "name", "types", "value", "active")}),
        ("Corner sigils", {"fields": (("sigil_tl", "sigil_tr"), ("sigil_bl", "sigil_br"))}),
        ("Sin and requirements", {"fields": ("sin", "sin_amount", "requirements")}),
        ("Fear tiers, Courage, Personal Demons", {"fields": ("extra",)}),
    )
