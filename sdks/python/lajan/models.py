"""Every request and answer model of the API (generated from its OpenAPI document)."""

from ._generated.models import *  # noqa: F401,F403
from ._generated.models import __all__  # noqa: F401
