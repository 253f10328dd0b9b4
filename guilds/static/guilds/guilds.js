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
  // A refused tap keeps the choices made in its form (the Armory's Equip: mercenary and space;
  // docs/playing.md): the page comes back from the server with its defaults, so the choices
  // of the form just sent are put back in its twin (same action, same row).
  var sent = null;
  function key(form) {
    var at = form.querySelector('input[name="at"]');
    return (form.getAttribute("hx-post") || "") + "|" + (at ? at.value : "");
  }
  document.addEventListener("htmx:configRequest", function (e) {
    var form = e.detail.elt && e.detail.elt.closest ? e.detail.elt.closest("form") : null;
    var main = document.getElementById("guild-main");
    if (!form || !main || !main.contains(form)) { sent = null; return; }
    var values = [];
    form.querySelectorAll("select, input:not([type=hidden]), textarea").forEach(function (i) {
      if (!i.name) return;
      values.push({ name: i.name, value: i.value, checked: i.checked, type: i.type });
    });
    var once = form.querySelector('input[name="once"]');
    // A carried key (below) is for the same tap again: with other values (another set code
    // typed at the City Gate) it is a new action, which takes the form's own fresh key.
    if (once && once.dataset.fresh && once.dataset.sent !== JSON.stringify(values)) {
      once.value = once.dataset.fresh;
      e.detail.parameters["once"] = once.value;
    }
    sent = { key: key(form), values: values, once: once ? once.value : "" };
  });
  // A double tap changes nothing (guilds.services.form_once): the answer to the first tap is
  // often in before the second one, which then lands on the new copy of the same button (Buy
  // again, stock 3 -> 2). For a moment that copy carries the key just sent, so the server
  // runs nothing for it; then its own fresh key comes back and a deliberate tap counts.
  var DOUBLE_TAP_MS = 1000;
  function carryOnce(main, s) {
    // Only a plain button (Buy, Enlist, Lodge, Add, Heal, Upgrade): a form with choices or a
    // typed value (Equip, Redeem) says what it wants each time.
    if (!s || !s.once || s.values.length) return;
    var twin = Array.prototype.filter.call(main.querySelectorAll("form"), function (f) { return key(f) === s.key; })[0];
    var input = twin && twin.querySelector('input[name="once"]');
    if (!input) return;
    var fresh = input.value;
    input.value = s.once;
    input.dataset.fresh = fresh;
    input.dataset.sent = JSON.stringify(s.values);
    setTimeout(function () { if (input.value === s.once) input.value = fresh; delete input.dataset.fresh; }, DOUBLE_TAP_MS);
  }
  function keepChoices(main) {
    var s = sent; sent = null;
    carryOnce(main, s);
    if (!s || !main.querySelector(".alert[role=alert]:not([data-seen])")) return;
    var twin = Array.prototype.filter.call(main.querySelectorAll("form"), function (f) { return key(f) === s.key; })[0];
    if (!twin) return;
    s.values.forEach(function (v) {
      var t = twin.querySelector('[name="' + CSS.escape(v.name) + '"]');
      if (!t) return;
      if (v.type === "checkbox" || v.type === "radio") t.checked = v.checked;
      else if (t.tagName !== "SELECT" || Array.prototype.some.call(t.options, function (o) { return o.value === v.value; })) t.value = v.value;
    });
  }
  // In the same task as the swap (not at settle, some milliseconds later): a choice made on the
  // new page before it settles (another mercenary picked after a refusal) is never overwritten.
  // A form whose field must be filled first (data-fill-first on the field: the City Gate's set
  // code) has its button disabled while that field is empty, and while its request flies
  // (hx-disabled-elt). A double tap's second tap, which lands on the answer's empty field, is
  // then harmless and silent: no native "Please fill out this field" bubble over the
  // confirmation (found by a new user), no second request.
  function fillFirst(root) {
    root.querySelectorAll("[data-fill-first]").forEach(function (field) {
      if (!field.form) return;
      var empty = !field.value.trim();
      field.form.querySelectorAll("button:not([type=button])").forEach(function (b) { b.disabled = empty; });
    });
  }
  document.addEventListener("input", function (e) {
    if (e.target.form && e.target.matches("[data-fill-first]")) fillFirst(e.target.form);
  });
  fillFirst(document);
  document.addEventListener("htmx:afterSwap", function () {
    var main = document.getElementById("guild-main");
    if (main) keepChoices(main);
    fillFirst(document);  // in the swap's task: before a second tap can reach the new button
  });
  // A tap the phone could not send (offline, or no answer within htmx's timeout) is said at
  // its control, not lost silently: the page is not swapped, so the form keeps what was typed,
  // and the same tap can be made again once the network is back (its one-time key is unused
  // if it never arrived, and a second arrival changes nothing: guilds.services.form_once).
  var NOT_SENT = "Not sent: no connection. Tap again when you are back online.";
  function notSent(e) {
    var elt = e.detail && e.detail.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    var main = document.getElementById("guild-main");
    if (!form || !main || !main.contains(form)) return;
    var n = main.querySelector("#not-sent") || document.createElement("p");
    n.id = "not-sent"; n.className = "alert"; n.setAttribute("role", "alert");
    n.dataset.code = "not_sent";
    n.textContent = NOT_SENT;
    var after = form.classList.contains("actions") ? form : (form.closest(".actions") || form);
    after.insertAdjacentElement("afterend", n);
    land(n);
  }
  document.addEventListener("htmx:sendError", notSent);
  document.addEventListener("htmx:timeout", notSent);
  document.addEventListener("htmx:beforeSend", function () {
    var n = document.getElementById("not-sent");
    if (n) n.remove();
  });
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
