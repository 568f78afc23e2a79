// Party clock: counts down from the server's authoritative seconds left (no inline scripts).
// Where the page says when the server rendered it (data-server-at, ms), the clock runs from the
// server's time: the device's clock plus the offset measured at the last sync (desk-offline.js),
// so a screen opened offline from the device's copy still shows the right time.
(function () {
  function serverNow() {
    var offset = 0;
    try { offset = parseFloat(localStorage.getItem("desk.clockOffset")) || 0; } catch (e) { offset = 0; }
    return Date.now() + offset;
  }
  function fmt(s) {
    var neg = s < 0; s = Math.abs(Math.round(s));
    var m = Math.floor(s / 60), r = s % 60;
    return (neg ? "−" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function tick() {
    document.querySelectorAll("[data-seconds-left]").forEach(function (el) {
      var base = el.closest("[data-server-at]");
      if (!el.dataset.start) { el.dataset.start = String(Date.now()); }
      var left = parseFloat(el.dataset.secondsLeft);
      if (!el.dataset.paused && base) {
        left -= (serverNow() - parseFloat(base.dataset.serverAt)) / 1000;
      } else if (!el.dataset.paused) {
        left -= (Date.now() - parseFloat(el.dataset.start)) / 1000;
      }
      el.textContent = fmt(left);
      el.classList.toggle("expired", left <= 0);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { tick(); setInterval(tick, 1000); });
  document.addEventListener("htmx:afterSwap", tick);
})();

// The hall screen's and the player's countdown to the next start ("in 12 min"): the element
// carries the start (data-starts-at, seconds since the epoch) and its words with {n}; it is
// recounted every second, so the minutes run down between the panel's polls.
(function () {
  function tick() {
    document.querySelectorAll("[data-starts-at][data-countdown]").forEach(function (el) {
      var left = parseFloat(el.dataset.startsAt) * 1000 - Date.now();
      var minutes = Math.max(0, Math.ceil(left / 60000));
      el.textContent = left <= 0 && el.dataset.countdownNow ? el.dataset.countdownNow
        : el.dataset.countdown.replace("{n}", String(minutes));
    });
  }
  document.addEventListener("DOMContentLoaded", function () { tick(); setInterval(tick, 1000); });
  document.addEventListener("htmx:afterSwap", tick);
})();

// Referee desk: htmx without inline styles (strict CSP), and no tile picked for two hands.
(function () {
  if (window.htmx) {
    window.htmx.config.includeIndicatorStyles = false;
    window.htmx.config.attributesToSettle = ["class", "width", "height"];  // no style writes
  }
  function exclusiveTiles(container) {
    var boxes = container.querySelectorAll("input[type=checkbox][name^='tiles_']");
    var owner = {};
    boxes.forEach(function (box) { if (box.checked) { owner[box.value] = box.name; } });
    boxes.forEach(function (box) {
      box.disabled = Boolean(owner[box.value]) && owner[box.value] !== box.name;
    });
  }
  document.addEventListener("change", function (event) {
    var container = event.target.closest && event.target.closest(".ref-hands");
    if (container) { exclusiveTiles(container); }
  });
})();

// Scoring plays (All Fives, UDL): "+5 … +45" buttons append "seat:points" to the plays field;
// each player's sum is shown beside his buttons. Without JavaScript the field is typed in.
(function () {
  var TOKEN = /([abAB][12]?)\s*[:+=]?\s*(\d+)/g;
  function sums(box) {
    var input = box.querySelector("input[name=plays]");
    var totals = {};
    var text = input ? input.value : "";
    var match;
    TOKEN.lastIndex = 0;
    while ((match = TOKEN.exec(text)) !== null) {
      var who = match[1].toLowerCase();
      if (who.length === 1) { who += "1"; }
      totals[who] = (totals[who] || 0) + parseInt(match[2], 10);
    }
    box.querySelectorAll("[data-play-sum]").forEach(function (el) {
      el.textContent = String(totals[el.dataset.playSum] || 0);
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-play], [data-play-undo]");
    if (!button) { return; }
    var box = button.closest("[data-plays]");
    var input = box && box.querySelector("input[name=plays]");
    if (!input) { return; }
    event.preventDefault();
    var tokens = input.value.trim() ? input.value.trim().split(/[\s,;]+/) : [];
    if (button.hasAttribute("data-play-undo")) { tokens.pop(); } else { tokens.push(button.dataset.play); }
    input.value = tokens.join(" ");
    sums(box);
  });
  document.addEventListener("input", function (event) {
    var box = event.target.closest && event.target.closest("[data-plays]");
    if (box) { sums(box); }
  });
  function all() { document.querySelectorAll("[data-plays]").forEach(sums); }
  document.addEventListener("DOMContentLoaded", all);
  document.addEventListener("htmx:afterSwap", all);
})();

// Error pages: "Back to the previous page" goes back in the tab's history when the browser
// sent no Referer (the button stays hidden without JavaScript or without a page before).
(function () {
  function show() {
    document.querySelectorAll("[data-history-back]").forEach(function (button) {
      if (window.history.length > 1) { button.hidden = false; }
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-history-back]");
    if (button) { event.preventDefault(); window.history.back(); }
  });
  document.addEventListener("DOMContentLoaded", show);
})();

// The standings order's numbered places (tournaments/metric_order.py): a metric chosen in one
// place is greyed out in the others. Without script the server refuses a metric chosen twice.
(function () {
  function sync(list) {
    var selects = list.querySelectorAll("select[data-metric-place]");
    var chosen = {};
    selects.forEach(function (s) { if (s.value) { chosen[s.value] = s; } });
    selects.forEach(function (s) {
      Array.prototype.forEach.call(s.options, function (o) {
        o.disabled = Boolean(o.value && chosen[o.value] && chosen[o.value] !== s);
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("ol.metric-order").forEach(function (list) {
      sync(list);
      list.addEventListener("change", function () { sync(list); });
    });
  });
})();

// The tournament form: the team settings are shown only for the team format (without script
// they show once a team tournament is saved; their defaults hold until then).
(function () {
  function sync(select) {
    document.querySelectorAll("[data-shown-for-format]").forEach(function (part) {
      part.hidden = select.value !== part.dataset.shownForFormat;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var select = document.querySelector("select[name=format]");
    if (!select || !document.querySelector("[data-shown-for-format]")) { return; }
    sync(select);
    select.addEventListener("change", function () { sync(select); });
  });
})();
