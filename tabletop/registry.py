"""The registry of rulesets by name (docs/architecture.md). Apps register theirs in ``AppConfig.ready``."""

from tabletop.errors import NotFound

_RULESETS: dict = {}
_CONTENT: dict = {}

KIT_EVENT_LABELS = {
    "table.started": "started the game",
    "table.action.undone": "undid the last action",
    "table.action.redone": "redid the action",
    "table.seat.moved": "moved to another phone (the host took the seat from its old phone)",
}


def register(ruleset, *, content=None) -> None:
    """Register a ruleset instance under ``ruleset.name`` (replacing one of the same name).

    ``content``: optional ``callable(options: dict) -> dict`` (Django side, in the game's app)
    that gathers what the game's pure ``setup`` needs from the database (demons, cards...). The
    kit calls it when the table starts, in the same transaction, if the opening service stored
    no content with the table, and keeps the result in ``Table.setup``."""
    if not ruleset.name:
        raise ValueError("a ruleset needs a name")
    _RULESETS[ruleset.name] = ruleset
    if content is not None:
        _CONTENT[ruleset.name] = content
    else:
        _CONTENT.pop(ruleset.name, None)


def content_provider(name: str):
    """The content gatherer registered with ruleset ``name``, or None."""
    return _CONTENT.get(name)


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
