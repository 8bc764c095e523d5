"""Starts a fresh `lajan serve` (SQLite in a temporary directory) for the story, and gives its
sandbox key. The binary is LAJAN_BINARY, else the workspace's target/debug/lajan."""

import os
import pathlib
import re
import socket
import subprocess
import time
from collections.abc import Iterator

import httpx
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    binary = pathlib.Path(os.environ.get("LAJAN_BINARY", ROOT / "target" / "debug" / "lajan"))
    if not binary.exists():
        if os.environ.get("CI"):
            pytest.fail(f"no lajan binary at {binary}, and CI needs this story to run")
        pytest.skip(f"no lajan binary at {binary}: run `cargo build -p lajan` first or set LAJAN_BINARY")
    work = tmp_path_factory.mktemp("lajan")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(
        os.environ,
        LAJAN_DATABASE_URL=f"sqlite://{work}/lajan.db",
        LAJAN_LISTEN=f"127.0.0.1:{port}",
        LAJAN_LOG="warn",
        LAJAN_METRICS_LISTEN="off",
        # The story's webhook receiver listens on loopback.
        LAJAN_SANDBOX_WEBHOOKS_PRIVATE="allow",
        LAJAN_RATE_LIMIT_STANDARD="100000",
    )
    log = open(work / "serve.log", "w+")
    process = subprocess.Popen([str(binary), "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if httpx.get(f"{base_url}/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        else:
            raise RuntimeError("lajan serve did not become ready: " + (work / "serve.log").read_text())
        key = re.search(r"sk_test_[A-Za-z0-9]+", (work / "serve.log").read_text())
        assert key, "no sandbox key in the server's first output"
        yield base_url, key.group(0)
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()
