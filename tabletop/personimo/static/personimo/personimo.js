// Loaded once by the table page (Ruleset.script): no inline script, so the page passes the CSP.
/* Tap two blocks to place a card: picks among the legal placements the server listed
   (#pm-legal); the chosen one is posted as a personimo.place command. Bound once. */
(function () {
  if (window.personimoMark) { window.personimoMark(); return; }  /* re-run after a swap */
  var first = null;
  var grid = null;  /* the #pm-grid element the marks were made on */
  function legal() {
    var el = document.getElementById("pm-legal");
    return el ? JSON.parse(el.textContent) : [];
  }
  function key(r, c) { return r + "," + c; }
  function same(p, a, b) {
    var x = key(p.cells[0][0], p.cells[0][1]), y = key(p.cells[1][0], p.cells[1][1]);
    return (x === a && y === b) || (x === b && y === a);
  }
  function cellEl(k) {
    var rc = k.split(",");
    return document.querySelector('#pm-grid [data-r="' + rc[0] + '"][data-c="' + rc[1] + '"]');
  }
  function clear() {
    first = null;
    document.querySelectorAll("#pm-grid .pm-cell").forEach(function (el) {
      el.classList.remove("sel", "partner");
    });
    var o = document.getElementById("pm-orient"); if (o) o.innerHTML = "";
  }
  function hint(text) { var h = document.getElementById("pm-hint"); if (h) h.textContent = text; }
  function mark() {
    grid = document.getElementById("pm-grid");
    var all = legal(), starts = {};
    all.forEach(function (p) { p.cells.forEach(function (c) { starts[key(c[0], c[1])] = true; }); });
    document.querySelectorAll("#pm-grid .pm-cell.empty").forEach(function (el) {
      el.classList.toggle("can", !!starts[key(el.dataset.r, el.dataset.c)]);
    });
  }
  function choose(a, b) { show(legal().filter(function (p) { return same(p, a, b); })); }
  function show(options) {
    var box = document.getElementById("pm-orient");
    box.innerHTML = "";
    options.forEach(function (p, i) {
      var btn = document.createElement("button");
      btn.className = "btn btn-block" + (i === 0 ? " btn-primary" : "");
      btn.dataset.place = i;
      var two = p.cells.length === 2;
      var where = two && p.cells[0][0] === p.cells[1][0] ? ["left", "right"] : ["top", "bottom"];
      var ordered = two && (p.cells[0][0] + p.cells[0][1] > p.cells[1][0] + p.cells[1][1]) ? [1, 0] : [0, 1];
      btn.textContent = !two || p.suits[0] === p.suits[1] ? "Place here" :
        "Place: " + p.suits[ordered[0]] + " " + where[0] + ", " + p.suits[ordered[1]] + " " + where[1];
      btn.addEventListener("click", function () {
        document.getElementById("pm-place-data").value = JSON.stringify(p);
      });
      box.appendChild(btn);
    });
    var cancel = document.createElement("button");
    cancel.type = "button"; cancel.className = "btn btn-block"; cancel.textContent = "Cancel";
    cancel.addEventListener("click", function () { clear(); mark(); hint(""); });
    box.appendChild(cancel);
    if (box.scrollIntoView) box.scrollIntoView({block: "nearest"});
  }
  document.addEventListener("click", function (e) {
    var el = e.target.closest && e.target.closest("#pm-grid .pm-cell.empty");
    if (!el || !document.getElementById("pm-legal")) return;
    var k = key(el.dataset.r, el.dataset.c), all = legal();
    var single = all.filter(function (p) {
      return p.cells.length === 1 && key(p.cells[0][0], p.cells[0][1]) === k;
    });
    if (single.length) { clear(); el.classList.add("sel"); show(single); hint(""); return; }
    if (first && first !== k && all.some(function (p) { return same(p, first, k); })) {
      cellEl(first).classList.add("sel"); el.classList.add("sel");
      document.querySelectorAll("#pm-grid .partner").forEach(function (x) { x.classList.remove("partner"); });
      choose(first, k);
      hint("");
      first = null;
      return;
    }
    clear();
    var partners = all.filter(function (p) { return p.cells.some(function (c) { return key(c[0], c[1]) === k; }); });
    if (!partners.length) { mark(); hint("No legal placement covers that block."); return; }
    first = k; el.classList.add("sel");
    partners.forEach(function (p) {
      p.cells.forEach(function (c) { var o = key(c[0], c[1]); if (o !== k) cellEl(o).classList.add("partner"); });
    });
    hint("Now tap a highlighted block next to it.");
  });
  /* Re-mark only when the grid was swapped for a new one (a new state): the socket's other
     messages (its heartbeat's {"pong"} every 2.5 s) also fire htmx:wsAfterMessage, and must
     not drop the first block the player tapped (found by a new user: the second tap then
     started a new choice, silently). */
  window.personimoMark = function () {
    var now = document.getElementById("pm-grid");
    if (now !== null && now === grid) return;
    first = null;
    mark();
  };
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.addEventListener(name, window.personimoMark);
  });
  document.addEventListener("DOMContentLoaded", mark);
  mark();
})();
