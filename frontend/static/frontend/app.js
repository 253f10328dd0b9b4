// Kit glue for table pages: expected version + idempotency key on every command, and the
// connection banner. Everything else is htmx.
(function () {
  // Reconnect soon after the server is back (a restart, a deploy): 0.25, 0.5, 1, 2, 2 ... s,
  // halved by jitter so a room of phones does not knock at the same instant. htmx's default
  // grows to 64 s.
  function reconnectDelay(n) { return Math.min(250 * Math.pow(2, n), 2000) * (0.5 + Math.random() / 2); }
  if (window.htmx) htmx.config.wsReconnectDelay = reconnectDelay;
  // The console while offline: htmx logs a request it could not send and a socket that failed
  // as console.error of an event name and an element, or of an Event, made text
  // ("htmx:sendError, [object HTMLBodyElement]", "[object Event]"): unreadable in a bug report,
  // and the page says it already (the Offline banner, "Not sent yet" at the control). Those
  // lines become one readable console.info line; every other error is logged as it was.
  var NET_ERROR = /^(htmx:(sendError|afterRequest|timeout|sendAbort|wsError)\b|\[object Event\])/;
  var consoleError = console.error;
  console.error = function (first) {
    if (arguments.length === 1 && typeof first === "string" && NET_ERROR.test(first)) {
      if (first.indexOf("htmx:afterRequest") === 0) return;  // its sendError/timeout says it
      var what = first.charAt(0) === "[" ? "the live connection failed" : "a tap's request was not sent (" + first.split(",")[0] + ")";
      console.info("DemLoc: no connection: " + what + "; the page says so and tries again.");
      return;
    }
    return consoleError.apply(console, arguments);
  };
  // Taps kept by early.js (a form htmx had not wired yet): each is sent through htmx, from
  // its form if still in the page (wired now), else from the form that replaced it (same
  // command: same hx-post and hidden fields) with what was typed in it.
  function hidden(f) {
    return Array.prototype.map.call(f.querySelectorAll("input[type=hidden]"), function (i) {
      return i.name === "idempotency_key" || i.name === "expected_version" ? "" : i.name + "=" + i.value;
    }).join("&") + "|" + f.getAttribute("hx-post");
  }
  window.sendPendingSubmits = function () {
    (window.pendingSubmits || []).splice(0).forEach(function (f) {
      var target = f;
      if (!document.body.contains(f)) {
        var h = hidden(f);
        target = Array.prototype.filter.call(document.querySelectorAll("form[hx-post]"), function (g) {
          return hidden(g) === h;
        })[0];
        if (!target) return;
        f.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(function (i) {
          var t = i.name && target.querySelector('[name="' + CSS.escape(i.name) + '"]');
          if (!t) return;
          if (i.type === "checkbox" || i.type === "radio") t.checked = i.checked; else t.value = i.value;
        });
      }
      target.keptTries = (target.keptTries || 0) + 1;
      if (target.keptTries > 3) return;  // never wired (a disabled part of the page): dropped
      htmx.process(target);
      htmx.trigger(target, "submit");
    });
  };
  if (window.htmx) {
    htmx.onLoad(function () {
      if (window.htmxReady) return;
      window.htmxReady = true;
      window.sendPendingSubmits();
    });
  }
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () { navigator.serviceWorker.register("/sw.js").catch(function () {}); });
  }
  // Logging out on a shared phone: empty what the service worker keeps (the server's answer
  // also carries Clear-Site-Data). Log out asks for a second tap (base.html data-two-step,
  // below; found by a new user: one tap in the header dropped a phone out of its mission): this
  // listens in the bubbling phase, so the two-step's first tap, stopped in the capture phase,
  // logs nothing out and empties nothing.
  document.addEventListener("submit", function (e) {
    if (e.defaultPrevented || !e.target.hasAttribute || !e.target.hasAttribute("data-logout")) return;
    var sw = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (sw) sw.postMessage("logout");
    if (window.caches) caches.keys().then(function (k) { k.forEach(function (n) { caches.delete(n); }); });
  });
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
  // A command's answer whose form was replaced while it was on its way (a push, or the answer
  // to an earlier tap, swapped a new live region in): htmx would look for the answer's #live
  // inside the detached old region ("htmx:oobErrorNoTarget #live") and drop the answer - maybe
  // a refusal to show at the control. The answer is swapped against the page instead.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var d = e.detail, elt = d.requestConfig && d.requestConfig.elt;
    if (!d.shouldSwap || !elt || !window.htmx || !htmx.swap || document.documentElement.contains(elt)) return;
    d.shouldSwap = false;
    htmx.swap(document.body, d.serverResponse, { swapStyle: "none" });
  });
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
    if (hasAlert || lobby || incoming.dataset.refresh) return;  // tabletop.fanout.refreshed
    if (next < now || (next === now && target.dataset.status === incoming.dataset.status)) {
      e.detail.shouldSwap = false;
    }
  });
  var net = null, hadOpen = false, hideTimer = null;
  // A frame that carries only the blocks that changed (tabletop/blocks.py): "<!--delta FROM
  // TO-->" then each changed block, swapped by its id. It is applied only to the region at
  // version FROM; a page elsewhere drops it and, when it is behind, fetches the whole region.
  // An answer's refusal shown in the region goes with the version it was shown at.
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    var msg = e.detail && e.detail.message;
    if (typeof msg !== "string" || msg.lastIndexOf("<!--delta ", 0) !== 0) return;
    var m = /^<!--delta (\d+) (\d+)-->/.exec(msg), live = document.getElementById("live");
    var from = m ? parseInt(m[1], 10) : -1, to = m ? parseInt(m[2], 10) : -1;
    var now = live ? parseInt(live.dataset.version || "-1", 10) : -1;
    if (!m || !live || now !== from) {
      e.preventDefault();
      lastSeen = Date.now();
      if (to > now) catchUp();
      return;
    }
    live.dataset.version = String(to);
    live.querySelectorAll(':scope > .alert:not([data-code="seat_moved"])').forEach(function (a) { a.remove(); });
  });
  // The banner is fixed over the top bar (app.css): a sticky bar of the page (DemLoc's turn
  // bar) sits under the banner, not under it: --net-h is how far the banner reaches below the
  // top bar (0 hidden, and 0 as long as its text fits the top bar's height).
  // A top bar that scrolls away with the page (DemLoc's page in play, missions.css) is not
  // counted: the banner's whole height is what it covers. --net-bottom is where the banner ends
  // (0 hidden): a toast at the top of the screen (the bar's alert, DemLoc's "Your move") goes
  // under it, so the banner stays readable while offline (a new user found it under the toast).
  // The banner just above the bottom bar (DemLoc's play page, missions.css) adds to the bottom
  // parts: --net-low-h is its height there (0 hidden, or at the top). The page's padding and
  // the sticky Work it out of an open Shoot or Brawl go above it (a new user saw the banner
  // drawn over Work it out). The view is not moved when it shows: a thumb about to tap keeps
  // its control where it was (an earlier new user: a banner that pushed the page made taps
  // land on the card next to it); the page's end, scrolled to, is above the banner.
  function netHeight() {
    var bar = document.querySelector(".topbar"), h = 0, bottom = 0, low = 0;
    var r = net && !net.hidden ? net.getBoundingClientRect() : null;
    if (r && r.top < 1) {  // (at the bottom: 0)
      bottom = r.bottom;
      var sticks = bar && getComputedStyle(bar).position === "sticky";
      h = bottom - (sticks ? bar.getBoundingClientRect().bottom : 0);
    } else if (r && r.height && r.top > window.innerHeight / 2) low = Math.ceil(r.height);
    document.documentElement.style.setProperty("--net-h", Math.max(0, Math.round(h)) + "px");
    document.documentElement.style.setProperty("--net-bottom", Math.max(0, Math.round(bottom)) + "px");
    document.documentElement.style.setProperty("--net-low-h", low + "px");
  }
  function show(text, back, hideAfter) {
    net = net || document.getElementById("net");
    if (!net) return;
    clearTimeout(hideTimer);
    net.textContent = text; net.hidden = false;
    net.classList.toggle("back", !!back);
    net.classList.remove("refused");
    if (back || hideAfter) {
      hideTimer = setTimeout(function () { net.hidden = true; netHeight(); }, hideAfter || 2500);
    }
    netHeight();
  }
  window.addEventListener("resize", netHeight);

  // --- the live connection: heartbeat, reconnect, catch-up (docs/architecture.md) ---------
  // Every 2.5 s an open socket sends {"ping": <version shown>}; the server answers with the
  // live region when the table is elsewhere (a push this phone missed) or {"pong": version}.
  // No message for 6.5 s means the socket is dead even if the browser says "open" (a network
  // that silently dropped): the banner says so and a new socket is opened; one that does not
  // open within 1.5 s is replaced again. A socket that opens gets the current region at once.
  // A socket still connecting after 1.5 s is replaced (was 5 s: the page came back 2.8-3.5 s
  // after the network; the aim is 2 s).
  var PING_EVERY = 2500, DEAD_AFTER = 6500, CONNECT_TIMEOUT = 1500;
  var lastSeen = 0, lastPing = 0, connectingSince = 0, offline = false, retry = 0, wrapper = null;
  function wsRoot() { return document.querySelector("[ws-connect]"); }
  function wsWrapper() {
    var root = wsRoot(), data = root && root["htmx-internal-data"];
    return data && data.webSocket;
  }
  function shownVersion() {
    var live = document.getElementById("live");
    return live ? parseInt(live.dataset.version || "0", 10) : 0;
  }
  function liveUrl() {
    var root = wsRoot(), m = root && /\/ws\/tables\/([^/]+)\//.exec(root.getAttribute("ws-connect") || "");
    return m ? "/t/" + m[1] + "/live/" : null;
  }
  function goneOffline(text) {
    offline = true;
    document.body.dataset.ws = "closed";
    show(text || "Offline: reconnecting… the table will catch up when you are back.", false);
  }
  function renew(w) {
    // Drop the dead socket without letting its late close event touch the new one.
    var old = w.socket;
    if (old) {
      old.onclose = null; old.onerror = null; old.onopen = null;
      try { old.close(); } catch (err) {}
    }
    connectingSince = Date.now();
    w.init();
  }
  function catchUp() {
    // The current live region over HTTP (a phone back in the foreground, or back online).
    var url = liveUrl();
    if (url && window.htmx) htmx.ajax("GET", url, { target: "#live", swap: "none" }).catch(function () {});
  }
  setInterval(function () {
    var w = wsWrapper();
    if (!w || !w.socket) return;
    var s = w.socket, now = Date.now();
    if (s.readyState === 1) {
      if (now - lastPing >= PING_EVERY) {
        lastPing = now;
        try { s.send(JSON.stringify({ ping: shownVersion() })); } catch (err) {}
      }
      if (now - lastSeen > DEAD_AFTER) { goneOffline(); lastSeen = now; renew(w); }
    } else if (s.readyState === 0 && connectingSince && now - connectingSince > CONNECT_TIMEOUT) {
      goneOffline(); renew(w);
    }
  }, 500);
  document.addEventListener("htmx:wsConnecting", function () {
    connectingSince = connectingSince || Date.now();
  });
  document.addEventListener("htmx:wsOpen", function () {
    lastSeen = Date.now(); connectingSince = 0; retry = 0;
    document.body.dataset.ws = "open";
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    lastSeen = Date.now();
    if (offline || !hadOpen) {
      // The first message of a new socket is the current live region: caught up.
      // (not over a refusal the banner says: a tap sent on the way back, not applied)
      if (hadOpen && !(net && !net.hidden && net.classList.contains("refused"))) show("Back online: up to date.", true);
      offline = false; hadOpen = true;
      document.body.dataset.ws = "open";
      resend();
    }
  });
  document.addEventListener("htmx:wsClose", function (e) {
    // Whatever closed the socket and whenever, before its first frame too (a suspended tab
    // or a proxy closing it cleanly, 1000/1001): the phone reconnects; else it stayed behind
    // for good. htmx's ws extension retries only after abnormal closes (1006, 1011-1013); a
    // server restart or a socket the phone's OS closed while asleep must come back too. Our
    // own consumer's refusals (codes 4000+) are final.
    goneOffline();
    var code = e.detail && e.detail.event ? e.detail.event.code : 0;
    wrapper = e.detail && e.detail.socketWrapper;
    if ([1006, 1011, 1012, 1013].indexOf(code) < 0 && code < 4000 && wrapper) {
      var delay = reconnectDelay(retry++);
      setTimeout(function () { if (document.body.dataset.ws !== "open") wrapper.reconnect(); }, delay);
    }
  });
  // A page without a live connection (the Guild pages, the account pages): nothing waits for
  // a socket's first frame, so the network's return, or any answer from the server, takes the
  // Offline banner away (a new user saw it stay up after a successful Heal).
  function backWithoutSocket() {
    if (!offline || wsRoot()) return;
    offline = false;
    delete document.body.dataset.ws;
    show("Back online.", true);
  }
  // The network is back: reconnect at once (the reconnect backoff restarts from its shortest
  // wait) and send a tap made offline now, over HTTP, without waiting for the new socket's
  // first frame (a new user's tap stayed "Not sent yet" for 11-16 s after the network came
  // back). Its idempotency key makes a second try (the socket's first frame) count once.
  window.addEventListener("online", function () {
    var w = wsWrapper();
    retry = 0;
    if (w && document.body.dataset.ws !== "open") renew(w);
    catchUp();
    backWithoutSocket();
    if (unsent) resend(0);
  });
  window.addEventListener("offline", function () { goneOffline("Offline: no network."); });
  document.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (xhr && xhr.status > 0 && xhr.status < 500) backWithoutSocket();
  });
  document.addEventListener("visibilitychange", function () {
    // A phone waking up fetches the current region and checks its socket at once.
    if (document.visibilityState !== "visible") return;
    catchUp();
    lastPing = 0;
  });

  // --- a tap that did not get through is never lost silently ------------------------------
  // htmx gives up on a request after htmx.config.timeout (base.html: 10 s). The tap's fate is
  // shown at the control, and it is sent again (same idempotency key, same expected version)
  // once the phone is back: the server applies it, replays it if it had arrived, or refuses it
  // as stale ("Someone acted just before you") with the current state, which the answer shows.
  var unsent = null;
  var RESEND_WAIT = [2000, 3000, 4000, 6000, 8000, 10000], resendWait = 0;  // see resend()
  document.addEventListener("htmx:configRequest", function (e) {
    if (resendWait) e.detail.timeout = resendWait;
    var form = e.detail.elt && e.detail.elt.closest ? e.detail.elt.closest("[data-command]") : null;
    if (form) form.lastRequest = { path: e.detail.path, values: Object.assign({}, e.detail.parameters) };
  });
  var NO_CONNECTION = "Not sent yet: no connection. Your tap will be sent when you are back.";
  var NO_ANSWER = "Not sent yet: the table has not answered. Your tap is sent again until it is.";
  function note(form, text) {
    var n = document.getElementById("unsent") || document.createElement("p");
    n.id = "unsent"; n.className = "alert"; n.setAttribute("role", "alert");
    n.dataset.code = "not_sent";
    n.textContent = text; n.title = text;
    if (form && !document.documentElement.contains(form)) {
      // A swap replaced the tapped form while its tap waited: the line goes to its twin.
      var h = hidden(form);
      form = Array.prototype.filter.call(document.querySelectorAll("form[data-command]"), function (g) {
        return hidden(g) === h;
      })[0] || null;
    }
    if (form) form.insertAdjacentElement("afterend", n);
    else if (!n.parentNode) (document.getElementById("bottom-bar") || document.body).prepend(n);
    var r = n.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) n.scrollIntoView({ block: "center" });
    return n;
  }
  function markUnsent(form, text) {
    if (!form || !form.lastRequest) return;
    unsent = form.lastRequest;
    if (!text && !offline && document.body.dataset.ws === "open") {
      // No answer although the live connection is up again (it came back while the tap
      // waited on a connection the network had silently dropped): sent again now.
      note(form, NO_ANSWER);
      setTimeout(function () { resend(0); }, 0);
      return;
    }
    note(form, text || NO_CONNECTION);
    if (!text) goneOffline();
  }
  // A tap's request that times out or fails is watched on the request itself: htmx fires
  // htmx:timeout / htmx:sendError on the tapped form, and when a push or the catch-up of a
  // reconnected socket has replaced that form meanwhile, the event never reaches the document
  // and the tap would be lost without a word.
  // A tap with no answer after 3 s says so at its control at once (the request goes on: its
  // answer, when it comes, takes the line away); the 10 s timeout makes it a tap to re-send.
  // The request's own end (loadend) stops the clock, not htmx:afterRequest: a push that swapped
  // the tapped control's block before the answer came detaches the form, and htmx then fires
  // afterRequest only on detached nodes, which never reaches the document (the line said "not
  // answered" 3 s after a tap answered in milliseconds).
  var LATE_AFTER = 3000;
  document.addEventListener("htmx:beforeSend", function (e) {
    var xhr = e.detail && e.detail.xhr, elt = e.detail && e.detail.elt;
    var form = elt && elt.closest ? elt.closest("[data-command]") : null;
    if (!xhr || !form) return;
    ["timeout", "error"].forEach(function (name) {
      xhr.addEventListener(name, function () { markUnsent(form); });
    });
    xhr.lateTimer = setTimeout(function () { xhr.lateNote = note(form, NO_ANSWER); }, LATE_AFTER);
    // htmx fires afterRequest on the tapped form, and a push may have swapped that form out (the
    // event then never reaches the document): the clock stops on the request's own loadend. Any
    // answer below 500 (applied, replayed or refused: a refusal is shown at its control) means
    // the table answered: the line goes, wherever it was put, unless a tap waits to be re-sent.
    xhr.addEventListener("loadend", function () {
      clearTimeout(xhr.lateTimer);
      if (!(xhr.status > 0 && xhr.status < 500) || unsent) return;
      var n = document.getElementById("unsent");
      if (n && n.textContent === NO_ANSWER) n.remove();
      if (xhr.lateNote && xhr.lateNote !== n && xhr.lateNote.textContent === NO_ANSWER) xhr.lateNote.remove();
    });
  });
  // The server answered 5xx (a part of it down: Redis, the database): the tap was not applied
  // (a committed one never answers 5xx). Shown at the control and sent again, with growing
  // waits, until the server answers (the same idempotency key makes every try count once).
  document.addEventListener("htmx:responseError", function (e) {
    var xhr = e.detail && e.detail.xhr, elt = e.detail && e.detail.elt;
    var cfg = e.detail && e.detail.requestConfig;
    if (!xhr || xhr.status < 500 || (cfg && cfg.headers && cfg.headers["X-Resent-Tap"])) return;
    var form = elt && elt.closest ? elt.closest("[data-command]") : null;
    if (!form) return;
    markUnsent(form, NO_ANSWER);
    setTimeout(function () { resend(0); }, 500);
  });
  // A connection that the network dropped silently stays in the browser's pool of idle
  // keep-alive connections, and a request sent on it is swallowed (no answer, no error). So
  // the re-send waits a short while, then gives up on that connection (an aborted request
  // closes it) and tries again on another one, until it is answered or the phone is offline
  // again; the same idempotency key makes every try count once.
  // (RESEND_WAIT / resendWait: the request's timeout, set in the configRequest listener above.)
  var NOT_APPLIED = "Your tap while offline was not applied: the table moved on. Look, then tap again.";
  var TELL_FOR = 5000;  // as long as a refusal of what was entered stays (KEEP_REFUSAL)
  var resentRefused = {};  // idempotency key of a re-sent tap -> the HTTP status of its answer
  // Counted when the answer arrives, before anything of it is swapped in (resend() below).
  document.addEventListener("htmx:beforeOnLoad", function (e) {
    var cfg = e.detail && e.detail.requestConfig, xhr = e.detail && e.detail.xhr;
    var headers = cfg && cfg.headers, params = cfg && cfg.parameters;
    if (!headers || !headers["X-Resent-Tap"] || !xhr) return;
    var key = params && (params.idempotency_key || (params.get && params.get("idempotency_key")));
    if (key) resentRefused[key] = xhr.status;
  });
  // The race's line at the tapped control, read: in the bottom bar, or between the bars.
  function lineInView() {
    var line = document.querySelector('#live .alert[data-code="stale_version"]');
    if (!line || !line.getClientRects().length) return false;
    if (line.closest("#bottom-bar")) return true;
    var r = line.getBoundingClientRect(), band = window.demlocBand;
    return r.top >= band.top() - 1 && r.bottom <= band.bottom() + 1;
  }
  function resend(attempt) {
    if (!unsent || !window.htmx) return;
    attempt = attempt || 0;
    var req = unsent; unsent = null;
    var headers = {};
    try { headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (err) {}
    headers["X-Resent-Tap"] = "1";
    resendWait = RESEND_WAIT[Math.min(attempt, RESEND_WAIT.length - 1)];
    // Sent from an element of its own: htmx queues a request behind one in flight from the
    // same element (the catch-up's GET of #live when the network comes back) and resolves its
    // promise at once, unanswered; the tap then went again at the socket's first frame and
    // once more after (a new user saw three sends). This one is never busy, and stays in the
    // page, so the request's events reach the document.
    var src = document.getElementById("resend-source");
    if (!src) {
      src = document.createElement("div");
      src.id = "resend-source"; src.hidden = true;
      document.body.appendChild(src);
    }
    var sent;
    try {
      sent = htmx.ajax("POST", req.path, { source: src, values: req.values, headers: headers, target: "#live", swap: "none" });
    } finally { resendWait = 0; }
    sent.then(function () {
        var refused = resentRefused[req.values.idempotency_key];
        delete resentRefused[req.values.idempotency_key];
        if (!refused || refused >= 500) {  // no answer, or the server still failing: again
          unsent = unsent || req;
          setTimeout(function () { resend(attempt + 1); }, Math.min(500 * Math.pow(2, attempt), 4000));
          return;
        }
        var note = document.getElementById("unsent");
        if (note) note.remove();
        if (refused === 409) {
          // Refused as stale: the table moved on while the tap waited. Said at the control
          // (the refusal placed there) and in the banner, which stays until it is read.
          // The line at the control says which case it is (tap:retext below: "Look, then tap
          // again" only while the tapped control is still offered); the banner says the same.
          // After the answer's refusal is placed (restore(), a task after the swap).
          // One message once (a new user read it twice, banner and line, one over the other):
          // the banner says it only when the line at the control is not on the screen.
          // Looked at again for TELL_FOR ms, whatever comes meanwhile (the socket's first frame,
          // the catch-up, another phone's action): an update takes a race's line away, and a
          // line placed where the tapped control was (a shot cancelled meanwhile) may be off the
          // screen; a new user saw nothing, or a line 421 px above the screen. Said by the
          // banner once the line is not in view, unless the phone is offline again.
          var told = { text: NOT_APPLIED }, since = Date.now();
          var tell = function () {
            if (Date.now() - since > TELL_FOR) { clearInterval(telling); return; }
            if (offline || lineInView() || (net && !net.hidden && net.classList.contains("refused"))) return;
            show(told.text, false, 8000);
            if (net) net.classList.add("refused");
          };
          var telling = setInterval(tell, 250);
          setTimeout(function () {
            document.dispatchEvent(new CustomEvent("tap:retext", { detail: told }));
            tell();
          }, 0);
        } else if (!document.querySelector("#live .alert")) show("Your tap reached the table.", true);
      }, function () {
        unsent = unsent || req;
        if (!offline) setTimeout(function () { if (!offline) resend(attempt + 1); }, 250);
      });
  }
})();

