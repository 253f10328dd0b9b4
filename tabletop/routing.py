"""The websocket routes: a table's socket, and any other path refused at the handshake."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from tabletop.consumers import TableConsumer


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any websocket path that is no table's: the handshake is refused (403), as for a table
    code that does not exist. Without it Channels' router raised ``ValueError`` and the server
    answered 500 to a same-origin socket opened on ``/ws/anything/``."""

    async def connect(self) -> None:
        await self.close()


websocket_urlpatterns = [
    path("ws/tables/<str:code>/", TableConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
