// Loaded once by the table page (Ruleset.script): no inline script, so the page passes the CSP.
/* Realm: forms marked data-realm-hand send the ticked cards of #rl-hand (as "cards", "discard")
   and the Vessel declarations inside their JSON "data". Bound once. */
(function () {
  if (window.realmBound) return;
  window.realmBound = true;
  var DOUBLE = 1000;  // ms: a double tap's second tap comes well within it
  document.addEventListener("htmx:configRequest", function (e) {
    var form = e.detail.elt.closest ? e.detail.elt.closest("[data-realm-hand]") : null;
    if (!form) return;
    var picked = Array.prototype.map.call(
      document.querySelectorAll("#rl-hand .realm-pick:checked"), function (el) { return el.value; });
    /* The second tap of a double tap (found by a new user: Summon Vessel tapped twice made the
       Vessel, then said "Summon with three cards of one suit or one rank."): the first tap's
       answer took its cards from the hand and redrew the same button under the thumb, so the
       second would send nothing ticked, with a new key and version. A hand action with nothing
       ticked within DOUBLE ms of one that sent cards now gone from the hand (it was applied)
       is that second tap: not sent, silently. A tap with nothing ticked at any other time is
       sent and refused at the button ("tick cards first"). */
    var prev = window.realmSent;
    if (!picked.length && prev && prev.cards.length && Date.now() - prev.at < DOUBLE &&
        prev.cards.every(function (id) { return !document.querySelector('#rl-hand .realm-pick[value="' + id + '"]'); })) {
      e.preventDefault();
      return;
    }
    var data = {};
    try { data = JSON.parse(e.detail.parameters["data"] || "{}"); } catch (err) { data = {}; }
    data[form.dataset.realmHand] = form.dataset.realmHand === "card" ? (picked[0] || "") : picked;
    if (form.dataset.realmHand === "cards") {
      var declare = {};
      document.querySelectorAll("#rl-declare select[data-vessel]").forEach(function (sel) {
        if (picked.indexOf(sel.dataset.vessel) < 0) return;
        declare[sel.dataset.vessel] = declare[sel.dataset.vessel] || {};
        declare[sel.dataset.vessel][sel.dataset.field] = sel.value;
      });
      data.declare = declare;
    }
    e.detail.parameters["data"] = JSON.stringify(data);
    window.realmSent = {at: Date.now(), cards: picked, selects: Array.prototype.map.call(
      document.querySelectorAll("#rl-declare select[data-vessel]"), function (sel) {
        return [sel.dataset.vessel, sel.dataset.field, sel.value]; })};
  });
  /* End turn checks the ticked cards against the Reset (rulebook "Step 3 - End Your Turn":
     "reset your hand to 5 cards") before it asks for the second tap: the number to discard is
     the one the hint says (data-discard-needed, the view's discard_needed, the very count the
     server checks), and a wrong count is said at the button, nothing armed. Window, capture:
     before the kit's two-step (document, capture) arms the button. */
  window.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form || !form.matches || !form.matches('form[data-realm-hand="discard"][data-discard-needed]')) return;
    var needed = parseInt(form.dataset.discardNeeded, 10) || 0;
    var ticked = document.querySelectorAll("#rl-hand .realm-pick:checked").length;
    var old = document.getElementById("rl-end-check");
    if (old) old.remove();
    if (ticked === needed) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    var note = document.createElement("p");
    note.className = "alert rl-error";
    note.id = "rl-end-check";
    note.setAttribute("role", "alert");
    note.dataset.code = "discard_count";
    note.textContent = (needed
      ? "Tick exactly " + needed + " card" + (needed === 1 ? "" : "s") + " to discard"
      : "Untick your cards: you keep them all") +
      " to keep " + form.dataset.handSize + " (ticked: " + ticked + "), then End turn.";
    form.insertAdjacentElement("afterend", note);
  }, true);
  /* A refusal goes at this phone's next tap that gets through (a card ticked or unticked, a
     two-step's first tap: the kit's "tap:through"; a command sent: its answer redraws). A new
     user saw "Play 1 to 4 cards that meet the corners." stay after ticking a card and tapping
     End turn. */
  function clearErrors() {
    document.querySelectorAll("#realm .rl-error").forEach(function (n) { n.remove(); });
  }
  document.addEventListener("change", function (e) {
    if (!e.target.matches || !e.target.matches("#rl-hand .realm-pick")) return;
    clearErrors();
    e.target.dispatchEvent(new CustomEvent("tap:through", { bubbles: true }));
  });
  document.addEventListener("tap:through", function (e) {
    if (!e.target.matches || !e.target.matches("#rl-hand .realm-pick")) clearErrors();
  });
  /* A refused command: its message sits next to the control (.rl-error); keep what the player
     ticked and declared, and bring the message into view without jumping the page (focus stays
     on the button, whose id is stable; the kit's alert announces the message). */
  function restore() {
    var error = document.querySelector("#realm .rl-error");
    var sent = window.realmSent;
    if (!error || !sent || error.dataset.restored) return;
    error.dataset.restored = "1";
    sent.cards.forEach(function (id) {
      var box = document.querySelector('#rl-hand .realm-pick[value="' + id + '"]');
      if (box) box.checked = true;
    });
    sent.selects.forEach(function (s) {
      var sel = document.querySelector('#rl-declare select[data-vessel="' + s[0] + '"][data-field="' + s[1] + '"]');
      if (sel) sel.value = s[2];
    });
    error.scrollIntoView({block: "nearest"});
  }
  document.addEventListener("htmx:oobAfterSwap", restore);
  document.addEventListener("htmx:afterSettle", restore);
})();