// --- what a swap of the live region must not lose -----------------
// The whole #live region is replaced by every answer and push. Kept across the swap: which
// <details> were open (a character's sheet, a folded player), which control had the focus, and
// a refused command's message, shown next to the control that sent it (with what was typed),
// announced (role=alert) and scrolled into view; it stays there, through later pushes, until
// the next command (a race refusal, until the next update that changes the table). Forms are matched by their hidden fields and button label ("signature").
(function () {
  // loose: the command only (hidden fields), not the button's label, which may count ("Agree to
  // stop 1/2"): the same control, still offered, whatever its label says now.
  function sig(form, loose) {
    if (!form || !form.querySelectorAll) return "";
    var parts = [form.getAttribute("hx-post") || ""];
    form.querySelectorAll("input[type=hidden]").forEach(function (i) {
      if (i.name !== "idempotency_key" && i.name !== "expected_version") parts.push(i.name + "=" + i.value);
    });
    if (loose) return parts.join("&");
    var b = form.querySelector("button");
    // an armed two-step button says "Tap again ..." for a while: its own label is its signature
    if (b) parts.push(form.armButton === b && form.armText != null ? form.armText : b.textContent.trim());
    return parts.join("&");
  }
  function formBySig(root, s, loose) {
    var found = null;
    if (!s) return null;
    root.querySelectorAll("form").forEach(function (f) { if (!found && sig(f, loose) === s) found = f; });
    return found;
  }
  var last = null;      // {sig, values}: the command just sent
  var placed = null;    // {sig, code, text, version, gone}: the refusal shown at its control
  // A race refusal ("stale_version": another phone's tap came first) whose control is gone from
  // the answer (two phones tap Next turn at once: the loser's Next turn no longer exists) says
  // the table moved on, not "tap again": there is nothing to tap. The server cannot tell (it
  // refuses on the version, before reading the command); the page sees what it offers now.
  var MOVED_ON = "Someone acted just before you: the table already moved on.";
  var NOT_APPLIED_GONE = "Your tap while offline was not applied: the table moved on.";
  // A tap re-sent after the phone was offline and refused as stale: its line at the control
  // says so ("Your tap while offline was not applied ..."), here and after later pushes.
  document.addEventListener("tap:retext", function (e) {
    var text = e.detail && e.detail.text;
    if (!text) return;
    var notes = document.querySelectorAll('#live .alert[data-code="stale_version"]');
    if (placed && placed.gone) text = NOT_APPLIED_GONE;  // nothing to tap again
    e.detail.text = text;  // the banner says what the line at the control says
    notes.forEach(function (n) { n.textContent = text; n.title = text; });
    if (placed) placed.text = text;
  });
  // Every refusal line shown (at its control, or the race's line in the thumb bar) goes: this
  // phone's next tap that gets through, or the table's next change. A new user saw "Someone
  // acted just before you" stay above the thumb bar several taps later, and the Realm's "Play
  // 1 to 4 cards ..." after ending the turn.
  function clearRefusals(keep) {
    placed = null;
    document.querySelectorAll("#live .alert.at-control").forEach(function (n) {
      if (keep && n.contains(keep)) return;
      var form = keep && keep.closest ? keep.closest("form") : null;
      var before = form ? form.getBoundingClientRect().top : 0;
      n.remove();
      // the control just tapped stays under the thumb (the line above it no longer pushes it
      // down: the page scrolls by what it took)
      var shift = form ? form.getBoundingClientRect().top - before : 0;
      if (shift && !fixed(form)) window.scrollBy(0, shift);
    });
  }
  // (a two-step's first tap, a Realm card ticked: said by the event "tap:through")
  document.addEventListener("tap:through", function (e) { clearRefusals(e.target !== document ? e.target : null); });
  // The race's line ("Someone acted just before you ...") only tells: it goes at the next tap
  // on any control (a sheet opened, a field), before that tap's own handling (window, capture:
  // a tap the ghost-tap guard absorbs may say it again).
  window.addEventListener("pointerdown", function (e) {
    var c = e.target && e.target.closest ? e.target.closest("button, a[href], summary, input:not([type=hidden]), select, label, [role=button]") : null;
    if (!c) return;
    document.querySelectorAll('#live .alert.at-control[data-code="stale_version"]').forEach(function (n) { n.remove(); });
    if (placed && placed.code === "stale_version") placed = null;
  }, true);
  document.addEventListener("htmx:configRequest", function (e) {
    var form = e.detail.elt && e.detail.elt.closest ? e.detail.elt.closest("form") : null;
    if (form && form.closest("[data-command], #live")) clearRefusals(form);
    if (!form || !document.getElementById("live") || !document.getElementById("live").contains(form)) return;
    var values = {};
    form.querySelectorAll("input, select, textarea").forEach(function (i) {
      if (!i.name || i.type === "hidden") return;
      if (i.type === "checkbox" || i.type === "radio") values[i.name + "=" + i.value] = i.checked;
      else if (i.multiple) values[i.name] = Array.prototype.map.call(i.selectedOptions, function (o) { return o.value; });
      else values[i.name] = i.value;
    });
    // home: the nearest element with an id around the control (DemLoc: the thumb bar, a
    // character's card): where a refusal goes when the answer no longer has the control
    // (two Next turn taps at once: the loser's turn bar has moved on).
    var home = form.parentElement && form.parentElement.closest("[id]");
    // A button of the fixed bottom bar that sends a form of the page (form="<id>": DemLoc's
    // Placed, Espionage's Play troop face down, Personal Demons' Ready): its refusal is shown
    // at that button, in the bar (in view), not after the form, which may be off screen.
    var ev = e.detail.triggeringEvent, sub = ev && ev.submitter, bar = document.getElementById("bottom-bar");
    var barTap = sub && bar && bar.contains(sub) && !form.contains(sub)
      ? { form: sub.getAttribute("form") || "", text: sub.textContent.trim() } : null;
    last = { sig: sig(form), loose: sig(form, true), values: values, home: home && home.id !== "live" ? home.id : null, bar: barTap };
  });
  function snapshot(live) {
    var open = [];
    live.querySelectorAll("details[id][open]").forEach(function (d) { open.push(d.id); });
    var a = document.activeElement, focus = null;
    if (a && live.contains(a)) {
      var f = a.closest("form");
      focus = { id: a.id || null, sig: f ? sig(f) : null, name: a.name || null };
    }
    return { open: open, focus: focus };
  }
  // The bar button a refusal answers (last.bar), found again in the bar after a swap: the
  // same form it sends and the same label, else the first one sending that form.
  function barButton(tap) {
    if (!tap) return null;
    var all = Array.prototype.slice.call(document.querySelectorAll('#bottom-bar button[form="' + CSS.escape(tap.form) + '"]'));
    return all.filter(function (b) { return b.textContent.trim() === tap.text; })[0] || all[0] || null;
  }
  function openAround(el) {
    for (var d = el && el.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
  }
  var KEEP_REFUSAL = 5000;
  function kept(code, at) {
    return code !== "stale_version" && !!at && Date.now() - at < KEEP_REFUSAL;
  }
  function restore(snap) {
    var live = document.getElementById("live");
    if (!live) return;
    var alert = live.querySelector(":scope > .alert[data-code]");
    // A race refusal says what the table was when it came: the next update that changes the
    // table (a new version) takes it away, as does this phone's next tap (a new user's "look,
    // then tap again" stayed in the thumb bar for a whole turn, into their next move). A
    // refusal of what this phone sent (any other code: its own input, not the race) stays at
    // least KEEP_REFUSAL ms, whatever other phones do meanwhile (a new user's "Enter the
    // arcane dice of Cultist." at Next went with the other phone's tap 0.4 s later, and the
    // player never saw why Next did nothing).
    if (!alert && placed && placed.version !== live.dataset.version && !kept(placed.code, placed.at)) placed = null;
    live.querySelectorAll(".alert.at-control[data-version]").forEach(function (n) {
      if (n.dataset.version !== live.dataset.version && !kept(n.dataset.code, +n.dataset.at)) n.remove();
    });
    if (alert && last) {
      var form = formBySig(live, last.sig);
      var gone = !form && !barButton(last.bar) && !formBySig(live, last.loose, true);
      var said = gone && alert.dataset.code === "stale_version" ? MOVED_ON : alert.textContent;
      if (form || barButton(last.bar)) {
        if (form) form.querySelectorAll("input, select, textarea").forEach(function (i) {
          if (!i.name || i.type === "hidden") return;
          if (i.type === "checkbox" || i.type === "radio") { var k = i.name + "=" + i.value; if (k in last.values) i.checked = last.values[k]; }
          else if (i.multiple && last.values[i.name]) Array.prototype.forEach.call(i.options, function (o) { o.selected = last.values[i.name].indexOf(o.value) >= 0; });
          else if (i.name in last.values) i.value = last.values[i.name];
        });
        placed = { sig: last.sig, bar: last.bar, code: alert.dataset.code, text: said };
        alert.remove();
      } else if (last.home && document.getElementById(last.home)) {
        placed = { sig: last.sig, home: last.home, code: alert.dataset.code, text: said };
        alert.remove();
      }
      if (placed) { placed.version = live.dataset.version; placed.gone = gone; placed.at = Date.now(); }
    }
    if (placed) {
      var target = formBySig(live, placed.sig), atBar = barButton(placed.bar);
      var home = !target && placed.home ? document.getElementById(placed.home) : null;
      live.querySelectorAll(".alert.at-control").forEach(function (n) { n.remove(); });
      if (target || home || atBar) {
        var note = document.createElement("p");
        note.className = "alert at-control"; note.setAttribute("role", "alert");
        note.dataset.code = placed.code; note.textContent = placed.text; note.title = placed.text;
        note.dataset.version = placed.version || "";
        note.dataset.at = String(placed.at || 0);
        // in the bar, just above the button's row (the bar grows upwards, the button stays
        // under the thumb)
        if (atBar) {
          note.classList.add("at-bar");
          (atBar.parentElement.id === "bottom-bar" ? atBar : atBar.parentElement).insertAdjacentElement("beforebegin", note);
        }
        else if (target) target.insertAdjacentElement("afterend", note);
        else if (getComputedStyle(home).flexDirection === "column-reverse") home.appendChild(note);
        else home.prepend(note);
        target = target || note;
        openAround(target);
        if (alert) {
          noteInBand(note);
          var field = target.querySelector("input:not([type=hidden]), select, button");
          if (field && field.focus) field.focus({ preventScroll: true });
          return;
        }
      }
    }
    var fo = snap.focus;
    if (fo) {
      var el = fo.id ? document.getElementById(fo.id) : null;
      if (!el && fo.sig) {
        var f2 = formBySig(live, fo.sig);
        el = f2 && (fo.name ? f2.querySelector('[name="' + fo.name.replace(/"/g, "") + '"]') : f2.querySelector("button"));
      }
      if (el && el.focus) el.focus({ preventScroll: true });
    }
  }
  // --- where the page lands (tabletop/KIT.md "Where the page lands"; docs/playing.md) ----
  // 1. Another phone's action (a push) never moves this phone's view: the element at the top
  //    of the screen (or the field being typed in) is found again by id after the swap and put
  //    back at the same height on screen. The browser's own scroll anchoring is off on these
  //    pages (app.css): it anchored to the bottom of the page while a swap briefly shortened it.
  // 2. After this phone's own tap is answered: a refusal is shown at the tapped control, on
  //    screen (above); else a data-land element the tap brought (DemLoc: the worked calculation
  //    with Apply and Cancel, the claim) is landed on; else a tap that moved the game to another
  //    stage (data-stage / data-status) lands on the stage's data-land="next" element or the
  //    top of the live region; else the tapped control stays where it was on screen.
  // 3. Opening (or reloading) a page with data-land="open" (what waits for this phone) lands on it.
  function land(el) {
    var style = getComputedStyle(el);
    if (style.position !== "sticky") { betweenBars(el, "start"); return; }
    var stuckAt = parseFloat(style.top) || 0, saved = el.style.position;
    el.style.position = "static";
    var top = el.getBoundingClientRect().top + window.scrollY;
    el.style.position = saved;
    window.scrollTo(0, Math.max(0, top - stuckAt));
  }
  // Every landing of this script goes through betweenBars(el, block): the band of the screen
  // the bars leave is measured at the moment of the scroll (the sticky top parts: the top bar,
  // the connection banner, DemLoc's turn bar, each by its real height where it sticks; the fixed
  // bottom bar's real top: a refusal line makes it taller), never taken from a constant.
  // block "start": el's top just under the top parts, then its controls (data-keep-above-bar:
  // DemLoc's Apply and Cancel under a long fight; el itself if it has none) scrolled on until
  // they clear the bottom bar, even if el's top then goes under the top parts (what is read is
  // above; what is tapped must be under the thumb). block "nearest": the least scroll that
  // shows el whole between the two (none if it already is).
  // The connection banner counts where it sits: at the top with the top parts, or (DemLoc's
  // play page, missions.css) just above the bottom bar, whose band it then ends (a player
  // offline saw a sheet's "did not load" line under it: the banner's resolved top, hundreds
  // of pixels down, had been counted as a top part).
  function netLow() {
    var net = document.getElementById("net");
    if (!net || net.hidden || !net.getClientRects().length) return null;
    var r = net.getBoundingClientRect();
    return r.top > window.innerHeight / 2 ? r : null;
  }
  function bandTop() {
    var top = 0, low = netLow();
    document.querySelectorAll(".topbar, .net, [data-height-var]").forEach(function (n) {
      var s = getComputedStyle(n);
      if (!n.getClientRects().length || (s.position !== "sticky" && s.position !== "fixed")) return;
      if (low && n.id === "net") return;  // a bottom part
      top = Math.max(top, (parseFloat(s.top) || 0) + n.getBoundingClientRect().height);
    });
    return top;
  }
  function bandBottom() {
    var bar = document.getElementById("bottom-bar"), low = netLow();
    var bottom = bar && bar.getClientRects().length ? bar.getBoundingClientRect().top : window.innerHeight;
    return low ? Math.min(bottom, low.top) : bottom;
  }
  // The band, for a game's own script (missions/table.js): the same measure as every landing
  // here. That script loads before this one (the page's head block), so it reads these when
  // it measures, never at its load.
  window.demlocBand = { top: bandTop, bottom: bandBottom };
  // Each landing is told to the page ("page:landed" on the element landed on): what the page
  // itself put in view counts as shown (DemLoc's Apply guard, missions/table.js).
  function betweenBars(el, block) {
    el.dispatchEvent(new CustomEvent("page:landed", { bubbles: true }));
    var top = bandTop() + 8, bottom = bandBottom() - 8, r = el.getBoundingClientRect();
    if (block === "start") {
      window.scrollBy(0, r.top - top);
      var keep = el.querySelector("[data-keep-above-bar]");
      if (!keep) return;
      var over = keep.getBoundingClientRect().bottom - bandBottom() + 8;
      if (over > 0) window.scrollBy(0, over);
      return;
    }
    if (r.top < top) window.scrollBy(0, r.top - top);
    else if (r.bottom > bottom) window.scrollBy(0, Math.min(r.bottom - bottom, r.top - top));
  }
  // A refusal placed at its control in the page is read between the bars: not under the
  // bottom bar (a new user saw only a red sliver of "My dice: ... rolls 3 fighting dice." under
  // Work it out, which the sticky button had put just above the bar), nor under the top parts;
  // the least scroll that shows it whole. One in the bottom bar is there already.
  function noteInBand(note) {
    if (note.closest("#bottom-bar")) return;
    var r = note.getBoundingClientRect();
    if (r.top < bandTop() || r.bottom > bandBottom()) betweenBars(note, "nearest");
  }
  // A link to a part of the page whose controls must clear the bottom bar (the thumb bar's "A
  // fight waits for you: check it", the deployment's "choose the miniature and its area")
  // lands on it as a tap's result does: the browser's own jump put its top under the top bars
  // and left a long fight's Apply under the bottom bar (found by a new user).
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest('a[href^="#"]');
    var el = a && a.hash.length > 1 ? document.getElementById(decodeURIComponent(a.hash.slice(1))) : null;
    if (!el || !el.querySelector("[data-keep-above-bar]")) return;
    e.preventDefault();
    land(el);
  });
  // What the page can land on, each by its id and, when it has one, its data-land-key: an
  // element of the same id with a new key is new (DemLoc's notice of what just happened: a
  // stray shot replacing an earlier notice in the same place).
  function landKey(el) { return (el.id || "") + "|" + (el.getAttribute("data-land-key") || ""); }
  function landings(root) {
    return Array.prototype.map.call(root.querySelectorAll("[data-land]"), landKey);
  }
  function stageOf() {
    var live = document.getElementById("live"), st = live && live.querySelector("[data-stage]");
    return (live ? live.dataset.status : "") + "/" + (st ? st.dataset.stage : "");
  }
  function fixed(el) {
    for (var e = el; e && e.nodeType === 1; e = e.parentElement) {
      var p = getComputedStyle(e).position;
      if (p === "fixed" || p === "sticky") return true;
    }
    return false;
  }
  // The top of what the page shows under the sticky bars (scroll-padding-top says how much).
  function visibleTop() {
    return parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  }
  // The element that holds the view: the focused field (with an id, or its nearest ancestor
  // with one) if on screen, else the highest element with an id whose top is on screen, else
  // the innermost one across the top of the screen.
  // A list, best first: the update may take the first ones away (the form being typed in,
  // hidden while a calculation waits), and the first one left holds the view.
  // The list's "top" is what is read at the top of the band: the innermost element across its
  // top line when a good part of it shows (at least SHOWN px, or all of it), else the first one
  // under the line. An update that takes it away (DemLoc's calculation, applied from another
  // phone) leaves the view held by what was around it (the nearest element with an id that
  // stays: the calculation's block, now empty): the scroll stays and what followed comes up
  // into its place. Held by what followed (the roster under it), the page scrolled up by the
  // whole calculation and a new user's view went to the top of the page (scrollY 362 -> 0).
  var SHOWN = 48;
  function shown(el) {
    return !!el && el.getClientRects().length > 0 && !(el.checkVisibility && !el.checkVisibility());
  }
  function anchor(live) {
    var vt = visibleTop(), a = document.activeElement, out = [], inner = [], first = null, across = null;
    if (a && live.contains(a) && !fixed(a)) {
      var r0 = a.getBoundingClientRect();
      var held = a.id ? a : a.parentElement && a.parentElement.closest("[id]");
      if (r0.bottom > vt && r0.top < window.innerHeight && held && live.contains(held)) {
        out.push({ id: held.id, top: held.getBoundingClientRect().top, focus: true });
      }
    }
    live.querySelectorAll("[id]").forEach(function (el) {
      var r = el.getBoundingClientRect();
      // Not what is shown: the inside of a folded <details> (Chrome still gives it a box, at a
      // place that is not on screen: held, the view jumped by the difference).
      if (!r.height || fixed(el) || (el.checkVisibility && !el.checkVisibility())) return;
      if (r.top >= vt && r.top < window.innerHeight) {
        out.push({ id: el.id, top: r.top });
        first = first || el;
      } else if (r.top < vt && r.bottom > vt) {
        inner.unshift({ id: el.id, top: r.top });  // innermost first
        across = el;  // the innermost so far (each one across the line holds the next)
      }
    });
    var list = out.concat(inner), top = first;
    if (across && !(first && across.contains(first))) {
      var ra = across.getBoundingClientRect();
      if (ra.bottom - vt >= Math.min(SHOWN, ra.height)) top = across;
    }
    if (top) {
      var around = [];
      for (var p = top.parentElement; p; p = p.parentElement) {
        if (p.id && !fixed(p)) around.push({ id: p.id, top: p.getBoundingClientRect().top });
        if (p === live) break;
      }
      list.top = { id: top.id, around: around };
    }
    return list;
  }
  // ``hold``: a list of {id, top} records, best first (anchor()'s, whose ``top`` names the
  // element across the screen's top with the elements around it; or the one element tapped).
  function holdView(hold, y) {
    var list = hold.slice(), top = hold.top;
    var focus = list.length && list[0].focus ? list.splice(0, 1) : [];
    if (top && !shown(document.getElementById(top.id))) list = top.around.concat(list);
    list = focus.concat(list);
    for (var i = 0; i < list.length; i++) {
      var el = document.getElementById(list[i].id);
      if (shown(el)) { window.scrollBy(0, el.getBoundingClientRect().top - list[i].top); return; }
    }
    window.scrollTo(0, y);
  }
  // A new stage (the game started, the next preparation step, play begun, the mission over)
  // is a new page on every phone: read from its data-land="next" element, else its first
  // data-land element (DemLoc: the turn bar once play begins), else the region's top.
  // The game starting (lobby -> playing) is read from the top of the game on every phone,
  // the host who tapped Start included (not from the turn bar, which the new page also brings).
  function landOnStage(live, from) {
    if (from && from.lastIndexOf("lobby/", 0) === 0 && live.dataset.status && live.dataset.status !== "lobby") {
      live.scrollIntoView({ block: "start" });
      return;
    }
    // data-land="mine": only what this phone's own tap brought (DemLoc's slots after a pick)
    var el = live.querySelector('[data-land="next"]') || live.querySelector('[data-land]:not([data-land="mine"])');
    if (el) land(el); else live.scrollIntoView({ block: "start" });
  }
  function landOnOpen() {
    var el = document.querySelector('#live [data-land="open"]');
    if (!el) return;
    if ("scrollRestoration" in history) history.scrollRestoration = "manual";
    land(el);
  }
  if (document.readyState === "complete") landOnOpen();
  else window.addEventListener("load", function () { setTimeout(landOnOpen, 0); });

  // What a swap must keep of the region it replaces, done to the incoming copy before the swap
  // so that the page never shows (nor measures) a shorter page in between: the open <details>
  // and what is typed in a field another phone's update would reset.
  // A form or an open <details> that the update takes away for a while (DemLoc hides every
  // action while a calculation waits for Apply) is kept aside and given back when it returns.
  var asideValues = {}, asideOpen = {};
  // Whether a <select> shows another choice than the one it was rendered with. A select whose
  // options carry no "selected" shows its first enabled option without that option being
  // defaultSelected: that is its default, not a choice (a new user's Shoot target, rendered
  // with Malve first while Brann was dead, was "kept" as a choice and forced on the form that
  // Undo brought back with Brann first: the re-done shot hit Malve).
  function selectChanged(i) {
    var opts = Array.prototype.slice.call(i.options);
    var dflt = opts.some(function (o) { return o.defaultSelected; }) || i.multiple ? null
      : opts.filter(function (o) { return !o.disabled; })[0] || null;
    return opts.some(function (o) { return o.selected !== (dflt ? o === dflt : o.defaultSelected); });
  }
  // Whether a form's field differs from what it was rendered with (a box ticked or not, another
  // choice, other text): what an update must not take from the player.
  function fieldChanged(i) {
    if (i.type === "checkbox" || i.type === "radio") return i.checked !== i.defaultChecked;
    if (i.tagName === "SELECT") return selectChanged(i);
    return i.value !== i.defaultValue;
  }
  // What was typed or chosen in a form, as kept aside: only the fields that differ from their
  // defaults ([] when none); ``sent``: every select's choice too (what a tap sent, for its Undo).
  function keptOf(f, sent) {
    var kept = [];
    f.querySelectorAll("input, select, textarea").forEach(function (i) {
      if (!i.name || i.type === "hidden") return;
      if (!fieldChanged(i) && !(sent && i.tagName === "SELECT")) return;
      var sel = '[name="' + CSS.escape(i.name) + '"]';
      if (i.type === "checkbox" || i.type === "radio") {
        kept.push({ sel: sel + '[value="' + CSS.escape(i.value) + '"]', checked: i.checked });
      } else if (i.tagName === "SELECT") {
        kept.push({ sel: sel, options: Array.prototype.filter.call(i.options, function (o) { return o.selected; }).map(function (o) { return o.value; }) });
      } else kept.push({ sel: sel, value: i.value });
    });
    return kept;
  }
  function giveBack(f, kept) {
    kept.forEach(function (k) {
      var t = f.querySelector(k.sel);
      if (!t) return;
      if ("checked" in k) t.checked = k.checked; else if (k.options) Array.prototype.forEach.call(t.options, function (o) { o.selected = k.options.indexOf(o.value) >= 0; }); else t.value = k.value;
    });
  }
  function carry(from, into) {
    if (!from || !into || !into.querySelectorAll) return;
    from.querySelectorAll("details[id][open]").forEach(function (d) { asideOpen[d.id] = true; });
    Object.keys(asideOpen).forEach(function (id) {
      var twin = into.querySelector("#" + CSS.escape(id));
      if (twin && twin.tagName === "DETAILS") { twin.open = true; delete asideOpen[id]; }
    });
    into.querySelectorAll("form").forEach(function (f) {
      var kept = asideValues[sig(f)];
      if (!kept) return;
      delete asideValues[sig(f)];
      giveBack(f, kept);
    });
    from.querySelectorAll("form").forEach(function (f) {
      if (f === sentForm) return;  // the form just sent starts afresh with the answer
      var changed = [];
      f.querySelectorAll("input, select, textarea").forEach(function (i) {
        if (i.name && i.type !== "hidden" && fieldChanged(i)) changed.push(i);
      });
      if (!changed.length) return;
      var twin = formBySig(into, sig(f));
      if (!twin) {
        asideValues[sig(f)] = keptOf(f);
        return;
      }
      changed.forEach(function (i) {
        var sel = '[name="' + CSS.escape(i.name) + '"]';
        if (i.type === "checkbox" || i.type === "radio") sel += '[value="' + CSS.escape(i.value) + '"]';
        var t = twin.querySelector(sel);
        if (!t) return;
        if (i.type === "checkbox" || i.type === "radio") t.checked = i.checked;
        else if (i.tagName === "SELECT") {
          Array.prototype.forEach.call(t.options, function (o) {
            var was = Array.prototype.find.call(i.options, function (x) { return x.value === o.value; });
            if (was) o.selected = was.selected;
          });
        } else t.value = i.value;
      });
    });
  }
  var sentForm = null, mine = null, held = null;
  var undoable = null;  // {sig, kept, version}: this phone's last accepted tap, for its Undo
  // This phone's last answered tap (what it could land on before): a result that comes with
  // the forms of an open sheet, fetched after the answer (an arcane power's result line), is
  // landed on as the answer's own would have been.
  var lastTap = null;
  document.addEventListener("htmx:configRequest", function (e) {
    var form = e.detail.elt && e.detail.elt.closest ? e.detail.elt.closest("[data-command]") : null;
    var live = document.getElementById("live");
    if (!form || !live || !live.contains(form)) return;
    sentForm = form;
    var r = form.getBoundingClientRect();
    var at = form.id ? form : form.parentElement && form.parentElement.closest("[id]");
    mine = { sig: sig(form), landings: landings(live), stage: stageOf(), y: window.scrollY, version: live.dataset.version,
             at: at && live.contains(at) && !fixed(at) ? { id: at.id, top: at.getBoundingClientRect().top } : null,
             formTop: r.top, card: form.closest("[data-forms]") ? form.closest("[data-forms]").id : null,
             // what was sent, for its Undo: read now (the tap's own push may come before the
             // answer and start the form afresh: a new user's missed shot came back without
             // its test die and dice)
             kept: keptOf(form, true) };
  });
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var t = e.detail.target, live = document.getElementById("live");
    if (!t || !live || !(t === live || live.contains(t)) || e.detail.shouldSwap === false) return;
    var incoming = e.detail.fragment && e.detail.fragment.querySelector ? (e.detail.fragment.querySelector("#" + CSS.escape(t.id)) || e.detail.fragment.firstElementChild) : null;
    if (!held) held = { hold: anchor(live), y: window.scrollY, stage: stageOf() };
    carry(t, incoming || e.detail.fragment);
    if (t === live) watchSwap(t);
    keepForms(t, incoming || e.detail.fragment);  // last: it takes the forms out of the page
  });
  function watchSwap(target) {
    var snap = snapshot(target), wasLobby = target.dataset.status === "lobby";
    setTimeout(function () {
      restore(snap);
      // The game starts (lobby -> playing): a new page on every phone, read from its top.
      var now = document.getElementById("live");
      if (wasLobby && now && now.dataset.status && now.dataset.status !== "lobby") now.scrollIntoView({ block: "start" });
    }, 0);
  }
  // A frame of changed blocks (tabletop/blocks.py) swaps elements inside #live: the same care
  // (focus, a refusal at its control); each block's swap keeps the view and what is typed
  // (oobBeforeSwap / oobAfterSwap above).
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    var msg = e.detail && e.detail.message;
    if (e.defaultPrevented || typeof msg !== "string" || msg.lastIndexOf("<!--delta ", 0) !== 0) return;
    var live = document.getElementById("live");
    if (live) watchSwap(live);
  });
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var t = e.target;  // the new element (detail.target is the old one, now out of the page)
    var live = document.getElementById("live");
    if (!held || !t || !live || !(t === live || live.contains(t))) return;
    var h = held; held = null;
    if (stageOf() !== h.stage) landOnStage(live, h.stage); else { holdView(h.hold, h.y); unstraddle(live); }
  });
  // The view is kept, but what waits for this phone's answer (data-land="open": DemLoc's Apply
  // and Cancel of a shot at my character) is never left on the screen under a bar, its edge
  // peeking or wholly covered (a new user saw Apply's bottom strip under the turn bar; with the
  // calculation's "Apply kills" line, the held view put Apply wholly under the turn bar): the
  // calculation is shown whole with the least scroll if it fits between the bars, else its head
  // at the band's top and on until Apply and Cancel clear the bottom bar (betweenBars "start").
  // Wholly off the screen, it is left there (the thumb bar's link brings it).
  function unstraddle(live) {
    var open = live.querySelector('[data-land="open"]');
    var keep = open && open.querySelector("[data-keep-above-bar]");
    if (!keep || !keep.getClientRects().length) return;
    var r = keep.getBoundingClientRect(), top = bandTop(), bottom = bandBottom();
    if (r.bottom <= 0 || r.top >= window.innerHeight || (r.top >= top && r.bottom <= bottom)) return;
    var fits = open.getBoundingClientRect().height <= bottom - top - 16;
    betweenBars(open, fits ? "nearest" : "start");
  }
  // The answer to this phone's tap: its beforeSwap is fired on the page's body (the answer's
  // target), which is always in the page, unlike the tapped form, which a push may have
  // replaced before the answer came. Landed after the swap and after restore() above (which
  // puts a refusal at its control).
  document.addEventListener("htmx:beforeSwap", function (e) {
    var cfg = e.detail && e.detail.requestConfig;
    if (!mine || !cfg || !cfg.elt || !cfg.elt.closest || !cfg.elt.closest("[data-command]")) return;
    var m = mine, sent = sentForm; mine = null; sentForm = null;
    // A tap accepted: the form that sent it starts afresh (a shot's dice and ticked boxes are
    // that shot's, never the next one's), wherever the update puts it (a calculation hides the
    // actions until it is applied or cancelled: nothing of it is kept aside to come back with
    // them). A refusal keeps what was typed, at its control; another phone's update keeps what
    // is typed in every other form (carry).
    // Undo of this phone's own last tap, with nothing applied in between (the table still at the
    // version that tap's answer showed): the tapped form comes back as it was sent (a new user's
    // shot undone to change a die found the Shoot form empty; docs/playing.md), kept aside
    // until the form is in the page again (the calculation hid it; a sheet's forms are fetched).
    var xhr = e.detail.xhr;
    if (xhr && xhr.status >= 200 && xhr.status < 300) {
      var live = document.getElementById("live");
      var undo = m.sig.indexOf("type=table.undo") >= 0;
      if (undo && undoable && undoable.version === m.version && undoable.kept.length) {
        var back = undoable;
        asideValues[back.sig] = back.kept;
        setTimeout(function () {
          var f = document.getElementById("live") && formBySig(document.getElementById("live"), back.sig);
          if (f && asideValues[back.sig] === back.kept) { delete asideValues[back.sig]; giveBack(f, back.kept); }
        }, 0);
      }
      undoable = null;
      if (!undo && sent) {
        var kept = m.kept || keptOf(sent);
        undoable = { sig: m.sig, kept: kept, version: null };
        setTimeout(function () {
          var now = document.getElementById("live");
          if (undoable && undoable.kept === kept && now) undoable.version = now.dataset.version;
        }, 0);
      }
      delete asideValues[m.sig];
      [sent, live ? formBySig(live, m.sig) : null].forEach(function (f) { if (f && f.reset) f.reset(); });
    }
    var tap = lastTap = m.card ? { landings: m.landings, at: Date.now(), card: m.card, sig: m.sig } : null;
    setTimeout(function () { setTimeout(function () {
      var landed = landAfterTap(m);
      if (tap) tap.landed = landed;
    }, 0); }, 0);
  });
  // The tapped form stays where it was, but what is above its button may have grown (a new
  // user's arcane Test: its line now says "no mana: channel first", and the Test button ended
  // 8 px under the thumb bar): the button is brought just above the bar. Only when the answer
  // kept the tapped form in place and the button is on the screen (under the bar): when the page
  // landed elsewhere (a failed shot's notice above: landAfterTap's answer), it stays there. The button on
  // the screen was not enough: with the site's top bar scrolled away the notice lands 53 px
  // higher, the Shoot form's button came on the screen under the bar, and bringing it up pushed
  // the notice over the top of the screen.
  function buttonAboveBar(form) {
    var btn = form && form.querySelector("button:not([type=button])");
    if (!btn || !btn.getClientRects().length) return;
    var r = btn.getBoundingClientRect(), over = r.bottom - (bandBottom() - 8);
    if (over > 0 && r.top < window.innerHeight) window.scrollBy(0, over);
  }
  // Lands this phone's answered tap ``m``; true when it landed elsewhere than the tapped form
  // (on what the answer brought, or a new stage).
  function landAfterTap(m) {
      var live = document.getElementById("live");
      if (!live) return;
      var note = live.querySelector(".alert.at-control");
      if (note) {  // refused: at the control, on screen
        // In the bottom bar (a bar button's refusal: Next with nobody chosen), the bar grew by
        // its line: the control the step asks for (its data-keep-above-bar, the first Choose)
        // is shown whole above it.
        var ask = note.closest("#bottom-bar") && Array.prototype.filter.call(live.querySelectorAll("[data-keep-above-bar]"), function (k) {
          return k.getClientRects().length && !fixed(k);
        })[0];
        if (ask) { betweenBars(ask, "nearest"); return false; }
        noteInBand(note);
        return false;
      }
      if (m.stage.lastIndexOf("lobby/", 0) === 0 && stageOf() !== m.stage) { landOnStage(live, m.stage); return true; }
      var fresh = Array.prototype.filter.call(live.querySelectorAll("[data-land]"), function (el) {
        return el.id && m.landings.indexOf(landKey(el)) < 0;
      })[0];
      if (fresh) { land(fresh); return true; }
      if (stageOf() !== m.stage) { landOnStage(live, m.stage); return true; }
      var same = formBySig(live, m.sig);
      if (same && !fixed(same)) {
        window.scrollBy(0, same.getBoundingClientRect().top - m.formTop);
        buttonAboveBar(same);
      }
      else if (m.at && document.getElementById(m.at.id)) holdView([m.at], m.y);
      else if (m.at) land(live.querySelector("[data-land]") || live);  // its part is gone (an Apply)
      return false;
  }

  // --- sheets load their forms when they are opened --------------------------------------------
  // A DemLoc character's card in the live region leaves its sheet's forms out (its actions,
  // abilities, effects, possession: missions/_piece.html): the card has empty slots
  // (data-forms-slot) and the URL of its forms (data-forms), fetched when the sheet is opened
  // and again, for an open sheet, whenever the table's version moves on (the fate it offers,
  // the targets). A swap of the card moves the forms already loaded into the new card, with what
  // is typed and which of their parts are open; a refreshed copy keeps both too (carry), and
  // what the phone shows stays where it is on the screen (anchor, holdView). A field being
  // typed in is never replaced: the rest of its form is refreshed around it (refreshAround),
  // the rest of its sheet's forms once the focus leaves them.
  var formsLoading = {}, formsTimer = null;
  function keepForms(from, into) {
    if (!from || !into || !into.querySelectorAll || !from.querySelectorAll) return;
    var cards = from.hasAttribute && from.hasAttribute("data-forms") ? [from] : Array.prototype.slice.call(from.querySelectorAll("[data-forms]"));
    cards.forEach(function (card) {
      var twin = into.id === card.id ? into : into.querySelector("#" + CSS.escape(card.id));
      if (!twin || twin.getAttribute("data-forms") !== card.getAttribute("data-forms")) return;
      card.querySelectorAll("[data-forms-slot][data-loaded]").forEach(function (slot) {
        var to = twin.querySelector('[data-forms-slot="' + slot.dataset.formsSlot + '"]');
        if (!to || to.dataset.loaded) return;
        if (sentForm && slot.contains(sentForm)) sentForm.reset();  // sent: starts afresh
        // they go with their open parts and typed values: nothing of them to keep aside
        slot.querySelectorAll("details[id]").forEach(function (d) { delete asideOpen[d.id]; });
        slot.querySelectorAll("form").forEach(function (f) { delete asideValues[sig(f)]; });
        while (slot.firstChild) to.appendChild(slot.firstChild);
        to.dataset.loaded = slot.dataset.loaded;
      });
    });
  }
  // The form whose field is being typed in, while the rest of its sheet waits for the focus to
  // leave: the field stays as it is (its focus, caret and keyboard), every other part of the
  // form takes the fresh copy's (the button enabled or disabled, the reason beside it, the
  // hidden fields), with what was typed or chosen in them. Found by a new user: a die typed
  // right after channelling kept Test disabled, "channel first", until the field was left.
  // A form whose parts are not the fresh one's, one for one (their count, the part holding the
  // field), waits whole as before. Only the parts that differ are replaced, and only by forms
  // of a newer version than the ones it shows (``version``: the table version they were
  // fetched at; the fetch is made again every second while the field is busy).
  function refreshAround(field, part, version) {
    var form = field.closest("form"), twin = form && formBySig(part, sig(form, true), true);
    if (!twin || twin.children.length !== form.children.length) return;
    var shows = form.dataset.formsVersion || (form.closest("[data-forms-slot]") || {}).dataset.loaded;
    if (shows && +shows >= +version) return;
    var olds = Array.prototype.slice.call(form.children), news = Array.prototype.slice.call(twin.children);
    var at = olds.findIndex(function (c) { return c.contains(field); });
    if (at < 0 || news[at].tagName !== olds[at].tagName) return;
    var kept = keptOf(form).filter(function (k) { return form.querySelector(k.sel) !== field; });
    var changed = false;
    olds.forEach(function (c, i) {
      if (c.contains(field) || c.isEqualNode(news[i])) return;
      c.replaceWith(news[i]);
      changed = true;
    });
    form.dataset.formsVersion = version;
    if (!changed) return;
    giveBack(form, kept);
    if (window.htmx) htmx.process(form);
    field.dispatchEvent(new Event("input", { bubbles: true }));  // what it shows of the field: afresh
  }
  function loadForms(card) {
    var url = card.getAttribute("data-forms"), live = document.getElementById("live");
    var sheet = card.querySelector("details.dl-sheet");
    if (!url || !live || !sheet || !sheet.open) return false;
    var version = live.dataset.version || "", id = card.id;
    var slots = card.querySelectorAll("[data-forms-slot]");
    if (!slots.length || slots[0].dataset.loaded === version) return false;
    if (formsLoading[id] === version) return true;  // on their way
    formsLoading[id] = version;
    fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true" } }).then(function (r) {
      if (!r.ok) throw new Error("forms " + r.status);
      return r.text();
    }).then(function (html) {
      if (formsLoading[id] === version) delete formsLoading[id];
      var now = document.getElementById(id);
      if (!now) return;
      var holder = document.createElement("div"), busy = false;
      holder.innerHTML = html;
      // what the phone shows stays where it is on the screen (forms above it may grow or shrink)
      var live = document.getElementById("live"), hold = live ? anchor(live) : null, y = window.scrollY;
      now.querySelectorAll("[data-forms-slot]").forEach(function (slot) {
        var part = holder.querySelector('[data-forms-slot="' + slot.dataset.formsSlot + '"]');
        if (!part) return;
        // Fetched at an older version than the forms it would replace (two fetches' answers
        // in the other order): kept out. Found in CI: the forms fetched before Vesna channelled
        // came after those of the new version, and her Test stayed "channel first".
        if (slot.dataset.loaded && +slot.dataset.loaded > +version) return;
        var a = document.activeElement, focused = slot.contains(a) ? a : null;
        // a field being typed in stays; a focused button moves to its twin
        if (focused && /^(INPUT|TEXTAREA|SELECT)$/.test(focused.tagName) && !/^(button|submit|checkbox|radio)$/.test(focused.type)) {
          busy = true;
          refreshAround(focused, part, version);
          return;
        }
        var focusSig = focused && focused.closest("form") ? sig(focused.closest("form")) : null;
        carry(slot, part);
        slot.replaceChildren.apply(slot, Array.prototype.slice.call(part.childNodes));
        slot.dataset.loaded = version;
        if (window.htmx) htmx.process(slot);
        var twin = focusSig ? formBySig(slot, focusSig) : null;
        var button = twin && twin.querySelector("button");
        if (button) button.focus({ preventScroll: true });
      });
      if (hold) holdView(hold, y);
      if (opening && opening.card === id) {  // the sheet a tap opened: now with its actions
        var opened = now.querySelector("details.dl-sheet");
        opening = null;
        if (opened && opened.open) bringOpened(opened);
      }
      if (busy) setTimeout(function () { var c = document.getElementById(id); if (c) loadForms(c); }, 1000);
      // the table moved on while they came: the forms of its version now
      var current = document.getElementById("live");
      if (current && current.dataset.version !== version) formsLater();
      if (lastTap && lastTap.card === id && Date.now() - lastTap.at < 8000) {
        var fresh = Array.prototype.filter.call(now.querySelectorAll("[data-forms-slot] [data-land]"), function (el) {
          return el.id && lastTap.landings.indexOf(landKey(el)) < 0;
        })[0];
        var tapped = lastTap.sig, landed = lastTap.landed;
        lastTap = null;  // the first forms after the answer say it, or nothing does
        if (fresh) land(fresh);
        else if (!landed) buttonAboveBar(formBySig(now, tapped));
      }
    }).catch(function () {
      if (formsLoading[id] === version) delete formsLoading[id];
      var now = document.getElementById(id), opened = now && now.querySelector("details.dl-sheet");
      // Never an empty sheet with nothing said (a new user offline saw no Shoot or Brawl):
      // one line in the actions' place until they load (again when the phone is back online).
      var acts = now && now.querySelector('[data-forms-slot="acts"]');
      if (acts && !acts.dataset.loaded) {
        var why = document.createElement("p");
        why.className = "small danger dl-acts-why";
        why.setAttribute("data-acts-why", "");
        why.setAttribute("role", "status");
        why.textContent = navigator.onLine === false
          ? "Its actions (Shoot, Brawl, Arcane) did not load: no connection. They come when the phone is back online."
          : "Its actions (Shoot, Brawl, Arcane) did not load. Fold and open the sheet to try again.";
        acts.replaceChildren(why);
      }
      if (opening && opening.card === id) { opening = null; if (opened && opened.open) bringOpened(opened); }
    });
    return true;
  }
  function refreshOpenForms() {
    formsTimer = null;
    document.querySelectorAll("#live details.dl-sheet[open]").forEach(function (d) {
      var card = d.closest("[data-forms]");
      if (card) loadForms(card);
    });
  }
  function formsLater() {
    if (!formsTimer) formsTimer = setTimeout(refreshOpenForms, 100);
  }
  // back online: an open sheet whose actions did not load gets them
  window.addEventListener("online", function () { formsLater(); });
  // --- what a tap opens is brought between the bars (docs/playing.md; KIT.md) ---------------
  // A <details> of the live region opened by a tap on its summary (DemLoc: a character's sheet,
  // its Shoot, Brawl, Arcane and Summon sections; a folded Guild, the log) is shown between the
  // top bars and the thumb bar: whole with the least scroll if it fits, else its top at the
  // band's top, its head and first control under it (a new user's Shoot opened wholly under the
  // thumb bar). A sheet whose actions are fetched when it opens (data-forms) is brought once they
  // are in, so that they count. One opened by the page itself (kept open across a swap, a
  // refusal's control) moves nothing.
  var opening = null;  // {el, at, card}: the <details> a tap on its summary is opening
  // Taller than the band, its top at the band's top may leave its first control straddling
  // the thumb bar (DemLoc's Summon with its "not enough mana" reason above the button, with
  // the taller "Your move" turn bar): the page goes on by what the margin over the head allows,
  // the head never going under the top parts.
  function bringOpened(d) {
    betweenBars(d, "nearest");
    var head = d.querySelector(":scope > summary");
    var first = Array.prototype.filter.call(d.querySelectorAll("summary, select, input:not([type=hidden]), button, textarea"), function (c) {
      return c !== head && c.getClientRects().length;
    })[0];
    if (!head || !first) return;
    var over = first.getBoundingClientRect().bottom - (bandBottom() - 8);
    var room = head.getBoundingClientRect().top - bandTop();
    if (over > 0 && room > 0) window.scrollBy(0, Math.min(over, room));
  }
  document.addEventListener("click", function (e) {
    var summary = e.target.closest && e.target.closest("summary");
    var d = summary && summary.parentElement, live = document.getElementById("live");
    if (!d || d.tagName !== "DETAILS" || d.open || !live || !live.contains(d) || e.defaultPrevented) return;
    opening = { el: d, at: Date.now(), card: null };
  });
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d || !d.matches || d.tagName !== "DETAILS") return;
    var tapped = !!opening && opening.el === d && d.open && Date.now() - opening.at < 2000;
    if (opening && opening.el === d && !tapped) opening = null;
    var card = d.open && d.matches("details.dl-sheet") ? d.closest("[data-forms]") : null;
    if (card && loadForms(card)) {
      if (tapped) { opening.card = card.id; opening.el = null; }
      return;
    }
    if (tapped) { opening = null; bringOpened(d); }
  }, true);
  document.addEventListener("htmx:oobAfterSwap", formsLater);
  document.addEventListener("htmx:afterSwap", formsLater);
  document.addEventListener("htmx:wsAfterMessage", formsLater);

})();

