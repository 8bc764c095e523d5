"""Types the generated library's numbers as Decimal: run by sdks/generate on the generator's output.

Every JSON number the Lajan API reads or writes is an exact decimal (an amount, a quantity, a tax
rate), and openapi-python-client types `number` as `float`, which cannot hold 0.10 exactly. This
rewrites each `float` annotation and check to `Decimal`; the hand-written client sends Decimals as
exact JSON numbers and reads every JSON number as a Decimal, so no amount ever passes through a
float. Integers (counts, pages) stay `int`.
"""

import pathlib
import re
import sys

FLOAT = re.compile(r"\bfloat\b")

root = pathlib.Path(sys.argv[1])
changed = 0
for path in sorted(root.rglob("*.py")):
    text = path.read_text()
    if not FLOAT.search(text):
        continue
    text = FLOAT.sub("Decimal", text)
    lines = text.split("\n")
    # After the module docstring and `from __future__` imports, before the rest.
    at = next(i for i, line in enumerate(lines) if line.startswith(("import ", "from ")) and "__future__" not in line)
    lines.insert(at, "from decimal import Decimal")
    path.write_text("\n".join(lines))
    changed += 1
if changed == 0:
    sys.exit("no float in the generated library: the generator changed; review sdks/python/decimals.py")
