// Kit glue for table pages: expected version + idempotency key on every command, and the
// connection banner. Everything else is htmx.
(function () {
  if (window.htmx) {
    htmx.onLoad(function () {
      if (window.htmxReady) return;
      window.htmxReady = true;
      (window.pendingSubmits || []).splice(0).forEach(function (f) {
        if (document.body.contains(f)) htmx.trigger(f, "submit");
      });
    });
  }
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () { navigator.serviceWorker.register("/sw.js").catch(function () {}); });
  }
  function newKey() {
    return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  }
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail.elt;
    var form = elt.closest ? elt.closest("[data-command]") : null;
    if (!form) return;
    if (!form.dataset.key) form.dataset.key = newKey(); // a double tap re-sends the same key
    var live = document.getElementById("live");
    e.detail.parameters["idempotency_key"] = form.dataset.key;
    // data-no-version: commands that stay right whatever happened meanwhile ("ready", "Next"),
    // so two phones tapping at once do not get a conflict.
    if (live && live.dataset.version && !form.hasAttribute("data-no-version")) {
      e.detail.parameters["expected_version"] = live.dataset.version;
    }
  });
  // A command's own answer and the websocket push carry the same live region: swap only what
  // is newer, so a second copy of the same version does not wipe a half-made choice (ticked
  // cards, a chosen option) and an older answer never overwrites a newer push. The lobby keeps
  // its version while seats join, and an error message must always show.
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var target = e.detail.target;
    if (!target || target.id !== "live") return;
    var incoming = e.detail.fragment && (e.detail.fragment.querySelector
      ? e.detail.fragment.querySelector("#live") : null);
    incoming = incoming || (e.detail.fragment && e.detail.fragment.firstElementChild);
    if (!incoming || !incoming.dataset) return;
    var now = parseInt(target.dataset.version || "-1", 10);
    var next = parseInt(incoming.dataset.version || "-1", 10);
    var lobby = incoming.dataset.status === "lobby";
    var hasAlert = incoming.querySelector && incoming.querySelector(".alert");
    if (hasAlert || lobby) return;
    if (next < now || (next === now && target.dataset.status === incoming.dataset.status)) {
      e.detail.shouldSwap = false;
    }
  });
  var net = null, hadOpen = false, hideTimer = null;
  function show(text, back) {
    net = net || document.getElementById("net");
    if (!net) return;
    clearTimeout(hideTimer);
    net.textContent = text; net.hidden = false;
    net.classList.toggle("back", !!back);
    if (back) hideTimer = setTimeout(function () { net.hidden = true; }, 2500);
  }
  document.addEventListener("htmx:wsOpen", function () {
    if (hadOpen) show("Back online: up to date.", true);
    hadOpen = true;
    document.body.dataset.ws = "open";
  });
  var retry = 0, wrapper = null;
  document.addEventListener("htmx:wsClose", function (e) {
    document.body.dataset.ws = "closed";
    if (hadOpen) show("Offline: reconnecting… the table will catch up when you are back.", false);
    // htmx's ws extension retries only after abnormal closes (1006, 1011-1013); a server
    // restart or a socket the phone's OS closed while asleep must come back too. Our own
    // consumer's refusals (codes 4000+) are final.
    var code = e.detail && e.detail.event ? e.detail.event.code : 0;
    wrapper = e.detail && e.detail.socketWrapper;
    if ([1006, 1011, 1012, 1013].indexOf(code) < 0 && code < 4000 && wrapper) {
      var delay = Math.min(1000 * Math.pow(2, retry++), 15000);
      setTimeout(function () { if (document.body.dataset.ws !== "open") wrapper.reconnect(); }, delay);
    }
  });
  document.addEventListener("htmx:wsOpen", function () { retry = 0; });
  window.addEventListener("online", function () {
    if (wrapper && document.body.dataset.ws !== "open") wrapper.reconnect();
  });
  window.addEventListener("offline", function () { show("Offline: no network.", false); });
  document.addEventListener("visibilitychange", function () {
    // A phone waking up asks for the latest state over the socket.
    if (document.visibilityState === "visible") {
      var ws = document.querySelector("[ws-connect]");
      var socket = ws && ws["htmx-internal-data"] && ws["htmx-internal-data"].webSocket;
      if (socket && socket.send) { try { socket.send('{"sync": true}'); } catch (err) {} }
    }
  });
})();
