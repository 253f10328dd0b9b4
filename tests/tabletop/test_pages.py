"""Table pages with Django's client: new, join, rejoin, command form, log, home."""

import re
from html import unescape

import pytest

from tabletop.models import Event, Table
from tabletop.seats import COOKIE, move_token

pytestmark = pytest.mark.django_db


def open_table(client, name="Ann"):
    response = client.post("/tables/new/", {"ruleset": "counter", "name": name})
    assert response.status_code == 302
    return Table.objects.latest("created_at")


def test_new_table_makes_the_creator_host_and_shows_code_and_qr(client):
    table = open_table(client)
    page = client.get(response_url := f"/t/{table.code}/").content.decode()
    assert table.code in page and "qr.svg" in page and "Start the game" in page
    assert response_url


def test_players_see_their_seat_not_the_table_version(client):
    """Found by a new user: "You are Ann · version 30": the version is for the page script
    (``data-version``), not a player."""
    table = open_table(client)
    client.post(f"/t/{table.code}/command/", {"type": "table.start"})
    page = client.get(f"/t/{table.code}/").content.decode()
    assert "You are <strong>Ann</strong></p>" in page
    assert "· version" not in page


def test_sign_up_and_log_in_name_the_field_the_same(client):
    """Found by a new user: sign-up said "Username", log-in "User name"."""
    signup = client.get("/accounts/signup/").content.decode()
    login = client.get("/accounts/login/").content.decode()
    for page in (signup, login):
        assert re.search(r'<label for="id_username">Username:?</label>', page), page
        assert "User name" not in page


def test_new_table_preselects_a_real_game_not_the_kit_demo(client):
    """Found by a new user: New table preselected "Counter (kit demo)"."""
    page = client.get("/tables/new/").content.decode()
    chosen = re.search(r'<option value="(\w+)" selected>', page).group(1)
    assert chosen != "counter"
    assert page.index('value="counter"') > page.index(f'value="{chosen}"')  # listed last
    page = client.get("/tables/new/?game=realm").content.decode()
    assert '<option value="realm" selected>' in page


def test_join_with_a_wrong_code_says_so(client):
    page = client.get("/join/?code=ZZZZZZ").content.decode()
    assert "No table has the code ZZZZZZ" in page


def test_join_takes_a_seat_and_a_taken_name_is_refused(client):
    table = open_table(client)
    guest = type(client)()
    response = guest.post(f"/j/{table.code.lower()}/", {"name": "Ann"})
    assert "already called Ann" in response.content.decode()
    # Found by a new user: the refused name was emptied; it stays to be corrected.
    assert 'name="name" value="Ann"' in response.content.decode()
    response = guest.post(f"/j/{table.code}/", {"name": "Ben"})
    assert response.status_code == 302 and table.seats.count() == 2
    assert COOKIE in response.cookies
    # Opening the join link again goes straight back to the seat.
    assert guest.get(f"/j/{table.code}/").url == f"/t/{table.code}/"


def test_rejoin_link_moves_a_seat_to_another_phone(client):
    table = open_table(client)
    seat = table.seats.get()
    other = type(client)()
    link = f"/rejoin/{move_token(seat)}/"
    assert "Take the seat" in other.get(link).content.decode()  # GET only asks
    assert "Start the game" in client.get(f"/t/{table.code}/").content.decode()
    response = other.post(link)
    assert response.status_code == 302
    assert "Start the game" in other.get(f"/t/{table.code}/").content.decode()
    # The old phone lost the seat, and the link was for one move only.
    assert client.get(f"/t/{table.code}/").url == f"/j/{table.code}/"
    assert type(client)().post(link).status_code == 404
    assert other.get("/rejoin/forged-token/").status_code == 404
    assert type(client)().get(f"/rejoin/{move_token(table.seats.get()) + 'x'}/").status_code == 404


