"""Pages of the missions app: starting a mission with its table options, and the rules
reference (DemLoc rulebook 6.4.2 "consulting the rules"). The live table itself is the kit's
page with ``missions/live.html``."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from .rules.reference import ENTRIES
from .rules.ruleset import OPTIONS_SCHEMA


@require_GET
def mission_new(request):
    """The new-mission form: the kit's new-table form with the demloc table options."""
    options = [
        {"name": name, **spec} for name, spec in OPTIONS_SCHEMA.items() if not spec.get("hidden")
    ]
    default_name = request.user.get_username() if request.user.is_authenticated else ""
    return render(request, "missions/new.html", {"options": options, "default_name": default_name})


@require_GET
def reference(request):
    """The searchable rules reference; the search runs in the page (works offline)."""
    groups: dict[str, list] = {}
    for entry in ENTRIES:
        groups.setdefault(entry["group"], []).append(entry)
    return render(request, "missions/reference.html", {"groups": groups})
