// The first-access tour of the Guild office (DemLoc rulebook 6.2: "at the first access to the
// app, players watch a tutorial explaining the main rules"). Without this script every step is
// listed and "Skip the tour" still closes it. With it: one step at a time, Back / Next, the last
// step's button says Done; focus goes into the dialog when it opens, stays on the button you
// use while the step changes (the steps are a polite live region), and comes back to the
// office's Tour link when it closes. Escape closes it like Skip.
(function () {
  function init(root) {
    var dialog = (root.matches && root.matches("[data-tour]")) ? root : root.querySelector("[data-tour]");
    if (!dialog || dialog.dataset.ready) return;
    dialog.dataset.ready = "1";
    var steps = Array.prototype.slice.call(dialog.querySelectorAll("[data-step]"));
    var back = dialog.querySelector("[data-tour-back]");
    var next = dialog.querySelector("[data-tour-next]");
    var close = dialog.querySelector("[data-tour-close]");
    var progress = dialog.querySelector("[data-tour-progress]");
    var skipLabel = close.textContent;
    var at = 0;
    function show(i, focus) {
      at = Math.max(0, Math.min(steps.length - 1, i));
      steps.forEach(function (s, k) { s.hidden = k !== at; });
      progress.textContent = "Step " + (at + 1) + " of " + steps.length + ".";
      back.hidden = at === 0;
      var last = at === steps.length - 1;
      next.hidden = last;
      close.textContent = last ? close.dataset.doneLabel : skipLabel;
      close.classList.toggle("btn-primary", last);
      if (focus) (focus.hidden ? (last ? close : next) : focus).focus();
    }
    back.addEventListener("click", function () { show(at - 1, back); });
    next.addEventListener("click", function () { show(at + 1, next); });
    dialog.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { e.preventDefault(); close.click(); }
    });
    show(0);
    dialog.querySelector("#tour-title").focus();
  }
  function ready() { init(document); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  document.addEventListener("htmx:load", function (e) { init(e.detail.elt); });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "guild-tour" || (e.detail.elt && e.detail.elt.id === "guild-tour")) {
      var link = document.querySelector("[data-tour-link]");
      if (link && !document.querySelector("[data-tour]")) link.focus();
    }
  });
})();
