"""A character card says what its bars and circles count, and a killed one does not look
healthy (DemLoc rulebook 5.1.1: the hit factor is the damage before each broken heart, "when 3
of these tokens are awarded, the character is killed"). Found by two new users: every card
showed "Armor 5 ——— ○○○ Hit 4 ——— ○○○" with no word for the circles (● is a broken token, ○
one not broken yet), and a killed character's
full hit bar was the browser's green, which reads as "healthy".

By touch at 360x740: Ann adds three broken hearts to Korr on his sheet; his card says killed,
its hit bar is drawn in the killed colour (red, like the badge), not green; beside the roster's
heading a short key says what the circles count (the whole in its title), and the card's
summary is described by its bars (the circles' label, "3 of 3 broken hearts", read out)."""

import re
import struct
import zlib

from playwright.sync_api import expect

from tests.e2e.conftest import open_table


def version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def pixels(png: bytes) -> list[tuple[int, int, int]]:
    """The RGB pixels of an 8-bit RGB or RGBA PNG (what Playwright's screenshots are)."""
    pos, idat, width = 8, b"", 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        chunk = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, _height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            size = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw, stride, out, prev = zlib.decompress(idat), width * size, [], bytearray(width * size)
    for row in range(len(raw) // (stride + 1)):
        kind, line = raw[row * (stride + 1)], bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - size] if i >= size else 0
            b, c = prev[i], prev[i - size] if i >= size else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += [tuple(line[i:i + 3]) for i in range(0, stride, size)]
        prev = line
    return out


def test_a_killed_card_is_red_and_its_circles_say_what_they_count(new_phone):
    ann, ben = open_table(new_phone, "demloc", inset=0)
    key = ann.locator("#dl-key")
    expect(key).to_be_visible()
    expect(key).to_contain_text("= a broken token")
    expect(key).to_have_attribute("title", re.compile("broken armor tokens, or its broken hearts in red"))
    # beside the heading, on its line, whole (the page no longer for it)
    box, head = key.bounding_box(), ann.locator("#dl-key").locator("xpath=parent::*/h2").bounding_box()
    assert box["height"] <= 24 and box["x"] + box["width"] <= 360 - 12, box
    assert head["y"] <= box["y"] and box["y"] + box["height"] <= head["y"] + head["height"] + 2, (box, head)
    card = ann.locator("#piece-s0-korr")
    card.locator("summary.dl-summary").tap()
    add = card.get_by_role("button", name="add a broken heart")
    first = version(ann)
    for _ in range(3):  # the third broken heart kills (5.1.1)
        add.scroll_into_view_if_needed()
        ann.wait_for_timeout(600)  # (the ghost-tap guard of a control that moved)
        before = version(ann)
        add.tap()
        expect(ann.locator("#live")).to_have_attribute("data-version", str(before + 1))
        if before == first:  # one broken heart: the hit bar a third full, in amber, not green
            meter = card.locator(".dl-track-hit meter")
            meter.scroll_into_view_if_needed()
            colours = pixels(meter.screenshot())
            ann.screenshot(path="test-artifacts/damaged-card.png")
            amber = sum(1 for r, g, b in colours if r > 180 and 120 < g < r - 30 and b < 110)
            green = sum(1 for r, g, b in colours if g > r + 30 and g > b)
            print("damaged hit bar: amber pixels", amber, "green", green, "of", len(colours))
            # (the fill is a thin line inside its track: a twentieth of the element's pixels)
            assert amber > len(colours) / 20 and green == 0, (amber, green, len(colours))
    expect(card.locator(".dl-status")).to_have_text("killed")
    summary = card.locator("summary.dl-summary")
    summary.scroll_into_view_if_needed()
    ann.evaluate("window.scrollBy(0, -200)")  # (clear of the sticky turn bar)
    ann.wait_for_timeout(300)
    ann.screenshot(path="test-artifacts/killed-card-ann.png")
    meter = card.locator(".dl-track-hit meter")
    expect(meter).to_be_in_viewport(ratio=1)
    colours = pixels(meter.screenshot())
    red = sum(1 for r, g, b in colours if r > 120 and r > g + 50)  # (the card is dimmed)
    green = sum(1 for r, g, b in colours if g > r + 30 and g > b)
    print("hit bar of a killed card: red pixels", red, "green", green, "of", len(colours))
    assert red > len(colours) / 4 and green == 0, (red, green, len(colours))
    described = summary.evaluate(
        "s => document.getElementById(s.getAttribute('aria-describedby')).textContent")
    assert "Hit" in described
    expect(card.locator(".dl-hearts")).to_have_attribute("aria-label", "3 of 3 broken hearts")
    expect(card.locator(f"#{summary.get_attribute('aria-describedby')} .dl-hearts")).to_have_count(1)
    # The key's circle is the one the card draws for a broken token (a new user: the key said
    # "○ = a broken token" while the killed card showed ●●●, its fresh cards ○○○).
    broken = card.locator(".dl-hearts").inner_text().strip()
    assert broken == "●●●", broken
    expect(key.locator('span[aria-hidden="true"]')).to_have_text(broken[0])
