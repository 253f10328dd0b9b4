// DemLoc mission page, loaded once by the table page (CSP: no inline script).
// 1. A prompt aimed at this seat (the turn bar's data-prompt: my move, a calculation on my
//    character to confirm, a vote to stop) is announced once in an assertive alert that lives
//    outside the swapped live region, so a push that redraws the page does not repeat it. A
//    prompt about a part of the page (data-prompt-target: the calculation's Apply and Cancel)
//    is a link to it.
// 3. What the table just did (the newest log line, #dl-status: "Undone: …", "Calculation
//    cancelled.", "+1 mercenary kill", "… uses Snare", a pass; a notice, #dl-notice; an event,
//    #dl-event) sits right under the turn bar in the page: on a scrolled page the sticky turn bar
//    covered it, and neither the phone that tapped nor the one watching saw the result (found by
//    a new user). A new one that is hidden (under the bars or off the screen), its words nowhere
//    else between the bars, is shown for 4 seconds in one line over the turn bar's last line
//    (#dl-float; aria-hidden: the line itself is the role=status read out), taking none of the
//    page: a copy of nine lines under the bar covered the card just tapped and the log, and said
//    the notice and the log line twice (found by a new user). A tap on it shows the whole text;
//    any other tap puts it away. The view does not move (docs/playing.md).
// 4. A calculation waiting for this phone (#dl-pending: a shot or fight on my character) that
//    arrives while I read elsewhere does not move my view (docs/playing.md). Its Apply is
//    never applied unseen: a tap on Apply while neither the calculation's head ("Shot: proposed
//    result") nor its first step is between the bars applies nothing; it says so above Apply
//    ("Not applied yet: read the result above..."), brings the calculation between the bars (whole
//    if it fits, else its head at the band's top and on until Apply and Cancel clear the thumb
//    bar) and a second tap applies it (found by a new user: only Apply and Cancel were on the
//    screen, the calculation above them; a later one's held tap said nothing). Offline, the
//    line says so first ("Not applied: no connection (offline)..."), and "Back online" after.
//    What the page itself brought between the bars counts as seen (app.js "page:landed").
// 2. The arcane test shows its arithmetic as the die and fate points are typed (7.2.1, 7.2.3.5).
// 5. A field tapped under the sticky Work it out comes out above it (below).
(function () {
  var region = null;
  var storeKey = "dl-alert:" + location.pathname;
  function alertRegion() {
    if (region && document.body.contains(region)) return region;
    region = document.createElement("div");
    region.id = "dl-alert";
    region.className = "dl-alert toast";
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
    // the page); the turn bar says the same thing. The calculation waiting for this phone
    // already between the bars is not pointed at over itself: the alert is for screen readers
    // only (found by a new user: it covered the calculation it pointed at). A power's alert
    // says what the power did, which its card does not: it shows.
    clearTimeout(r.quietTimer);
    var shownTarget = target === "dl-pending" && document.getElementById(target);
    if (shownTarget && window.inToastBand && window.inToastBand(shownTarget)) {
      r.classList.add("dl-alert-quiet");
      try { sessionStorage.setItem(storeKey, key); } catch (e) { /* ignore */ }
      return;
    }
    r.quietTimer = setTimeout(function () { r.classList.add("dl-alert-quiet"); }, 4000);
    // Where it covers no control and no bar (app.js placeToast): the thumb bar's prompt just
    // above that bar, the turn bar's from the top.
    if (bar.id === "dl-thumb") r.dataset.toastAt = "bottom"; else delete r.dataset.toastAt;
    if (window.placeToast) window.placeToast(r);
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

  // The tapper's notice first, then an event, then the newest log line (which often says the
  // same as the notice: one line of them, never both).
  var NOTES = ["dl-notice", "dl-event", "dl-status"], seen = null, floatTimer = null, floatCheck = null;
  function words(el) { return el.textContent.replace(/\s+/g, " ").trim(); }
  function noteKeys() {
    var out = {};
    NOTES.forEach(function (id) {
      var el = document.getElementById(id);
      if (el) out[id] = (el.getAttribute("data-land-key") || "") + "|" + words(el);
    });
    return out;
  }
  // The band the bars leave (the top bar and the turn bar above; the bottom bar, or the
  // connection banner just above it while it shows, below): app.js's measure, the one every
  // landing uses (app.js runs after this file, before any of these calls).
  function bandTop() { return window.demlocBand.top(); }
  function bandBottom() { return window.demlocBand.bottom(); }
  // Read where it is: its first line between the bars, or half of it.
  function readable(el, top, bottom) {
    if (!el.getClientRects().length) return false;
    var r = el.getBoundingClientRect(), line = Math.min(r.height, 24);
    if (r.top >= top - 1 && r.top + line <= bottom + 1) return true;
    return r.height > 0 && Math.min(r.bottom, bottom) - Math.max(r.top, top) >= r.height / 2;
  }
  // The same words already read between the bars elsewhere (a power's result on its card, the
  // calculation, the open log, the notice that says what the log line says).
  function readElsewhere(text, skip, top, bottom) {
    var probe = text.replace(/^Undone: /, "").slice(0, 40), live = document.getElementById("live");
    if (!live || !probe) return false;
    return Array.prototype.some.call(live.querySelectorAll("p, li, h2, h3, .notice, [role=status]"), function (el) {
      return el !== skip && el.textContent.replace(/\s+/g, " ").indexOf(probe) >= 0 && readable(el, top, bottom);
    });
  }
  function hideFloat() {
    var f = document.getElementById("dl-float");
    if (f) { f.hidden = true; f.classList.remove("dl-float-whole"); }
    clearTimeout(floatTimer);
  }
  // Over the turn bar's last line, inside its box (it takes none of the page: it covers neither
  // the control just tapped nor what the tap brought), kept there while it shows.
  function placeFloat() {
    var f = document.getElementById("dl-float"), turn = document.getElementById("dl-turn");
    if (!f || f.hidden) return;
    if (!turn || !turn.getClientRects().length) { hideFloat(); return; }
    // over the bar's last line of text (its box, less the bar's padding)
    var r = turn.getBoundingClientRect(), last = turn.lastElementChild;
    var bottom = Math.min(r.bottom - 2, (last ? last.getBoundingClientRect().bottom : r.bottom - 8) + 2);
    // ... left of this phone's fate chip when it sits on that line: "your fate N" stays read (a
    // new user lost it under the copy: the number they type a fate point against)
    // (or right of it, whichever side is wider)
    var left = r.left + 6, right = r.right - 6, chip = document.getElementById("dl-my-fate");
    if (chip && chip.getClientRects().length && !f.classList.contains("dl-float-whole")) {
      var c = chip.getBoundingClientRect();
      if (c.top < bottom && c.bottom > bottom - 30) {
        if (c.left - 4 - left >= right - c.right - 4) right = Math.min(right, c.left - 4);
        else left = Math.max(left, c.right + 4);
      }
    }
    f.style.left = left + "px";
    f.style.width = Math.max(0, right - left) + "px";
    f.style.top = "auto";
    f.style.bottom = (window.innerHeight - bottom) + "px";
    if (f.classList.contains("dl-float-whole")) { f.style.bottom = "auto"; f.style.top = (bottom - f.firstLine) + "px"; }
  }
  function floatNotes() {
    var now = noteKeys(), before = seen;
    seen = now;
    if (!before) return;  // the page as opened: read from its top
    var changed = NOTES.filter(function (id) { return now[id] && now[id] !== before[id]; });
    if (!changed.length) return;
    // judged once the page has landed (app.js lands a tap's answer after the swap)
    clearTimeout(floatCheck);
    floatCheck = setTimeout(function () { showFloat(changed); }, 150);
  }
  function showFloat(changed) {
    var top = bandTop(), bottom = bandBottom(), turn = document.getElementById("dl-turn");
    var els = changed.map(function (id) { return document.getElementById(id); }).filter(Boolean);
    if (!els.length || !turn || !turn.getClientRects().length) return;
    if (els.some(function (el) { return readable(el, top, bottom); })) return;  // read in the page
    var text = words(els[0]);
    if (readElsewhere(text, els[0], top, bottom)) return;
    var f = document.getElementById("dl-float");
    if (!f) {
      f = document.createElement("div");
      f.id = "dl-float";
      f.className = "dl-float";
      f.setAttribute("aria-hidden", "true");  // the line itself is the role=status read out
      document.body.appendChild(f);
    }
    f.textContent = text;
    f.title = text;
    f.classList.remove("dl-float-whole");
    f.hidden = false;
    f.firstLine = f.getBoundingClientRect().height;
    placeFloat();
    clearTimeout(floatTimer);
    floatTimer = setTimeout(hideFloat, 4000);
  }
  // Gone on any tap; a tap on it shows its whole text (until the next tap).
  document.addEventListener("pointerdown", function (e) {
    var f = document.getElementById("dl-float");
    if (!f || f.hidden) return;
    if (f.contains(e.target) && !f.classList.contains("dl-float-whole")) {
      f.classList.add("dl-float-whole");
      clearTimeout(floatTimer);
      floatTimer = setTimeout(hideFloat, 8000);
      placeFloat();
      return;
    }
    hideFloat();
  }, true);
  // A tap on the turn bar (not on a link or a button of it) shows its names whole, wrapped,
  // until the next tap on it (a Guild's name cut to "The Most Ho…" could not be read, found by
  // a new user); kept on the page's root element, so it holds across the bar's updates.
  // The same for the thumb bar's "waiting for" line of Guild names (one line, each name cut).
  document.addEventListener("click", function (e) {
    var wait = e.target.closest && e.target.closest(".dl-wait-line");
    if (!wait || e.target.closest("a, button")) return;
    document.documentElement.classList.toggle("dl-wait-whole");
  });
  document.addEventListener("click", function (e) {
    var turn = e.target.closest && e.target.closest("#dl-turn");
    if (!turn || e.target.closest("a, button, input, select, summary")) return;
    document.documentElement.classList.toggle("dl-turn-whole");
  });
  window.addEventListener("scroll", placeFloat, { passive: true });
  window.addEventListener("resize", placeFloat);

  // The calculation counts as seen when its head is between the bars, or once this phone
  // brought it (the alert's or the thumb bar's "check it" link, which lands a long fight's
  // Apply above the thumb bar, or a first tap on Apply below).
  var seenCalc = null;
  function calcKey(block) {  // (not the held tap's line: its words change, the result not)
    var c = block.querySelector("#dl-calc-check"), t = block.textContent;
    return (c ? t.replace(c.textContent, "") : t).replace(/\s+/g, " ");
  }
  function seenNow(block) {
    if (seenCalc === calcKey(block) || landedNow(block)) return true;
    var head = block.querySelector("h2") || block, h = head.getBoundingClientRect();
    if (head.getClientRects().length > 0 && h.top >= bandTop() - 1 && h.bottom <= bandBottom() + 1) return true;
    // Or its first step is (a six-line fight read from "1. Attacker rolls..." down to Apply,
    // its head just under the turn bar: a new user's first tap there did nothing, silently).
    var step = block.querySelector(".dl-steps li"), st = step && step.getBoundingClientRect();
    return !!st && step.getClientRects().length > 0 && st.top >= bandTop() - 1 && st.bottom <= bandBottom() + 1;
  }
  // The tap held says so at Apply, inside the band (a tap that does nothing must say why).
  // Without a network it says that first: the next tap could not be sent either (found by a
  // new user offline: "read the result above" while the Offline banner showed, and the same
  // line stayed once back online). Back online, the line says the next tap applies.
  var READ = "Not applied yet: read the result above, then tap Apply again.";
  var OFFLINE = "Not applied: no connection (offline). Read the result above; tap Apply again once back online.";
  var BACK = "Back online: tap Apply again to apply it.";
  function down() { return navigator.onLine === false || document.body.dataset.ws !== "open"; }
  function sayCheck(block) {
    var keep = block.querySelector("[data-keep-above-bar]");
    var p = document.getElementById("dl-calc-check");
    if (!keep) return;
    if (!p) {
      p = document.createElement("p");
      p.id = "dl-calc-check";
      p.className = "small dl-calc-check";
      p.setAttribute("role", "status");
      keep.parentNode.insertBefore(p, keep);
    }
    p.textContent = down() ? OFFLINE : READ;
  }
  function backOnline() {
    var p = document.getElementById("dl-calc-check");
    if (p && p.textContent === OFFLINE && !down()) p.textContent = BACK;
  }
  window.addEventListener("online", function () { setTimeout(backOnline, 0); });
  new MutationObserver(backOnline).observe(document.body, { attributes: true, attributeFilter: ["data-ws"] });
  // The page itself brought it between the bars (app.js: a fight arriving with its Apply
  // straddling the bottom bar, too long to show whole: Apply above the bar, its head and first
  // step under the turn bar): shown, so a first tap on Apply there applies it (a new user's was
  // held, "Not applied yet", the guard firing on what the page had just put in front of him).
  // Only while the view stays where the page put it: scrolled away (to read a card), the
  // calculation is out of sight again and the guard holds as before.
  var landedCalc = null;
  document.addEventListener("page:landed", function (e) {
    var block = document.getElementById("dl-pending"), el = e.target;
    if (!block || !el || el.nodeType !== 1 || !(el === block || el.contains(block) || block.contains(el))) return;
    var key = calcKey(block);
    setTimeout(function () { landedCalc = { key: key, y: window.scrollY }; }, 0);  // once it has scrolled
  });
  function landedNow(block) {
    return !!landedCalc && landedCalc.key === calcKey(block) && Math.abs(window.scrollY - landedCalc.y) < 24;
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest('a[href="#dl-pending"]');
    var block = a && document.getElementById("dl-pending");
    if (block) seenCalc = calcKey(block);
  }, true);
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("#dl-pending button");
    var f = b && b.closest("form"), block = b && b.closest("#dl-pending");
    var type = f && f.querySelector('input[name="type"]');
    if (!type || type.value !== "demloc.calc.apply") return;
    if (seenNow(block)) return;  // read: applied (offline: "Not sent yet" at Apply, app.js)
    var top = bandTop(), bottom = bandBottom();
    e.preventDefault();
    e.stopImmediatePropagation();
    sayCheck(block);
    var r = block.getBoundingClientRect();
    if (r.height <= bottom - top - 16) {
      // whole: the least scroll
      if (r.top < top + 8) window.scrollBy(0, r.top - top - 8);
      else if (r.bottom > bottom - 8) window.scrollBy(0, r.bottom - bottom + 8);
    } else {
      // too long to show whole (a six-line fight): its head at the band's top, then on until
      // Apply and Cancel (data-keep-above-bar) clear the thumb bar, even if the head then goes
      // under the top bars: what is tapped next must be under the thumb (found by a new user:
      // the head at the top left Apply under the thumb bar, and his next tap did nothing).
      window.scrollBy(0, r.top - top - 8);
      var keep = block.querySelector("[data-keep-above-bar]");
      var over = keep ? keep.getBoundingClientRect().bottom - (bandBottom() - 8) : 0;
      if (over > 0) window.scrollBy(0, over);
    }
    seenCalc = calcKey(block);
  }, true);

  // 5. The sticky Work it out of an open Shoot or Brawl (missions.css) never covers the field
  //    being filled: a field that takes the focus under it (a tap on the strip of it showing
  //    above the button, the keyboard's next field) is scrolled out above it, its label with it
  //    (found by a new user: the button over "My dice" and "Attacker no.").
  function clearOfWork(field) {
    var form = field.closest && field.closest(".dl-act[open] > form[data-command]");
    if (!form || field.type === "hidden" || field.tagName === "BUTTON") return;
    var btn = form.querySelector(":scope > .btn-primary");
    if (!btn || !btn.getClientRects().length || getComputedStyle(btn).position !== "sticky") return;
    var r = (field.closest("label") || field).getBoundingClientRect(), b = btn.getBoundingClientRect();
    var over = r.bottom - (b.top - 8);
    if (r.top < b.bottom && over > 0) window.scrollBy(0, Math.min(over, r.top - bandTop() - 8));
  }
  // After the tap's click (a tap focuses at its mousedown: a scroll then would move another
  // control, Work it out itself, under the click), and again once the browser's own scroll to
  // a focused field is done.
  document.addEventListener("focusin", function (e) {
    var field = e.target;
    setTimeout(function () {
      if (document.activeElement !== field) return;
      clearOfWork(field);
      requestAnimationFrame(function () { if (document.activeElement === field) clearOfWork(field); });
    }, 0);
  });

  function refresh() {
    announce();
    floatNotes();
    document.querySelectorAll('form[data-test="arcane"]').forEach(preview);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refresh);
  else refresh();
  // Every redraw of the live region (a push, a command's answer, a catch-up).
  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("htmx:oobAfterSwap", function () { setTimeout(refresh, 0); });
})();
