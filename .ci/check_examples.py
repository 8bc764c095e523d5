"""Checks that every example of Lajan's OpenAPI document is valid against its own schema.

Run by .ci/fuzz (with the jsonschema that Schemathesis brings) on the document the server
serves: an example that breaks its schema would teach an integrator, or a generated client, a
shape the server never sends.
"""

import json
import sys

from jsonschema.validators import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

document = json.load(sys.stdin)
registry = Registry().with_resource("urn:lajan", Resource.from_contents(document, default_specification=DRAFT202012))


def errors(schema, example):
    schema = json.loads(json.dumps(schema).replace('"#/components/', '"urn:lajan#/components/'))
    validator = Draft202012Validator(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return list(validator.iter_errors(example))


checked, failures = 0, 0
for path, item in document["paths"].items():
    for method, operation in item.items():
        if not isinstance(operation, dict) or "responses" not in operation:
            continue
        places = [("request", operation.get("requestBody", {}).get("content", {}))]
        places += [(status, response.get("content", {})) for status, response in operation["responses"].items()]
        for place, contents in places:
            content = contents.get("application/json", {})
            if "example" not in content:
                continue
            checked += 1
            for error in errors(content["schema"], content["example"])[:3]:
                failures += 1
                print(f"{method.upper()} {path} {place}: {error.json_path}: {error.message[:300]}")
print(f"{checked} examples checked against their schemas, {failures} failures")
sys.exit(1 if failures else 0)
