from django.contrib import admin

from .models import Affliction, Demon, Pact


@admin.register(Demon)
class DemonAdmin(admin.ModelAdmin):
    list_display = [
        "code",
        "name",
        "title",
        "corner_1",
        "corner_2",
        "corner_3",
        "corner_4",
        "lasting",
        "affliction_only",
        "in_use",
    ]
    list_filter = ["lasting", "affliction_only", "in_use"]
    list_editable = ["in_use"]
    search_fields = ["code", "name", "title", "curse"]


@admin.register(Pact)
class PactAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "side", "acolyte", "text", "in_use"]
    list_filter = ["acolyte", "in_use"]
    search_fields = ["code", "name", "text"]


@admin.register(Affliction)
class AfflictionAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "text", "in_use"]
    list_filter = ["in_use"]
