// Unit tests of the judging and review widgets' shared outbox (src/reljudge/ui/assets/outbox.js):
// nothing lost across reloads, one request in flight, batches of at most 500, acknowledged
// and refused events leave, failures retried with backoff (Retry-After on 503), and a
// rerun's acknowledged ids leave too. Run with Node's own test runner (scripts/test.sh):
//   node --test tests/js/*.test.mjs
// outbox.js is a browser script, so each test loads it into a fresh VM context with a fake
// window, localStorage, fetch and clock.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const SOURCE = readFileSync(
  fileURLToPath(new URL("../../src/reljudge/ui/assets/outbox.js", import.meta.url)), "utf8");

// A browser-like context: the outbox's global state is in ctx.window.__reljudge.
function browser({ stored = {} } = {}) {
  const store = new Map(Object.entries(stored));
  const timers = [];
  const posts = [];
  const listeners = {};
  const ctx = {
    localStorage: {
      getItem: (k) => (store.has(k) ? store.get(k) : null),
      setItem: (k, v) => store.set(k, String(v)),
    },
    setTimeout: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
    clearTimeout: () => {},
    performance: { now: () => 0 },
    crypto: { randomUUID: () => "uuid-" + Math.random().toString(36).slice(2) },
    // every fetch waits until the test answers it: posts[i].answer(status, body, headers)
    fetch: (url, init) => new Promise((resolve) => {
      posts.push({
        url, body: JSON.parse(init.body),
        answer(status, body = {}, headers = {}) {
          resolve({ status, ok: status >= 200 && status < 300, json: async () => body,
            headers: { get: (h) => headers[h] ?? null } });
        },
      });
    }),
  };
  ctx.window = ctx;
  ctx.addEventListener = (name, fn) => { (listeners[name] ||= []).push(fn); };
  vm.createContext(ctx);
  // the functions the widgets call (flush, persist, restore, takeRerun) become reachable
  vm.runInContext(SOURCE + "\n;globalThis.__api = { flush, persist, restore, takeRerun, storeKey };", ctx);
  return { ctx, G: ctx.window.__reljudge, api: ctx.__api, store, timers, posts, listeners };
}

// ids in this realm (arrays made inside the VM have another Array prototype)
const ids = (list) => Array.from(list, (e) => e.id);
const settle = () => new Promise((r) => setImmediate(r));
const event = (id) => ({ id, kind: "judgment", qid: "q1", pid: "p" + id, grade: 1 });

test("an event waiting in the outbox survives a reload of the page", () => {
  const first = browser();
  first.G.user = "kim";
  first.G.outbox.push(event("e1"), event("e2"));
  first.api.persist();
  const again = browser({ stored: Object.fromEntries(first.store) });
  again.api.takeRerun({ user: "kim", acked: [] });
  assert.deepEqual(ids(again.G.outbox), ["e1", "e2"]);
});

test("another account starts from its own outbox, not the last one's", () => {
  const b = browser({ stored: { "reljudge-outbox-lee": JSON.stringify([event("x")]) } });
  b.G.user = "kim";
  b.G.outbox.push(event("mine"));
  b.api.takeRerun({ user: "lee", acked: [] });
  assert.deepEqual(ids(b.G.outbox), ["x"]);
});

test("restoring twice does not duplicate events", () => {
  const b = browser({ stored: { "reljudge-outbox-kim": JSON.stringify([event("a"), event("b")]) } });
  b.G.user = "kim";
  b.api.restore();
  b.api.restore();
  assert.deepEqual(ids(b.G.outbox), ["a", "b"]);
});

test("one request at a time; acknowledged and refused events leave, the rest is sent next", async () => {
  const b = browser();
  b.G.user = "kim";
  b.G.outbox.push(event("a"), event("b"), event("c"));
  const heard = [];
  b.G.onAck = (batch, res) => heard.push([ids(batch), res]);
  b.api.flush();
  b.api.flush(); // a second flush while one is in flight sends nothing
  assert.equal(b.posts.length, 1);
  assert.deepEqual(ids(b.posts[0].body.events), ["a", "b", "c"]);
  b.G.outbox.push(event("d")); // judged while the request was in flight
  b.posts[0].answer(200, { acked: ["a"], rejected: { b: "stale" } });
  await settle();
  // c was not answered: it stays, with d, and goes in the next request at once
  assert.deepEqual(ids(b.G.outbox), ["c", "d"]);
  assert.equal(b.posts.length, 2);
  assert.deepEqual(ids(b.posts[1].body.events), ["c", "d"]);
  assert.deepEqual(heard[0][0], ["a", "b", "c"]);
  assert.deepEqual(ids(JSON.parse(b.store.get("reljudge-outbox-kim"))), ["c", "d"]);
});

test("a large outbox goes in batches of at most 500", async () => {
  const b = browser();
  b.G.user = "kim";
  for (let i = 0; i < 1201; i++) b.G.outbox.push(event("e" + i));
  b.api.flush();
  const sizes = [];
  for (let round = 0; round < 3; round++) {
    const p = b.posts[round];
    sizes.push(p.body.events.length);
    p.answer(200, { acked: ids(p.body.events) });
    await settle();
  }
  assert.deepEqual(sizes, [500, 500, 201]);
  assert.equal(b.G.outbox.length, 0);
});

test("a failure keeps every event and retries with a doubling backoff up to 10 s", async () => {
  const b = browser();
  b.G.user = "kim";
  b.G.outbox.push(event("a"));
  const delays = [];
  for (let i = 0; i < 7; i++) {
    b.api.flush();
    b.posts.at(-1).answer(500);
    await settle();
    delays.push(b.timers.at(-1).ms);
  }
  assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 10000, 10000]);
  assert.deepEqual(ids(b.G.outbox), ["a"]);
});

test("a 503 is retried when the server says (Retry-After), and the campaign travels along", async () => {
  const b = browser();
  b.G.user = "kim";
  b.G.campaign = "spring";
  b.G.outbox.push(event("a"));
  b.api.flush();
  assert.equal(b.posts[0].body.campaign, "spring");
  b.posts[0].answer(503, {}, { "Retry-After": "7" });
  await settle();
  assert.equal(b.timers.at(-1).ms, 7000);
  assert.equal(b.G.status, 503);
  // coming back online resets the backoff and sends at once
  b.listeners.online.forEach((fn) => fn());
  assert.equal(b.posts.length, 2);
});

test("the events a rerun carried and stored leave the outbox", () => {
  const b = browser();
  b.G.user = "kim";
  b.G.outbox.push(event("a"), event("b"));
  b.api.takeRerun({ user: "kim", acked: ["a"] });
  assert.deepEqual(ids(b.G.outbox), ["b"]);
  assert.deepEqual(ids(JSON.parse(b.store.get("reljudge-outbox-kim"))), ["b"]);
});
