// Runs before htmx (not deferred, no inline script: the pages pass the CSP).
// No tap is ever turned into a navigation: a tap on an htmx form that htmx has not wired yet
// (slow phone, page still loading; or a form a swap has just put in, tapped ~10 times a second)
// is kept and sent through htmx once it is wired (app.js), instead of a plain form submit that
// would reload the page (a GET of the current URL with the command in its query) and lose it.
function htmxWired(f) {
  var d = f["htmx-internal-data"];
  return !!(window.htmxReady && d && d.firstInitCompleted);
}
document.addEventListener("submit", function (e) {
  var f = e.target;
  if (f.hasAttribute && (f.hasAttribute("hx-post") || f.hasAttribute("hx-get")) && !htmxWired(f)) {
    e.preventDefault();
    (window.pendingSubmits = window.pendingSubmits || []).push(f);
    if (window.htmxReady && window.sendPendingSubmits) setTimeout(window.sendPendingSubmits, 0);
  }
}, true);

// What inline handlers did (the CSP allows none): data-print prints, data-autosubmit sends
// its form when changed.
document.addEventListener("click", function (e) {
  if (e.target.closest && e.target.closest("[data-print]")) window.print();
});
document.addEventListener("change", function (e) {
  var el = e.target.closest ? e.target.closest("[data-autosubmit]") : null;
  if (el && el.form) el.form.submit();
});
