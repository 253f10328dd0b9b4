// The rules reference's search runs in the page: once loaded it needs no network (6.4.2
// "search its rules also through the use of keywords"). Every word typed must appear in an
// entry's title, section numbers or text (its data-search); chapters without a match fold.
(function () {
  var input = document.getElementById("ref-search");
  if (!input) return;
  var entries = Array.prototype.slice.call(document.querySelectorAll(".ref-entry"));
  var groups = Array.prototype.slice.call(document.querySelectorAll(".ref-group"));
  var count = document.getElementById("ref-count");
  var none = document.getElementById("ref-none");
  var toc = document.querySelector(".ref-toc");
  var timer = null;
  function filter() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean), shown = 0;
    entries.forEach(function (el) {
      var text = el.getAttribute("data-search") || "";
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      el.hidden = !ok;
      if (ok) shown++;
    });
    groups.forEach(function (g) { g.hidden = !g.querySelector(".ref-entry:not([hidden])"); });
    none.hidden = shown > 0;
    if (toc) toc.hidden = words.length > 0;
    // The count is a polite live region: announce it once typing pauses, not on every key.
    clearTimeout(timer);
    timer = setTimeout(function () {
      count.textContent = words.length
        ? shown + (shown === 1 ? " entry" : " entries") + " for \u201c" + input.value.trim() + "\u201d."
        : entries.length + " entries.";
    }, 250);
  }
  input.addEventListener("input", filter);
  input.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && input.value) { input.value = ""; filter(); }
  });
  var q = new URLSearchParams(location.search).get("q");
  if (q) { input.value = q; filter(); }
  if (location.hash) {
    var el = document.getElementById(location.hash.slice(1));
    if (el) el.classList.add("target");
  }
})();
