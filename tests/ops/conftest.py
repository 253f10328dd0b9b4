from tests.guilds.conftest import found_guild, give  # noqa: F401 - fixtures
