// Live countdowns of the map of DemLoc, computed from the server's deadlines: the remaining time
// is (deadline - server clock), with the server clock estimated as Date.now() plus the offset
// measured when the page arrived, so it stays right after a phone sleeps. When a countdown ends
// (or the page comes back to view with one ended) the page fetches its refreshed main partial:
// the server settles what is overdue first, so this works with any channel layer.
(function () {
  "use strict";
  let offset = 0;
  let refreshing = false;
  let wait = 0; // seconds before asking again while a deadline stays unsettled (backoff)
  let nextAsk = 0;

  function section() { return document.querySelector("[data-city]"); }

  function measure() {
    const s = section();
    if (s && s.dataset.serverNow) offset = Date.parse(s.dataset.serverNow) - Date.now();
  }

  function fmt(ms) {
    const t = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), s = t % 60;
    const two = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  }

  function refresh() {
    const s = section();
    if (!s || refreshing || !window.htmx || Date.now() < nextAsk) return;
    refreshing = true;
    wait = Math.min(wait ? wait * 2 : 1, 60);
    nextAsk = Date.now() + wait * 1000;
    htmx.ajax("GET", s.dataset.refresh, { target: "#guild-main", swap: "outerHTML" })
      .finally(() => { refreshing = false; });
  }

  function tick() {
    const now = Date.now() + offset;
    let ended = false;
    document.querySelectorAll("[data-due]").forEach((el) => {
      const left = Date.parse(el.dataset.due) - now;
      el.textContent = left > 0 ? fmt(left) : el.dataset.ended || "back now";
      if (left <= 0) ended = true;
    });
    if (ended) refresh();
    else wait = 0;
  }

  document.addEventListener("DOMContentLoaded", () => { measure(); tick(); });
  document.addEventListener("htmx:afterSettle", () => { measure(); tick(); });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) tick(); });
  setInterval(tick, 1000);
})();
