// The rules reference's search runs in the page (works offline).
(function () {
  var input = document.getElementById("ref-search");
  function filter() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean), shown = 0;
    document.querySelectorAll(".ref-entry").forEach(function (el) {
      var ok = words.every(function (w) { return el.dataset.search.indexOf(w) >= 0; });
      el.hidden = !ok; if (ok) shown++;
    });
    document.querySelectorAll(".ref-group").forEach(function (g) {
      g.hidden = !g.querySelector(".ref-entry:not([hidden])");
    });
    document.getElementById("ref-none").hidden = shown > 0;
  }
  input.addEventListener("input", filter);
  if (location.hash) { var el = document.querySelector(location.hash); if (el) el.classList.add("target"); }
})();
