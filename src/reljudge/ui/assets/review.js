// reljudge answer-review widget (Streamlit components v2), loaded after outbox.js.
// One generated answer at a time, sentence by sentence, each beside the paragraphs it
// cites. Every decision is a key, painted at once and saved through the shared outbox
// (POST /api/events); the widget reruns only to move to another answer or to take the
// server's newer state. Text is only ever set with textContent: never HTML.

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  const L = data.labels;
  takeRerun(data);

  let root = parentElement.querySelector(".rv");
  const fresh = !root || root.dataset.answer !== String(data.answer_id) || root.dataset.lang !== L.answer_n;
  if (!root) { root = el("div", "rj rv"); parentElement.appendChild(root); }

  // Every decision of this answer, by item key: the server's value and event id, then
  // what still waits in the outbox (newest wins).
  const key = (e) => e.kind === "support" ? `s:${e.sentence}:${e.pid}` : e.kind === "needs_citation" ? `n:${e.sentence}` : e.kind;
  const valueOf = (e) => e.kind === "needs_citation" ? e.needs_citation : e.kind === "abstention" ? e.appropriate
    : e.kind === "note" ? e.note : e.grade;
  const state = {};
  for (const s of data.sentences) {
    state[`n:${s.index}`] = { value: s.needs_citation, eid: s.needs_citation_eid, saved: true };
    for (const c of s.citations) state[`s:${s.index}:${c.pid}`] = { value: c.support, eid: c.eid, saved: true };
  }
  state.interpretation = { value: data.interpretation, eid: data.interpretation_eid, saved: true };
  state.abstention = { value: data.abstention_appropriate, eid: data.abstention_eid, saved: true };
  state.note = { value: data.note || null, eid: data.note_eid, saved: true };
  for (const e of G.outbox) {
    if (e.answer_id !== data.answer_id || !(key(e) in state)) continue;
    state[key(e)] = { value: valueOf(e), eid: state[key(e)].eid, saved: false };
  }

  const rerun = (extra) => setTriggerValue("action", Object.assign({ events: G.outbox.slice(0, BATCH), n: ++G.sent }, extra));

  // The cursor walks the items: each (sentence, citation) pair, and a sentence that
  // cites nothing (only "needs no citation" applies to it).
  const items = [];
  for (const s of data.sentences) {
    if (!s.citations.length) items.push({ sentence: s.index, pid: null });
    for (const c of s.citations) items.push({ sentence: s.index, pid: c.pid });
  }

  if (fresh) {
    root.dataset.answer = String(data.answer_id);
    root.dataset.lang = L.answer_n;
    root.replaceChildren();
    G.rcursor = 0;
    G.lastAction = performance.now();
    G.mode = null;
    const head = el("div", "rj-head");
    const prog = el("div", "rj-progress");
    prog.append(el("span", "", fmt(L.answer_n, { i: data.index, n: data.n_answers })),
      el("span", "", fmt(L.answer_in_question, { i: data.in_question.index, n: data.in_question.n })),
      el("span", "rv-done"), el("span", "rj-save"));
    head.append(prog, ...questionHead(data.question, L));
    if (data.question.no_answer_expected) head.append(el("div", "rv-flag", L.no_answer_expected));
    if (data.abstained) head.append(el("div", "rv-flag", L.answer_abstained));
    const answer = el("div", "rv-answer");
    const interp = el("div", "rv-interp");
    interp.append(el("span", "rv-label", L.interpretation + " (I → 2/1/0)"));
    for (const g of [2, 1, 0]) {
      const b = el("button", "", L["interp" + g]);
      b.dataset.g = g;
      b.addEventListener("click", (ev) => { ev.preventDefault(); G.rapi.setInterpretation(g); });
      interp.append(b);
    }
    answer.append(interp);
    if (data.ask_abstention) {
      const ab = el("div", "rv-abst");
      ab.append(el("span", "rv-label", L.abstention_q + " (A)"));
      for (const v of [true, false]) {
        const b = el("button", "", v ? L.yes : L.no);
        b.dataset.v = String(v);
        b.addEventListener("click", (ev) => { ev.preventDefault(); G.rapi.setAbstention(v); });
        ab.append(b);
      }
      answer.append(ab);
    }
    const note = el("input", "rv-note");
    note.placeholder = L.review_note + " (M)";
    note.maxLength = data.max_note;
    note.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === "Escape") {
        ev.preventDefault(); ev.stopPropagation();
        if (ev.key === "Enter") G.rapi.saveNote(note.value);
        note.blur();
      }
    });
    answer.append(note);
    const warn = el("div", "rj-warn");
    warn.hidden = true;
    head.append(answer, warn, el("div", "rj-keys", L.review_keys));
    root.append(head);
    const list = el("div", "rv-sentences");
    let i = 0;
    for (const s of data.sentences) {
      const box = el("div", "rv-sentence");
      box.dataset.sentence = s.index;
      const line = el("div", "rv-stext");
      line.append(el("span", "rj-num", "S" + (s.index + 1)), document.createTextNode(" " + s.text));
      const nc = el("span", "rv-nocite");
      line.append(nc);
      box.append(line);
      const cites = s.citations.length ? s.citations : [null];
      for (const c of cites) {
        const card = el("div", "rj-item rv-item");
        card.tabIndex = -1;
        card.dataset.i = i;
        card.dataset.sentence = s.index;
        if (c) {
          card.dataset.pid = c.pid;
          const meta = el("div", "rj-meta");
          meta.append(el("span", "rj-num", c.pid), el("span", "rj-src", c.source || ""));
          if (c.relevance !== null && c.relevance !== undefined)
            meta.append(el("span", "rv-rel", fmt(L.relevance_now, { g: c.relevance })));
          meta.append(el("span", "rj-badge"));
          const btns = el("div", "rj-btns");
          for (const g of [2, 1, 0]) {
            const b = el("button", "", L["support" + g]);
            b.dataset.g = g;
            const at = i;
            b.addEventListener("click", (ev) => { ev.preventDefault(); G.rcursor = at; G.rapi.setSupport(g); });
            btns.append(b);
          }
          card.append(meta, el("div", "rj-text", c.text), btns);
        } else {
          card.append(el("div", "rv-uncited", L.cites_nothing));
        }
        const at = i;
        card.addEventListener("click", (ev) => {
          if (ev.target.tagName === "BUTTON") return;
          G.rcursor = at; G.rapi.paintCursor(false);
        });
        box.append(card);
        i++;
      }
      list.append(box);
    }
    if (!data.sentences.length) list.append(el("div", "rj-empty", L.answer_empty));
    root.append(list);
    const nav = el("div", "rj-nav");
    for (const [k, to] of [["prev_answer", "prev"], ["next_answer", "next"], ["next_open_answer", "next_open"]]) {
      const b = el("button", "", L[k]);
      b.addEventListener("click", () => G.rapi.navigate(to));
      nav.append(b);
    }
    root.append(nav);
    const firstOpen = items.findIndex((it) => it.pid !== null && (state[`s:${it.sentence}:${it.pid}`].value === null ||
      state[`s:${it.sentence}:${it.pid}`].value === undefined));
    G.rcursor = firstOpen >= 0 ? firstOpen : 0;
  }

  const cards = () => root.querySelectorAll(".rv-item");
  const isSet = (v) => v !== null && v !== undefined;

  function paint() {
    cards().forEach((card) => {
      if (!card.dataset.pid) return;
      const s = state[`s:${card.dataset.sentence}:${card.dataset.pid}`];
      card.dataset.grade = isSet(s.value) ? String(s.value) : "";
      card.dataset.saved = s.saved ? "1" : "0";
      card.querySelector(".rj-badge").textContent = isSet(s.value) ? L["support" + s.value] : L.ungraded;
      card.querySelectorAll(".rj-btns button").forEach((b) => b.classList.toggle("sel", String(s.value) === b.dataset.g));
    });
    root.querySelectorAll(".rv-sentence").forEach((box) => {
      const n = state[`n:${box.dataset.sentence}`];
      box.classList.toggle("nocite", n.value === false);
      box.querySelector(".rv-nocite").textContent = n.value === false ? " · " + L.needs_no_citation : "";
    });
    const it = state.interpretation;
    root.querySelectorAll(".rv-interp button").forEach((b) => b.classList.toggle("sel", String(it.value) === b.dataset.g));
    root.querySelector(".rv-interp").classList.toggle("armed", G.mode === "interp");
    root.dataset.interpretation = isSet(it.value) ? String(it.value) : "";
    const ab = state.abstention;
    root.querySelectorAll(".rv-abst button").forEach((b) => b.classList.toggle("sel", String(ab.value) === b.dataset.v));
    root.dataset.abstention = isSet(ab.value) ? String(ab.value) : "";
    const note = root.querySelector(".rv-note");
    if (document.activeElement !== note && !(root.getRootNode().activeElement === note)) note.value = state.note.value || "";
    const pairs = items.filter((x) => x.pid !== null);
    const done = pairs.filter((x) => isSet(state[`s:${x.sentence}:${x.pid}`].value)).length;
    root.querySelector(".rv-done").textContent = fmt(L.pairs_done, { d: done, n: pairs.length });
    const waiting = G.outbox.filter((e) => e.answer_id === data.answer_id).length;
    const allWaiting = G.outbox.length;
    const sv = root.querySelector(".rj-save");
    sv.className = "rj-save " + (allWaiting ? "pending" : "ok");
    sv.textContent = !allWaiting ? L.saved : G.status === 401 ? fmt(L.save_login, { n: allWaiting })
      : G.status === 503 ? fmt(L.save_waiting_server, { n: allWaiting })
      : (allWaiting > 3 || G.failures) ? fmt(L.offline, { n: allWaiting }) : L.saving;
    root.dataset.pending = String(allWaiting);
    root.dataset.saved = Object.values(state).every((x) => x.saved) && !waiting ? "1" : "0";
  }
  function paintCursor(scroll) {
    const cs = cards();
    cs.forEach((c, i) => c.classList.toggle("cur", i === G.rcursor));
    const c = cs[G.rcursor];
    if (c && scroll) {
      const head = root.querySelector(".rj-head").getBoundingClientRect();
      c.style.scrollMarginTop = Math.ceil(head.bottom - Math.min(head.top, 0) + 8) + "px";
      c.scrollIntoView({ block: "nearest" });
    }
  }
  function push(e, k) {
    const now = performance.now();
    e.ms = Math.max(0, Math.round(now - G.lastAction));
    G.lastAction = now;
    e.id = uid(); e.answer_id = data.answer_id; e.client = clientId();
    e.base = state[k] ? state[k].eid : 0;
    G.outbox.push(e);
    persist();
  }
  function setSupport(g) {
    const it = items[G.rcursor];
    if (!it || it.pid === null) return;
    const k = `s:${it.sentence}:${it.pid}`;
    state[k] = { value: g, eid: state[k].eid, saved: false };
    push({ kind: "support", sentence: it.sentence, pid: it.pid, grade: g }, k);
    paint(); flush();
    if (g !== null && G.rcursor < items.length - 1) { G.rcursor++; paintCursor(true); }
  }
  function toggleNeedsCitation() {
    const it = items[G.rcursor];
    if (!it) return;
    const k = `n:${it.sentence}`;
    const value = state[k].value === false ? true : false;      // "needs no citation" on/off
    state[k] = { value, eid: state[k].eid, saved: false };
    push({ kind: "needs_citation", sentence: it.sentence, needs_citation: value }, k);
    paint(); flush();
  }
  function setInterpretation(g) {
    G.mode = null;
    state.interpretation = { value: g, eid: state.interpretation.eid, saved: false };
    push({ kind: "interpretation", grade: g }, "interpretation");
    paint(); flush();
  }
  function setAbstention(v) {
    state.abstention = { value: v, eid: state.abstention.eid, saved: false };
    push({ kind: "abstention", appropriate: v }, "abstention");
    paint(); flush();
  }
  function saveNote(text) {
    state.note = { value: text || null, eid: state.note.eid, saved: false };
    push({ kind: "note", note: text || null }, "note");
    paint(); flush();
  }
  function navigate(to) { rerun({ nav: to }); }

  G.onAck = (batch, res) => {
    if (res) {
      for (const e of batch) {
        if (e.answer_id !== data.answer_id) continue;
        const k = key(e), eid = res.eids && res.eids[e.id];
        if (eid && state[k]) state[k].eid = eid;
      }
      for (const k of Object.keys(state))
        state[k].saved = !G.outbox.some((e) => e.answer_id === data.answer_id && key(e) === k);
      if (showRefusals(root, res, L)) rerun({ refresh: true });
      G.authLost = false;
    } else if (G.status === 401 && !G.authLost) {
      G.authLost = true;
      rerun({ refresh: true });
    }
    paint();
  };
  G.rapi = { setSupport, setInterpretation, setAbstention, saveNote, navigate, paintCursor };
  paint();
  paintCursor(fresh);
  flush();

  if (G.onKey) document.removeEventListener("keydown", G.onKey, true);
  G.onKey = (ev) => {
    if (!root.isConnected) return;
    const t = ev.composedPath ? ev.composedPath()[0] : ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    let handled = true;
    if (G.mode === "interp" && (k === "2" || k === "1" || k === "0")) setInterpretation(Number(k));
    else if (G.mode === "interp" && k === "Escape") { G.mode = null; paint(); }
    else if (k === "ArrowDown" || k === "j" || k === "J") { G.rcursor = Math.min(G.rcursor + 1, items.length - 1); paintCursor(true); }
    else if (k === "ArrowUp" || k === "k" || k === "K") { G.rcursor = Math.max(G.rcursor - 1, 0); paintCursor(true); }
    else if (k === "2" || k === "1" || k === "0") setSupport(Number(k));
    else if (k === "Backspace" || k === "Delete") setSupport(null);
    else if (k === "x" || k === "X") toggleNeedsCitation();
    else if (k === "i" || k === "I") { G.mode = "interp"; paint(); }
    else if ((k === "a" || k === "A") && data.ask_abstention) setAbstention(state.abstention.value === true ? false : true);
    else if (k === "m" || k === "M") root.querySelector(".rv-note").focus();
    else if (k === "Enter" || k === "]") navigate("next");
    else if (k === "[") navigate("prev");
    else if (k === "u" || k === "U") navigate("next_open");
    else handled = false;
    if (handled) { ev.preventDefault(); ev.stopPropagation(); }
  };
  document.addEventListener("keydown", G.onKey, true);
  return () => {};
}
