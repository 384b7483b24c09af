"""``--endpoint URL --model NAME``: any OpenAI-compatible ``/v1/chat/completions`` server
(vLLM, llama.cpp server, Ollama, a hosted API) as a judge, one (question, paragraph) pair
per request (pointwise, as UMBRELA).

Bounded concurrency (``concurrency`` requests in flight at most), retries with exponential
backoff on a failed connection, a timeout, HTTP 429 and 5xx; any other HTTP error, and an
answer without a last line ``##final score: N``, are recorded for the pair, never guessed.
The API key is read from the environment variable named by ``api_key_env`` when a request
is sent; it is never stored, logged or put in an error.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.judges import prompt
from reljudge.judges.base import Outcome

CODES = Codes(error_endpoint_url=("url",), error_api_key_env_unset=("variable",))
"""What this module can tell people: codes worded by reljudge.i18n."""

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


def chat_url(url: str) -> str:
    """The chat-completions address for a server address: a base (``http://h:8000``), its
    ``/v1``, or the full route."""
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if url.endswith("/v1"):
        return url + "/chat/completions"
    return url + "/v1/chat/completions"


class EndpointJudge:
    kind = "endpoint"

    def __init__(
        self,
        url: str,
        model: str,
        api_key_env: str | None = None,
        concurrency: int = 4,
        retries: int = 3,
        backoff_s: float = 1.0,
        timeout_s: float = 120.0,
        max_tokens: int = 512,
    ):
        if not url.startswith(("http://", "https://")):
            raise ReljudgeError(CODES("error_endpoint_url", url=url))
        if api_key_env and not os.environ.get(api_key_env):
            raise ReljudgeError(CODES("error_api_key_env_unset", variable=api_key_env))
        self.url = chat_url(url)
        self.model = model
        self.api_key_env = api_key_env
        self.concurrency = max(1, int(concurrency))
        self.retries = max(0, int(retries))
        self.backoff_s = backoff_s
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self.served_model: str | None = None

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
                "retries": self.retries,
                "parsing": "last line '##final score: N', N in 0, 1, 2; anything else is recorded as unparsable",
            },
            ensure_ascii=False,
        )

    def _post(self, body: dict) -> dict:
        headers = {"Content-Type": "application/json"}
        if self.api_key_env:
            headers["Authorization"] = "Bearer " + os.environ.get(self.api_key_env, "")
        request = urllib.request.Request(
            self.url, data=json.dumps(body, ensure_ascii=False).encode("utf-8"), headers=headers, method="POST"
        )
        with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
            return json.loads(response.read().decode("utf-8"))

    def grade_one(self, qid: str, pid: str, question: str, criteria: str, paragraph: str) -> Outcome:
        body = {
            "model": self.model,
            "messages": prompt.messages(question, criteria, paragraph),
            "temperature": 0,
            "max_tokens": self.max_tokens,
        }
        detail, kind = "", "request"
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            try:
                data = self._post(body)
            except urllib.error.HTTPError as exc:
                kind, detail = "http", f"HTTP {exc.code} {exc.reason}"
                if exc.code in RETRY_STATUS:
                    continue
                return Outcome(qid, pid, kind=kind, detail=detail)
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
                kind, detail = "request", f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
                continue
            except ValueError as exc:
                return Outcome(qid, pid, kind="response", detail=f"not JSON: {exc}")
            try:
                answer = data["choices"][0]["message"]["content"]
            except (KeyError, IndexError, TypeError):
                return Outcome(qid, pid, kind="response", detail="no choices[0].message.content in the answer")
            if isinstance(data.get("model"), str):
                self.served_model = data["model"]
            grade = prompt.parse_final_score(answer)
            if grade is None:
                return Outcome(
                    qid, pid, kind="unparsable", detail="no last line '##final score: N'", answer=str(answer)[:4000]
                )
            return Outcome(qid, pid, grade, answer=str(answer)[:4000])
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
