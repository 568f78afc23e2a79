{% autoescape off %}// The referee desk's service worker (rendered by referee.offline.service_worker, scope /referee/).
// It keeps the shell (CSS, JS) and each party screen's last state, so that a party screen
// visited once opens without a network. Actions are not its business: the page queues them in
// IndexedDB (static/js/desk-offline.js) and sends them itself.
"use strict";

const SHELL_CACHE = "desk-shell-{{ version|escapejs }}";
const PAGE_CACHE = "desk-pages";
const SHELL = {{ shell }};
const STATIC_PREFIX = {{ static_prefix }};
const SCOPE = new URL(self.registration.scope).pathname;
const PARTY_PAGE = new RegExp("^" + SCOPE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "party/\\d+/$");
const NETWORK_WAIT_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys
        .filter((key) => key.startsWith("desk-shell-") && key !== SHELL_CACHE)
        .map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

function pageKey(url) {
  const parsed = new URL(url, self.location.origin);
  return parsed.origin + parsed.pathname;
}

function keepable(response) {
  return response && response.ok && !response.redirected && response.type === "basic";
}

const PANEL_START = "<!--desk-panel-->";
const PANEL_END = "<!--/desk-panel-->";

// Headers of a kept page for a body made here (its length and encoding are no longer true).
function pageHeaders(response) {
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  return headers;
}

// The page as kept, marked so that the page (and the tests) know it came from the device.
async function keptPage(url) {
  const cache = await caches.open(PAGE_CACHE);
  const found = await cache.match(pageKey(url), { ignoreVary: true, ignoreSearch: true });
  if (!found) { return null; }
  const html = (await found.text()).replace("<html", '<html data-from-cache="1"');
  return new Response(html, { status: 200, headers: pageHeaders(found) });
}

// A newer panel from the server goes into the kept page, between the page's markers.
let keeping = Promise.resolve();
function keepPanel(url, panel) {
  keeping = keeping.then(async () => {
    const cache = await caches.open(PAGE_CACHE);
    const key = pageKey(url);
    const found = await cache.match(key, { ignoreVary: true, ignoreSearch: true });
    if (!found) { return; }
    const page = await found.text();
    const start = page.indexOf(PANEL_START);
    const end = page.indexOf(PANEL_END);
    if (start < 0 || end < start) { return; }
    const html = page.slice(0, start + PANEL_START.length) + panel + page.slice(end);
    await cache.put(key, new Response(html, { status: 200, headers: pageHeaders(found) }));
  }).catch(() => null);
  return keeping;
}

async function fetchWithin(request, ms) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await fetch(request, { signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

// A party screen: the network first (kept for later), the kept page when there is none.
async function partyPage(request) {
  try {
    const response = await fetchWithin(request, NETWORK_WAIT_MS);
    if (keepable(response)) {
      const copy = response.clone();
      caches.open(PAGE_CACHE).then((cache) => cache.put(pageKey(request.url), copy));
    }
    return response;
  } catch (error) {
    const kept = await keptPage(request.url);
    if (kept) { return kept; }
    throw error;
  }
}

// Static files: the kept copy at once, refreshed in the background.
async function staticFile(request, event) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(request);
  const fresh = fetch(request).then((response) => {
    if (keepable(response)) { cache.put(request, response.clone()); }
    return response;
  });
  if (kept) {
    event.waitUntil(fresh.catch(() => null));
    return kept;
  }
  return fresh;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") { return; }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate" && PARTY_PAGE.test(url.pathname)) {
    event.respondWith(partyPage(request));
  } else if (url.pathname.startsWith(STATIC_PREFIX) && !request.headers.get("HX-Request")) {
    event.respondWith(staticFile(request, event));
  }
});

// The page asks to keep itself after its first visit ({type: "keep-page", url}: fetched here)
// and hands over each newer panel the server sends it ({type: "keep-panel", url, html}).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (!data.url || !PARTY_PAGE.test(new URL(data.url, self.location.origin).pathname)) { return; }
  if (data.type === "keep-panel" && typeof data.html === "string") {
    event.waitUntil(keepPanel(data.url, data.html));
    return;
  }
  if (data.type !== "keep-page") { return; }
  event.waitUntil(
    fetch(data.url, { credentials: "same-origin" })
      .then((response) => {
        if (!keepable(response)) { return false; }
        return caches.open(PAGE_CACHE).then((cache) => cache.put(pageKey(data.url), response)).then(() => true);
      })
      .catch(() => false)
      .then((kept) => { if (event.source) { event.source.postMessage({ type: "page-kept", url: data.url, kept: kept }); } })
  );
});
{% endautoescape %}
