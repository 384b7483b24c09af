"""``--endpoint URL --model NAME``: any OpenAI-compatible ``/v1/chat/completions`` server
(vLLM, llama.cpp server, Ollama, a hosted API) as a judge, one (question, paragraph) pair
per request (pointwise, as UMBRELA).

Bounded concurrency (``concurrency`` requests in flight at most), retries with exponential
backoff on a failed connection, a request past its deadline, HTTP 429 and 5xx; any other
HTTP error, and an answer without a last line ``##final score: N``, are recorded for the
pair, never guessed.

The server is not trusted:

- **Redirects are never followed** (a 301/302/303/307/308 is recorded as an HTTP error
  naming the Location): urllib would otherwise send the Authorization header, so the
  key, to whatever host the answer names.
- **An answer over 1 MB is refused** (``MAX_RESPONSE_BYTES``; at most 1 MB + 1 byte is
  read, or nothing when the Content-Length says more), recorded, never graded.
- **``timeout_s`` is a deadline for the whole request** (connect, send, headers, body),
  not for each read: at the deadline a watchdog shuts the connection down, which ends a
  read blocked in any phase, and the request is recorded (and retried) as "no complete
  answer within N s". The name lookup (getaddrinfo) cannot be interrupted and is not
  under the deadline; a connect gets the time that is left, for each address tried.
- **What the server says is cleaned before it is stored or printed**
  (:func:`reljudge.display.clean_text`): the reason phrase, a status line, the Location,
  exception texts and the ``model`` field are one line, with control, ANSI and bidi
  characters made visible, shortened (detail 500, model version 200, Location 200
  characters); the raw answer keeps its lines and is shortened to 4,000 characters; the
  API key is masked as ``***`` in all of them.

Concurrency: given, or (``concurrency=None``) what the server says it offers:
llama.cpp's server answers ``GET /props`` with ``total_slots``, the requests it runs at
once; more would only queue there, each past its deadline sooner. A server that does not
say gets one request at a time. That request follows the rules above (same origin as the
chat route, no redirect followed, a deadline, a bounded answer).

``max_tokens`` (default :data:`DEFAULT_MAX_TOKENS`) bounds each answer, and
:data:`reljudge.judges.prompt.END_MARK` is sent as the ``stop`` string: the prompt asks
the model to write it after the score line (see reljudge.judges.prompt for why).

The API key is read from the environment variable named by ``api_key_env`` when a request
is sent; it is never stored, logged or put in an error.
"""

from __future__ import annotations

import dataclasses
import http.client
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from reljudge.codes import Codes
from reljudge.display import clean_text
from reljudge.errors import ReljudgeError
from reljudge.judges import prompt
from reljudge.judges.base import Outcome

__all__ = ["EndpointJudge", "MAX_RESPONSE_BYTES", "chat_url", "clean_text"]

CODES = Codes(error_endpoint_url=("url",), error_api_key_env_unset=("variable",))
"""What this module can tell people: codes worded by reljudge.i18n."""

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}
REDIRECT_STATUS = {301, 302, 303, 307, 308}

#: the largest answer read; a 300 MB answer once took the process to 800 MB
MAX_RESPONSE_BYTES = 1024 * 1024
#: what is kept of what an endpoint says, in characters
DETAIL_CHARS = 500
MODEL_VERSION_CHARS = 200
LOCATION_CHARS = 200
ANSWER_CHARS = 4000
DEFAULT_MAX_TOKENS = prompt.DEFAULT_MAX_TOKENS
#: the most requests at once taken from a server's ``total_slots``
MAX_OFFERED_SLOTS = 64
#: seconds for the ``GET /props`` question (at most the request deadline)
PROPS_TIMEOUT_S = 10.0
_READ_CHUNK = 65536


def chat_url(url: str) -> str:
    """The chat-completions address for a server address: a base (``http://h:8000``), its
    ``/v1``, or the full route."""
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if url.endswith("/v1"):
        return url + "/chat/completions"
    return url + "/v1/chat/completions"


