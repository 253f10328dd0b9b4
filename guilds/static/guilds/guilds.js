// Guild pages: where a tap lands (docs/playing.md, "The Guild pages: where a tap lands").
// Every action answers with the whole #guild-main region (htmx, outerHTML). The server marks what the tap made or
// changed: its confirmation at the row it landed on (data-landed: the equipped weapon, the
// enlisted mercenary, the bought weapon), or a refusal at the control that was used (.alert).
// After the swap that row is brought inside the viewport, below the sticky top bar, with some
// room above it: the next control of the row (Unequip after Equip, Equip after Buy) is in it.
// Without this the browser's scroll anchoring keeps the old content's place while the new
// region is inserted above it, and the phone ends at the bottom of the page.
(function () {
  function topInset() {
    var bar = document.querySelector(".topbar");
    return bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  }
  function land(el) {
    var row = el.closest("li[id], .card[id], form[id]") || el;
    var top = topInset() + 8, bottom = window.innerHeight - 8;
    var r = row.getBoundingClientRect();
    if (r.height > bottom - top) { row = el; r = el.getBoundingClientRect(); }
    if (r.top >= top && r.bottom <= bottom) return;
    var room = Math.max(0, Math.min(48, (bottom - top - r.height) / 3));
    window.scrollTo(0, Math.max(0, window.scrollY + r.top - top - room));
  }
  document.addEventListener("htmx:afterSettle", function () {
    var main = document.getElementById("guild-main");
    if (!main) return;
    var el = main.querySelector(".alert[role=alert]:not([data-seen])") || main.querySelector("[data-landed]");
    if (!el) return;
    // Landed once: a later swap elsewhere (the tour closing) does not move the page again.
    el.removeAttribute("data-landed");
    el.setAttribute("data-seen", "");
    land(el);
  });
})();
