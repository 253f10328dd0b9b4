"""Admin of the Guild game, one module a topic: ``content`` (the card catalogue: sets, codes,
cards, arcane powers), ``records`` (a Guild's rows, read mostly: balances change only through
the services, so the ledger and the balances stay equal), ``city`` (the city map's content and
its timers, settled or cancelled through the services). Importing the package registers every
model admin (Django's admin autodiscovery imports ``guilds.admin``)."""

from . import city, content, records

__all__ = ["city", "content", "records"]