def test_command_form_runs_and_refusals_show_a_message(client):
    table = open_table(client)
    client.post(f"/t/{table.code}/command/", {"type": "table.start"})
    ok = client.post(
        f"/t/{table.code}/command/",
        {"type": "counter.add", "d.amount": "3", "expected_version": "2", "idempotency_key": "a"},
    )
    assert ok.status_code == 200 and 'id="total">3<' in ok.content.decode()
    again = client.post(
        f"/t/{table.code}/command/",
        {"type": "counter.add", "d.amount": "3", "expected_version": "2", "idempotency_key": "a"},
    )
    assert again.status_code == 200 and Event.objects.filter(type="counter.added").count() == 1
    stale = client.post(
        f"/t/{table.code}/command/",
        {"type": "counter.add", "d.amount": "1", "expected_version": "2"},
    )
    assert stale.status_code == 409 and 'data-code="stale_version"' in stale.content.decode()
    assert "Someone acted just before you: look, then tap again." in stale.content.decode()
    bad = client.post(f"/t/{table.code}/command/", {"type": "counter.add", "data": "{oops"})
    assert bad.status_code == 400 and 'data-code="bad_command"' in bad.content.decode()
    stranger = type(client)().post(
        f"/t/{table.code}/command/", {"type": "counter.add", "d.amount": "1"}
    )
    assert stranger.status_code == 404
    assert Event.objects.filter(type="counter.added").count() == 1


def test_log_page_and_home_list_the_table(client):
    table = open_table(client)
    client.post(f"/t/{table.code}/command/", {"type": "table.start"})
    client.post(f"/t/{table.code}/command/", {"type": "counter.add", "d.amount": "2"})
    log = client.get(f"/t/{table.code}/log/").content.decode()
    assert "Ann added +2." in log  # narrated from the event (tabletop/counter.py)
    assert "Ann</strong> started the game" in log  # no narrator: "<who> <label>"
    assert table.code in client.get("/").content.decode()
    assert type(client)().get(f"/t/{table.code}/log/").status_code == 404


def test_sign_up_is_offered_at_the_top_of_the_home_page(client):
    """Found by a new user: Sign up was only at the bottom of the home page, under the games.
    It is in the top bar of every page and right under Join / New table."""
    html = client.get("/").content.decode()
    top, rest = html.split("<h2>Your tables</h2>")
    assert 'href="/accounts/signup/" data-signup>Sign up</a>' in top.split("</header>")[0]
    assert "data-guild-masters" in top and "/accounts/signup/" not in rest


def test_signup_then_home_and_manifest(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "gm", "password1": "a-Long-pass-991", "password2": "a-Long-pass-991"},
    )
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "gm"
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["icons"]
    # An id, a maskable icon, no portrait lock.
    assert manifest["id"] == "/"
    assert manifest.get("orientation", "any") == "any"
    maskable = [i for i in manifest["icons"] if "maskable" in i.get("purpose", "")]
    assert {i["sizes"] for i in maskable} >= {"512x512"}
    for icon in maskable:
        assert re.search(r"\.[0-9a-f]{12}\.png$", icon["src"]), icon  # hashed: cached for good


def test_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response["Content-Type"] == "application/javascript"
    assert b"caches.open" in response.content


def test_command_form_fields_become_data():
    from django.http import QueryDict

    from tabletop.views import parse_command_form

    post = QueryDict(mutable=True)
    post.update({"type": "x.y", "d.amount": "-3", "d.name": "Ann", "d.cards[]": "7",
                 "expected_version": "4", "idempotency_key": "k1", "data": '{"z": 1}'})
    post.appendlist("d.pair", "1")
    post.appendlist("d.pair", "2")
    command, expected, key = parse_command_form(post)
    assert command.type == "x.y"
    assert command.data == {"z": 1, "amount": -3, "name": "Ann", "cards": [7], "pair": [1, 2]}
    assert (expected, key) == (4, "k1")


def test_home_lists_each_game_with_its_own_pages(client):
    page = client.get("/").content.decode()
    assert "/tables/new/?game=personimo" in page
    assert "/personimo/score/" in page
    assert 'href="/missions/"' in page and "/missions/reference/" in page


