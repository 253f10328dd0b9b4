"""The registry of rulesets by name (DESIGN.md). Apps register theirs in ``AppConfig.ready``."""

from tabletop.errors import NotFound

_RULESETS: dict = {}

KIT_EVENT_LABELS = {
    "table.started": "started the game",
    "table.action.undone": "undid the last action",
    "table.action.redone": "redid the action",
}


def register(ruleset) -> None:
    """Register a ruleset instance under ``ruleset.name`` (replacing one of the same name)."""
    if not ruleset.name:
        raise ValueError("a ruleset needs a name")
    _RULESETS[ruleset.name] = ruleset


def get_ruleset(name: str):
    """The ruleset registered as ``name``. Raises ``NotFound("unknown_game")``."""
    try:
        return _RULESETS[name]
    except KeyError:
        raise NotFound("unknown_game", f"There is no game called {name!r}.") from None


def all_rulesets() -> list:
    """Every registered ruleset, sorted by title."""
    return sorted(_RULESETS.values(), key=lambda r: r.title)


def event_label(ruleset, event_type: str) -> str:
    """The human label of an event type, for the table log."""
    labels = getattr(ruleset, "event_labels", {}) or {}
    return labels.get(event_type) or KIT_EVENT_LABELS.get(event_type) or event_type