// --- a tap that cannot be taken back asks for a second tap, in the page ------------------
// A form marked data-two-step="<text>" (DemLoc's Close the mission: "Tap again to close: writes
// the results into both Guilds"; Objective achieved, Take my Guild out, Another mission, a
// Realm Pact, Espionage's REVEAL: every confirm, tabletop/KIT.md) is not sent on the first tap:
// the tapped button says that text (announced) until a tap anywhere else or 15 seconds (5
// disarmed before a slow second tap: a new user reading "Continue"'s text at a closed mission,
// the phone in one hand), and a second tap on it meanwhile sends it, the button's own label
// back (only its data-two-step-label part, if it has one: a Personimo market card's "Claim"). A tap on another button of the same form arms that
// one instead. Under the thumb, where the tap was, instead of the browser's confirm dialog
// (none is used on any page). A tap kept by early.js (a form htmx had not wired yet) is looked
// at when it is sent.
(function () {
  var ARMED_FOR = 15000;
  var held = null;  // {key, until}: the armed control, found again after a swap replaced it
  function labelOf(b) { return b.querySelector("[data-two-step-label]") || b; }
  function keyOf(f, b) {
    var parts = [f.getAttribute("hx-post") || "", f.id || "", b.id || "", b.textContent.trim()];
    f.querySelectorAll("input[type=hidden]").forEach(function (i) {
      if (i.name !== "idempotency_key" && i.name !== "expected_version") parts.push(i.name + "=" + i.value);
    });
    return parts.join("&");
  }
  function disarm(f) {
    var b = f.armButton;
    clearTimeout(f.armTimer);
    delete f.dataset.armed;
    if (b && f.armLabel != null) { labelOf(b).innerHTML = f.armLabel; b.removeAttribute("aria-live"); }
    f.armLabel = null; f.armButton = null; f.armText = null;
  }
  function arm(f, b, wait) {
    f.dataset.armed = "1";
    if (b) {
      var l = labelOf(b);  // a card's button: only its label
      f.armText = b.textContent.trim();  // what sig() reads while armed (the form's signature)
      f.armButton = b;
      f.armLabel = l.innerHTML;
      b.setAttribute("aria-live", "assertive");
      l.textContent = f.getAttribute("data-two-step");
    }
    f.armTimer = setTimeout(function () { disarm(f); held = null; }, wait);
  }
  function buttonsOf(f) {
    var own = Array.prototype.slice.call(f.querySelectorAll("button"));
    return f.id ? own.concat(Array.prototype.slice.call(document.querySelectorAll('button[form="' + CSS.escape(f.id) + '"]'))) : own;
  }
  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (e.defaultPrevented || !f.hasAttribute || !f.hasAttribute("data-two-step")) return;
    var b = (e.submitter && e.submitter.tagName === "BUTTON" ? e.submitter : null) || f.armButton || buttonsOf(f)[0];
    if (f.dataset.armed && (!e.submitter || b === f.armButton)) { disarm(f); held = null; return; }  // the second tap: sent
    if (f.dataset.armed) disarm(f);  // another button of the form: armed instead
    e.preventDefault();
    e.stopImmediatePropagation();
    held = b ? { key: keyOf(f, b), until: Date.now() + ARMED_FOR } : null;
    arm(f, b, ARMED_FOR);
    f.dispatchEvent(new CustomEvent("tap:through", { bubbles: true }));  // a tap that got through
  }, true);
  // A tap anywhere but on the armed button disarms it (the player moved on: a later tap on it
  // must not send at once); one on another button of the same form then arms that one.
  document.addEventListener("pointerdown", function (e) {
    document.querySelectorAll("form[data-armed]").forEach(function (f) {
      if (f.armButton && f.armButton.contains(e.target)) return;
      // A tap on the armed button while its ghost-tap guard holds (below) goes nowhere: it
      // neither confirms nor disarms.
      var r = f.armButton && f.armButton.dataset.tapGuard ? f.armButton.getBoundingClientRect() : null;
      if (r && e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom) return;
      disarm(f); held = null;
    });
  }, true);
  // Another phone's update redraws the page between the two taps: the control it replaced is
  // armed again in its new copy, for what is left of the 15 seconds.
  function rearm() {
    if (!held) return;
    var left = held.until - Date.now();
    if (left <= 0) { held = null; return; }
    document.querySelectorAll("form[data-two-step]").forEach(function (f) {
      if (f.dataset.armed) return;
      buttonsOf(f).forEach(function (b) {
        if (!f.dataset.armed && keyOf(f, b) === held.key) arm(f, b, left);
      });
    });
  }
  document.addEventListener("htmx:oobAfterSwap", function () { setTimeout(rearm, 0); });
  document.addEventListener("htmx:afterSettle", rearm);
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(rearm, 0); });
})();