def test_join_link_of_a_started_table_says_so_instead_of_offering_a_seat(client):
    table = open_table(client)
    client.post(f"/t/{table.code}/command/", {"type": "table.start"})
    page = type(client)().get(f"/j/{table.code}/").content.decode()
    assert "has already started" in page and "Join table" not in page


def test_odd_numbers_in_form_fields_are_a_clear_error_not_a_crash(client):
    table = open_table(client)
    client.post(f"/t/{table.code}/command/", {"type": "table.start"})
    # Non-ASCII digits are refused by the kit before any game reads them (tabletop.ids).
    for value, code in (("²", "bad_number"), ("9" * 5000, "bad_amount"), ("-", "bad_amount"),
                        ("1e3", "bad_amount")):
        response = client.post(f"/t/{table.code}/command/", {"type": "counter.add", "d.amount": value})
        assert response.status_code == 400, value
        assert f'data-code="{code}"' in response.content.decode()


def test_a_name_longer_than_60_characters_is_refused(client):
    response = client.post("/tables/new/", {"ruleset": "counter", "name": "W" * 61})
    assert response.status_code == 200 and "at most 60 characters" in response.content.decode()
    assert not Table.objects.exists()


def test_without_debug_errors_are_friendly_pages_and_static_files_are_served(client, settings):
    settings.DEBUG = False
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and "Nothing here" in response.content.decode()


