// reljudge's outbox, shared by the keyboard widgets (judging, answer review): every
// decision is an event with a client id; events wait in an outbox mirrored to
// localStorage (a reload or a lost connection loses nothing) and are posted to the JSON
// route POST /api/events, one request in flight at a time, retried with backoff, until
// the server acknowledges (or refuses) their ids. Each widget sets G.onAck to hear the
// answers. Loaded before the widget's own script (the two are one module).
const G = (window.__reljudge = window.__reljudge || { outbox: [], qid: null, cursor: 0,
  lastAction: 0, timer: null, user: null, sent: 0, inflight: false, failures: 0,
  parked: [], path: null });
const EVENTS_URL = "/api/events";
const BATCH = 500;

// Send the outbox to the server; on failure (server down, restarting, logged out) keep
// everything and try again with backoff (0.5 s doubling to 10 s), or at once when the
// browser comes back online. A 503 (the database unreachable, or its storage full or
// read-only) says when to try again (Retry-After): the events stay here until stored.
function flush() {
  clearTimeout(G.timer);
  if (G.inflight || !G.outbox.length) return;
  G.inflight = true; G.retryAfter = 0;
  const batch = G.outbox.slice(0, BATCH);
  fetch(EVENTS_URL, { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(G.campaign ? { events: batch, campaign: G.campaign } : { events: batch }) })
    .then((r) => {
      G.status = r.status;
      G.retryAfter = r.status === 503 ? Number(r.headers.get("Retry-After")) || 0 : 0;
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    })
    .then((res) => {
      G.inflight = false; G.failures = 0; G.status = 200;
      const done = new Set([...(res.acked || []), ...Object.keys(res.rejected || {})]);
      G.outbox = G.outbox.filter((e) => !done.has(e.id));
      persist();
      if (G.onAck) G.onAck(batch, res);
      if (G.outbox.length) flush();
    })
    .catch(() => {
      G.inflight = false;
      const backoff = Math.min(10000, 500 * 2 ** Math.min(G.failures++, 5));
      const delay = G.retryAfter ? Math.min(60000, Math.max(500, 1000 * G.retryAfter)) : backoff;
      if (G.onAck) G.onAck(batch, null);
      G.timer = setTimeout(flush, delay);
    });
}
if (!G.onlineHooked) {   // both widgets load this file; one listener is enough
  window.addEventListener("online", () => { G.failures = 0; flush(); });
  G.onlineHooked = true;
}

function storeKey() { return "reljudge-outbox-" + (G.user || "?"); }
// One id per browser: the server keeps a newer judgment from another browser over an
// older edit that waited here (offline) and arrives late.
function clientId() {
  if (G.client) return G.client;
  try {
    G.client = localStorage.getItem("reljudge-client");
    if (!G.client) { G.client = uid(); localStorage.setItem("reljudge-client", G.client); }
  } catch (e) { G.client = G.client || uid(); }
  return G.client;
}
function persist() {
  try { localStorage.setItem(storeKey(), JSON.stringify(G.outbox)); } catch (e) {}
}
function restore() {
  try {
    const saved = JSON.parse(localStorage.getItem(storeKey()) || "[]");
    const have = new Set(G.outbox.map((e) => e.id));
    for (const e of saved) if (!have.has(e.id)) G.outbox.push(e);
  } catch (e) {}
}
function uid() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2);
}
function el(tag, cls, text) {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined && text !== null) n.textContent = String(text);
  return n;
}
// A widget's rerun brings the server's data: another account starts from its own outbox,
// and the events the rerun carried and stored (data.acked) leave it.
function takeRerun(data) {
  if (G.user !== data.user) { G.user = data.user; G.campaign = data.campaign || null; G.outbox = []; restore(); }
  if (data.acked && data.acked.length) {
    const acked = new Set(data.acked);
    G.outbox = G.outbox.filter((e) => !acked.has(e.id));
    persist();
  }
}
// The question as both widgets head their page: its type, its text, the lead's criteria
// (plain text nodes: corpus and question text is never HTML).
function questionHead(question, L) {
  const parts = [];
  const qt = el("div", "rj-qtext");
  if (question.type) qt.append(el("span", "rj-type", question.type));
  qt.append(document.createTextNode(question.text));
  parts.push(qt);
  if (question.criteria) {
    const cr = el("div", "rj-criteria");
    cr.append(el("b", "", L.criteria + ":"), document.createTextNode(question.criteria));
    parts.push(cr);
  }
  return parts;
}
// The server refused some events of a batch: say why in the page's warning line; returns
// whether any was refused.
function showRefusals(root, res, L) {
  const reasons = [...new Set(Object.values(res.rejected || {}))];
  const warn = root.querySelector(".rj-warn");
  warn.textContent = reasons.map((r) => fmt(L.event_rejected, { reason: L["rejected_" + r] || r })).join("\n");
  warn.hidden = !reasons.length;
  return reasons.length > 0;
}
function fmt(s, vars) { return s.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? vars[k] : "")); }
