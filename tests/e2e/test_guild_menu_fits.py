"""The Guild menu at 360 px (found by a new user: it scrolled sideways and Dormitory was cut
at the edge of the screen). Opened by a tap on its folded line, every link of the menu is
wholly on the screen, nothing scrolls sideways, and each is a touch target of at least 44 px."""

from tests.missions.lifecycle_flow import build_guild

from .conftest import open_guild_menu, shot
from .test_mission_lobby import login


def test_every_guild_menu_link_is_on_the_screen_at_360px(new_phone):
    guild = build_guild("The Most Venerable Order of the Ash-Grey Ravens!", "red", ("Rook",))
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/dormitory/")
    open_guild_menu(phone)
    shot(phone, "guild-menu-360")
    phone.get_by_role("link", name="Roster").tap()
    phone.wait_for_url("**/roster/")
    # Missions from every Guild page (a new user found no way from the Guild to a table).
    open_guild_menu(phone)
    phone.get_by_role("link", name="Missions", exact=True).tap()
    phone.wait_for_url("**/missions/")
    shot(phone, "guild-menu-to-missions")
