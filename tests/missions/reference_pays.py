"""What the rules reference page (``/missions/reference/``) says a mission pays, read back from
its HTML: each table's rows by their ``data-*`` numbers (the page's own markup, what a player
reads in the cells beside them)."""

from __future__ import annotations

from html.parser import HTMLParser

from django.urls import reverse

CURRENCIES = ("fame", "feods", "blood_stones")


class _Pays(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, dict] = {}
        self.current: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-pays" in a:
            self.current = a["data-pays"]
            self.tables[self.current] = {"rows": {}, "heal": None}
        elif self.current and "data-row" in a:
            self.tables[self.current]["rows"][a["data-row"]] = {
                c: int(a[f"data-{c.replace('_', '-')}"]) for c in CURRENCIES
            }
        elif self.current and "data-heal" in a:
            self.tables[self.current]["heal"] = int(a["data-heal"])


def page_pays(html: str) -> dict[str, dict]:
    """``{"defaults" | "mission-<id>": {"rows": {row key: {"fame", "feods", "blood_stones"}},
    "heal": feods per broken heart}}`` as the page shows them."""
    parser = _Pays()
    parser.feed(html)
    return parser.tables


def fetch_pays(client) -> dict[str, dict]:
    """The reference page as a phone gets it, read by ``page_pays``."""
    response = client.get(reverse("missions:reference"))
    assert response.status_code == 200
    return page_pays(response.content.decode())
