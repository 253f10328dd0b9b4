"""The one small error hierarchy of the product (docs/architecture.md "Interfaces and errors").

Every error carries a machine-readable ``code`` (tests assert it) and a ``message`` a player
understands. They are mapped to HTTP in one place: ``tabletop.api.exception_handler`` (DRF) and
``tabletop.middleware`` (pages and htmx). No Django import: rules raise them too.
"""


class TabletopError(Exception):
    """Base class. ``code``: short snake_case string; ``message``: one sentence for a player."""

    status = 400
    default_code = "error"

    def __init__(self, code: str | None = None, message: str = "") -> None:
        self.code = code or self.default_code
        self.message = message or self.code.replace("_", " ")
        super().__init__(self.message)

    def as_dict(self) -> dict:
        return {"code": self.code, "detail": self.message}


class RuleViolation(TabletopError):
    """A command breaks a game rule or is malformed. HTTP 400."""

    status = 400
    default_code = "rule_violation"


class Conflict(TabletopError):
    """A stale ``expected_version`` or a concurrent write. HTTP 409."""

    status = 409
    default_code = "conflict"


class NotAllowed(TabletopError):
    """The caller may not do this (not their seat, not their turn to host...). HTTP 403."""

    status = 403
    default_code = "not_allowed"


class NotFound(TabletopError):
    """No such thing, or not visible to the caller (we never tell which). HTTP 404."""

    status = 404
    default_code = "not_found"


class Throttled(TabletopError):
    """Too many tries from this address: HTTP 429 with ``wait`` (whole seconds)."""

    status = 429
    default_code = "throttled"

    def __init__(self, code: str | None = None, message: str = "", wait: int = 60) -> None:
        self.wait = max(1, int(wait))
        super().__init__(code, message or f"Too many tries: try again in {self.wait} s.")

    def as_dict(self) -> dict:
        return {**super().as_dict(), "wait": self.wait}
