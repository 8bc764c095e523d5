"""Writes the client libraries' generated files from the OpenAPI document.

    python3 sdks/generator/generate.py DOCUMENT OUT_DIR

writes OUT_DIR/<language>/..., each relative to its library's folder (sdks/generate copies them in).
"""

import json
import pathlib
import sys

import api
import php
import python
import typescript


def main() -> None:
    document, out = sys.argv[1], pathlib.Path(sys.argv[2])
    model = api.read(json.loads(pathlib.Path(document).read_text()))
    for language, files in {
        "python": python.write(model),
        "typescript": typescript.write(model),
        "php": php.write(model),
    }.items():
        for name, text in files.items():
            target = out / language / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)


if __name__ == "__main__":
    main()
