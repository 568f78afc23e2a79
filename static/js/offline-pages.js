// The referee's pages offline, besides the party screen's queue (desk-offline.js).
// 1. A page the service worker served from the device's copy (html[data-from-cache]) says so,
//    with the server's time of the state it shows (its data-server-at), until newer server
//    state arrives (a refresh, the queue's answer).
// 2. My tables (#tables-offline) registers the service worker and asks it to keep the page and
//    the party screens it lists (the referee's live round), again after each refresh of the list,
//    so that each opens offline with its last known state; it measures the server-clock offset
//    the clocks run on (as the party screen does), and does not poll while the device is offline.
(function () {
  "use strict";
  const OFFSET_KEY = "desk.clockOffset";
  const fromCache = document.documentElement.hasAttribute("data-from-cache");

  function serverAt() {
    const el = document.querySelector("[data-server-at]");
    return el ? Number(el.dataset.serverAt) : NaN;
  }

  // -- 1. the device's copy says so ---------------------------------------------------------------
  const note = document.getElementById("from-cache");
  const shownAt = serverAt();
  if (note && fromCache) {
    if (shownAt) {
      const time = new Date(shownAt).toLocaleTimeString(document.documentElement.lang || undefined,
        { hour: "2-digit", minute: "2-digit" });
      note.textContent = note.dataset.tAsOf.split("{time}").join(time);
    }
    note.hidden = false;
    document.addEventListener("htmx:afterSwap", () => {
      const now = serverAt();
      if (now && (!shownAt || now > shownAt)) { note.hidden = true; }  // the server's newer state
    });
  }

  // -- 2. My tables ---------------------------------------------------------------------------------
  const config = document.getElementById("tables-offline");
  if (!config) { return; }
  const PAGE = config.dataset.page;

  function measure(at) {  // the server's time minus the device's, when the answer arrived
    const server = serverAt();
    if (!server || fromCache) { return; }
    try { localStorage.setItem(OFFSET_KEY, String(server - at)); } catch (e) { /* private mode */ }
  }
  const nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
  measure(nav && nav.responseStart ? Date.now() - (performance.now() - nav.responseStart) : Date.now());

  // No request while the device knows it is offline: the list stays as kept.
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (navigator.onLine === false && event.target && event.target.id === "my-tables") { event.preventDefault(); }
  });

  if (!("serviceWorker" in navigator) || !window.isSecureContext || !config.dataset.sw) { return; }

  function parties() {
    return Array.from(document.querySelectorAll("#my-tables a.mt-link"), (link) => link.getAttribute("href"));
  }

  function keep(message) {
    navigator.serviceWorker.ready.then((registration) => {
      if (registration.active) { registration.active.postMessage(Object.assign({ type: "keep-tables", url: PAGE, parties: parties() }, message)); }
    });
  }

  navigator.serviceWorker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type === "tables-kept" && data.url === PAGE && data.kept) {
      document.documentElement.setAttribute("data-offline-ready", "1");
      document.documentElement.setAttribute("data-parties-kept", String(data.parties));
    }
  });

  document.addEventListener("htmx:afterSwap", (event) => {
    const detail = event.detail || {};
    if (!detail.xhr || !detail.target || detail.target.id !== "my-tables") { return; }
    measure(Date.now());
    keep({ html: detail.xhr.responseText });
  });

  const scope = config.dataset.sw.replace(/[^/]*$/, "");
  navigator.serviceWorker.register(config.dataset.sw, { scope: scope }).then(() => {
    if (fromCache) { return; }
    // Not yet through the worker (the first visit): it fetches the page to keep it.
    const nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    const through = Boolean(navigator.serviceWorker.controller) && Boolean(nav && nav.workerStart > 0);
    keep({ fetch: !through, all: true });
  }).catch(() => null);
})();