// --- the screen stays on during a game -----------------------------------
// A table page in play (a page with a turn bar or the kit's live region past the lobby) holds a
// screen wake lock while visible; the browser drops it when the page is hidden, so it is taken
// again on return, and released when the player leaves the page.
(function () {
  if (!("wakeLock" in navigator)) return;
  var lock = null;
  function playing() {
    var live = document.getElementById("live");
    return !!live && live.dataset.status === "playing";
  }
  function take() {
    if (lock || document.visibilityState !== "visible" || !playing()) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l; document.body.dataset.wakeLock = "held";
      l.addEventListener("release", function () { lock = null; document.body.dataset.wakeLock = "released"; });
    }).catch(function () {});
  }
  function release() { if (lock) { lock.release().catch(function () {}); lock = null; } }
  document.addEventListener("visibilitychange", take);
  document.addEventListener("htmx:afterSettle", function () { if (playing()) take(); else release(); });
  document.addEventListener("htmx:oobBeforeSwap", function () { setTimeout(function () { if (playing()) take(); else release(); }, 0); });
  window.addEventListener("pagehide", release);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", take); else take();
})();

// --- the fixed bottom bar never covers the page's last control -------------------------------
// A table page's bottom bar (tabletop/table.html: a game's turn actions above the Undo/Redo/Log
// toolbar) is fixed; the page is padded by its real height, safe-area inset included, as
// --bottom-bar-h (app.css). Any other element a game marks data-height-var="--name" has its
// height kept in that property the same way (DemLoc's sticky turn bar: --dl-turn-h, so what the
// page brings into view lands below it; 0 once it is gone). Measured again whenever one changes
// size (a refusal line shown in it, a claim's answers, the phone turned) and after every swap of
// the live region, which replaces them.
// The page's padding (--bottom-pad-h) follows the bar, except that it shrinks only by as much
// as the page is scrolled above its end: on a phone at the end of the page, a bar made shorter
// by another phone's tap (a shorter "waiting for" line) would shorten the page under it and the
// browser would pull what is shown down by the difference (another player's action never
// moves my view). The rest goes at a later measure, once the phone is scrolled up.
(function () {
  var observed = {}, observer = null, pad = null;
  function padFor(h) {
    if (pad === null || h >= pad) return h;
    var root = document.documentElement;
    var room = root.scrollHeight - window.innerHeight - window.scrollY;  // scrolled above the end
    return Math.max(h, pad - Math.max(0, Math.floor(room)));
  }
  function targets() {
    var found = { "--bottom-bar-h": document.getElementById("bottom-bar") };
    document.querySelectorAll("[data-height-var]").forEach(function (el) {
      found[el.dataset.heightVar] = el;
    });
    Object.keys(observed).forEach(function (name) { if (!(name in found)) found[name] = null; });
    return found;
  }
  function measure() {
    var found = targets();
    Object.keys(found).forEach(function (name) {
      var el = found[name];
      var h = el ? Math.ceil(el.getBoundingClientRect().height) : 0;
      document.documentElement.style.setProperty(name, h + "px");
      if (name === "--bottom-bar-h") {
        pad = padFor(h);
        document.documentElement.style.setProperty("--bottom-pad-h", pad + "px");
      }
      if (el !== observed[name] && window.ResizeObserver) {
        observer = observer || new ResizeObserver(function () { measure(); });
        if (observed[name]) observer.unobserve(observed[name]);
        if (el) observer.observe(el);
      }
      observed[name] = el;
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", measure); else measure();
  window.addEventListener("resize", measure);
  document.addEventListener("htmx:afterSettle", measure);
  document.addEventListener("htmx:oobAfterSwap", function () { setTimeout(measure, 0); });
})();

// --- a toast covers no control ---------------------------------------------------------------
// A toast (the bar's alert below, DemLoc's "Your move" and "A shot waits for you",
// missions/table.js: class "toast") is shown for 4 seconds over the page. It goes where it
// covers no control and no bar: in the band between what is fixed at the top of the screen
// (the top bar while in view, DemLoc's sticky turn bar, the connection banner at the top) and
// what is fixed at its bottom (the bottom bar, the banner above it), at the first height from
// the top of that band where no control of the page (a button, a link, a field, a card's
// summary) is under it (found by a new user: at the top of a scrolled page it hid the turn
// bar's second row, "Your move" and the fate chip). It moves there again when the page scrolls
// or is redrawn while it shows; with no such height on the screen, at the top of the screen
// as before (over the turn bar, never over a control of the page).
(function () {
  // Where it can, it covers no heading either: the toast names what the heading heads (found
  // by a new user: "A shot on your character waits for you" lay over the calculation's "Shot:
  // proposed result"); with no such height, a height clear of the controls alone.
  var CONTROL = "button, a[href], summary, input:not([type=hidden]), select, textarea, label, [role=button]";
  var HEADING = "h1, h2, h3";
  var TOP = ".topbar, .dl-turn, #dl-float, #net", BOTTOM = "#bottom-bar, #net";
  function shown(el) {
    // (checkVisibility: not what a folded card or sheet holds, laid out but not drawn)
    if (!el || el.hidden || (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true }))) return false;
    var r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && r.bottom > 0 && r.top < window.innerHeight;
  }
  function quiet(t) { return /-quiet\b/.test(t.className); }
  function band() {
    var h = window.innerHeight, top = 0, bottom = h;
    document.querySelectorAll(TOP).forEach(function (el) {
      if (!shown(el)) return;
      var r = el.getBoundingClientRect();
      if (r.top < h / 2) top = Math.max(top, r.bottom);
    });
    document.querySelectorAll(BOTTOM).forEach(function (el) {
      if (!shown(el)) return;
      var r = el.getBoundingClientRect();
      if (r.top >= h / 2) bottom = Math.min(bottom, r.top);
    });
    return { top: top, bottom: bottom };
  }
  function place(t) {
    if (!t || t.hidden || quiet(t)) return;
    var b = band(), height = t.getBoundingClientRect().height, gap = 4;
    function under(selector) {
      var out = [];
      document.querySelectorAll(selector).forEach(function (c) {
        if (t.contains(c) || !shown(c)) return;
        var r = c.getBoundingClientRect();
        if (r.bottom > b.top && r.top < b.bottom) out.push([r.top, r.bottom]);
      });
      return out;
    }
    // A prompt about a step of the bottom bar (data-toast-at="bottom": DemLoc's thumb bar in
    // preparation and at the mission's end, a card game's bottom-bar step) is sought from the
    // bottom of the band up, next to the control it names: from the top it covered the step's
    // own first line, its heading and the words it repeats (found by a new user).
    var up = t.dataset.toastAt === "bottom";
    function seek(covered) {
      var first = up ? b.bottom - gap - height : b.top + gap, step = up ? -2 : 2;
      for (var y = first; y >= b.top + gap && y + height + gap <= b.bottom; y += step) {
        var free = covered.every(function (c) { return c[1] <= y - gap || c[0] >= y + height + gap; });
        if (free) { t.style.top = Math.round(y) + "px"; return true; }
      }
      return false;
    }
    var controls = under(CONTROL);
    if (seek(controls.concat(under(HEADING))) || seek(controls)) return;
    // No such height (a long alert on a page of controls): where it always was, at the top of
    // the screen (app.css), over the turn bar rather than over a control of the page, which
    // its link (the alert's "check it") would take taps from.
    t.style.top = "";
  }
  window.placeToast = place;
  // Whether the head of ``el`` (its first 40 px) is between the bars now: a toast that points
  // at it has nothing to show (missions/table.js).
  window.inToastBand = function (el) {
    var b = band(), r = el.getBoundingClientRect();
    return shown(el) && r.top >= b.top - 1 && r.top + 40 <= b.bottom;
  };
  var pending = false;
  function placeAll() {
    pending = false;
    document.querySelectorAll(".toast").forEach(place);
  }
  function soon() { if (!pending) { pending = true; requestAnimationFrame(placeAll); } }
  window.addEventListener("scroll", soon, { passive: true });
  window.addEventListener("resize", soon);
  document.addEventListener("htmx:afterSettle", soon);
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(soon, 0); });
})();

