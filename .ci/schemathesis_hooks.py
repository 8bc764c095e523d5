"""Schemathesis hooks for .ci/fuzz (loaded through SCHEMATHESIS_HOOKS).

The stateful phase takes what a POST answers as a resource it has just created and follows it
(GET it, DELETE it). When that POST carries an Idempotency-Key the phase drew earlier, Lajan
replays the first answer, as the key promises, and that resource may since have been deleted:
the phase then reports "created resource not found". An integrator gives each new create a key of
its own, so in that phase each POST gets a fresh key; every other phase fuzzes the header as the
document describes it.
"""

import uuid

import schemathesis
from schemathesis.generation.meta import TestPhase


@schemathesis.hook
def before_call(context, case, kwargs):
    meta = case.meta
    if meta is None or meta.phase.name != TestPhase.STATEFUL or case.method.upper() != "POST":
        return
    if case.headers is not None and "Idempotency-Key" in case.headers:
        case.headers["Idempotency-Key"] = str(uuid.uuid4())
