from django.contrib import admin

from .models import WorkerBeat


@admin.register(WorkerBeat)
class WorkerBeatAdmin(admin.ModelAdmin):
    list_display = ("name", "pid", "started_at", "last_seen")
    readonly_fields = ("name", "pid", "started_at", "last_seen")
