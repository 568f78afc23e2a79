// Referee desk: the provisional scoreboard. While actions wait in the device's queue
// (desk-offline.js tells with a "desk:queue" event: {party, items, online}), the scoreboard
// shows the server's last confirmed totals plus the queued deals, the deal number, a target
// reached and, once the clock is out, that the deal in play is the last one, all marked
// "not yet saved" until the server's scoreboard comes. The rules are the rule set's plain data
// sent with the scoreboard (#desk-board-data, referee/board.py, scoring/rules/board.py): this
// file knows no game. Where a rule set's deals cannot be scored here (rules: null) the board
// counts the queued deals and says the score waits for the server. Also, without any queue:
// a clock that ran out between two refreshes says the deal in play is the last one.
(function () {
  "use strict";
  const texts = document.getElementById("desk-board");
  if (!texts) { return; }
  const OFFSET_KEY = "desk.clockOffset";
  const TICK_MS = 1000;

  function t(name, values) {
    let text = texts.getAttribute("data-t-" + name) || name;
    Object.keys(values || {}).forEach((key) => { text = text.split("{" + key + "}").join(String(values[key])); });
    return text;
  }

  function offset() {
    try { return parseFloat(localStorage.getItem(OFFSET_KEY)) || 0; } catch (e) { return 0; }
  }

  // -- a deal's points from its form fields, by the rule data ------------------------------------
  function value(fields, name) {
    let found = null;
    fields.forEach((pair) => { if (pair[0] === name && pair[1] !== "") { found = pair[1]; } });
    return found;
  }

  function count(text) {
    return text !== null && /^\d+$/.test(String(text).trim()) ? parseInt(text, 10) : null;
  }

  function zero(rules) {
    const out = {};
    rules.sides.forEach((side) => { out[side] = 0; });
    return out;
  }

  function sideOf(rules, who) {
    if (who === null) { return null; }
    if (rules.sides.indexOf(who) >= 0) { return who; }
    return rules.seat_side[who] || null;
  }

  // The tied side met first going round the seats from the one who led (his own side first).
  function nearestAfter(rules, led, tied) {
    const seats = rules.seats;
    const start = seats.indexOf(led);
    if (start < 0) { return null; }
    for (let step = 0; step < seats.length; step += 1) {
      const side = rules.seat_side[seats[(start + step) % seats.length]];
      if (tied.indexOf(side) >= 0) { return side; }
    }
    return null;
  }

  function sumOf(values, except) {
    return Object.keys(values).reduce((total, key) => total + (key === except ? 0 : values[key]), 0);
  }

  // Pips left per seat, summed per side: {bySide, total} or null if a seat's pips are missing.
  function readPips(rules, fields, out) {
    const f = rules.fields;
    const bySide = zero(rules);
    let given = 0;
    for (const seat of rules.seats) {
      let pips = count(value(fields, f.pips + seat));
      if (value(fields, f.pips + seat) !== null) { given += 1; }
      if (pips === null && seat === out) { pips = 0; }
      if (pips === null) { return given ? null : undefined; }
      bySide[rules.seat_side[seat]] += pips;
    }
    return { bySide: bySide, total: sumOf(bySide) };
  }

  function anyPips(rules, fields) {
    return rules.seats.some((seat) => value(fields, rules.fields.pips + seat) !== null);
  }

  // {outcome, winner, points, carry} of a queued deal; null: it cannot be scored here.
  function scoreDeal(rules, fields) {
    const f = rules.fields;
    const outcome = value(fields, f.outcome);
    if (rules.nothing.indexOf(outcome) >= 0) { return { outcome: outcome, winner: null, points: zero(rules), carry: 0 }; }
    const wentOut = value(fields, f.went_out);
    let winner = null;
    f.winner.forEach((name) => { winner = winner || sideOf(rules, value(fields, name)); });
    if (anyPips(rules, fields)) {
      if (!rules.pips) { return null; }
      const out = wentOut || (outcome === "domino" ? rules.seats.find((seat) => rules.seat_side[seat] === winner) : null);
      const hands = readPips(rules, fields, out);
      if (!hands) { return null; }
      if (outcome === "domino") {
        if (!winner) { return null; }
        const points = zero(rules);
        points[winner] = rules.pips.domino === "all" ? hands.total : sumOf(hands.bySide, winner);
        return { outcome: outcome, winner: winner, points: points, carry: 0 };
      }
      if (outcome !== "fish") { return null; }
      const fewest = Math.min.apply(null, rules.sides.map((side) => hands.bySide[side]));
      const lowest = rules.sides.filter((side) => hands.bySide[side] === fewest);
      let won = lowest.length === 1 ? lowest[0] : null;
      if (!won && rules.pips.tie === "led") {
        won = nearestAfter(rules, value(fields, f.led), lowest);
        if (!won) { return null; }
      }
      if (!won) { return { outcome: "drawn_fish", winner: null, points: zero(rules), carry: hands.total }; }
      const points = zero(rules);
      points[won] = rules.pips.fish === "all" ? hands.total : sumOf(hands.bySide, won);
      return { outcome: outcome, winner: won, points: points, carry: 0 };
    }
    const perSide = rules.sides.filter((side) => value(fields, f.per_side + side) !== null);
    if (perSide.length) {
      const points = zero(rules);
      for (const side of perSide) {
        const n = count(value(fields, f.per_side + side));
        if (n === null) { return null; }
        points[side] = n;
      }
      return { outcome: outcome, winner: winner, points: points, carry: 0 };
    }
    const quick = count(value(fields, f.quick));
    if (quick === null || !winner) { return null; }
    const points = zero(rules);
    points[winner] = quick;
    return { outcome: outcome, winner: winner, points: points, carry: 0 };
  }

  // -- the running score: the confirmed totals plus the queued deals -----------------------------
  // `deals`: [{fields, at}] in order (`at`: when it was entered, on the server's clock).
  function provisional(data, deals, now) {
    const rules = data.rules;
    const confirmed = data.confirmed;
    const result = { number: confirmed.deal_in_play + deals.length, queued: deals.length, unscored: 0 };
    if (!rules) { return result; }
    const dealPoints = Object.assign(zero(rules), confirmed.deal_points);
    let carry = confirmed.carry || 0;
    let after = confirmed.deals_after_expiry || 0;
    // the seeds allow one deal counted after the time ran out (scoring.totals.compute.counted_after_time_up)
    let counted = !!confirmed.counted_after_time_up;
    const expires = data.clock.expires_at;
    deals.forEach((deal) => {
      const score = scoreDeal(rules, deal.fields);
      if (!score) { result.unscored += 1; return; }
      if (score.outcome === "drawn_fish") {
        if (rules.carry) { carry += score.carry; }
      } else {
        rules.sides.forEach((side) => { dealPoints[side] += score.points[side] || 0; });
        if (carry && score.winner && (score.outcome === "domino" || score.outcome === "fish")) {
          dealPoints[score.winner] += carry;
          carry = 0;
        }
      }
      const inTime = value(deal.fields, rules.fields.in_time) === "true";
      if (rules.nothing.indexOf(score.outcome) < 0 && expires !== null && deal.at > expires) {
        if (inTime && !counted) { counted = true; } else { after += 1; }
      }
    });
    const points = {};
    // the server's totals (fines counted and, without allow_negative, floored at each step:
    // scoring.rules.ledger) plus what the queued deals add
    rules.sides.forEach((side) => {
      const total = (confirmed.points[side] || 0) + dealPoints[side] - (confirmed.deal_points[side] || 0);
      points[side] = rules.allow_negative ? total : Math.max(0, total);
    });
    result.points = points;
    result.carry = carry;
    result.phase = rules.ending ? decide(rules, points, expires !== null && now >= expires, after) : null;
    return result;
  }

  // The rule set's end of a party (RuleSet.decide): the target, else the time and the deal in play.
  function decide(rules, points, expired, after) {
    const best = Math.max.apply(null, rules.sides.map((side) => points[side]));
    const leaders = rules.sides.filter((side) => points[side] === best);
    if (best >= rules.target) {
      return leaders.length === 1 ? { state: "finished", winner: leaders[0], reason: "target" } : { state: "extra_deal" };
    }
    if (expired) {
      if (after === 0) { return { state: "last_deal" }; }
      return leaders.length === 1 ? { state: "finished", winner: leaders[0], reason: "time" } : { state: "extra_deal" };
    }
    return { state: "continue" };
  }

  // -- the screen --------------------------------------------------------------------------------
  let queue = { party: null, items: [], online: true };
  let seen = { node: null, deals: {}, others: {}, states: {} };  // queued since the board shown was made
  // An action leaves the queue saved, or dropped by the referee (only a refused or conflicting
  // one is offered to drop): one last seen in these states is not counted any more.
  const DROPPABLE = ["failed", "refused", "conflict", "confirm"];

  function boardData() {
    const node = document.getElementById("desk-board-data");
    if (!node) { return null; }
    if (seen.node !== node) {  // a fresh scoreboard from the server: it holds what was saved
      seen = { node: node, deals: {}, others: {}, states: {} };
      try { seen.data = JSON.parse(node.textContent); } catch (e) { seen.data = null; }
    }
    return seen.data;
  }

  // An action's own mark: its moment of entry and address (its id comes when the store has it,
  // its key changes when it is sent again).
  function keyOf(item) { return item.created + " " + item.url; }

  function render() {
    const data = boardData();
    const board = document.getElementById("scoreboard");
    if (!data || !board || data.status !== "in_progress") { return; }
    const mine = queue.items.filter((item) => String(item.party) === String(data.party));
    const queuedNow = {};
    mine.forEach((item) => {
      const key = keyOf(item);
      queuedNow[key] = true;
      seen.states[key] = item.state;
      const bucket = item.url === data.deal_url ? seen.deals : seen.others;
      if (item.state === "failed" || item.state === "refused") { delete bucket[key]; return; }  // refused: not going in as it is
      bucket[key] = { fields: item.fields, at: item.created + offset(), created: item.created };
    });
    [seen.deals, seen.others].forEach((bucket) => Object.keys(bucket).forEach((key) => {
      if (!queuedNow[key] && DROPPABLE.indexOf(seen.states[key]) >= 0) { delete bucket[key]; }
    }));
    // Deals saved since this board was made stay counted until the server's board comes.
    const deals = Object.keys(seen.deals).map((k) => seen.deals[k]).sort((a, b) => a.created - b.created);
    const waiting = deals.length + Object.keys(seen.others).length;
    const saving = waiting > 0 && !Object.keys(queuedNow).length;
    const now = Date.now() + offset();
    const shown = provisional(data, deals, now);
    board.classList.toggle("is-provisional", deals.length > 0 && Boolean(data.rules));
    const note = board.querySelector("[data-board-note]");
    if (deals.length) {
      if (shown.points) {
        Object.keys(shown.points).forEach((side) => {
          const el = board.querySelector("[data-total='" + side + "']");
          if (el) { el.textContent = String(shown.points[side]); }
        });
      }
      const number = board.querySelector("[data-deal-in-play]");
      if (number) { number.textContent = String(shown.number); }
    }
    phase(board, data, shown, now);
    if (!note) { return; }
    const lines = [];
    if (deals.length && !data.rules) {
      lines.push(t("waits", { n: deals.length }));
    } else if (deals.length) {
      lines.push(t(saving ? "saving" : "unsaved", { n: deals.length }));
      if (shown.unscored) { lines.push(t("unscored", { n: shown.unscored })); }
    }
    const others = Object.keys(seen.others).length;
    if (others && deals.length) { lines.push(t("others", { n: others })); }
    note.hidden = !lines.length;
    note.textContent = lines.join(" ");
  }

  function phase(board, data, shown, now) {
    const label = board.querySelector(".ref-phase");
    if (!label) { return; }
    if (label.dataset.server === undefined) { label.dataset.server = label.textContent; }
    let text = label.dataset.server;
    const names = data.names || {};
    if (shown.queued && shown.phase) {
      const state = shown.phase.state;
      if (state === "finished") {
        text = t(shown.phase.reason === "target" ? "won-target" : "won-time", { side: names[shown.phase.winner] || shown.phase.winner });
      } else if (state === "last_deal" || state === "extra_deal") {
        text = t(state);
      } else if (data.clock.paused) {
        text = t("paused");
      } else {
        text = t("continue");
      }
    } else if (!shown.queued && data.clock.expires_at !== null && now >= data.clock.expires_at
               && (data.confirmed.deals_after_expiry || 0) === 0 && label.classList.contains("phase-continue")) {
      text = t("last_deal");  // the clock ran out since the server's board was made
    }
    label.textContent = text;
    label.classList.toggle("is-provisional", text !== label.dataset.server);
  }

  document.addEventListener("desk:queue", (event) => {
    queue = Object.assign({ party: null, items: [], online: true }, event.detail || {});
    render();
  });
  document.addEventListener("htmx:afterSwap", () => render());
  setInterval(render, TICK_MS);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", render); } else { render(); }

  window.DeskBoard = { scoreDeal: scoreDeal, provisional: provisional };
})();
