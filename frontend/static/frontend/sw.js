// Service worker: static files stay available when the table's network is flaky (cache
// first). Pages are never stored: every page and API answer is Cache-Control: no-store (a
// hand, a seat's secret or a Guild may be on it), so a page only comes from the network, and
// offline the phone shows a short notice instead. Commands (POST) and websockets are never
// touched. A new CACHE name drops whatever an older version kept (it kept pages). At logout
// the server answers Clear-Site-Data and the page also asks this worker to empty its cache.
const CACHE = "demloc-static-v3";
self.addEventListener("install", (e) => { self.skipWaiting(); });
self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((k) => k !== CACHE).map((k) => caches.delete(k)))).then(() => self.clients.claim()));
});
self.addEventListener("message", (e) => {
  if (e.data === "logout") {
    e.waitUntil(caches.keys().then((keys) => Promise.all(keys.map((k) => caches.delete(k)))));
  }
});
function storable(res) {
  const cc = (res.headers.get("Cache-Control") || "").toLowerCase();
  return res.ok && cc.indexOf("no-store") < 0 && cc.indexOf("private") < 0;
}
self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    e.respondWith(caches.open(CACHE).then((c) => c.match(req).then((hit) => hit || fetch(req).then((res) => {
      if (storable(res)) c.put(req, res.clone());
      return res;
    }))));
    return;
  }
  if (req.mode === "navigate") {
    e.respondWith(fetch(req).catch(() => new Response(
      // Tried again every 2 s (no script: the pages' CSP): a page opened or reloaded while the
      // server or the network was down becomes the table again by itself once it is back.
      "<!doctype html><meta name=viewport content='width=device-width'><meta http-equiv=refresh content=2><title>Offline</title>" +
      "<body style='background:#14161b;color:#eee;font:16px system-ui;padding:16px'>" +
      "<h1>Offline</h1><p>No connection to the table: this page tries again every 2 seconds and shows the table as soon as it answers.</p>",
      { status: 503, headers: { "Content-Type": "text/html", "Cache-Control": "no-store" } })));
  }
});
