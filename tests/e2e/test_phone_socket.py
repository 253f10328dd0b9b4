"""A phone's socket as its browser opens it (docs/architecture.md "Running it"): Chromium offers
per-message deflate, the server (uvicorn as ``bin/run`` starts it, ``config.websocket``)
accepts it without context takeover either way, so it keeps no zlib state for the phone
between frames; the table's frames still reach the phone through it, tap by tap. Touch phones,
360x740, a real uvicorn and PostgreSQL."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import open_table, shot, table_code

#: What the page's own socket negotiated is not readable from outside: a second socket to the
#: same table, opened by the same browser with the same ``new WebSocket`` as the page's own
#: (htmx's ws extension, ``ws-connect`` in tabletop/templates/tabletop/table.html).
EXTENSIONS = """code => new Promise((resolve, reject) => {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/tables/${code}/`);
  ws.onmessage = () => { resolve(ws.extensions); ws.close(); };
  ws.onerror = () => reject(new Error('socket failed'));
})"""


def test_a_phones_browser_gets_deflate_without_context_takeover_and_every_frame(new_phone):
    ann, ben = open_table(new_phone, "counter", 2, inset=0)
    extensions = [p.strip() for p in ben.evaluate(EXTENSIONS, table_code(ben)).split(";")]
    assert extensions[0] == "permessage-deflate", extensions
    assert "server_no_context_takeover" in extensions, extensions
    assert "client_no_context_takeover" in extensions, extensions
    for n in range(1, 4):  # each frame compressed alone reaches the other phone
        plus = ben.get_by_role("button", name="+1")
        plus.tap()
        for phone in (ann, ben):
            total = phone.locator("#total")
            expect(total).to_have_text(str(n))
            expect(total).to_be_in_viewport()
    shot(ann, "phone-socket-deflate")
