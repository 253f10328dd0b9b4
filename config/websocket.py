"""The websocket protocol the phones are served with: ``uvicorn --ws config.websocket:PhoneWebSocket``
(``config/supervisord.conf``, ``bench/live.py``, ``tests/servers.py``).

uvicorn's own (``--ws auto``: websockets' sans-I/O protocol) with one difference: per-message
deflate without context takeover, either way. A phone's browser offers deflate on every
socket (Chromium: ``permessage-deflate; client_max_window_bits``); with context takeover
each socket keeps a zlib compressor and decompressor from its handshake for as long as it is
open (uvicorn's ``auto``: 12 window bits and memLevel 5, about 45 KiB of the server's memory
a phone; its ``websockets`` protocol: zlib's defaults, about 230 KiB), more than the rest of
the socket. Without it a frame is compressed on its own by a compressor made for it and freed
with it: nothing is kept between frames. With a 15-bit window a frame alone comes out as small
as with ``auto``'s context takeover in a 4 KiB window (an evening's frame: 7.3 KiB of text,
1.4-1.5 KiB on the wire either way; uncompressed, 7.3); zlib's defaults with context takeover
send about a fifth of that, for 230 KiB a phone. The figures: docs/performance.md "DemLoc at
an evening's scale".

Frames from the phone (heartbeats of a few bytes) are decompressed the same way, each on its
own. A client that offers no deflate gets none (the bench's ``--no-deflate``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

#: The compressor made for each frame: zlib's window for the server's frames (2^N bytes; a
#: frame is compressed alone, so no larger than the frames need) and its memLevel.
WINDOW_BITS = 15
MEM_LEVEL = 8


def deflate() -> ServerPerMessageDeflateFactory:
    """Per-message deflate as the phones are offered it: no context takeover either way."""
    return ServerPerMessageDeflateFactory(
        server_no_context_takeover=True,
        client_no_context_takeover=True,
        server_max_window_bits=WINDOW_BITS,
        compress_settings={"memLevel": MEM_LEVEL},
    )


class PhoneWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol, its deflate without context takeover."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if config.ws_per_message_deflate:  # off: --ws-per-message-deflate false, as uvicorn's
            self.conn = ServerProtocol(
                extensions=[deflate()], max_size=config.ws_max_size, logger=self.conn.logger
            )
