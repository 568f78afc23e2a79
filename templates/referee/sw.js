{% autoescape off %}// The referee desk's service worker (rendered by referee.offline.service_worker, scope /referee/).
// It keeps the shell (CSS, JS), "My tables" and each party screen's last state, so that they
// open without a network: a party screen once visited, and every party screen of the referee's
// live round once "My tables" was open (static/js/offline-pages.js names them). Actions are not
// its business: the page queues them in IndexedDB (static/js/desk-offline.js) and sends them.
"use strict";

const SHELL_CACHE = "desk-shell-{{ version|escapejs }}";
const PAGE_CACHE = "desk-pages";
const SHELL = {{ shell }};
const STATIC_PREFIX = {{ static_prefix }};
const SCOPE = new URL(self.registration.scope).pathname;
const PARTY_PAGE = new RegExp("^" + SCOPE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "party/\\d+/$");
const TABLES_PAGE = SCOPE + "tables/";
const NETWORK_WAIT_MS = 4000;
// A party screen of My tables is fetched again when its copy is older than this (its own visits
// and every panel the server sends it keep it current in between).
const PARTY_REFRESH_MS = 120000;

function isParty(url) { return PARTY_PAGE.test(new URL(url, self.location.origin).pathname); }
function isTables(url) { return new URL(url, self.location.origin).pathname === TABLES_PAGE; }

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
const TABLES_START = "<!--my-tables-->";
const TABLES_END = "<!--/my-tables-->";

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

// When each page was last kept (this worker's life; a new worker fetches My tables' screens anew).
const keptAt = new Map();

// Newer HTML from the server goes into the kept page, between the page's markers: a party
// screen's panel, or My tables' list.
let keeping = Promise.resolve();
function keepPart(url, html, startMark, endMark) {
  keeping = keeping.then(async () => {
    const cache = await caches.open(PAGE_CACHE);
    const key = pageKey(url);
    const found = await cache.match(key, { ignoreVary: true, ignoreSearch: true });
    if (!found) { return; }
    const page = await found.text();
    const start = page.indexOf(startMark);
    const end = page.indexOf(endMark);
    if (start < 0 || end < start) { return; }
    const text = page.slice(0, start + startMark.length) + html + page.slice(end);
    await cache.put(key, new Response(text, { status: 200, headers: pageHeaders(found) }));
    keptAt.set(key, Date.now());
  }).catch(() => null);
  return keeping;
}

function keepPanel(url, panel) { return keepPart(url, panel, PANEL_START, PANEL_END); }

// A page fetched here and kept; true when it was.
function fetchAndKeep(url) {
  return fetch(url, { credentials: "same-origin" })
    .then((response) => {
      if (!keepable(response)) { return false; }
      return caches.open(PAGE_CACHE).then((cache) => cache.put(pageKey(url), response))
        .then(() => { keptAt.set(pageKey(url), Date.now()); return true; });
    })
    .catch(() => false);
}

// The party screens My tables names, one at a time (a hall's server is small): those never
// kept and those kept longer ago than PARTY_REFRESH_MS, or all of them when ``all``.
let precaching = Promise.resolve(0);
function keepParties(urls, all) {
  precaching = precaching.then(async () => {
    let kept = 0;
    const cache = await caches.open(PAGE_CACHE);
    for (const url of urls) {
      const key = pageKey(url);
      const when = keptAt.get(key);
      const fresh = when !== undefined && Date.now() - when < PARTY_REFRESH_MS;
      if (!all && fresh && await cache.match(key, { ignoreVary: true, ignoreSearch: true })) {
        kept += 1;
        continue;
      }
      if (await fetchAndKeep(url)) { kept += 1; }
    }
    return kept;
  }).catch(() => 0);
  return precaching;
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

// A party screen or My tables: the network first (kept for later), the kept page when there is none.
async function keptNavigation(request) {
  try {
    const response = await fetchWithin(request, NETWORK_WAIT_MS);
    if (keepable(response)) {
      // Stored before the page is answered: a page shown through the worker is a kept page
      // (the desk says "ready offline" when it is controlled), however busy the device is.
      const key = pageKey(request.url);
      await caches.open(PAGE_CACHE).then((cache) => cache.put(key, response.clone()))
        .then(() => keptAt.set(key, Date.now()), () => null);
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
  if (request.mode === "navigate" && (PARTY_PAGE.test(url.pathname) || url.pathname === TABLES_PAGE)) {
    event.respondWith(keptNavigation(request));
  } else if (url.pathname.startsWith(STATIC_PREFIX) && !request.headers.get("HX-Request")) {
    event.respondWith(staticFile(request, event));
  }
});

// The page asks to keep itself after its first visit ({type: "keep-page", url}: fetched here)
// and hands over each newer panel the server sends it ({type: "keep-panel", url, html}).
// My tables asks ({type: "keep-tables", url, parties, fetch, html}) to keep itself (fetched here
// on its first visit, else its newer list spliced in) and its party screens; it hears back how
// many of them are kept ({type: "tables-kept", url, kept, parties}).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (!data.url) { return; }
  const reply = (message) => { if (event.source) { event.source.postMessage(message); } };
  if (data.type === "keep-tables" && isTables(data.url)) {
    const parties = (Array.isArray(data.parties) ? data.parties : []).filter(isParty);
    let page;
    if (data.fetch) {
      page = fetchAndKeep(data.url);
    } else if (typeof data.html === "string") {
      page = keepPart(data.url, data.html, TABLES_START, TABLES_END).then(() => true);
    } else {
      page = Promise.resolve(true);
    }
    event.waitUntil(page.then((kept) => keepParties(parties, Boolean(data.fetch || data.all)).then((count) => {
      reply({ type: "tables-kept", url: data.url, kept: kept, parties: count });
    })));
    return;
  }
  if (!isParty(data.url)) { return; }
  if (data.type === "keep-panel" && typeof data.html === "string") {
    event.waitUntil(keepPanel(data.url, data.html));
    return;
  }
  if (data.type !== "keep-page") { return; }
  event.waitUntil(fetchAndKeep(data.url).then((kept) => reply({ type: "page-kept", url: data.url, kept: kept })));
});
{% endautoescape %}
