"""The quick start in the README is examples/quickstart.py (type-checked in .ci/run), and it runs
as written against a fresh server."""

import os
import pathlib
import re
import subprocess
import sys

LIBRARY = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = LIBRARY / "examples" / "quickstart.py"


def test_the_readmes_show_the_example_and_it_runs(server: tuple[str, str]) -> None:
    example = EXAMPLE.read_text()
    for readme in (LIBRARY / "README.md", LIBRARY.parents[1] / "README.md"):
        blocks = re.findall(r"```python\n(.*?)```", readme.read_text(), re.S)
        assert example in blocks, f"{readme} shows examples/quickstart.py as it is"
    base_url, key = server
    code = example.replace('"sk_test_..."', repr(key)).replace('"http://127.0.0.1:8080"', repr(base_url))
    env = {**os.environ, "PYTHONPATH": str(LIBRARY)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert re.fullmatch(r"INV-\d{6} 2500\.00\n", out.stdout), out.stdout
