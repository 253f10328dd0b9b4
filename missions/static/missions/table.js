// DemLoc mission page, loaded once by the table page (CSP: no inline script).
// 1. A prompt aimed at this seat (the turn bar's data-prompt: my move, a calculation on my
//    character to confirm, a vote to stop) is announced once in an assertive alert that lives
//    outside the swapped live region, so a push that redraws the page does not repeat it. A
//    prompt about a part of the page (data-prompt-target: the calculation's Apply and Cancel)
//    is a link to it.
// 2. The arcane test shows its arithmetic as the die and fate points are typed (7.2.1, 7.2.3.5).
(function () {
  var region = null;
  var storeKey = "dl-alert:" + location.pathname;
  function alertRegion() {
    if (region && document.body.contains(region)) return region;
    region = document.createElement("div");
    region.id = "dl-alert";
    region.className = "dl-alert";
    region.setAttribute("role", "alert");
    region.setAttribute("aria-live", "assertive");
    document.body.appendChild(region);
    return region;
  }
  function announce() {
    // The turn bar's prompt in play; the thumb bar's during preparation and once the mission
    // is over (its one next step: Next, Placed, Close the mission).
    var bar = [document.getElementById("dl-turn"), document.getElementById("dl-thumb")].filter(function (b) {
      return b && b.dataset.promptKey;
    })[0] || document.getElementById("dl-turn") || document.getElementById("dl-thumb");
    if (!bar) return;
    var key = bar.dataset.promptKey || "";
    var last = null;
    try { last = sessionStorage.getItem(storeKey); } catch (e) { /* private mode */ }
    var r = alertRegion();
    if (!key) {
      r.textContent = "";
      r.hidden = true;
      try { sessionStorage.removeItem(storeKey); } catch (e) { /* ignore */ }
      return;
    }
    if (key === last && r.textContent) return;
    r.hidden = false;
    r.classList.remove("dl-alert-quiet");
    r.textContent = "";
    var target = bar.dataset.promptTarget;
    if (target && document.getElementById(target)) {
      // A prompt about a part of the page (a calculation's Apply and Cancel): a link to it,
      // which the browser brings into view below the sticky turn bar (its scroll padding).
      var a = document.createElement("a");
      a.href = "#" + target;
      a.className = "dl-alert-link";
      a.textContent = bar.dataset.prompt || "";
      r.appendChild(a);
    } else r.textContent = bar.dataset.prompt || "";
    // Shown on screen for a few seconds, then kept for screen readers only (it would cover
    // the page); the turn bar says the same thing.
    clearTimeout(r.quietTimer);
    r.quietTimer = setTimeout(function () { r.classList.add("dl-alert-quiet"); }, 4000);
    try { sessionStorage.setItem(storeKey, key); } catch (e) { /* ignore */ }
  }

  // The alert's link taken: the alert steps aside (it would cover the panel it brought).
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("#dl-alert a");
    if (link) link.closest("#dl-alert").classList.add("dl-alert-quiet");
  });

  function preview(form) {
    var out = form.querySelector(".dl-preview");
    var roll = parseInt((form.querySelector('[name="d.roll"]') || {}).value, 10);
    if (!out) return;
    if (!(roll >= 1 && roll <= 6)) { out.textContent = ""; return; }
    var fate = parseInt((form.querySelector('[name="d.fate"]') || {}).value, 10) || 0;
    var ability = parseInt(form.dataset.ability, 10) || 0;
    var purpose = form.querySelector('[name="d.target"]');
    var opt = purpose && purpose.selectedOptions[0];
    var rollMod = opt ? parseInt(opt.dataset.rollMod, 10) || 0 : 0;
    var abilityMod = opt ? parseInt(opt.dataset.abilityMod, 10) || 0 : 0;
    var lowered = Math.max(1, roll - fate);
    var result = lowered + rollMod;
    var text = "d6 " + roll;
    if (fate) text += " − " + fate + " fate = " + lowered;
    if (rollMod) text += " + " + rollMod + " = " + result;
    text += (result <= ability + abilityMod ? " ≤ " : " > ") + (ability + abilityMod) + ": ";
    text += result <= ability + abilityMod ? "passes" : "fails";
    out.textContent = text;
  }
  document.addEventListener("input", function (e) {
    var form = e.target.closest && e.target.closest('form[data-test="arcane"]');
    if (form) preview(form);
  });
  document.addEventListener("change", function (e) {
    var form = e.target.closest && e.target.closest('form[data-test="arcane"]');
    if (form) preview(form);
  });

  function refresh() {
    announce();
    document.querySelectorAll('form[data-test="arcane"]').forEach(preview);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refresh);
  else refresh();
  // Every redraw of the live region (a push, a command's answer, a catch-up).
  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("htmx:oobAfterSwap", function () { setTimeout(refresh, 0); });
})();