def props_url(chat: str) -> str:
    """llama.cpp's ``/props`` on the chat route's own origin: the chat route without
    ``/chat/completions`` and ``/v1``, so it never names another host."""
    base = chat[: -len("/chat/completions")] if chat.endswith("/chat/completions") else chat
    if base.endswith("/v1"):
        base = base[: -len("/v1")]
    return base + "/props"


class _PastDeadline(Exception):
    """The request had no complete answer by its deadline."""


class _TooLarge(Exception):
    """The answer is longer than MAX_RESPONSE_BYTES."""


class _Deadline:
    """One request's deadline. A socket timeout bounds each read, not the request: a
    server sending one byte a second keeps every read short and the request endless. So
    a timer shuts the request's connection down at the deadline, which ends whatever read
    or write is blocked on it, in whichever phase (TLS handshake, headers, body)."""

    def __init__(self, seconds: float):
        self.end = time.monotonic() + seconds
        self.lock = threading.Lock()
        self.expired = False
        self.finished = False
        self.sock: socket.socket | None = None
        self.timer = threading.Timer(seconds, self._expire)
        self.timer.daemon = True
        self.timer.start()

    def remaining(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0 or self.expired:
            raise _PastDeadline()
        return left

    @property
    def passed(self) -> bool:
        return self.expired or time.monotonic() >= self.end

    def attach(self, sock: socket.socket) -> None:
        # A duplicate of the socket, not the socket: http.client may close its own (and
        # the number be reused by another thread's connection) or hand it to TLS, which
        # detaches it; the duplicate keeps this connection, and only it, ours to shut.
        with self.lock:
            if self.finished:
                return
            self.sock = sock.dup()
            if self.expired:
                self._shut()

    def _shut(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _expire(self) -> None:
        with self.lock:
            if self.finished:
                return
            self.expired = True
            if self.sock is not None:
                self._shut()

    def finish(self) -> None:
        self.timer.cancel()
        with self.lock:
            self.finished = True
            if self.sock is not None:
                self.sock.close()
                self.sock = None


def _watched(connection_class, deadline: _Deadline):
    """``connection_class`` whose socket, once connected, is handed to ``deadline``; the
    connect itself gets the time left. http.client connects through its
    ``_create_connection`` attribute: private, but the seam CPython's own tests replace;
    should it ever go, the deadline tests in tests/test_judge_endpoint_hostile.py fail."""

    def make(host, **kwargs):
        conn = connection_class(host, **kwargs)

        def create(address, timeout=None, source_address=None, *args, **kw):
            sock = socket.create_connection(address, deadline.remaining(), source_address, *args, **kw)
            deadline.attach(sock)
            return sock

        conn._create_connection = create
        return conn

    return make


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Refuse every redirect: a followed redirect carries the Authorization header (the
    key) to the new address. Returning None lets urllib raise the 3xx as an HTTPError."""

    def http_error_302(self, req, fp, code, msg, headers):
        return None

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline: _Deadline):
        super().__init__()
        self.deadline = deadline

    def http_open(self, req):
        return self.do_open(_watched(http.client.HTTPConnection, self.deadline), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline: _Deadline):
        super().__init__()
        self.deadline = deadline

    def https_open(self, req):
        return self.do_open(_watched(http.client.HTTPSConnection, self.deadline), req, context=self._context)


def _read_bounded(response) -> bytes:
    """The body, or _TooLarge past MAX_RESPONSE_BYTES (read at most that + 1 byte)."""
    length = (response.headers.get("Content-Length") or "").strip()
    if length.isdigit() and int(length) > MAX_RESPONSE_BYTES:
        raise _TooLarge()
    data = bytearray()
    while len(data) <= MAX_RESPONSE_BYTES:
        chunk = response.read(min(_READ_CHUNK, MAX_RESPONSE_BYTES + 1 - len(data)))
        if not chunk:
            break
        data += chunk
    if len(data) > MAX_RESPONSE_BYTES:
        raise _TooLarge()
    return bytes(data)


class EndpointJudge:
    kind = "endpoint"

    def __init__(
        self,
        url: str,
        model: str,
        api_key_env: str | None = None,
        concurrency: int | None = 1,
        retries: int = 3,
        backoff_s: float = 1.0,
        timeout_s: float = 120.0,
        max_tokens: int = DEFAULT_MAX_TOKENS,
    ):
        if not url.startswith(("http://", "https://")):
            raise ReljudgeError(CODES("error_endpoint_url", url=url))
        if api_key_env and not os.environ.get(api_key_env):
            raise ReljudgeError(CODES("error_api_key_env_unset", variable=api_key_env))
        self.url = chat_url(url)
        self.model = model
        self.api_key_env = api_key_env
        self._concurrency = None if concurrency is None else max(1, int(concurrency))
        #: where the concurrency came from: "given", "server" (its total_slots) or "default"
        self.concurrency_from = "given" if concurrency is not None else None
        self.retries = max(0, int(retries))
        self.backoff_s = backoff_s
        self.timeout_s = timeout_s
        self.max_tokens = max(1, int(max_tokens))
        self.served_model: str | None = None

    @property
    def concurrency(self) -> int:
        """Requests in flight at most: as given, else the server's ``total_slots`` (asked
        once), else 1."""
        if self._concurrency is None:
            slots = self.offered_slots()
            self._concurrency, self.concurrency_from = (slots, "server") if slots else (1, "default")
        return self._concurrency

    def offered_slots(self) -> int | None:
        """The ``total_slots`` of the server's ``GET /props`` (llama.cpp), or None when
        it does not say (no such route, an error, a redirect, not a positive integer)."""
        try:
            data = self._request(props_url(self.url), None, min(self.timeout_s, PROPS_TIMEOUT_S))
        except Exception:  # noqa: BLE001 — a server that does not say is a server that does not say
            return None
        slots = data.get("total_slots") if isinstance(data, dict) else None
        if isinstance(slots, bool) or not isinstance(slots, int) or slots < 1:
            return None
        return min(slots, MAX_OFFERED_SLOTS)

    @property
    def model_version(self) -> str:
        """What the server said it ran (the ``model`` field of its answers), if it said."""
        return self.served_model or f"as served by {self.url}"

    @property
    def prompt_text(self) -> str:
        return prompt.prompt_text()

    def prepare(self, pooled, human, reference) -> None:
        return None

    def settings(self) -> str:
        return json.dumps(
            {
                "endpoint": self.url,
                "api_key_env": self.api_key_env,
                "temperature": 0,
                "max_tokens": self.max_tokens,
                "concurrency": self.concurrency,
                "concurrency_from": self.concurrency_from,
                "stop": [prompt.END_MARK],
                "retries": self.retries,
                "deadline_s": self.timeout_s,
                "max_response_bytes": MAX_RESPONSE_BYTES,
                "redirects": "never followed",
                "parsing": "last line '##final score: N', N in 0, 1, 2; anything else is recorded as unparsable",
            },
            ensure_ascii=False,
        )

    def _secret(self) -> str | None:
        return (os.environ.get(self.api_key_env) or None) if self.api_key_env else None

    def _post(self, body: dict) -> dict:
        return self._request(self.url, json.dumps(body, ensure_ascii=False).encode("utf-8"), self.timeout_s)

    def _request(self, url: str, data: bytes | None, timeout_s: float) -> dict:
        """POST ``data`` (or GET, when None) to ``url`` — always this judge's own origin —
        under every rule of this module: no redirect followed, a deadline, a bounded read."""
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if self.api_key_env:
            headers["Authorization"] = "Bearer " + os.environ.get(self.api_key_env, "")
        request = urllib.request.Request(url, data=data, headers=headers, method="POST" if data is not None else "GET")
        deadline = _Deadline(timeout_s)
        try:
            opener = urllib.request.build_opener(_NoRedirect, _HTTPHandler(deadline), _HTTPSHandler(deadline))
            with opener.open(request, timeout=deadline.remaining()) as response:
                data = _read_bounded(response)
            if deadline.passed:  # the shutdown at the deadline may have cut the body short
                raise _PastDeadline()
        except urllib.error.HTTPError:
            raise  # a complete answer (status and headers), whenever it came
        except (OSError, http.client.HTTPException) as exc:
            if deadline.passed:
                raise _PastDeadline() from exc
            raise
        finally:
            deadline.finish()
        return json.loads(data.decode("utf-8"))

    def grade_one(self, qid: str, pid: str, question: str, criteria: str, paragraph: str) -> Outcome:
        """One pair's Outcome; its detail and answer are cleaned (bounded, controls made
        visible, the key masked) here, the one way out of the client."""
        outcome = self._grade_one(qid, pid, question, criteria, paragraph)
        secret = self._secret()
        return dataclasses.replace(
            outcome,
            detail=None if outcome.detail is None else clean_text(outcome.detail, DETAIL_CHARS, secret),
            answer=None if outcome.answer is None else clean_text(outcome.answer, ANSWER_CHARS, secret, one_line=False),
        )

    def _grade_one(self, qid: str, pid: str, question: str, criteria: str, paragraph: str) -> Outcome:
        body = {
            "model": self.model,
            "messages": prompt.messages(question, criteria, paragraph),
            "temperature": 0,
            "max_tokens": self.max_tokens,
            "stop": [prompt.END_MARK],
        }
        detail, kind = "", "request"
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            try:
                data = self._post(body)
            except _TooLarge:
                return Outcome(qid, pid, kind="response", detail="answer larger than 1 MB, not read")
            except _PastDeadline:
                kind, detail = "request", f"no complete answer within {self.timeout_s:g} s"
                continue
            except urllib.error.HTTPError as exc:
                exc.close()  # its body is never read
                if exc.code in REDIRECT_STATUS:
                    location = exc.headers.get("Location") if exc.headers is not None else None
                    where = (
                        f"Location {clean_text(location, LOCATION_CHARS, self._secret())}"
                        if location
                        else "no Location"
                    )
                    return Outcome(
                        qid, pid, kind="http", detail=f"HTTP {exc.code}: redirects are not followed ({where})"
                    )
                kind, detail = "http", f"HTTP {exc.code} {exc.reason}"
                if exc.code in RETRY_STATUS:
                    continue
                return Outcome(qid, pid, kind=kind, detail=detail)
            except (OSError, http.client.HTTPException) as exc:
                # HTTPException: a broken status line, headers or body (BadStatusLine,
                # IncompleteRead, LineTooLong), which is no OSError
                kind, detail = "request", f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
                continue
            except (ValueError, RecursionError) as exc:  # RecursionError: "[[[[…" a megabyte deep
                return Outcome(qid, pid, kind="response", detail=f"not JSON: {type(exc).__name__}: {exc}")
            try:
                answer = data["choices"][0]["message"]["content"]
            except (KeyError, IndexError, TypeError):
                return Outcome(qid, pid, kind="response", detail="no choices[0].message.content in the answer")
            if isinstance(data.get("model"), str):
                self.served_model = clean_text(data["model"], MODEL_VERSION_CHARS, self._secret())
            grade = prompt.parse_final_score(answer)
            if grade is None:
                return Outcome(
                    qid, pid, kind="unparsable", detail="no last line '##final score: N'", answer=str(answer)
                )
            return Outcome(qid, pid, grade, answer=str(answer))
        return Outcome(qid, pid, kind=kind, detail=f"{detail} (after {self.retries + 1} attempts)")

    def grade_many(self, pairs: pd.DataFrame, on_result, progress=None) -> None:
        """At most ``concurrency`` requests in flight; ``on_result`` is called in this
        thread as answers arrive."""
        rows = list(pairs[["qid", "pid", "question", "criteria", "paragraph"]].itertuples(index=False))
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            # Submitted a window at a time, so a kill loses at most the window in flight.
            window = self.concurrency * 2
            pending = []
            for row in rows:
                pending.append(pool.submit(self.grade_one, *(str(x) if x is not None else "" for x in row)))
                if len(pending) >= window:
                    on_result(pending.pop(0).result())
            for future in pending:
                on_result(future.result())
