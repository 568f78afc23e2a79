// Party clock: counts down from the server's authoritative seconds left (no inline scripts).
(function () {
  function fmt(s) {
    var neg = s < 0; s = Math.abs(Math.round(s));
    var m = Math.floor(s / 60), r = s % 60;
    return (neg ? "−" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function tick() {
    document.querySelectorAll("[data-seconds-left]").forEach(function (el) {
      if (!el.dataset.start) { el.dataset.start = String(Date.now()); }
      var left = parseFloat(el.dataset.secondsLeft);
      if (!el.dataset.paused) { left -= (Date.now() - parseFloat(el.dataset.start)) / 1000; }
      el.textContent = fmt(left);
      el.classList.toggle("expired", left <= 0);
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
