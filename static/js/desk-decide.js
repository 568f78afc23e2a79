// Referee desk: what the referee decides about the entries of the offline queue
// (static/js/desk-offline.js uses it as window.DeskDecide). A refused entry (400: nothing done,
// the entry is wrong) goes back into its form with the server's messages next to the fields,
// in words; a conflict (the party changed on another device) is shown side by side: the
// server's changes since this device last synced, and the device's queued entries, each to
// apply or drop. Only the DOM here: the queue's state stays in desk-offline.js.
(function () {
  "use strict";
  const VOLATILE = ["client_id", "csrfmiddlewaretoken", "version", "number"];

  function text(el) { return el ? el.textContent.replace(/\s+/g, " ").trim() : ""; }

  // A form's identity, the same on the server's fresh copy of the panel: where it posts and
  // its fixed hidden fields (a warning's kind and side), not its per-entry ids or version.
  function identity(form) {
    const parts = [form.getAttribute("hx-post") || form.getAttribute("action") || ""];
    form.querySelectorAll("input[type=hidden]").forEach((input) => {
      if (input.name && VOLATILE.indexOf(input.name) < 0) { parts.push(input.name + "=" + input.value); }
    });
    return parts.join("|");
  }

  function formFor(panel, id, url) {
    if (!panel) { return null; }
    const forms = Array.from(panel.querySelectorAll("form"));
    return forms.find((form) => id && identity(form) === id)
      || (!id ? forms.find((form) => (form.getAttribute("hx-post") || "") === url) : null) || null;
  }

  function editable(el) {
    return el.name && !el.disabled && ["hidden", "submit", "button", "reset"].indexOf(el.type) < 0;
  }

  function defaultIndex(select) {
    let index = 0;
    Array.from(select.options).forEach((o, i) => { if (o.defaultSelected) { index = i; } });
    return index;
  }

  function pristineField(el) {
    if (el.type === "radio" || el.type === "checkbox") { return el.checked === el.defaultChecked; }
    if (el.tagName === "SELECT" && el.multiple) { return Array.from(el.options).every((o) => o.selected === o.defaultSelected); }
    if (el.tagName === "SELECT") { return el.selectedIndex === defaultIndex(el); }
    return el.value === el.defaultValue;
  }

  // A form with something to correct (a warning's form is its button alone).
  function fillable(form) { return Array.from(form.elements).some(editable); }

  // Nothing typed or picked in the form: every field as the page gave it.
  function pristine(form) { return Array.from(form.elements).filter(editable).every(pristineField); }

  // The referee's values back in the form (its own ids and version stay the form's).
  function fill(form, fields) {
    const values = {};
    fields.forEach((pair) => { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    Array.from(form.elements).filter(editable).forEach((el) => {
      const given = values[el.name] || [];
      const before = el.type === "radio" || el.type === "checkbox" ? el.checked : el.value;
      if (el.type === "radio" || el.type === "checkbox") {
        el.checked = given.indexOf(el.value) >= 0;
      } else if (el.tagName === "SELECT" && el.multiple) {
        Array.from(el.options).forEach((o) => { o.selected = given.indexOf(o.value) >= 0; });
      } else if (el.tagName === "SELECT") {
        const found = Array.from(el.options).findIndex((o) => o.value === (given[0] || ""));
        el.selectedIndex = found >= 0 ? found : defaultIndex(el);
      } else {
        el.value = given.length ? given[0] : "";
      }
      const after = el.type === "radio" || el.type === "checkbox" ? el.checked : el.value;
      if (after !== before) {
        ["input", "change"].forEach((type) => el.dispatchEvent(new Event(type, { bubbles: true })));
      }
      const details = el.closest("details");
      if (details && !pristineField(el)) { details.open = true; }
    });
  }

  function clearErrors(form) {
    if (!form) { return; }
    form.querySelectorAll("[data-desk-error]").forEach((el) => el.remove());
    form.querySelectorAll("[aria-invalid]").forEach((el) => {
      el.removeAttribute("aria-invalid");
      el.removeAttribute("aria-describedby");
    });
  }

  let serial = 0;
  // Each message next to the first of its fields the form has; one without a field by the
  // form's button.
  function showErrors(form, rows, fallback) {
    clearErrors(form);
    const list = rows && rows.length ? rows : [{ fields: [], text: fallback || "" }];
    list.forEach((row) => {
      if (!row.text) { return; }
      const note = document.createElement("p");
      note.className = "desk-field-error";
      note.dataset.deskError = "1";
      note.id = "desk-error-" + (serial += 1);
      note.textContent = row.text;
      const name = (row.fields || []).find((n) => form.querySelector("[name='" + n + "']"));
      const inputs = name ? Array.from(form.querySelectorAll("[name='" + name + "']")) : [];
      if (inputs.length) {
        const anchor = inputs[0].closest(".ref-seg, fieldset, label") || inputs[0];
        anchor.after(note);
        inputs.forEach((el) => { el.setAttribute("aria-invalid", "true"); el.setAttribute("aria-describedby", note.id); });
        const details = anchor.closest("details");
        if (details) { details.open = true; }
      } else {
        const button = form.querySelector("button[type=submit], button:not([type])");
        if (button) { button.before(note); } else { form.appendChild(note); }
      }
    });
  }

  // The label a field shows, with a name as the referee reads it: "Зоя Петрова (A2)".
  function labelText(label) {
    const copy = label.cloneNode(true);
    copy.querySelectorAll("input, select, textarea, [data-desk-error]").forEach((el) => el.remove());
    copy.querySelectorAll(".ref-who").forEach((who) => {
      const badge = text(who.querySelector(".ref-badge"));
      const name = text(who.querySelector(".ref-name"));
      who.textContent = name ? name + (badge ? " (" + badge + ")" : "") : badge;
    });
    return text(copy);
  }

  function element(tag, cls, content) {
    const el = document.createElement(tag);
    if (cls) { el.className = cls; }
    if (content) { el.textContent = content; }
    return el;
  }

  function clock(iso) {
    const at = new Date(iso);
    return isNaN(at) ? "" : at.toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
  }

  // The conflict, side by side (stacked on a phone): the server's changes since the device
  // last synced, and the device's entries, each held one with its own "apply" and "drop".
  // o: { t, since, items, line(item), held(item), apply(item), drop(item), button(label, fn, cls) }
  function conflictBox(o) {
    const box = element("div", "desk-conflict");
    box.appendChild(element("p", "desk-conflict-what", o.t("decide")));
    const sides = element("div", "desk-conflict-sides");
    const server = element("section", "desk-conflict-server");
    server.appendChild(element("h3", "", o.t("server-since")));
    if (o.since.length) {
      const ol = element("ol", "desk-conflict-list");
      o.since.forEach((change) => {
        const li = element("li", change.deal ? "desk-change desk-change-deal" : "desk-change");
        li.appendChild(element("span", "desk-change-at", clock(change.at)));
        li.appendChild(element("strong", "", " " + change.text));
        if (change.by) { li.appendChild(element("small", "", " · " + change.by)); }
        ol.appendChild(li);
      });
      server.appendChild(ol);
    } else {
      server.appendChild(element("p", "muted", o.latest || o.t("server")));
    }
    const device = element("section", "desk-conflict-device");
    device.appendChild(element("h3", "", o.t("yours")));
    const ol = element("ol", "desk-sync-items desk-conflict-list");
    o.items.forEach((item) => {
      const li = o.line(item);
      if (o.held(item)) {
        const actions = element("div", "desk-sync-actions");
        actions.appendChild(o.button(o.t("apply"), () => o.apply(item), "primary desk-apply"));
        actions.appendChild(o.button(o.t("drop"), () => o.drop(item), "desk-drop"));
        li.appendChild(actions);
      }
      ol.appendChild(li);
    });
    device.appendChild(ol);
    sides.appendChild(server);
    sides.appendChild(device);
    box.appendChild(sides);
    return box;
  }

  // Refused entries, each with why (in words) and a way to put it back into its form (after a
  // question when the form holds something else) or drop it.
  // o: { t, items, line(item), form(item), putBack(item), drop(item), button(label, fn, cls) }
  function refusals(o) {
    const box = element("div", "desk-sync-problem");
    const ol = element("ol", "desk-sync-items desk-refusals");
    o.items.forEach((item) => {
      const li = o.line(item);
      li.appendChild(element("p", "desk-sync-reason", item.inForm ? o.t("in-form") : item.reason));
      const actions = element("div", "desk-sync-actions");
      const form = item.inForm ? null : o.form(item);
      if (form && fillable(form)) {
        actions.appendChild(o.button(o.t("put-back"), () => {
          if (pristine(form) || window.confirm(o.t("replace-confirm"))) { o.putBack(item); }
        }, "primary desk-put-back"));
      }
      actions.appendChild(o.button(o.t("drop"), () => o.drop(item), "desk-drop"));
      li.appendChild(actions);
      ol.appendChild(li);
    });
    box.appendChild(ol);
    return box;
  }

  window.DeskDecide = {
    refusals: refusals,
    identity: identity, formFor: formFor, pristine: pristine, fillable: fillable, fill: fill,
    showErrors: showErrors, clearErrors: clearErrors, labelText: labelText, conflictBox: conflictBox,
  };
})();
