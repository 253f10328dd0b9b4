// Runs before htmx (not deferred, no inline script: the pages pass the CSP).
// A tap that comes before htmx is ready (slow phone, page still loading) is kept and sent
// once htmx is up, instead of a plain form submit that would reload the page.
document.addEventListener("submit", function (e) {
  var f = e.target;
  if (!window.htmxReady && f.hasAttribute && (f.hasAttribute("hx-post") || f.hasAttribute("hx-get"))) {
    e.preventDefault();
    (window.pendingSubmits = window.pendingSubmits || []).push(f);
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