@pytest.mark.django_db(transaction=True)  # the page is read on the ASGI app's own thread
async def test_the_asgi_app_serves_static_files_itself_hashed_compressed_and_cached_long():
    """A static file is addressed by its content hash,
    sent compressed to a browser that accepts it and cached for at least a year; a page is
    compressed and stays private."""
    import httpx
    from django.templatetags.static import static

    from config.asgi import application

    url = static("django_htmx/htmx-2.min.js")
    assert re.fullmatch(r"/static/django_htmx/htmx-2\.min\.[0-9a-f]{12}\.js", url), url
    transport = httpx.ASGITransport(app=application)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        response = await http.get(url, headers={"Accept-Encoding": "gzip"})
        page = await http.get("/", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and b"htmx" in response.content
    assert response.headers["content-encoding"] == "gzip"
    cache = response.headers["cache-control"]
    assert "immutable" in cache, cache
    assert int(re.search(r"max-age=(\d+)", cache).group(1)) >= 365 * 24 * 3600, cache
    assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
    assert page.headers["cache-control"] == "no-store, private"
    assert b"<html" in page.content  # httpx decoded it
    assert url in page.text  # the page names the hashed file


def test_host_changes_options_from_the_lobby_page_and_others_cannot(client):
    from tabletop.registry import get_ruleset

    game = get_ruleset("counter")
    game.options_schema = {"speed": {"label": "Speed", "choices": [["slow", "Slow"], ["fast", "Fast"]],
                                     "default": "slow"}}
    try:
        table = open_table(client)
        assert 'name="opt.speed"' in client.get(f"/t/{table.code}/").content.decode()
        ok = client.post(f"/t/{table.code}/options/", {"opt.speed": "fast"})
        assert ok.status_code == 200 and 'value="fast" selected' in ok.content.decode()
        bad = client.post(f"/t/{table.code}/options/", {"opt.speed": "warp"})
        assert bad.status_code == 400 and 'data-code="bad_option"' in bad.content.decode()
        guest = type(client)()
        guest.post(f"/j/{table.code}/", {"name": "Ben"})
        assert "Fast" in guest.get(f"/t/{table.code}/").content.decode()
        assert guest.post(f"/t/{table.code}/options/", {"opt.speed": "slow"}).status_code == 403
        table.refresh_from_db()
        assert table.options == {"speed": "fast"}
    finally:
        game.options_schema = {}


def test_live_region_alone_for_a_waking_phone(client):
    table = open_table(client)
    client.post(f"/t/{table.code}/command/", {"type": "table.start"})
    client.post(f"/t/{table.code}/command/", {"type": "counter.add", "d.amount": "4"})
    live = client.get(f"/t/{table.code}/live/").content.decode()
    assert live.lstrip().startswith('<section id="live"') and 'id="total">4<' in live


def test_signup_shows_the_password_rules_before_any_error(client):
    """The rules are on the form, tied to the field, not only in a refusal."""
    html = client.get("/accounts/signup/").content.decode()
    assert 'id="id_password1_helptext"' in html
    assert "at least 8 characters" in html
    assert 'aria-describedby="id_password1_helptext"' in html


def test_a_phone_without_a_seat_may_watch_a_table_still_in_the_lobby(client):
    """README and docs/architecture.md: anyone with the code may watch. Found by a new user: a phone with no
    seat opening /t/CODE/ of a table in the lobby was sent to the join page, which only offered
    "Take a seat". The join page now offers "Watch the table" too; the watcher's lobby shows
    the seats and no control, and says how to take a seat."""
    from tests.tabletop.test_watcher_pages import controls

    table = open_table(client)
    watcher = type(client)()
    assert watcher.get(f"/t/{table.code}/").url == f"/j/{table.code}/"  # the choice is asked
    page = watcher.get(f"/j/{table.code}/").content.decode()
    assert "Join table" in page
    watch = re.search(r'<a class="btn btn-block" href="([^"]+)" id="join-watch">Watch the table</a>',
                      page)
    assert watch, page
    response = watcher.get(watch.group(1))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-status="lobby"' in html and "Ann" in html
    assert controls(html) == [] and "Start the game" not in html
    assert re.search(r'id="watching">You are watching\. <a href="/j/' + table.code + '/">', html)
    assert table.seats.count() == 1  # watching takes no seat
    live = watcher.get(f"/t/{table.code}/live/").content.decode()
    assert controls(live) == [] and 'data-status="lobby"' in live
    # The game starts: the watcher's page shows it (the same address, no seat taken).
    client.post(f"/t/{table.code}/command/", {"type": "table.start"})
    html = watcher.get(watch.group(1)).content.decode()
    assert 'data-status="playing"' in html and controls(html) == []


def test_the_join_qr_does_not_glare_in_a_dark_room(client):
    """Found by a new user: the white QR code glared in a dark room. Its light modules are a
    dim grey with at least 7:1 contrast against its dark ones (WCAG's ratio)."""
    from tabletop.views import QR_LIGHT

    table = open_table(client)
    svg = client.get(f"/t/{table.code}/qr.svg").content.decode().lower()
    assert "#fff" not in svg and "white" not in svg and QR_LIGHT in svg

    def luminance(hex_colour: str) -> float:
        rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    ratio = (luminance(QR_LIGHT) + 0.05) / (luminance("#111111") + 0.05)
    assert 7 <= ratio < 15  # readable, and not the 18.9:1 of white


def test_a_greyed_undo_says_why(client):
    # A greyed Undo gave no reason: it now says, on the button, why nothing can be undone.
    def undo_button():
        # as the phone reads it (the region writes "↶" as "&#8630;": tabletop.blocks.narrow)
        page = unescape(client.get(f"/t/{table.code}/").content.decode())
        return re.search(r"<button[^>]*>↶ Undo.*?</button>", page).group(0)

    table = open_table(client)
    client.post(f"/t/{table.code}/command/", {"type": "table.start"})
    assert "disabled" in undo_button() and "nothing yet" in undo_button()
    client.post(f"/t/{table.code}/command/", {"type": "counter.add", "d.amount": "2"})
    # Enabled: no reason why not, but what it takes back (the counter's "add").
    assert "disabled" not in undo_button() and 'id="undo-why"' not in undo_button()
    assert '<small class="undo-what" id="undo-what">add<' in undo_button()
    assert "undo-why" not in undo_button()  # the greyed reason's class is not the "what" line's
    client.post(f"/t/{table.code}/command/", {"type": "table.undo"})
    assert "disabled" in undo_button() and "all undone" in undo_button()
    client.post(f"/t/{table.code}/command/", {"type": "counter.secret.redraw"})
    assert "disabled" in undo_button() and "number drawn" in undo_button()  # the counter names it
