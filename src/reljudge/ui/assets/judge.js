// reljudge judging widget (Streamlit components v2), loaded after outbox.js.
// Grades are shown the moment a key is pressed; the shared outbox (outbox.js) saves
// them through POST /api/events; the widget reruns only to move between questions or
// to take the server's newer state. Corpus text is only ever set with textContent:
// never interpreted as HTML.
// The paragraph's text, with the question's content words marked where the lead switched
// highlighting on: only text nodes and <mark> elements, never HTML. Spans count code
// points (as the server does), so the text is walked as code points, not UTF-16 units.
function textWithMarks(text, marks) {
  const box = el("div", "rj-text");
  if (!marks || !marks.length) { box.textContent = text; return box; }
  const chars = Array.from(text);
  let at = 0;
  for (const [start, len] of marks) {
    if (start < at) continue;
    if (start > at) box.append(document.createTextNode(chars.slice(at, start).join("")));
    box.append(el("mark", "rj-mark", chars.slice(start, start + len).join("")));
    at = start + len;
  }
  if (at < chars.length) box.append(document.createTextNode(chars.slice(at).join("")));
  return box;
}
// The questions the page holds for a move, painted at once on Enter/]/[/U (issue 35.2):
// each server render brings the payloads of the questions around its own (the annotator's
// own queue: next, next2, next3, prev, prev2, next_open) and the queue's order there. They
// are kept across renders (also those of questions passed on the way, which are not
// painted), so that Enters back to back go on painting at once while the server catches
// up behind; a question the page has shown keeps the page's own state of it (its latest
// grades), which no older server payload replaces.
const HELD_KEEP = 12;
function holdAhead(data) {
  G.heldPayloads = G.heldPayloads || {}; G.heldMine = G.heldMine || {};
  const a = data.ahead || {}, payloads = data.ahead_payloads || {};
  for (const [q, p] of Object.entries(payloads)) if (!G.heldMine[q]) G.heldPayloads[q] = p;
  // the server's own render of a question is the newest state of it
  G.heldMine[data.qid] = false;
  // the queue's order around this question (the queue clamps at its ends: no repeats)
  const order = [];
  for (const q of [a.prev2, a.prev, data.qid, a.next, a.next2, a.next3]) if (q && !order.includes(q)) order.push(q);
  // merged with what an earlier render said (the campaign's order does not change under
  // the page): a late render of a question passed on the way does not shorten it
  const old = G.order || [];
  const lo = old.indexOf(order[0]), hi = old.indexOf(order[order.length - 1]);
  G.order = (lo >= 0 ? old.slice(0, lo) : []).concat(order, hi >= 0 ? old.slice(hi + 1) : []).slice(-40);
  G.nextOpen = { from: data.qid, to: a.next_open };
  // bounded: only what the order around the latest render names stays held
  const keep = new Set(order.concat(a.next_open ? [a.next_open] : []));
  const ids = Object.keys(G.heldPayloads);
  if (ids.length > HELD_KEEP) for (const q of ids) if (!keep.has(q)) { delete G.heldPayloads[q]; delete G.heldMine[q]; }
}
// Where a move from the question shown goes, when the page holds that question (else null:
// the server's render is waited for): by the queue's order the page knows; the next
// unfinished one (U) is the first held one after this that is not done.
function heldTarget(to, data) {
  const order = G.order || [], held = G.heldPayloads || {};
  const i = order.indexOf(data.qid);
  let q = null;
  if (to === "next" && i >= 0) q = order[i + 1];
  else if (to === "prev" && i > 0) q = order[i - 1];
  else if (to === "next_open") {
    // the first one after this that is not done, among questions all held up to it
    for (const x of i >= 0 ? order.slice(i + 1) : []) {
      if (!held[x] || !held[x].plan) break;
      if (held[x].plan.done === false) { q = x; break; }
    }
    if (!q && G.nextOpen && G.nextOpen.from === data.qid) q = G.nextOpen.to;
  }
  return q && q !== data.qid && held[q] ? q : null;
}
// Questions whose "nothing citable" prompt the annotator put off (Esc): asked once per
// question in this browser, not at every visit.
function nothingKey() { return "reljudge-nothing-asked-" + (G.user || "?"); }
function nothingPutOff() { try { return new Set(JSON.parse(localStorage.getItem(nothingKey()) || "[]")); } catch (e) { return new Set(); } }
function putOffNothing(qid) {
  const s = nothingPutOff(); s.add(qid);
  try { localStorage.setItem(nothingKey(), JSON.stringify([...s])); } catch (e) {}
}
function compactOn() { try { return localStorage.getItem("reljudge-compact") === "1"; } catch (e) { return false; } }

