"""``reljudge auto-judge`` beside the running app (docs/served.md): the model runs in the
client's process (an endpoint's traffic and e5's CPU stay out of the web server); the run
reads the pairs from the app and writes its grades through it in batches
(``POST /api/v1/judge``, reljudge.web.api), each batch one short transaction of the app,
stored as the model's source while the annotators' saves go on."""

from __future__ import annotations

import json

import pandas as pd

from reljudge.cli.forward import CODES, JUDGE_ROUTE, _Lost, _post, held_by_app
from reljudge.codes import Message
from reljudge.errors import ReljudgeError
from reljudge.judges.runner import JudgePlace, frame_from_json, frame_to_json


class ServedPlace(JudgePlace):
    """A model judge's run through the running app: pairs come back as tables, each batch
    of grades is one request (reljudge.judges.runner.FLUSH_EVERY results, or a second's)."""

    def __init__(self, info, campaign: str):
        self.info, self.campaign = info, campaign

    def _call(self, op: str, *args):
        body = {"db": self.info.db, "campaign": self.campaign, "op": op, "args": list(args)}
        try:
            status, answer = _post(self.info, json.dumps(body).encode("utf-8"), JUDGE_ROUTE)
        except _Lost:
            raise ReljudgeError(
                CODES("error_served_lost", path=self.info.db, url=self.info.url, command="auto-judge")
            ) from None
        except OSError as exc:
            raise ReljudgeError(CODES("error_served_failed", url=self.info.url, detail=str(exc))) from None
        if status in (401, 403):
            raise ReljudgeError(CODES("error_served_refused", path=self.info.db, url=self.info.url))
        if status != 200 or answer is None:
            detail = (answer or {}).get("message") or f"HTTP {status}"
            raise ReljudgeError(CODES("error_served_failed", url=self.info.url, detail=str(detail)))
        refused = answer.get("refused")
        if refused is not None:  # the library's own refusal, worded here as without the app
            raise ReljudgeError(Message.from_dict(refused) if "code" in refused else str(refused.get("text")))
        return answer.get("result")

    def check_source(self, source, kind, model, prompt_sha256=None) -> None:
        self._call("check_source", source, kind, model, prompt_sha256)

    def pooled_pairs(self) -> pd.DataFrame:
        return frame_from_json(self._call("pooled_pairs"))

    def pending_pairs(self, source) -> pd.DataFrame:
        return frame_from_json(self._call("pending_pairs", source))

    def reference(self, policy) -> pd.DataFrame:
        frame = frame_from_json(self._call("reference", policy))
        return frame.astype({"grade": "int64"}) if "grade" in frame and len(frame) else frame

    def record_source(self, *fields) -> None:
        self._call("record_source", *fields)

    def store_results(self, source, grades, errors) -> None:
        self._call("store_results", source, frame_to_json(grades), frame_to_json(errors))

    def graded_count(self, source) -> int:
        return int(self._call("graded_count", source))


def judge_place(args, exc):
    """After ``exc`` (DatabaseLockedError) in ``auto-judge``: the running app that holds the
    file as the place its run reads pairs from and writes grades to
    (reljudge.judges.runner.JudgePlace); the model stays in this process. ``exc`` again
    when no live app holds the file."""
    from reljudge.storage.db import campaign_name, database_key

    locked = exc.message.kwargs.get("path") if exc.message is not None else None
    info = held_by_app(locked) if locked else None
    if info is None or database_key(getattr(args, "db", None)) != info.db:
        raise exc
    return ServedPlace(info, campaign_name(getattr(args, "campaign", None)))