// --- a step of the bottom bar that becomes this phone's is announced ----------------------
// A game's bar part (Ruleset.bar_template: the Realm's End turn and Pass, Espionage's move)
// marks its one next step with data-bar-prompt="<text>" and data-bar-prompt-key="<key>" when
// it is this phone's; each new key is said once in an assertive alert outside the live region
// (a push that redraws the page does not repeat it), shown for 4 seconds just above the bottom
// bar (placeToast), then kept for screen readers only. DemLoc has its own (missions/table.js).
(function () {
  var region = null, storeKey = "bar-alert:" + location.pathname;
  function alertRegion() {
    if (region && document.body.contains(region)) return region;
    region = document.createElement("div");
    region.id = "bar-alert"; region.className = "bar-alert toast"; region.hidden = true;
    region.dataset.toastAt = "bottom";  // next to the bottom bar's step it names (placeToast)
    region.setAttribute("role", "alert"); region.setAttribute("aria-live", "assertive");
    document.body.appendChild(region);
    return region;
  }
  function announce() {
    var step = document.querySelector("#bottom-bar [data-bar-prompt-key]");
    if (!step && !region) return;
    var r = alertRegion(), last = null;
    try { last = sessionStorage.getItem(storeKey); } catch (e) { /* private mode */ }
    if (!step) { r.hidden = true; r.textContent = ""; return; }
    var key = step.dataset.barPromptKey;
    if (key === last) return;
    r.hidden = false;
    r.classList.remove("bar-alert-quiet");
    r.textContent = step.dataset.barPrompt || "";
    clearTimeout(r.quietTimer);
    r.quietTimer = setTimeout(function () { r.classList.add("bar-alert-quiet"); }, 4000);
    if (window.placeToast) window.placeToast(r);
    try { sessionStorage.setItem(storeKey, key); } catch (e) { /* ignore */ }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", announce); else announce();
  document.addEventListener("htmx:afterSettle", announce);
  document.addEventListener("htmx:oobAfterSwap", function () { setTimeout(announce, 0); });
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(announce, 0); });
})();

