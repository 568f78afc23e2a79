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
