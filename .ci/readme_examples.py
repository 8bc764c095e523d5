"""Runs the README's and the guides' shell examples in order against a fresh `lajan serve`, as a
newcomer would type them, and checks each answer against the `json` block shown under it.

    python3 .ci/readme_examples.py target/debug/lajan

Every fenced `sh` block of README.md, then of docs/*.md (in name order), runs in bash in a
directory like the repository's root (its docs/ is there) with the variables the blocks before it set (`export CLIENT=$(...)`), and
`curl` fails on an HTTP error, so a refused request fails its block. A block that is not meant to
run says so on the line above its fence: `<!-- example: not run (why) -->`. The server listens
on a free port and says `http://127.0.0.1:8080` in its links, as the README shows; the commands'
`http://127.0.0.1:8080` and `cargo run --release --` are pointed at it and at the binary given.

A `json` block right after an `sh` block holds the answers its commands print, one JSON value
each, in order. `...` elides: fields and items left out (the answer may hold more), or part of a
string (`"pi_..."`). An id in a string (`cli_` and 32 hex digits) matches any id of its kind,
a timestamp any timestamp, `<text in brackets>` any text; every other value shown must be the
value answered.
"""

import glob
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

DOC_URL = "http://127.0.0.1:8080"
NOT_RUN = re.compile(r"<!--\s*example:\s*not run\b")
ID = re.compile(r"^([a-z]+_)[0-9a-f]{32}$")
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
# Variables a block may leave for the next: the shell's own are not carried over.
SHELL_OWN = re.compile(
    r"^(BASH.*|EUID|PPID|UID|SHELLOPTS|BASHOPTS|HOSTNAME|HOSTTYPE|MACHTYPE|OSTYPE|OPTERR|OPTIND|IFS|PS[0-9]|"
    r"LINENO|SECONDS|RANDOM|SRANDOM|EPOCH.*|COLUMNS|LINES|HISTCMD|GROUPS|DIRSTACK|FUNCNAME|PIPESTATUS|COMP.*|"
    r"PWD|OLDPWD|SHLVL|_)$"
)


def blocks(path):
    """The file's runnable `sh` blocks, each with the `json` block under it (or None)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, i, previous = [], 0, ""
    while i < len(lines):
        fence = lines[i].strip()
        if fence.startswith("```"):
            lang, start = fence[3:].strip(), i + 1
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                i += 1
            body = "\n".join(lines[start:i])
            if lang == "sh":
                found.append({"file": path, "line": start, "code": body, "json": None, "run": not NOT_RUN.search(previous)})
            elif lang == "json" and found and found[-1]["json"] is None and found[-1]["end"] == start - 2:
                found[-1]["json"] = body
            if found and lang == "sh":
                found[-1]["end"] = i
            previous = ""
        elif lines[i].strip():
            previous = lines[i]
        i += 1
    return found


def without_elisions(text):
    """The block's JSON with every `...` outside a string left out, with the comma beside it."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("...", i):
            i += 2
        else:
            out.append(c)
        i += 1
    text = "".join(out)
    # Commas left beside an elision: doubled, or before a closing bracket, or after an opening one.
    for pattern, repl in [(r",(\s*,)+", ","), (r",(\s*[}\]])", r"\1"), (r"([{\[]\s*),", r"\1")]:
        previous = None
        while previous != text:
            previous, text = text, re.sub(pattern, repl, text)
    return text


def values(text):
    """Every JSON value in `text`, in order."""
    decoder, found, i = json.JSONDecoder(), [], 0
    text = text.strip()
    while i < len(text):
        value, i = decoder.raw_decode(text, i)
        found.append(value)
        while i < len(text) and text[i].isspace():
            i += 1
    return found


def string_pattern(shown):
    """A shown string as a pattern: `...` any text, `<words>` any text but none, an id any id of
    its kind."""
    parts = re.split(r"(\.\.\.|<[^>]*>|\b[a-z]+_[0-9a-f]{32}\b)", shown)
    pattern = ""
    for part in parts:
        if part == "...":
            pattern += ".*"
        elif part.startswith("<") and part.endswith(">"):
            pattern += ".+"
        elif ID.match(part):
            pattern += re.escape(ID.match(part).group(1)) + "[0-9a-f]{32}"
        else:
            pattern += re.escape(part)
    return pattern


