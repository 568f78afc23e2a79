// Referee desk: an irreversible action asks first, in a <dialog> that names its consequence.
//
// A form of the panel with data-confirm (its text) or data-confirm-map (texts by the values of
// the fields named in data-confirm-keys), or a form sent by a button with data-confirm (the
// question of that button alone, on a form of several), is held back on submit until the
// referee confirms;
// then "confirmed=1" is put into the form and it is submitted again, so htmx, or a script that
// queues the form's data on submit, sends the confirmed action. The listener runs first: on
// window, in the capture phase. An empty text asks nothing. Without this script (or without
// <dialog>) the server answers an unconfirmed form with its own confirmation step.
// The undo control counts its seconds down and disappears when they are over.
(function () {
  var SAMPLES = [1, 2, 5];

  function fieldValue(form, name) {
    var field = form.elements.namedItem(name);
    return field && field.value ? String(field.value) : "";
  }

  function pluralOf(n) {
    try {
      return new Intl.PluralRules(document.documentElement.lang || "en").select(n);
    } catch (e) {
      return n === 1 ? "one" : "other";
    }
  }

  function withPoints(form, entry) {
    var typed = parseInt(fieldValue(form, "points"), 10);
    if (isNaN(typed)) { return entry["default"] || ""; }
    var sample = SAMPLES.filter(function (n) { return pluralOf(n) === pluralOf(typed); })[0];
    var text = entry[String(sample || SAMPLES[SAMPLES.length - 1])] || entry["default"] || "";
    return text.split("{points}").join(String(typed));
  }

  function textOf(form, submitter) {
    if (submitter && submitter.hasAttribute("data-confirm")) {
      return submitter.getAttribute("data-confirm");
    }
    var text = form.getAttribute("data-confirm") || "";
    var map = form.getAttribute("data-confirm-map");
    if (!map) { return text; }
    var keys = (form.getAttribute("data-confirm-keys") || "").split(",");
    var key = keys.map(function (name) { return fieldValue(form, name); }).join("|");
    var entry;
    try { entry = JSON.parse(map)[key]; } catch (e) { entry = undefined; }
    if (entry === undefined) { return null; }  // choices the server will refuse or ask about
    return typeof entry === "object" ? withPoints(form, entry) : entry;
  }

  function flag(form) {
    var input = form.querySelector("input[name=confirmed]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = "confirmed";
      form.appendChild(input);
    }
    return input;
  }

  function send(form, submitter) {
    var input = flag(form);
    input.value = "1";
    if (form.requestSubmit) {
      form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
    } else {
      form.submit();
    }
    // The request took the form's data as it was sent; a second tap asks again.
    window.setTimeout(function () { input.value = ""; }, 0);
  }

  // A second tap on the dialog's button must not land on what lies beneath once it closes:
  // for a moment, a tap where the answer was tapped does nothing.
  var shield = { until: 0, x: 0, y: 0 };
  window.addEventListener("click", function (event) {
    var dialog = document.getElementById("confirm-dialog");
    if (dialog && dialog.open && dialog.contains(event.target)) {
      shield.x = event.clientX;
      shield.y = event.clientY;
      return;
    }
    if (Date.now() < shield.until && Math.abs(event.clientX - shield.x) < 40 &&
        Math.abs(event.clientY - shield.y) < 40) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  window.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) { return; }
    var submitter = event.submitter;
    if (!form.hasAttribute("data-confirm") && !form.hasAttribute("data-confirm-map") &&
        !(submitter && submitter.hasAttribute("data-confirm"))) { return; }
    if (fieldValue(form, "confirmed") === "1") { return; }
    var dialog = document.getElementById("confirm-dialog");
    if (!dialog || typeof dialog.showModal !== "function") { return; }
    var text = textOf(form, submitter);
    if (!text) { return; }
    event.preventDefault();
    event.stopPropagation();
    dialog.querySelector("[data-confirm-text]").textContent = text;
    dialog.returnValue = "";
    dialog.addEventListener("close", function answered() {
      dialog.removeEventListener("close", answered);
      shield.until = Date.now() + 400;
      if (dialog.returnValue === "yes" && form.isConnected) { send(form, submitter); }
    });
    dialog.showModal();
  }, true);

  function undoCountdown() {
    document.querySelectorAll("[data-undo-seconds]").forEach(function (el) {
      if (!el.dataset.undoStart) { el.dataset.undoStart = String(Date.now()); }
      var left = parseFloat(el.dataset.undoSeconds) -
        (Date.now() - parseFloat(el.dataset.undoStart)) / 1000;
      if (left <= 0) { el.remove(); return; }
      var counter = el.querySelector("[data-undo-left]");
      if (counter) {
        if (!counter.dataset.text) { counter.dataset.text = counter.textContent; }
        counter.textContent = counter.dataset.text.replace(/\d+/, String(Math.ceil(left)));
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    undoCountdown();
    window.setInterval(undoCountdown, 1000);
  });
  document.addEventListener("htmx:afterSwap", undoCountdown);
})();
