// Live updates (docs/architecture.md, "Live updates"): a page whose parts carry data-live="<channel>"
// opens one server-sent events stream (/live/?channel=…). While the stream is open, those parts
// do not poll: an event (what changed, and a token) makes each part fetch its fragment once, with
// its usual conditional GET and the token as Live-Version. Until the stream has opened (a proxy
// that buffers it, a browser without EventSource, a server without ASGI), after it breaks, or when
// it has been silent past its keep-alive, the parts poll as they always did.
// A part whose poll brings something else (the hall screen's next panel) keeps polling and takes
// data-live-url on an event (data-live-swap, data-live-select: how it is swapped in).
(function () {
  var SILENT_MS = 50000;      // the server sends a keep-alive every 20 s
  var RETRY_MS = 15000;       // a stream that ended or went silent is opened again after this
  var state = { open: false, source: null, heard: 0, opened: 0 };
  window.liveUpdates = state; // read by tests and the fallback bench

  function parts(channel) {
    return Array.prototype.filter.call(document.querySelectorAll("[data-live]"), function (el) {
      return !channel || el.getAttribute("data-live") === channel;
    });
  }

  function fetchPart(el, token) {
    var url = el.getAttribute("data-live-url") || el.getAttribute("hx-get");
    if (!url || !window.htmx) { return; }
    var key = el.id || url;
    var busy = fetchPart.busy || (fetchPart.busy = {});
    if (busy[key]) { busy[key] = token || busy[key]; return; }  // once more when this one is back
    busy[key] = true;
    var headers = { "HX-Request": "true" };
    if (token) { headers["Live-Version"] = token; }
    var context = {
      source: el, target: el, headers: headers,
      swap: el.getAttribute("data-live-swap") || el.getAttribute("hx-swap") || "outerHTML",
    };
    var select = el.getAttribute("data-live-select") || el.getAttribute("hx-select");
    if (select) { context.select = select; }
    window.htmx.ajax("GET", url, context).then(function () { done(key); }, function () { done(key); });
  }
  function done(key) {
    var again = fetchPart.busy[key];
    delete fetchPart.busy[key];
    if (typeof again === "string") {
      var el = document.getElementById(key);
      if (el) { fetchPart(el, again); }
    }
  }

  function refresh(channel, token) {
    parts(channel).forEach(function (el) { fetchPart(el, token); });
  }

  function close() {
    state.open = false;
    if (state.source) { state.source.close(); state.source = null; }
  }

  function open(channels) {
    var query = channels.map(function (c) { return "channel=" + encodeURIComponent(c); }).join("&");
    var source = new EventSource("/live/?" + query);
    state.source = source;
    source.addEventListener("stream-open", function () {
      var again = state.opened > 0;
      state.open = true; state.heard = Date.now(); state.opened += 1;
      if (again) { refresh("", "reopened-" + state.opened); }  // what changed while it was shut
    });
    source.addEventListener("keep-alive", function () { state.heard = Date.now(); });
    source.addEventListener("message", function (event) {
      state.heard = Date.now();
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      // no channel named (more came than the server keeps for a stream): every part
      if (data) { refresh(data.channel || "", String(data.token || "")); }
    });
    source.addEventListener("stream-error", function () { close(); });
    source.onerror = function () {
      state.open = false;  // the browser tries again by itself; the parts poll meanwhile
      if (source.readyState === 2) { close(); setTimeout(function () { open(channels); }, RETRY_MS); }
    };
  }

  // While the stream is open, a part's own poll (an htmx "every" trigger) is not sent.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail, el = detail.elt;
    if (!state.open || !el || !el.hasAttribute || !el.hasAttribute("data-live")) { return; }
    if (el.hasAttribute("data-live-url")) { return; }  // its poll brings the next panel
    var config = detail.requestConfig || {};
    if (config.triggeringEvent || (config.headers && config.headers["Live-Version"])) { return; }
    event.preventDefault();
  });

  document.addEventListener("DOMContentLoaded", function () {
    var channels = [];
    parts("").forEach(function (el) {
      var channel = el.getAttribute("data-live");
      if (channel && channels.indexOf(channel) < 0) { channels.push(channel); }
    });
    if (!channels.length || !window.EventSource) { return; }
    open(channels);
    setInterval(function () {
      if (state.open && Date.now() - state.heard > SILENT_MS) {
        close();
        open(channels);
      }
    }, 5000);
  });
})();