def differences(shown, answered, where="$"):
    """Where the answer differs from what the block shows."""
    if isinstance(shown, dict):
        if not isinstance(answered, dict):
            return [f"{where}: shown an object, answered {json.dumps(answered)[:80]}"]
        found = []
        for key, value in shown.items():
            if key not in answered:
                found.append(f"{where}.{key}: shown, not answered")
            else:
                found += differences(value, answered[key], f"{where}.{key}")
        return found
    if isinstance(shown, list):
        if not isinstance(answered, list) or len(answered) < len(shown):
            return [f"{where}: shown {len(shown)} items, answered {json.dumps(answered)[:120]}"]
        return [d for i, item in enumerate(shown) for d in differences(item, answered[i], f"{where}[{i}]")]
    if isinstance(shown, str) and isinstance(answered, str):
        ok = TIMESTAMP.match(answered) if TIMESTAMP.match(shown) else re.fullmatch(string_pattern(shown), answered, re.S)
        return [] if ok else [f"{where}: shown {shown!r}, answered {answered!r}"]
    same = shown == answered and type(shown) is type(answered)
    return [] if same else [f"{where}: shown {json.dumps(shown)}, answered {json.dumps(answered)}"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    binary = os.path.abspath(sys.argv[1])
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    work = tempfile.mkdtemp(prefix="lajan-readme-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    for name in [n for n in env if n.startswith("LAJAN_")]:
        del env[name]
    env.update(
        LAJAN_DATABASE_URL=f"sqlite://{work}/lajan.db",
        LAJAN_LISTEN=f"127.0.0.1:{port}",
        LAJAN_PUBLIC_URL=DOC_URL,
        LAJAN_SANDBOX_WEBHOOKS_PRIVATE="allow",
    )
    log = open(os.path.join(work, "serve.log"), "w+")
    server = subprocess.Popen([binary, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{base}/readyz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        log.seek(0)
        key = re.search(r"sk_test_\w+", log.read())
        if not key:
            sys.exit(f"lajan serve printed no sandbox key; its log is {log.name}")
        return run_all(root, work, env, base, binary, key.group(0))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def run_all(root, work, env, base, binary, key):
    state = os.path.join(work, "state.sh")
    with open(state, "w") as f:
        f.write(f"export LAJAN_KEY={key} LAJAN_DATABASE_URL={env['LAJAN_DATABASE_URL']}\n")
        # A refused request fails its block, as a reader would notice it.
        f.write("curl() { command curl --fail-with-body \"$@\"; }\n")
    # Where a reader runs them: the repository's root (the CSV example reads docs/examples/), but
    # what a block writes (endpoint.json) stays out of the checkout.
    cwd = os.path.join(work, "checkout")
    os.mkdir(cwd)
    os.symlink(os.path.join(root, "docs"), os.path.join(cwd, "docs"))
    files = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    ran, compared, skipped, failures = 0, 0, 0, []
    for block in [b for path in files for b in blocks(path)]:
        where = f"{os.path.relpath(block['file'], root)}:{block['line']}"
        if not block["run"]:
            skipped += 1
            continue
        code = block["code"].replace(DOC_URL, base).replace("cargo run --release --", binary)
        code = code.replace("target/release/lajan", binary)
        script = f"""set -eo pipefail
source {state}
{code}
declare -p $(compgen -v | grep -E '^[A-Z][A-Z0-9_]*$' | grep -vE '{SHELL_OWN.pattern}') > {state}.next
declare -f >> {state}.next
"""
        done = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        ran += 1
        if done.returncode != 0:
            failures.append(f"{where}: exit {done.returncode}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}")
            break
        os.replace(f"{state}.next", state)
        if block["json"] is None:
            continue
        compared += 1
        try:
            shown = values(without_elisions(block["json"]))
        except ValueError as e:
            failures.append(f"{where}: the json block under it does not read as JSON: {e}")
            continue
        try:
            answered = values(done.stdout)
        except ValueError as e:
            failures.append(f"{where}: the answer does not read as JSON ({e}): {done.stdout[:500]}")
            continue
        if len(shown) != len(answered):
            failures.append(f"{where}: shows {len(shown)} answers, the commands printed {len(answered)}: {done.stdout[:800]}")
            continue
        for i, (s, a) in enumerate(zip(shown, answered)):
            failures += [f"{where}: answer {i + 1}: {d}" for d in differences(s, a)]
    for failure in failures:
        print(f"FAILED {failure}", file=sys.stderr)
    print(f"{ran} blocks ran, {compared} answers compared with the json shown, {skipped} marked not run, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