// --- a control that appears under the thumb ignores taps for a moment (ghost-tap guard) -------
// A double tap's second tap must not land on what the first tap's answer put in the same place
// (found by a new user: DemLoc's "Next turn" double-tapped also passed the next phase, its bar
// now holding "Next: pass" under the finger; the Realm's End turn "Tap again ... (no undo)" was
// confirmed by the same double tap). For GUARD ms after a tap, the control under that spot is
// watched (each frame, so that a swap, a landing scroll or a two-step's new label all count);
// one that is not the control tapped (another label, another form) is guarded from the moment it
// appears for GUARD ms: a dashed ring, and taps on it go nowhere (pointer-events: none, app.css
// [data-tap-guard]). The same control redrawn by an update (same label, same form) is not
// guarded: "+1 hit" tapped twice quickly counts twice. A deliberate tap after the guard works.
// A tap whose answer is slow (a weak network): the spot is watched until its answer is in and
// for GUARD ms after (at most WAIT_MAX ms), so what the answer brings under the finger is
// guarded too (found by a new user: "Heal" tapped again when nothing seemed to happen; the
// answer came, moved Dismiss under the finger, and the second tap armed it).
(function () {
  var GUARD = 500, WAIT_MAX = 15000;
  var inflight = 0, answered = 0;  // the watched tap's requests on their way; its answer's time
  var CONTROL = "button, a[href], summary, input:not([type=hidden]), select, label, [role=button]";
  function controlAt(x, y) {
    var el = document.elementFromPoint(x, y);
    return el && el.closest ? el.closest(CONTROL) : null;
  }
  function keyOf(c) {
    if (!c) return "";
    var f = c.form || c.closest("form"), parts = [c.tagName, c.textContent.replace(/\s+/g, " ").trim(), c.name || "", c.value || ""];
    if (f) {
      parts.push(f.getAttribute("hx-post") || f.getAttribute("action") || "");
      // Not the keys drawn afresh with each copy of a form (a command's idempotency key and
      // expected version, a Guild form's one-time key and CSRF token, which Django masks anew
      // in each render): the same control redrawn is the same. What tells two forms apart
      // stays (their address, the item they act on: "at", "card").
      f.querySelectorAll("input[type=hidden]").forEach(function (i) {
        if (["idempotency_key", "expected_version", "once", "csrfmiddlewaretoken"].indexOf(i.name) < 0) parts.push(i.name + "=" + i.value);
      });
    }
    return parts.join("|");
  }
  function guard(c) {
    c.dataset.tapGuard = "1";
    c.tapGuardAt = Date.now();
    clearTimeout(c.tapGuardTimer);
    c.tapGuardTimer = setTimeout(function () { delete c.dataset.tapGuard; }, GUARD);
  }
  var watch = null;
  function check() {
    if (!watch) return false;
    var t = Date.now();
    var open = t <= watch.until || (t - watch.at < WAIT_MAX && (inflight > 0 || t <= answered + GUARD));
    if (!open) { watch = null; return false; }
    var c = controlAt(watch.x, watch.y);
    // guarded once from its appearance: not again when its guard ends while the watch goes on
    if (c && !c.dataset.tapGuard && c.tapGuardWatch !== watch && keyOf(c) !== watch.key) {
      c.tapGuardWatch = watch;
      guard(c);
    }
    return true;
  }
  function look() { if (check()) requestAnimationFrame(look); }
  document.addEventListener("pointerdown", function (e) {
    if (e.isPrimary === false) return;
    var c = e.target && e.target.closest ? e.target.closest(CONTROL) : null;
    // A tap on a guarded control (it goes through): that control is the one tapped, so that it
    // is not guarded again once its guard ends.
    // A tap elsewhere is no double tap: the guards end.
    document.querySelectorAll("[data-tap-guard]").forEach(function (g) {
      var r = g.getBoundingClientRect();
      if (e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom) c = g;
      else { clearTimeout(g.tapGuardTimer); delete g.dataset.tapGuard; }
    });
    var first = !watch;
    watch = { x: e.clientX, y: e.clientY, key: keyOf(c), until: Date.now() + GUARD, at: Date.now(), control: c };
    if (first) requestAnimationFrame(look);
  }, true);
  // The request the watched tap sends (its form's, or the control's own), once it is sent:
  // watched until it ends (answered, failed or aborted: the request's own loadend).
  document.addEventListener("htmx:beforeSend", function (e) {
    var elt = e.detail && e.detail.elt, c = watch && watch.control, xhr = e.detail && e.detail.xhr;
    if (!c || !elt || !xhr || xhr.tapWatched || Date.now() > watch.until) return;
    if (elt !== c && !elt.contains(c) && (c.form || c.closest("form")) !== elt) return;
    xhr.tapWatched = true;
    inflight += 1;
    xhr.addEventListener("loadend", function () {
      inflight = Math.max(0, inflight - 1);
      answered = Date.now(); settled = false;
    });
  });
  var settled = true;  // the answer's own settle counted (once: later swaps are others')
  document.addEventListener("htmx:afterSettle", function () {
    if (!settled && Date.now() - answered < 1000) answered = Date.now();
    settled = true;
  });
  // A touch that scrolls the page (the browser cancels its pointer) is no tap: what scrolls
  // under the place where it began is not guarded.
  document.addEventListener("pointercancel", function () { watch = null; }, true);
  // What the tap itself changed in this task (a two-step's label) is looked at before the next
  // frame too: a second tap can come before it.
  document.addEventListener("click", function () { setTimeout(check, 0); });
  ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.addEventListener(name, function () { setTimeout(check, 0); });
  });

  // A tap aimed at what another phone's action has just taken away. Found by a new user: two
  // phones tapped Next turn at once; the push of the first came before the second phone's tap,
  // its button was redrawn under the finger and the tap went nowhere, silently (or, had the bar
  // then held Next: pass, it would have passed). For AIM ms after another phone's action
  // changed the page, a tap in the bottom bar (where the thumb waits) on a spot where a control
  // was before the push that the page no longer offers anywhere (the table moved on) is not
  // sent, whatever is there now, and the spot says what the race refusal says. A control
  // still offered (Agree to stop 0/2 now 1/2, moved aside by a new Next: pass) is no race.
  // AIM: quicker than a person sees a new button and moves to it (about a quarter of a
  // second): a tap that soon was aimed at what was there before. A touch only (a thumb resting
  // over the bar); a mouse's pointer is moved to what it clicks.
  var AIM = 300, pushed = null, swallow = null;
  // the race refusal's words (the section above: MOVED_ON)
  var MOVED_ON = "Someone acted just before you: the table already moved on.";
  function commandOf(c) {
    var f = c && (c.form || c.closest("form"));
    if (!f) return c ? keyOf(c) : "";
    var parts = [f.getAttribute("hx-post") || f.getAttribute("action") || "", c.name || "", c.value || ""];
    f.querySelectorAll("input[type=hidden]").forEach(function (i) {
      if (["idempotency_key", "expected_version", "once"].indexOf(i.name) < 0) parts.push(i.name + "=" + i.value);
    });
    return parts.join("|");
  }
  // the bottom bar's controls (what the page shows under the bar cannot be tapped)
  function onScreen() {
    var out = [], bar = document.getElementById("bottom-bar");
    if (!bar) return out;
    bar.querySelectorAll(CONTROL).forEach(function (c) {
      if (!c.getClientRects().length) return;
      var r = c.getBoundingClientRect();
      if (r.bottom > 0 && r.top < window.innerHeight) out.push({ r: r, key: commandOf(c), area: r.width * r.height });
    });
    return out;
  }
  // Only a push that moved the table on past what this phone's own last tap made it (another
  // phone's action, not the echo of this phone's own).
  function version() {
    var live = document.getElementById("live");
    return live ? parseInt(live.dataset.version, 10) || 0 : 0;
  }
  // what was on the screen before the swap now coming; the version last seen settled; this
  // phone's own commands on their way (their answer is no other phone's action)
  var shown = null, settled = version(), mineAt = 0, inFlight = 0;
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt, xhr = e.detail && e.detail.xhr;
    if (!xhr || !elt || !elt.closest || !elt.closest("[data-command]")) return;
    inFlight++;
    // (on the request itself: the tapped form may have left the page, and its events with it)
    xhr.addEventListener("loadend", function () {
      setTimeout(function () { inFlight = Math.max(0, inFlight - 1); mineAt = Math.max(mineAt, version()); }, 0);
    });
  });
  ["htmx:wsBeforeMessage", "htmx:beforeSwap", "htmx:oobBeforeSwap"].forEach(function (name) {
    document.addEventListener(name, function () { if (!shown) shown = onScreen(); }, true);
  });
  function settle() {
    var v = version();
    if (shown && v > settled && v > mineAt && !inFlight) pushed = { at: Date.now(), controls: shown };
    if (v > settled) settled = v;
    shown = null;
  }
  ["htmx:wsAfterMessage", "htmx:afterSettle", "htmx:oobAfterSwap"].forEach(function (name) {
    document.addEventListener(name, function () { setTimeout(settle, 0); });
  });
  function say(x, y, now) {
    document.querySelectorAll(".alert.at-control.moved-on").forEach(function (n) { n.remove(); });
    var note = document.createElement("p");
    note.className = "alert at-control moved-on";
    note.setAttribute("role", "alert");
    note.dataset.code = "stale_version";
    note.dataset.version = String(version());
    note.textContent = MOVED_ON;
    note.title = MOVED_ON;
    var at = now || document.elementFromPoint(x, y), bar = document.getElementById("bottom-bar");
    var thumb = document.getElementById("dl-thumb");
    if (bar && at && bar.contains(at)) {
      // in the bar, above its buttons (the bar grows upwards, the buttons stay under the thumb)
      var home = thumb && thumb.getClientRects().length ? thumb : bar;
      if (getComputedStyle(home).flexDirection === "column-reverse") home.appendChild(note);
      else home.prepend(note);
    } else if (at && at !== document.body && at !== document.documentElement) {
      // in the page, right after what is now at the spot (what is under the finger stays)
      (at.closest("form, p, li, section, .card") || at).insertAdjacentElement("afterend", note);
    } else return;
    var r = note.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) note.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("pointerdown", function (e) {
    if (e.isPrimary === false || e.pointerType !== "touch") return;
    var x = e.clientX, y = e.clientY, now = controlAt(x, y);
    var g = now && now.dataset.tapGuard ? now : null;
    document.querySelectorAll("[data-tap-guard]").forEach(function (n) {
      var r = n.getBoundingClientRect();
      if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) g = n;
    });
    if (!pushed || Date.now() - pushed.at > AIM) {
      // absorbed by the guard while the table moved on (a push since the guard began)
      if (g && pushed && pushed.at >= (g.tapGuardAt || 0)) say(x, y, g);
      return;
    }
    var bar = document.getElementById("bottom-bar"), el = document.elementFromPoint(x, y);
    if (!bar || !el || !bar.contains(el)) return;
    var was = pushed.controls.filter(function (c) {
      return x >= c.r.left && x <= c.r.right && y >= c.r.top && y <= c.r.bottom;
    }).sort(function (a, b) { return a.area - b.area; })[0];
    if (!was || (now && commandOf(now) === was.key)) return;
    var offered = Array.prototype.some.call(document.querySelectorAll(CONTROL), function (c) {
      return c.getClientRects().length && commandOf(c) === was.key;
    });
    if (offered) return;
    pushed = null;
    if (now) {
      swallow = { el: now, until: Date.now() + 1500 };
      guard(now);
    }
    say(x, y, now);
  }, true);
  document.addEventListener("click", function (e) {
    if (!swallow || Date.now() > swallow.until) { swallow = null; return; }
    if (!swallow.el.contains(e.target) && !e.target.contains(swallow.el)) return;
    swallow = null;
    e.preventDefault();
    e.stopImmediatePropagation();
  }, true);
})();

// A name field's limit said at the field when it is reached (found by a new user: a 75-letter
// seat name was cut to 60 by the field's maxlength without a word): its hint line
// (aria-describedby, "At most 60 characters.") says the field is full and that more is not
// taken, until the name is shorter again.
(function () {
  document.addEventListener("input", function (e) {
    var f = e.target;
    if (!f.matches || !f.matches("input[maxlength][aria-describedby]") || f.maxLength <= 0) return;
    var hint = document.getElementById(f.getAttribute("aria-describedby"));
    if (!hint) return;
    if (hint.dataset.base === undefined) hint.dataset.base = hint.textContent;
    var full = f.value.length >= f.maxLength;
    hint.classList.toggle("at-max", full);
    hint.textContent = full ? "Full: " + f.maxLength + " of " + f.maxLength +
      " characters; what is typed past them is not kept." : hint.dataset.base;
  });
})();