export default function render(component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  const L = data.labels;
  takeRerun(data);
  if (!component.held) holdAhead(data);
  // A question painted from what the page held: the server's renders of the questions it
  // passes on the way (two quick Enters) are not painted over it; its render of the
  // painted question (or none within 15 s: the server disagrees) takes over again.
  if (component.held) { G.heldQid = data.qid; G.heldAt = performance.now(); }
  else if (G.heldQid) {
    if (data.qid !== G.heldQid && performance.now() - G.heldAt < 15000) return () => {};
    G.heldQid = null;
  }

  let root = parentElement.querySelector(".rj");
  // The judging plan (docs/judging-plans.md#판정-계획--judging-plans): under rr-first the paragraphs to judge now
  // come first and change as grades settle the systems' RR@K (the server says which).
  const plan = data.plan || { name: "complete", now_key: "" };
  const planned = plan.name !== "complete";
  const doneAtRender = !!plan.done;
  if (planned && !plan.now) plan.now = data.items.filter((it) => it.now).map((it) => it.pid);
  // Rebuild for another question, another language, a rebuilt pool (other cards), or
  // other paragraphs to judge now than the server said last (its renders and its answers
  // to saves; the page's own step ahead, plan.then, is not a reason).
  // A render computed before a save the page has had answered since (a rerun started
  // before the grade was stored and delivered after its answer) is behind: its grades are
  // older than the stored ones the page knows (G.stored, by the server's event ids), and its
  // list of what to judge now is older than the answer's.
  const storedHere = (pid) => G.stored && G.stored[data.qid + "\u0000" + pid];
  const behind = data.items.some((it) => { const s = storedHere(it.pid); return !!s && !(it.eid >= s.eid); });
  const fresh = !root || root.dataset.qid !== data.qid || root.dataset.lang !== L.question_n ||
    root.dataset.pool !== String(data.pool_version) || (!behind && root.dataset.serverNow !== plan.now_key);
  if (!root) { root = el("div", "rj"); parentElement.appendChild(root); }
  // A render that brings nothing new for this question's plan keeps the list as the page
  // shows it: grades applied since (plan.then) are not undone by a render made before them.
  if (!fresh && planned && G.shownPlan && G.shownPlan.qid === data.qid) {
    Object.assign(plan, G.shownPlan);
    const nowSet = new Set(plan.now);
    for (const it of data.items) it.now = nowSet.has(it.pid);
  }
  // which question the server last rendered (a held question is painted before it has)
  if (!component.held) root.dataset.serverQid = data.qid;
  // the questions the page holds for a move from here (their ids only; tests and the bench read it)
  root.dataset.held = ["prev", "next", "next_open"].map((to) => [to, heldTarget(to, data)])
    .filter(([, q]) => q).map(([to, q]) => to + ":" + q).join(" ");

  // Server state merged with what is still waiting in the outbox (newest wins).
  const state = {};
  for (const it of data.items) {
    const s = storedHere(it.pid);
    state[it.pid] = s && !(it.eid >= s.eid)
      ? { grade: s.grade, note: s.note, evidence: s.evidence, saved: true, eid: s.eid }
      : { grade: it.grade, note: it.note, evidence: it.evidence, saved: true, eid: it.eid };
  }
  let noAnswer = data.no_answer;
  for (const e of G.outbox) {
    if (e.qid !== data.qid) continue;
    if (e.kind === "verdict") noAnswer = e.no_answer;
    else if (state[e.pid]) state[e.pid] = { grade: e.grade, note: e.note || "", evidence: e.evidence || "", saved: false, eid: state[e.pid].eid };
  }

  const send = () => flush();
  // A rerun of the widget: to move to another question (the outbox travels with it, so
  // nothing typed is left behind) or to take the server's state after a refusal.
  const rerun = (extra) => {
    // counted (and shown on the root): under a plan no grade may cost a page rerun
    if (extra && extra.refresh) G.refreshes = (G.refreshes || 0) + 1;
    setTriggerValue("action", Object.assign({ events: G.outbox.slice(0, BATCH), n: ++G.sent }, extra));
  };

  if (fresh) {
    root.dataset.qid = data.qid;
    root.dataset.lang = L.question_n;   // a language switch rebuilds the labels
    root.dataset.pool = String(data.pool_version);
    root.dataset.now = plan.now_key;
    root.dataset.serverNow = plan.now_key;
    root.replaceChildren();
    G.qid = data.qid;
    G.lastAction = performance.now();
    const head = el("div", "rj-head");
    const prog = el("div", "rj-progress");
    prog.append(el("span", "rj-qn", fmt(L.question_n, { i: data.index, n: data.n_questions })),
      el("span", "rj-pq"), el("span", "rj-pall"), el("span", "rj-done"), el("span", "rj-plan"),
      el("span", "rj-save"));
    head.append(prog, ...questionHead(data.question, L));
    const na = el("div", "rj-na");
    na.addEventListener("click", () => G.api.toggleNoAnswer());
    const warn = el("div", "rj-warn");
    warn.hidden = true;
    // Asked once when "no answer" is marked while paragraphs are still ungraded.
    const ask = el("div", "rj-ask");
    ask.hidden = true;
    ask.append(el("span", "rj-ask-text"));
    for (const [label, choice] of [["na_ask_yes", "rest0"], ["na_ask_only", "only"], ["na_ask_cancel", "cancel"]]) {
      const b = el("button", "", L[label]);
      b.dataset.choice = choice;
      b.addEventListener("click", (ev) => { ev.preventDefault(); G.api.answerNoAnswer(choice); });
      ask.append(b);
    }
    const skip = el("div", "rj-skip");
    skip.hidden = true;
    // Under a plan: everything it needed is judged and nothing reached the threshold.
    const nothing = el("div", "rj-ask rj-nothing");
    nothing.hidden = true;
    head.append(na, ask, nothing, el("div", "rj-conflict"), warn, skip, el("div", "rj-keys", L.shortcuts));
    root.append(head);
    const list = el("div", "rj-items");
    // The cards graded before this page came stay above it: the plan needed them.
    const restAt = planned ? data.items.findIndex((it) => !it.now && (it.grade === null || it.grade === undefined)) : -1;
    data.items.forEach((it, i) => {
      // Under a plan, the rest of the pool follows a separator (still open to judging).
      if (i === restAt) list.append(el("div", "rj-rest", L.plan_rest_items));
      const card = el("div", "rj-item");
      card.dataset.now = it.now === false ? "0" : "1";
      card.tabIndex = -1;
      card.dataset.pid = it.pid;
      card.dataset.i = i;
      const meta = el("div", "rj-meta");
      meta.append(el("span", "rj-num", "#" + (i + 1)), el("span", "rj-src", it.source || ""));
      if (it.copies > 1) meta.append(el("span", "rj-copies", fmt(L.copies, { n: it.copies })));
      meta.append(el("span", "rj-has-note"), el("span", "rj-badge"));
      const prev = el("div", "rj-ctx rj-prev", L.context_prev + ": " + (it.prev || L.no_context));
      const next = el("div", "rj-ctx rj-next", L.context_next + ": " + (it.next || L.no_context));
      prev.hidden = next.hidden = true;
      const btns = el("div", "rj-btns");
      for (const g of [2, 1, 0]) {
        const b = el("button", "", L["grade" + g]);
        b.dataset.g = g;
        b.addEventListener("click", (ev) => { ev.preventDefault(); G.cursor = at(card); G.api.setGrade(g); });
        btns.append(b);
      }
      const edit = el("div", "rj-edit");
      const note = el("input"); note.placeholder = L.note; note.className = "rj-note";
      const evid = el("input"); evid.placeholder = L.evidence; evid.className = "rj-evidence";
      note.maxLength = evid.maxLength = data.max_note;
      for (const inp of [note, evid]) inp.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === "Escape") {
          ev.preventDefault(); ev.stopPropagation();
          if (ev.key === "Enter") G.api.saveNote(at(card));
          edit.hidden = true; card.focus({ preventScroll: true });
        }
      });
      edit.append(note, evid, el("div", "rj-edit-hint", L.edit_hint));
      edit.hidden = true;
      const text = textWithMarks(it.text, it.marks);
      text.classList.add("folded");
      const unfold = el("div", "rj-unfold", L.unfold_hint);
      card.append(meta, prev, text, unfold, next, btns, edit);
      card.addEventListener("click", (ev) => {
        if (ev.target.tagName === "INPUT" || ev.target.tagName === "BUTTON") return;
        G.cursor = at(card); G.advance = false; G.api.tidyLeft(); G.api.paintCursor(false);
      });
      list.append(card);
    });
    if (!data.items.length) list.append(el("div", "rj-empty", L.empty_pool));
    root.append(list);
    root.classList.toggle("compact", compactOn());
    const nav = el("div", "rj-nav");
    for (const [k, to] of [["prev_q", "prev"], ["next_q", "next"], ["next_open", "next_open"]]) {
      const b = el("button", "", L[k]);
      b.addEventListener("click", () => G.api.navigate(to));
      nav.append(b);
    }
    root.append(nav);
    const open = (it) => state[it.pid].grade === null || state[it.pid].grade === undefined;
    const firstNow = data.items.findIndex((it) => it.now !== false && open(it));
    const firstOpen = firstNow >= 0 ? firstNow : data.items.findIndex(open);
    G.cursor = firstOpen >= 0 ? firstOpen : 0;
  }

  const cards = () => root.querySelectorAll(".rj-item");
  // a card's place now (a plan's answer may move cards up the list, see applyPlan)
  const at = (card) => [...cards()].indexOf(card);

  function paintItem(card) {
    const s = state[card.dataset.pid];
    if (!s) return;
    const g = s.grade;
    card.dataset.grade = g === null || g === undefined ? "" : String(g);
    card.dataset.saved = s.saved ? "1" : "0";
    card.querySelector(".rj-badge").textContent = g === null || g === undefined ? L.ungraded : L["grade" + g];
    const marks = [s.note ? L.note : "", s.evidence ? L.evidence_short : ""].filter(Boolean);
    card.querySelector(".rj-has-note").textContent = marks.length ? "✎ " + marks.join(" · ") : "";
    card.querySelectorAll(".rj-btns button").forEach((b) => b.classList.toggle("sel", String(g) === b.dataset.g));
    const note = card.querySelector(".rj-note"), evid = card.querySelector(".rj-evidence");
    // While the note panel is open, what is typed there is newer than any server state.
    if (card.querySelector(".rj-edit").hidden) {
      note.value = s.note || "";
      evid.value = s.evidence || "";
    }
    evid.disabled = g !== 2;
  }
  // The counts as they stand now: the render's overall counts with this question's change
  // since (the save's answer speaks of this question only). Under a plan they count the
  // plan's items, not the pool: what is left to judge now here and in the unfinished
  // questions, and the questions done (the Progress page's and reljudge next's figures).
  function counts() {
    let judged = 0, openHere = 0;
    for (const it of data.items) {
      const g = state[it.pid].grade;
      if (g !== null && g !== undefined) judged++;
      else if (!planned || it.now) openHere++;
    }
    const p = data.progress;
    return { judged, openHere, total: p.judged - p.q_judged + judged,
      done: p.questions_done - (doneAtRender ? 1 : 0) + (plan.done ? 1 : 0),
      openAll: p.open_all - p.q_open + openHere };
  }
  function paintHeader() {
    const { judged, openHere, total, done: d, openAll } = counts();
    const p = data.progress;
    const done = root.querySelector(".rj-done");
    if (planned) {
      root.querySelector(".rj-pq").textContent = fmt(L.plan_now, { n: openHere });
      root.querySelector(".rj-pall").textContent = fmt(L.progress_all_plan, {
        d, n: data.n_questions, r: openAll,
        p: data.n_questions ? Math.round((100 * d) / data.n_questions) : 0 });
      done.textContent = "";
      done.hidden = true;
    } else {
      root.querySelector(".rj-pq").textContent = fmt(L.progress_q, { j: judged, t: data.items.length });
      root.querySelector(".rj-pall").textContent = fmt(L.progress_all,
        { j: total, t: p.total, p: p.total ? Math.round((100 * total) / p.total) : 0 });
      done.textContent = fmt(L.questions_done, { d: p.questions_done, n: data.n_questions });
      done.hidden = false;
    }
    const pl = root.querySelector(".rj-plan");
    pl.hidden = !planned;
    pl.textContent = !planned ? "" : fmt(L.plan_settled, { k: plan.k, s: plan.settled, n: plan.systems }) +
      (plan.done ? " · " + L.plan_done : "");
    root.dataset.planDone = plan.done ? "1" : "0";
    const sv = root.querySelector(".rj-save");
    const waiting = G.outbox.length;
    sv.className = "rj-save " + (waiting ? "pending" : "ok");
    sv.textContent = !waiting ? L.saved : G.status === 401 ? fmt(L.save_login, { n: waiting })
      : G.status === 503 ? fmt(L.save_waiting_server, { n: waiting })
      : (waiting > 3 || G.failures) ? fmt(L.offline, { n: waiting }) : L.saving;
    root.dataset.pending = String(waiting);
    const na = root.querySelector(".rj-na");
    na.textContent = (noAnswer ? "☑ " : "☐ ") + L.no_answer + " (N)";
    na.classList.toggle("on", !!noAnswer);
    root.dataset.noAnswer = noAnswer ? "1" : "0";
    // The aggregation lets a citable grade win over "no answer": say so while both stand.
    const cited = data.items.some((it) => state[it.pid].grade >= data.rel_threshold);
    const skip = root.querySelector(".rj-skip");
    skip.textContent = data.unfinished_before ? fmt(L.unfinished_before, { n: data.unfinished_before }) : "";
    skip.hidden = !data.unfinished_before;
    // Nothing citable under a plan: ask once whether the results hold no answer (unmarked,
    // the question counts as RR 0 in every MRR; marked, it moves to the abstention table).
    const nothing = root.querySelector(".rj-nothing");
    const graded = data.items.some((it) => state[it.pid].grade !== null && state[it.pid].grade !== undefined);
    G.nothingAsking = planned && plan.done && !noAnswer && graded && !cited && !nothingPutOff().has(data.qid);
    nothing.textContent = G.nothingAsking ? fmt(L.nothing_citable_ask, { t: data.rel_threshold }) : "";
    nothing.hidden = !G.nothingAsking;
    root.dataset.nothingAsking = G.nothingAsking ? "1" : "0";
    root.dataset.refreshes = String(G.refreshes || 0);
    const conflict = root.querySelector(".rj-conflict");
    conflict.textContent = noAnswer && cited ? fmt(L.na_conflict, { t: data.rel_threshold }) : "";
    conflict.hidden = !(noAnswer && cited);
  }
  function paintCursor(scroll) {
    const cs = cards();
    cs.forEach((c, i) => c.classList.toggle("cur", i === G.cursor));
    const c = cs[G.cursor];
    if (c && scroll) {
      // Keep the card clear of the sticky header (and Streamlit's bar above it).
      const head = root.querySelector(".rj-head").getBoundingClientRect();
      c.style.scrollMarginTop = Math.ceil(head.bottom - Math.min(head.top, 0) + 8) + "px";
      c.scrollIntoView({ block: "nearest" });
    }
  }
  function push(e) {
    const now = performance.now();
    e.ms = Math.max(0, Math.round(now - G.lastAction));
    G.lastAction = now;
    e.id = uid(); e.qid = data.qid; e.client = clientId();
    // The stored state this edit was made on (the server's event id for the item).
    e.base = e.kind === "verdict" ? data.verdict_eid : (state[e.pid] ? state[e.pid].eid : 0);
    G.outbox.push(e);
    persist();
  }
  function setGrade(g) {
    const c = cards()[G.cursor];
    if (!c) return;
    const pid = c.dataset.pid;
    const s = state[pid];
    const evidence = g === 2 ? s.evidence : "";
    state[pid] = { grade: g, note: s.note, evidence, saved: false, eid: s.eid };
    push({ kind: "grade", pid, grade: g, note: s.note || "", evidence });
    paintItem(c); paintHeader();
    send();
    if (planned) markLeft();
    if (g === null) return;
    if (planned) {
      // Under a plan: what this grade does to the list is known already (plan.then), so
      // the next card to judge comes up now, not when the save's answer arrives (issue
      // 35.1); the answer then sets the list as the server has it. Where it is not known
      // (the rest of the pool follows), stay on this card until the answer brings the next.
      const next_ = predicted(plan, pid, g);
      // the header too: the grade that settles the last system says "done" at once
      if (next_) { G.advance = false; applyPlan(next_); paintHeader(); }
      const cs = [...cards()];
      const openNow = (c) => c.dataset.now === "1" && (state[c.dataset.pid].grade === null || state[c.dataset.pid].grade === undefined);
      let next = cs.findIndex((c, i) => i > G.cursor && openNow(c));
      if (next < 0) next = cs.findIndex(openNow);
      G.advance = next < 0;
      if (next >= 0) { G.cursor = next; tidyLeft(); paintCursor(true); }
    } else if (G.cursor < cards().length - 1) { G.cursor++; paintCursor(true); }
  }
  // The plan's state after a save (the save route's reply, issue 35.1): the list is
  // updated in place. A card the plan asks for now comes up above the rest of the pool,
  // except the one the judge is on, which never moves; a card that left the list stays
  // where it is.
  function applyPlan(ps) {
    Object.assign(plan, { settled: ps.settled, systems: ps.systems, open_now: ps.open_now, done: ps.done,
      now_key: ps.now_key, now: ps.now, then: ps.then || {} });
    root.dataset.now = ps.now_key;
    G.shownPlan = Object.assign({}, plan, { qid: data.qid });
    const nowSet = new Set(ps.now);
    for (const it of data.items) it.now = nowSet.has(it.pid);
    const cur = cards()[G.cursor], curPid = cur ? cur.dataset.pid : null;
    const byPid = new Map([...cards()].map((c) => [c.dataset.pid, c]));
    for (const c of byPid.values()) c.dataset.now = nowSet.has(c.dataset.pid) ? "1" : "0";
    const rest = root.querySelector(".rj-rest");
    if (rest) {
      for (const pid of ps.now) {
        const c = byPid.get(pid);
        if (c && pid !== curPid && (rest.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING))
          rest.parentNode.insertBefore(c, rest);
      }
    }
    const cs = [...cards()];
    G.cursor = Math.max(0, cs.findIndex((c) => c.dataset.pid === curPid));
    markLeft();
    const openNow = (c) => c.dataset.now === "1" && (state[c.dataset.pid].grade === null || state[c.dataset.pid].grade === undefined);
    if (G.advance && !openNow(cs[G.cursor])) {
      const next = cs.findIndex(openNow);
      if (next >= 0) { G.cursor = next; G.advance = false; }
    }
    paintCursor(true);
  }
  // The plan's state after grading ``pid`` with ``g``, from ``ps.then`` (the server's
  // reljudge.campaign.plan.after_grade: for each card to judge now, what grading it
  // relevant or not does, and from there what the next grade does, a few grades deep);
  // null where the server has to say (tests/test_plan_after_grade.py
  // checks the rule against the server's own state after the grade).
  function predicted(ps, pid, g) {
    const branches = ps.then && ps.then[pid];
    const d = g === null || g === undefined || !branches ? null : branches[g >= data.rel_threshold ? "rel" : "not"];
    if (!d) return null;
    const now = ps.now.filter((p) => p !== d.drop).concat(d.add.filter((p) => !ps.now.includes(p)));
    const open_now = ps.open_now - 1 + d.add.length;
    // the change's own tree: what the next grade does from the list it leaves (keys back
    // to back); none where the server's tree stops (the page waits for the answer there)
    return { now, now_key: now.join("|"), settled: ps.settled + d.settle, systems: ps.systems, open_now,
      done: open_now <= 0, then: d.then || {} };
  }
  // The server's state with the grades still on their way applied on top (in order), so
  // that an answer to an earlier save does not undo what the judge has done since.
  function withPending(ps) {
    let s = ps;
    for (const e of G.outbox) {
      if (e.qid !== data.qid || e.kind !== "grade") continue;
      const p = predicted(s, e.pid, e.grade);
      if (p) s = p;
    }
    return s;
  }
  // A card that left the plan's list (ungraded, no longer to judge now, above the rest of
  // the pool) stays where it is, greyed, so that nothing moves under the judge's eyes;
  // once the judge moves (tidyLeft), the ones they are not on go back to the rest.
  function markLeft() {
    const rest = root.querySelector(".rj-rest");
    for (const c of cards()) {
      const g = state[c.dataset.pid].grade;
      const above = !rest || !!(rest.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_PRECEDING);
      c.classList.toggle("rj-left", planned && c.dataset.now === "0" && (g === null || g === undefined) && above);
    }
  }
  function tidyLeft() {
    const cur = cards()[G.cursor];
    const moving = [...root.querySelectorAll(".rj-item.rj-left")].filter((c) => c !== cur);
    if (!moving.length) return;
    let after = root.querySelector(".rj-rest");
    if (!after) { after = el("div", "rj-rest", L.plan_rest_items); root.querySelector(".rj-items").append(after); }
    for (const c of moving) { c.classList.remove("rj-left"); after.after(c); after = c; }
    G.cursor = Math.max(0, [...cards()].indexOf(cur));
  }
  function saveNote(i) {
    const c = cards()[i];
    const pid = c.dataset.pid;
    const s = state[pid];
    const note = c.querySelector(".rj-note").value, evidence = c.querySelector(".rj-evidence").value;
    state[pid] = { grade: s.grade, note, evidence: s.grade === 2 ? evidence : "", saved: false, eid: s.eid };
    push({ kind: "grade", pid, grade: s.grade, note, evidence: state[pid].evidence });
    paintItem(c); paintHeader(); send();
  }
  function ungraded() {
    return [...cards()].filter((c) => state[c.dataset.pid].grade === null || state[c.dataset.pid].grade === undefined);
  }
  function toggleNoAnswer() {
    const open = ungraded();
    // Under a plan no paragraph gets a grade nobody gave it: "no answer" marks the verdict only.
    if (!noAnswer && open.length && !planned) {
      // "No answer" does not grade the paragraphs: ask once what the rest are.
      const ask = root.querySelector(".rj-ask");
      ask.querySelector(".rj-ask-text").textContent = fmt(L.na_ask, { n: open.length });
      ask.hidden = false;
      G.asking = true;
      return;
    }
    noAnswer = !noAnswer;
    push({ kind: "verdict", no_answer: noAnswer });
    paintHeader(); send();
  }
  function answerNoAnswer(choice) {
    root.querySelector(".rj-ask").hidden = true;
    G.asking = false;
    if (choice === "cancel") return;
    if (choice === "rest0") {
      for (const c of ungraded()) {
        const pid = c.dataset.pid, s = state[pid];
        state[pid] = { grade: 0, note: s.note, evidence: "", saved: false, eid: s.eid };
        push({ kind: "grade", pid, grade: 0, note: s.note || "", evidence: "" });
        paintItem(c);
      }
    }
    noAnswer = true;
    push({ kind: "verdict", no_answer: true });
    paintHeader(); send();
  }
  // A move paints the question the page holds for it at once; the server moves behind
  // (position, sidebar) and its render of the same question keeps these cards.
  // The question held for the move keeps this one as its way back (as shown now: the
  // latest grades), and for Enter the question after it (the server sent two ahead), so a
  // second key before the server has caught up is painted at once too.
  function navigate(to) {
    const target = heldTarget(to, data);
    const held = target && G.heldPayloads[target];
    // "from": the question shown, so that the server moves from there even when it has not
    // caught up with an earlier move (two quick Enters can reach it as one action)
    const send = () => rerun({ nav: to, from: data.qid });
    if (!held) {
      // Nothing held for this move: the server's render of wherever it goes is the one to
      // paint (not one to wait past, as for a held question).
      G.heldQid = null;
      send();
      return;
    }
    // The overall counts as they stand now go with the painted question (its payload was
    // made before the latest grades of this one), and this question keeps its own.
    const c = counts();
    const overall = { judged: c.total, questions_done: c.done, open_all: c.openAll };
    const here = Object.assign({}, data, {
      items: data.items.map((it) => Object.assign({}, it, {
        grade: state[it.pid].grade, note: state[it.pid].note || "", evidence: state[it.pid].evidence || "", eid: state[it.pid].eid })),
      progress: Object.assign({}, data.progress, overall, { q_judged: c.judged, q_open: c.openHere }),
      plan: Object.assign({}, plan), no_answer: noAnswer, ahead: {}, ahead_payloads: {} });
    // this question as shown now is its own way back (newer than any payload the server made)
    G.heldPayloads[data.qid] = here; G.heldMine[data.qid] = true;
    render({ data: Object.assign({}, data, held, { ahead: {}, ahead_payloads: {}, acked: [],
      progress: Object.assign({}, held.progress, overall) }),
      parentElement, setTriggerValue, held: true });
    send();
  }

  // The server's answer to a save (null: it failed and will be retried).
  G.onAck = (batch, res) => {
    if (res) {
      for (const e of batch) {
        const eid = res.eids && res.eids[e.id];
        if (!eid || e.kind === "verdict") continue;
        if (e.qid === data.qid && state[e.pid]) state[e.pid].eid = eid;
        // what is stored, for a render that arrives behind it (see `behind`)
        G.stored = G.stored || {};
        G.stored[e.qid + "\u0000" + e.pid] = { grade: e.grade, note: e.note || "", evidence: e.evidence || "", eid };
      }
      for (const pid of Object.keys(state))
        state[pid].saved = !G.outbox.some((e) => e.qid === data.qid && e.pid === pid);
      const refused = showRefusals(root, res, L);
      // Refused edits (e.g. a newer judgment from another browser): show the server's state.
      // Under a plan, a stored grade of this question may settle a system's RR@K and change
      // what is to judge now: only the server knows (rankings never reach the browser).
      const ps = res.plan && res.plan[data.qid];
      if (refused) rerun({ refresh: true });
      else if (planned && ps) { root.dataset.serverNow = ps.now_key; applyPlan(withPending(ps)); }
      else if (planned && !G.outbox.length && batch.some((e) => e.qid === data.qid && e.kind !== "verdict"))
        rerun({ refresh: true });  // a reply without the plan's state (an older server)
      G.authLost = false;
    } else if (G.status === 401 && !G.authLost) {
      // The login ended (logged out elsewhere, deactivated, expired): the page says so;
      // the outbox stays in this browser and is sent after the next login.
      G.authLost = true;
      rerun({ refresh: true });
    }
    cards().forEach(paintItem);
    paintHeader();
  };
  G.api = { setGrade, saveNote, toggleNoAnswer, answerNoAnswer, navigate, paintCursor, tidyLeft, send };
  // The header grows when a warning or the "no answer" question shows: keep the current
  // card clear of it (it is sticky and would cover the card's top).
  if (G.headObserver) G.headObserver.disconnect();
  if (window.ResizeObserver) {
    G.headObserver = new ResizeObserver(() => {
      const c = cards()[G.cursor], head = root.querySelector(".rj-head");
      if (c && head && c.getBoundingClientRect().top < head.getBoundingClientRect().bottom) paintCursor(true);
    });
    G.headObserver.observe(root.querySelector(".rj-head"));
  }
  if (planned) G.shownPlan = Object.assign({}, plan, { qid: data.qid });
  cards().forEach(paintItem);
  paintHeader();
  paintCursor(fresh);
  G.path = window.location.pathname;
  flush();

  // Keys pressed while the widget was being replaced (a reconnect re-renders it) were
  // parked by the previous handler: apply them now, in order, to this question.
  const parked = G.parked.filter((p) => p.qid === data.qid && performance.now() - p.at < 30000);
  G.parked = [];

  // One keyboard handler for the page, replaced on each render so it sees this render's data.
  if (G.onKey) document.removeEventListener("keydown", G.onKey, true);
  G.onKey = (ev) => {
    if (!root.isConnected) {
      // Between two renders of the judging page (e.g. while it reconnects to a restarted
      // server) the cards are gone for a moment: keep the key for the next render rather
      // than drop it. Keys on other pages (another address) are not kept.
      if (window.location.pathname === G.path && /^[012nN]$|^Backspace$|^Delete$/.test(ev.key) &&
          !(ev.ctrlKey || ev.metaKey || ev.altKey)) {
        G.parked.push({ key: ev.key, qid: data.qid, pid: (cards()[G.cursor] || {}).dataset?.pid, at: performance.now() });
        ev.preventDefault(); ev.stopPropagation();
      }
      return;
    }
    // Events from inside the shadow root are retargeted to its host: the real
    // target is the first element of the composed path.
    const t = ev.composedPath ? ev.composedPath()[0] : ev.target;
    const typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
    const inRoot = t && root.contains(t);
    if (typing && !inRoot) return;
    if (typing) return; // the note inputs handle their own keys
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    let handled = true;
    if (G.asking) {
      if (k === "y" || k === "Y") answerNoAnswer("rest0");
      else if (k === "n" || k === "N" || k === "Enter") answerNoAnswer("only");
      else if (k === "Escape") answerNoAnswer("cancel");
      ev.preventDefault(); ev.stopPropagation();
      return;
    }
    if (G.nothingAsking && k === "Escape") {
      putOffNothing(data.qid);
      paintHeader();
      ev.preventDefault(); ev.stopPropagation();
      return;
    }
    if (/^(ArrowDown|ArrowUp|j|J|k|K)$/.test(k)) G.advance = false;  // the judge moves: the cursor is theirs
    if (k === "ArrowDown" || k === "j" || k === "J") { G.cursor = Math.min(G.cursor + 1, cards().length - 1); tidyLeft(); paintCursor(true); }
    else if (k === "ArrowUp" || k === "k" || k === "K") { G.cursor = Math.max(G.cursor - 1, 0); tidyLeft(); paintCursor(true); }
    else if (k === "2" || k === "1" || k === "0") setGrade(Number(k));
    else if (k === "Backspace" || k === "Delete") setGrade(null);
    else if (k === "n" || k === "N") toggleNoAnswer();
    else if (k === "c" || k === "C") {
      const c = cards()[G.cursor];
      if (c) c.querySelectorAll(".rj-ctx").forEach((x) => (x.hidden = !x.hidden));
    } else if (k === "v" || k === "V") {
      // Compact layout (remembered by this browser): smaller margins, long texts folded.
      const on = !root.classList.contains("compact");
      root.classList.toggle("compact", on);
      try { localStorage.setItem("reljudge-compact", on ? "1" : "0"); } catch (e) {}
      paintCursor(true);
    } else if (k === "f" || k === "F") {
      const c = cards()[G.cursor];
      if (c) { c.querySelector(".rj-text").classList.toggle("folded"); paintCursor(true); }
    } else if (k === "e" || k === "E") {
      const c = cards()[G.cursor];
      if (c) { const ed = c.querySelector(".rj-edit"); ed.hidden = false; c.querySelector(".rj-note").focus(); }
    } else if (k === "Enter" || k === "]") navigate("next");
    else if (k === "[") navigate("prev");
    else if (k === "u" || k === "U") navigate("next_open");
    else handled = false;
    if (handled) { ev.preventDefault(); ev.stopPropagation(); }
  };
  document.addEventListener("keydown", G.onKey, true);
  for (const p of parked) {
    const i = [...cards()].findIndex((c) => c.dataset.pid === p.pid);
    if (i >= 0) { G.cursor = i; paintCursor(true); }
    if (p.key === "n" || p.key === "N") toggleNoAnswer();
    else setGrade(p.key === "Backspace" || p.key === "Delete" ? null : Number(p.key));
  }
  // The handler stays installed when the widget unmounts (see above); the next render
  // replaces it.
  return () => {};
}
