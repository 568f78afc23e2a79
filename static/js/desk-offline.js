// Referee desk, offline first. Every action of the party screen's panel (any htmx form of
// #panel that posts and swaps the panel) goes into a queue kept on the device (IndexedDB), is
// shown at once in the sync bar by the scoreboard, and is sent in order, one at a time, with its
// own Idempotency-Key, as soon as the network allows. The server answers JSON
// (referee.offline.answer): saved or not, and the party's version and deal in play after the
// action ("rebase"). The queue remembers which version each of its own saved actions led to
// (a chain) and sends later actions with the version their predecessor produced, so a queue
// made offline never conflicts with itself; a change made meanwhile by another device does:
// the queue stops and shows, side by side, the server's changes since the device last synced
// and its own held entries, each to apply on the server's state or drop (static/js/desk-decide.js).
// A refused entry (nothing done: the entry is wrong) does not stop the queue: it goes back into
// its form with the messages by the fields, or waits in the bar to be put back or dropped.
// Nothing is dropped without the referee's tap. The service worker (/referee/sw.js) opens the screen
// offline. A confirmation (htmx:confirm, hx-confirm, a dialog) comes before htmx:beforeRequest,
// where the queue takes the request: a confirmed action is queued, a cancelled one is not.
(function () {
  "use strict";
  const config = document.getElementById("desk-offline");
  if (!config || !window.indexedDB || !window.fetch || !window.Promise) { return; }
  const PARTY = config.dataset.party;
  const PAGE = config.dataset.page;
  const OFFSET_KEY = "desk.clockOffset";
  const LIST_KEY = "desk.listOpen";
  const DOUBLE_TAP_MS = 1500;
  const RETRY_MS = 5000;
  const LOCK_RETRY_MS = 1000;
  const THROTTLED_MAX_MS = 300000;
  // An action in one of these states waits for the referee: the queue of its party stops there.
  const STOPPED = ["failed", "conflict", "confirm"];
  const D = window.DeskDecide;

  function t(name, values) {
    let text = config.getAttribute("data-t-" + name) || name;
    Object.keys(values || {}).forEach((key) => { text = text.split("{" + key + "}").join(String(values[key])); });
    return text;
  }

  function newId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // -- the store: "queue" (the actions, in order) and "meta" (per party: the version chain) ------
  let dbPromise = null;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise((resolve, reject) => {
        const open = indexedDB.open("desk-offline", 1);
        open.onupgradeneeded = () => {
          const store = open.result.createObjectStore("queue", { keyPath: "id", autoIncrement: true });
          store.createIndex("party", "party");
          open.result.createObjectStore("meta", { keyPath: "party" });
        };
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
        open.onblocked = () => reject(new Error("blocked"));
      });
    }
    return dbPromise;
  }

  function run(stores, mode, work) {
    return db().then((database) => new Promise((resolve, reject) => {
      const tx = database.transaction(stores, mode);
      const out = {};
      const named = {};
      stores.forEach((name) => { named[name] = tx.objectStore(name); });
      work(named, out);
      tx.oncomplete = () => resolve(out.value);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    }));
  }

  function readAll() {
    return run(["queue", "meta"], "readonly", (s, out) => {
      out.value = { items: [], metas: {} };
      s.queue.getAll().onsuccess = (e) => { out.value.items = e.target.result.sort((a, b) => a.id - b.id); };
      s.meta.getAll().onsuccess = (e) => { e.target.result.forEach((m) => { out.value.metas[m.party] = m; }); };
    });
  }

  function emptyMeta(party) { return { party: party, chain: {}, numbers: {} }; }

  function prune(meta) {  // keep the chain short: the newest 200 links
    const keys = Object.keys(meta.chain).map(Number).sort((a, b) => a - b);
    keys.slice(0, Math.max(0, keys.length - 200)).forEach((k) => { delete meta.chain[k]; });
    const numbers = Object.keys(meta.numbers).map(Number).sort((a, b) => a - b);
    numbers.slice(0, Math.max(0, numbers.length - 200)).forEach((k) => { delete meta.numbers[k]; });
    return meta;
  }

  function putItem(item) { return run(["queue"], "readwrite", (s) => { s.queue.put(item); }).then(changed); }
  function addItem(item) {
    return run(["queue"], "readwrite", (s, out) => { s.queue.add(item).onsuccess = (e) => { out.value = e.target.result; }; }).then(changed);
  }
  function deleteItem(id) { return run(["queue"], "readwrite", (s) => { s.queue.delete(id); }).then(changed); }
  function saveMetaAndItem(meta, item, remove) {
    return run(["queue", "meta"], "readwrite", (s) => {
      s.meta.put(prune(meta));
      if (remove) { s.queue.delete(item.id); } else { s.queue.put(item); }
    }).then(changed);
  }

  // Other tabs of this device hear of every change and redraw.
  const channel = window.BroadcastChannel ? new BroadcastChannel("desk-offline") : null;
  function changed(value) { if (channel) { channel.postMessage("changed"); } return value; }
  if (channel) { channel.onmessage = () => { refresh().then(render); }; }

  // -- fields ----------------------------------------------------------------------------------
  function field(fields, name) {
    const found = fields.find((pair) => pair[0] === name);
    return found ? found[1] : null;
  }
  function withField(fields, name, value) {
    return fields.map((pair) => (pair[0] === name ? [name, String(value)] : pair));
  }
  function plusField(fields, name, value) {
    return fields.filter((pair) => pair[0] !== name).concat([[name, String(value)]]);
  }

  // The version (and deal number) to send: along the chain of the queue's own saved actions.
  function rebase(fields, meta) {
    const captured = field(fields, "version");
    if (captured === null || captured === "") { return fields.slice(); }
    let version = parseInt(captured, 10);
    for (let hops = 0; meta.chain[version] !== undefined && hops < 1000; hops += 1) { version = meta.chain[version]; }
    let out = withField(fields, "version", version);
    if (version !== parseInt(captured, 10) && meta.numbers[version] !== undefined) {
      out = withField(out, "number", meta.numbers[version]);
    }
    const token = document.querySelector("#panel input[name=csrfmiddlewaretoken]");
    return token ? withField(out, "csrfmiddlewaretoken", token.value) : out;
  }

  // -- what the referee sees: a label and a summary of the form, taken when it is queued --------
  function text(el) { return el ? el.textContent.replace(/\s+/g, " ").trim() : ""; }

  function labelOf(input) {
    const label = input.closest("label");
    if (label && D && label.querySelector(".ref-who")) { return D.labelText(label); }
    if (label && input.type === "radio") { return text(label); }
    if (label) {
      const own = Array.from(label.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join(" ");
      if (own.trim()) { return own.replace(/\s+/g, " ").trim(); }
    }
    return input.getAttribute("aria-label") || input.getAttribute("placeholder") || input.name;
  }

  function rowLabel(form) {
    const panel = document.getElementById("panel");
    for (let el = form; el && el !== panel; el = el.parentElement) {
      let prev = el.previousElementSibling;
      while (prev && prev.tagName === "FORM") { prev = prev.previousElementSibling; }
      if (prev && /^(SPAN|STRONG|B)$/.test(prev.tagName)) { return text(prev); }
      if (el.parentElement && el.parentElement.matches("section, details")) { break; }
    }
    return "";
  }

  function describe(form, submitter) {
    const box = form.closest("details, section");
    const heading = box ? text(box.querySelector("h2, summary")) : "";
    const button = submitter || form.querySelector("button[type=submit], button:not([type])");
    const what = button ? (button.getAttribute("aria-label") || text(button)) + (button.title ? " (" + button.title + ")" : "") : "";
    const parts = [];
    const tiles = {};  // ticked tiles by their picker's legend (a hand, a player's tiles left)
    Array.from(form.elements).forEach((el) => {
      if (!el.name || el.disabled || el.type === "hidden" || el.type === "submit" || el.type === "button") { return; }
      if (el.type === "radio") {
        if (el.checked) { parts.push(labelOf(el) || el.value); }
      } else if (el.type === "checkbox") {
        if (!el.checked || !el.closest(".ref-tiles")) { return; }
        const group = el.closest("fieldset");
        const legend = (group && text(group.querySelector("legend"))) || el.name;
        (tiles[legend] = tiles[legend] || []).push(el.value);
      } else if (el.tagName === "SELECT") {
        if (el.value) { parts.push(labelOf(el) + ": " + text(el.options[el.selectedIndex])); }
      } else if (el.value) {
        parts.push(labelOf(el) + ": " + el.value);
      }
    });
    Object.keys(tiles).forEach((legend) => { parts.push(legend + ": " + tiles[legend].join(" ")); });
    const row = rowLabel(form);
    return {
      label: [heading, row, what].filter((part, i, all) => part && all.indexOf(part) === i).join(" · "),
      summary: parts.join(" · "),
    };
  }

  // -- the queue in memory (a mirror of the store) ----------------------------------------------
  let ready = false;
  let items = [];
  let metas = {};
  let online = navigator.onLine !== false;
  let sending = null;
  let dirty = false;
  let lastTap = { form: "", at: 0, sent: "" };

  function refresh() {
    return readAll().then((all) => {
      // An action the store refused stays shown until dropped; one being stored as the queue
      // was read (taken a moment ago) stays in the queue: it is not "all saved" yet.
      const unstored = items.filter((item) => item.id === undefined && !all.items.some((one) => one.key === item.key));
      items = all.items.concat(unstored);
      metas = all.metas;
    });
  }

  function metaOf(party) { return metas[party] || emptyMeta(party); }

  // -- taking the request: every POST of the panel that swaps the panel --------------------------
  document.addEventListener("htmx:beforeRequest", (event) => {
    const detail = event.detail || {};
    const cfg = detail.requestConfig || {};
    const panel = document.getElementById("panel");
    if (String(cfg.verb || "").toLowerCase() === "get") {
      if (!online && detail.elt && detail.elt.id === "scoreboard") { event.preventDefault(); }  // no polling offline
      return;
    }
    if (event.defaultPrevented) { return; }  // held by another handler (a confirmation): not yet
    if (!ready || !panel || detail.target !== panel || !panel.contains(detail.elt)) { return; }
    event.preventDefault();
    capture(detail.elt, cfg);
  });

  function capture(form, cfg) {
    const fields = [];
    const data = cfg.formData instanceof FormData ? cfg.formData : new FormData(form);
    data.forEach((value, name) => { if (typeof value === "string") { fields.push([name, value]); } });
    // A double (or triple) tap sends the form again, as it was or as its reset or the server's
    // fresh copy left it: taken once. The form is known by what it does (DeskDecide.identity),
    // so a form the server's answer replaced meanwhile is the same form.
    const now = Date.now();
    const own = formKey(form);
    const formId = form.tagName === "FORM" && D ? D.identity(form) : "";
    const again = lastTap.form === formId && now - lastTap.at < DOUBLE_TAP_MS;
    if (again && (own === lastTap.sent || (form.tagName === "FORM" && D.pristine(form)))) { lastTap.at = now; return; }
    const submitter = cfg.triggeringEvent && cfg.triggeringEvent.submitter;
    const about = describe(form, submitter);
    const entered = enteredAt(now);
    if (entered) { fields.push(["entered_at", entered]); }
    const item = {
      party: PARTY, url: cfg.path, fields: fields, key: newId(), label: about.label,
      summary: about.summary, created: now, state: "pending", reason: "", clockUnknown: !entered,
      form: formId,
      // Sent at once (online, nothing queued before it): its answer brings the panel.
      direct: online && !items.some((other) => String(other.party) === PARTY && other.state !== "refused"),
    };
    numbered(item, form);
    superseded(formId);
    if (form.tagName === "FORM") { form.reset(); }
    if (form.tagName === "FORM" && D) { D.clearErrors(form); }
    form.querySelectorAll("input[name=client_id]").forEach((input) => { input.value = newId(); });
    nextNumber(form, item.deal);
    lastTap = { form: formId, at: now, sent: own };
    dirty = false;
    items.push(item);
    render();
    addItem(item).then((id) => { item.id = id; pump(); }, () => { item.state = "failed"; item.reason = "IndexedDB"; render(); });
  }

  // The moment of entry on the server's clock (the device's corrected by its measured offset),
  // ISO 8601: the server decides from it whether a deal was played before the time ran out.
  // Never measured: none is sent, and the server takes the moment the action arrives.
  function enteredAt(now) {
    let offset = NaN;
    try { offset = parseFloat(localStorage.getItem(OFFSET_KEY)); } catch (e) { /* private mode */ }
    return isFinite(offset) ? new Date(now + offset).toISOString() : "";
  }

  function formKey(form) {
    const pairs = [];
    if (form.tagName === "FORM") {
      new FormData(form).forEach((value, name) => {
        if (["client_id", "csrfmiddlewaretoken", "number", "version"].indexOf(name) < 0) { pairs.push([name, String(value)]); }
      });
    }
    return JSON.stringify(pairs);
  }

  // A deal form queued: the next deal's number in the form and its heading, until the server's
  // panel comes (the queue sends the number the server gives after its previous action anyway).
  function nextNumber(form, deal) {
    const input = form.querySelector("input[name=number]");
    if (!input || !/^\d+$/.test(input.value)) { return; }
    const old = input.value;
    const next = String((typeof deal === "number" ? deal : Number(old)) + 1);
    input.value = next;
    const box = form.closest("section, details");
    const heading = box && box.querySelector("h2");
    if (heading) { heading.textContent = heading.textContent.replace(new RegExp("\\b" + old + "\\b"), next); }
  }

  // A queued deal's own number in its label: after the deals queued before it, whatever the
  // form said (a screen reopened from the device's copy shows the last synced number).
  function numbered(item, form) {
    const input = form.querySelector("input[name=number]");
    if (!input || !/^\d+$/.test(input.value)) { return; }
    let deal = Number(input.value);
    items.forEach((other) => {
      if (String(other.party) === PARTY && other.form === item.form && other.deal && other.state !== "refused") {
        deal = Math.max(deal, other.deal + 1);
      }
    });
    renumber(item, Number(input.value), deal);
  }

  function renumber(item, old, deal) {
    if (old !== deal) { item.label = item.label.replace(new RegExp("\\b" + old + "\\b"), String(deal)); }
    item.deal = deal;
  }

  // A refused entry put back into a form is replaced by the entry that form now sends.
  function superseded(formId) {
    items.filter((other) => other.state === "refused" && other.inForm && other.form === formId).forEach((other) => {
      items = items.filter((item) => item !== other);
      if (other.id !== undefined) { deleteItem(other.id); }
    });
  }

  // Forms being filled in are not wiped by an answer arriving meanwhile.
  ["input", "change"].forEach((type) => document.addEventListener(type, (event) => {
    const panel = document.getElementById("panel");
    if (panel && event.target && event.target.form && panel.contains(event.target)) { dirty = true; }
  }));

  // -- sending ----------------------------------------------------------------------------------
  let pumping = false;
  let timer = null;

  function later(ms) {
    clearTimeout(timer);
    timer = setTimeout(pump, ms);
  }

  let pumpAgain = false;

  // One sender at a time (and one tab of the device at a time, where the browser has locks).
  // An entry taken while the sender finishes is sent by the same sender, under the lock it
  // holds: asking for the lock again from inside would find it taken (by this very tab) and
  // leave the entry waiting for the next retry.
  function pump() {
    if (pumping) { pumpAgain = true; return; }
    pumping = true;
    const work = async () => {
      do {
        pumpAgain = false;
        await drain().catch(() => null);
      } while (pumpAgain);
      pumping = false;
      sending = null;
      render();
    };
    if (navigator.locks && navigator.locks.request) {
      navigator.locks.request("desk-offline-queue", { ifAvailable: true }, (lock) => {
        if (lock) { return work(); }
        pumping = false;  // another tab of this device sends the queue; look again in a moment
        later(LOCK_RETRY_MS);
        return null;
      });
    } else {
      work();
    }
  }

  async function drain() {
    for (;;) {
      await refresh();
      const blocked = {};
      let next = null;
      for (const item of items) {
        if (item.state === "refused") { continue; }  // a refusal waits aside: the queue goes on
        if (item.id === undefined && item.state !== "failed") { continue; }  // being stored: its own turn follows
        if (blocked[item.party] && !item.applied) { continue; }  // an entry applied by the referee goes
        if (STOPPED.includes(item.state)) { blocked[item.party] = true; continue; }
        next = item;
        break;
      }
      if (!next) { return; }
      const outcome = await send(next);
      if (outcome === "wait") { later(RETRY_MS); return; }
      if (outcome === "throttled") { later(throttledMs); return; }
      if (outcome === "busy") { later(1000); return; }
    }
  }

  function measure(serverTime, sentAt, answeredAt) {
    if (typeof serverTime !== "number") { return; }
    try { localStorage.setItem(OFFSET_KEY, String(serverTime - (sentAt + answeredAt) / 2)); } catch (e) { /* private mode */ }
  }

  async function send(item) {
    const meta = metaOf(item.party);
    if (!item.sent) {
      item.sent = { fields: rebase(item.fields, meta), key: item.key };
      await putItem(item);
    }
    sending = item;
    delete item.throttled;
    render();
    const body = new URLSearchParams();
    item.sent.fields.forEach((pair) => body.append(pair[0], pair[1]));
    const headers = { "Accept": "application/json", "Idempotency-Key": item.sent.key };
    if (typeof meta.seq === "number") { headers["X-Desk-Since"] = String(meta.seq); }  // for a conflict's list
    const lastOfParty = !items.some((other) => other.id !== item.id && String(other.party) === String(item.party) && other.state !== "refused");
    if (String(item.party) === PARTY && lastOfParty && item.direct) { headers["X-Desk-Panel"] = "1"; }
    const sentAt = Date.now();
    let response;
    try {
      response = await fetch(item.url, { method: "POST", body: body, headers: headers, credentials: "same-origin" });
    } catch (error) {
      online = false;
      item.reason = t("no-network");
      item.direct = false;
      await putItem(item);
      return "wait";
    }
    online = true;
    let answer = null;
    try { answer = await response.json(); } catch (error) { answer = null; }
    if (!answer || typeof answer.ok !== "boolean") {  // not the desk's answer: a proxy, a login page
      if (response.status === 429) { return throttled(item, response); }
      item.reason = t("status", { status: response.status });
      if (response.status >= 500) { await putItem(item); return "wait"; }
      item.state = "failed";
      await putItem(item);
      return "failed";
    }
    measure(answer.server_time, sentAt, Date.now());
    if (answer.ok) {
      const sentVersion = field(item.sent.fields, "version");
      const after = answer.rebase || {};
      if (sentVersion !== null && after.version !== undefined && Number(sentVersion) !== after.version) {
        meta.chain[Number(sentVersion)] = after.version;
      }
      if (after.version !== undefined) { meta.numbers[after.version] = after.number; meta.point = after; }
      if (typeof answer.seq === "number") { meta.seq = answer.seq; }
      metas[item.party] = meta;
      await saveMetaAndItem(meta, item, true);
      items = items.filter((other) => other.id !== item.id);
      const last = !items.some((other) => String(other.party) === String(item.party) && other.state !== "refused");
      if (answer.panel) {
        show(answer, item, last);
      } else if (last && String(item.party) === PARTY) {
        // A queue replayed after an outage: the screen is refreshed a moment later, at a random
        // point of a few seconds, so that a hall of devices coming back does not ask at once.
        setTimeout(loadPanel, 300 + Math.random() * 2700);
      }
      return "ok";
    }
    if (answer.busy) { return "busy"; }
    if (answer.confirm) {  // it means more on the server than on the screen it was tapped on
      item.state = "confirm";
      item.reason = answer.confirm;
      await putItem(item);
      if (String(item.party) === PARTY) { loadPanel(); }
      return "confirm";
    }
    if (response.status >= 500) { item.reason = answer.error; await putItem(item); return "wait"; }
    item.state = answer.conflict ? "conflict" : "refused";
    item.reason = answer.error || t("status", { status: response.status });
    item.status = response.status;
    item.latest = answer.latest || "";
    item.server = answer.rebase || null;
    item.since = answer.since || [];
    item.errors = answer.by_field || [];
    item.renew = true;  // refused and stored under its key: a new attempt needs a new key
    delete item.applied;
    if (answer.rebase && answer.rebase.version !== undefined) { meta.point = answer.rebase; }
    metas[item.party] = meta;
    const held = item.state === "conflict" ? hold(item) : [];
    await run(["queue", "meta"], "readwrite", (s) => {
      s.meta.put(prune(meta));
      [item].concat(held).forEach((one) => s.queue.put(one));
    }).then(changed);
    if (answer.panel) { show(answer, item, true); } else if (String(item.party) === PARTY) { loadPanel(); }
    if (item.state === "refused") { putBack(item, false); }
    return item.state;
  }

  // A 429 that is not the desk's answer (a rate limit of the server or of a proxy on the way):
  // nothing was done, so it is no failure: the entry stays pending and the queue sends it again,
  // with the same key, after the Retry-After the answer asked for (at least RETRY_MS, at most
  // THROTTLED_MAX_MS); a queue replayed after an outage never loses an entry to a rate limit.
  let throttledMs = RETRY_MS;
  async function throttled(item, response) {
    const seconds = Number(response.headers.get("Retry-After"));
    throttledMs = Math.min(Math.max(RETRY_MS, Number.isFinite(seconds) ? seconds * 1000 : 0), THROTTLED_MAX_MS);
    item.reason = t("throttled", { seconds: Math.round(throttledMs / 1000) });
    item.throttled = true;
    await putItem(item);
    return "throttled";
  }

  // A conflict stops the party's queue: every entry waiting behind it is held too, for the
  // referee to apply or drop one by one (never the whole queue with one tap).
  function hold(item) {
    const held = items.filter((other) => other !== item && String(other.party) === String(item.party)
      && other.state === "pending" && !other.applied && other.id > item.id);
    held.forEach((other) => { other.state = "conflict"; other.held = true; });
    return held;
  }

  // A refused entry back into its form with the messages by the fields, unless the form is
  // being filled in for a later entry (then it waits in the bar until put back or dropped).
  function putBack(item, force) {
    const form = String(item.party) === PARTY && D ? D.formFor(document.getElementById("panel"), item.form, item.url) : null;
    if (!form || !D.fillable(form) || (!force && !D.pristine(form))) { render(); return false; }
    items.forEach((other) => { if (other !== item && other.inForm && other.form === item.form) { other.inForm = false; } });
    D.fill(form, item.fields);
    D.showErrors(form, item.errors, item.reason);
    if (item.deal) {  // the form's deal number as the entry had it, after any deal queued since
      const after = items.filter((other) => other.deal && other.form === item.form && other.state !== "refused");
      nextNumber(form, Math.max.apply(null, [item.deal].concat(after.map((other) => other.deal + 1))) - 1);
    }
    item.inForm = true;
    dirty = true;
    if (item.id !== undefined) { putItem(item); }
    render();
    return true;
  }

  // -- the panel: the server's answer shown in place ---------------------------------------------
  function show(answer, item, last) {
    if (String(item.party) !== PARTY || !answer.panel) { return; }
    const panel = document.getElementById("panel");
    if (!panel) { return; }
    const holder = document.createElement("template");
    holder.innerHTML = answer.panel.trim();
    const fresh = holder.content.firstElementChild;
    if (!fresh || fresh.id !== "panel") { return; }
    keepPanel(answer.panel);
    const inForm = items.some((one) => one.state === "refused" && one.inForm && String(one.party) === PARTY);
    if (last && !dirty && !inForm) {  // a refused entry put back in its form stays there
      panel.replaceWith(fresh);
      processed(fresh);
      return;
    }
    ["scoreboard", "records", "log"].forEach((id) => {  // the state, not the forms being filled in
      const old = document.getElementById(id);
      const part = fresh.querySelector("#" + id);
      if (old && part) { old.replaceWith(part); processed(part); }
    });
  }

  function processed(el) {
    if (window.htmx) { window.htmx.process(el); }
    el.dispatchEvent(new CustomEvent("htmx:afterSwap", { bubbles: true, detail: { elt: el, target: el, deskOffline: true } }));
  }

  // A party screen opened from the device's copy gets the server's panel when the network is back.
  let stale = document.documentElement.hasAttribute("data-from-cache");
  function freshen() {
    if (!stale || items.some((item) => String(item.party) === PARTY && item.state !== "refused")) { return; }
    loadPanel();
  }

  // The server's panel as it is now (after a conflict, or for a screen opened from the copy).
  function loadPanel() {
    const sentAt = Date.now();
    fetch(PAGE, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        stale = false;
        online = true;
        show({ panel: html }, { party: PARTY }, true);
        const board = document.getElementById("scoreboard");
        if (board && board.dataset.serverAt) { measure(Number(board.dataset.serverAt), sentAt, Date.now()); }
        synced();
        render();
      })
      .catch(() => null);
  }

  // The server's panel on screen and nothing of the party left to send: the device is synced
  // up to the panel's latest event (a conflict later lists what came after it).
  function synced() {
    if (stale || items.some((item) => String(item.party) === PARTY && item.state !== "refused")) { return; }
    const seqs = Array.from(document.querySelectorAll("#log li[value]"), (li) => Number(li.getAttribute("value")));
    const meta = metaOf(PARTY);
    if (!seqs.length || meta.seq === Math.max.apply(null, seqs)) { return; }
    meta.seq = Math.max.apply(null, seqs);
    metas[PARTY] = meta;
    run(["meta"], "readwrite", (s) => { s.meta.put(prune(meta)); }).catch(() => null);
  }

  // -- the sync bar ------------------------------------------------------------------------------
  function button(label, onClick, cls) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = cls || "";
    el.textContent = label;
    el.addEventListener("click", onClick);
    return el;
  }

  function itemLine(item) {
    const li = document.createElement("li");
    li.className = "desk-sync-item";
    li.dataset.state = sending && sending.id === item.id ? "sending" : item.state;
    const label = document.createElement("strong");
    label.textContent = item.label;
    li.appendChild(label);
    if (item.summary) {
      const summary = document.createElement("span");
      summary.className = "desk-sync-summary";
      summary.textContent = " · " + item.summary;
      li.appendChild(summary);
    }
    const state = document.createElement("small");
    state.className = "desk-sync-state";
    state.textContent = " · " + t("item-" + item.state);
    li.appendChild(state);
    if (item.clockUnknown) { li.appendChild(clockNote("clock-arrival")); }
    return li;
  }

  // An action queued before the device ever measured the server's clock: its time is the arrival's.
  function clockNote(name) {
    const note = document.createElement("small");
    note.className = "desk-sync-clock";
    note.textContent = t(name);
    return note;
  }

  function listOpen() {
    try { return sessionStorage.getItem(LIST_KEY) === "1"; } catch (e) { return false; }
  }

  function render() {
    const all = items.filter((item) => String(item.party) === PARTY);
    document.dispatchEvent(new CustomEvent("desk:queue", { detail: { party: PARTY, items: all, online: online } }));
    const bar = document.getElementById("desk-sync");
    if (!bar) { return; }
    const refused = all.filter((item) => item.state === "refused");
    const mine = all.filter((item) => item.state !== "refused");
    const others = items.filter((item) => item.state !== "refused").length - mine.length;
    const problem = ["conflict", "confirm", "failed"].map((name) => mine.find((item) => item.state === name)).find(Boolean);
    let state = "saved";
    if (problem) { state = problem.state; } else if (mine.length) { state = !online ? "offline" : sending ? "sending" : "pending"; }
    if (state === "saved" && refused.length) { state = "refused"; }
    bar.dataset.state = state;
    bar.dataset.pending = String(mine.length);
    bar.replaceChildren();
    const line = document.createElement("span");
    line.className = "desk-sync-text";
    const count = t("pending", { n: mine.length });
    const throttledItem = mine.find((item) => item.throttled);
    line.textContent = {
      saved: t("saved"),
      pending: throttledItem ? count + " · " + throttledItem.reason : count,
      sending: t("sending") + " " + count,
      offline: t("offline") + " · " + count,
      failed: problem ? t("failed", { reason: problem.reason }) : "",
      conflict: t("conflict"),
      confirm: t("confirm-needed"),
      refused: t("refused", { n: refused.length }),
    }[state];
    bar.appendChild(line);
    if (mine.some((item) => item.clockUnknown)) { bar.appendChild(clockNote("clock-unknown")); }
    if (mine.length && !problem) {
      const open = listOpen();
      const toggle = button(open ? "▴" : "▾", () => {
        try { sessionStorage.setItem(LIST_KEY, open ? "0" : "1"); } catch (e) { /* private mode */ }
        render();
      }, "desk-sync-toggle");
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      toggle.setAttribute("aria-label", t("queue"));
      bar.appendChild(toggle);
      if (open) { bar.appendChild(list(mine)); }
    }
    if (problem) { bar.appendChild(resolution(problem, mine)); }
    if (refused.length) { bar.appendChild(refusals(refused)); }
    if (others > 0) {
      const note = document.createElement("small");
      note.className = "desk-sync-others";
      note.textContent = t("others", { n: others });
      bar.appendChild(note);
    }
  }

  function list(mine) {
    const ol = document.createElement("ol");
    ol.className = "desk-sync-items";
    ol.setAttribute("aria-label", t("queue"));
    mine.forEach((item) => ol.appendChild(itemLine(item)));
    return ol;
  }

  // Refused entries: why, in words, and each to put back into its form or drop.
  function refusals(refused) {
    return D.refusals({
      t: t, items: refused, line: itemLine, button: button, drop: drop,
      form: (item) => (String(item.party) === PARTY ? D.formFor(document.getElementById("panel"), item.form, item.url) : null),
      putBack: (item) => putBack(item, true),
    });
  }

  function resolution(problem, mine) {
    if (problem.state === "conflict") {  // the server's changes and the held entries
      const since = [];
      mine.forEach((item) => (item.since || []).forEach((change) => {
        if (!since.some((known) => known.seq === change.seq)) { since.push(change); }
      }));
      since.sort((a, b) => a.seq - b.seq);
      return D.conflictBox({
        t: t, since: since, items: mine, line: itemLine, button: button, apply: apply, drop: drop,
        held: (item) => item.state === "conflict",
        latest: problem.latest ? t("latest", { what: problem.latest }) : "",
      });
    }
    const box = document.createElement("div");
    box.className = "desk-sync-problem";
    if (problem.state === "confirm") {
      const question = document.createElement("p");
      question.className = "desk-sync-question";
      question.setAttribute("role", "alert");
      question.textContent = problem.reason;
      box.appendChild(question);
    }
    const yours = document.createElement("p");
    yours.className = "desk-sync-yours";
    yours.textContent = t("yours");
    box.appendChild(yours);
    box.appendChild(list(mine));
    const actions = document.createElement("div");
    actions.className = "desk-sync-actions";
    if (problem.state === "confirm") {
      actions.appendChild(button(t("confirm"), () => confirmItem(problem), "primary desk-confirm"));
    } else {
      actions.appendChild(button(t("retry"), () => retry(problem), "primary desk-retry"));
    }
    actions.appendChild(button(t("drop"), () => drop(problem), "desk-drop"));
    box.appendChild(actions);
    return box;
  }

  // -- the referee's decisions -------------------------------------------------------------------
  function again(item) {
    if (item.renew) { item.key = newId(); }
    delete item.sent;
    delete item.renew;
    delete item.server;
    delete item.latest;
    delete item.status;
    delete item.since;
    delete item.held;
    item.state = "pending";
    item.reason = "";
  }

  function retry(item) {
    again(item);
    putItem(item).then(refresh).then(() => { render(); pump(); });
  }

  // Apply one held entry on the server's state as the device last heard it (its version and
  // deal number); it goes at once, and only it: every other held entry waits for its own tap.
  function apply(item) {
    const server = metaOf(item.party).point || item.server || {};
    if (server.version !== undefined) {
      item.fields = withField(item.fields, "version", server.version);
      if (field(item.fields, "number") !== null) {
        item.fields = withField(item.fields, "number", server.number);
        if (item.deal) { renumber(item, item.deal, server.number); }
      }
    }
    again(item);
    item.applied = true;
    putItem(item).then(refresh).then(() => { render(); pump(); });
  }

  // The referee confirmed the consequence the server named: the action goes again, confirmed.
  function confirmItem(item) {
    item.fields = plusField(item.fields, "confirmed", "1");
    if (item.sent) { item.sent.fields = plusField(item.sent.fields, "confirmed", "1"); }
    item.state = "pending";
    item.reason = "";
    putItem(item).then(refresh).then(() => { render(); pump(); });
  }

  // A refused action is dropped at once; one the server would take (a conflict) after a question.
  function drop(item) {
    if (item.state === "conflict" && !window.confirm(t("drop-confirm"))) { return; }
    const form = item.inForm && D ? D.formFor(document.getElementById("panel"), item.form, item.url) : null;
    if (form) { form.reset(); D.clearErrors(form); }  // the refused values leave the form with it
    if (item.id === undefined) {  // never stored (IndexedDB refused it)
      items = items.filter((other) => other !== item);
      render();
      return;
    }
    deleteItem(item.id).then(refresh).then(() => { render(); pump(); freshen(); });
  }

  // -- the clock's offset, the service worker, the start -----------------------------------------
  function measurePage() {
    const board = document.getElementById("scoreboard");
    const nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    if (!board || !board.dataset.serverAt || stale) { return; }
    // When the answer began to arrive, on the device's clock (as Date.now() counts it).
    const arrived = nav && nav.responseStart ? Date.now() - (performance.now() - nav.responseStart) : Date.now();
    measure(Number(board.dataset.serverAt), arrived, arrived);
  }

  // The device's copy of the screen takes every panel the server sends (no request of its own).
  function keepPanel(html) {
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) { return; }
    navigator.serviceWorker.controller.postMessage({ type: "keep-panel", url: PAGE, html: html });
  }

  function keepPage() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) { return; }
    navigator.serviceWorker.ready.then((registration) => {
      if (registration.active) { registration.active.postMessage({ type: "keep-page", url: PAGE }); }
    });
  }

  // Whether this page's own request went through the worker (which kept it). A worker that
  // took control of the page afterwards (clients.claim) did not see it.
  function throughWorker() {
    const nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    return Boolean(navigator.serviceWorker.controller) && Boolean(nav && nav.workerStart > 0);
  }

  function startWorker() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) { return; }
    const scope = config.dataset.sw.replace(/[^/]*$/, "");
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.type === "page-kept" && event.data.kept) {
        document.documentElement.setAttribute("data-offline-ready", "1");
      }
    });
    navigator.serviceWorker.register(config.dataset.sw, { scope: scope }).then(() => {
      if (throughWorker()) {  // this visit went through the worker, which kept it
        document.documentElement.setAttribute("data-offline-ready", "1");
      } else if (!stale) {
        keepPage();  // the first visit: the worker was not there yet to keep the page
      }
    }).catch(() => null);
  }

  document.addEventListener("htmx:afterSwap", (event) => {
    const target = event.detail && event.detail.target;
    if (target && target.id === "scoreboard" && event.detail.xhr && target.dataset.serverAt) {
      const now = Date.now();
      measure(Number(target.dataset.serverAt), now, now);
    }
    render();
  });
  window.addEventListener("online", () => { online = true; render(); pump(); freshen(); });
  window.addEventListener("offline", () => { online = false; render(); });
  setInterval(() => {
    if (items.some((item) => item.state === "pending") && !pumping) { pump(); }
    if (stale && navigator.onLine !== false) { freshen(); }
  }, RETRY_MS);

  function start() {
    // Fresh client ids: a page opened from the device's copy must not reuse the ids of its forms.
    document.querySelectorAll("#panel input[name=client_id]").forEach((input) => { input.value = newId(); });
    measurePage();
    startWorker();
    db().then(refresh).then(() => {
      ready = true;
      items.forEach((item) => {  // a refused entry that was in its form goes back into the fresh one
        if (item.inForm) { item.inForm = false; putBack(item, false); }
      });
      synced();
      render();
      pump();
      if (navigator.onLine !== false) { freshen(); }
    }).catch(() => { ready = false; });
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
