"""The API as the three client libraries see it, read from the OpenAPI document: resources (one per
tag), their methods (named from operationIds), the request shapes they take and the models they
return. Each language's writer turns this into code; none of them reads the document itself."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# Where the rule below names a method badly: operationId -> method name (camelCase).
NAMING = {
    "getHealth": "health",
    "getReadiness": "readiness",
    "retryFailedDisbursementItems": "retryFailedItems",
    "sendTestWebhookEvent": "sendTestEvent",
    "topUpSandboxBalance": "topUp",
}

# Where an event's object extends a schema with more fields than a name can list.
EXTENSION_NAMES = {"SettingsWithConfirmedByAndPreviousAndRequestedByAndSecondPersonAndUpdatedByKey": "UpdatedSettings"}

# Tags whose operations are no client's business (the document's webhook event operations).
SKIPPED_TAGS = {"Webhook events"}


@dataclass(frozen=True)
class Type:
    """A value's type: `kind` is str, int, bool, decimal (`name` "number" when JSON writes it as a
    number, else it is a decimal string), date, datetime, any, list (of `item`), ref (to the
    schema `name`), literal (`values`) or nullable (`item` or null)."""

    kind: str
    item: Type | None = None
    name: str = ""
    values: tuple[Any, ...] = ()


@dataclass
class Property:
    json_name: str
    type: Type
    required: bool
    description: str = ""
    deprecated: bool = False


@dataclass
class Schema:
    """A named schema: an object (`properties`), or an alias of another type (`alias`: enums)."""

    name: str
    description: str = ""
    properties: list[Property] = field(default_factory=list)
    alias: Type | None = None


@dataclass
class Parameter:
    json_name: str
    location: str  # path, query
    type: Type
    required: bool
    description: str = ""


@dataclass
class Method:
    operation_id: str
    name: str  # camelCase; each writer cases it
    http_method: str
    path: str
    description: str
    path_params: list[Parameter]
    query: list[Parameter]
    body: Type | None  # a ref to a request schema
    body_required: bool
    csv_body: bool  # also takes text/csv (its query parameters then describe the batch)
    returns: Type | None  # a ref to a response schema, or None when the answer has no body
    page_item: Type | None  # set when `returns` is a cursor page: the type of its items
    idempotent: bool  # takes Idempotency-Key

    @property
    def takes_query(self) -> bool:
        """Whether its query is the caller's to fill (a list's filters, a CSV batch's fields)."""
        return bool(self.query) and (self.http_method == "GET" or self.csv_body)


@dataclass
class Resource:
    tag: str
    name: str  # camelCase: invoices, paymentLinks
    description: str
    methods: list[Method]


@dataclass
class EventType:
    type: str  # client.created
    object: Type  # the data.object's schema


@dataclass
class Api:
    title: str
    version: str
    resources: list[Resource]
    schemas: dict[str, Schema]
    request_schemas: set[str]  # named schemas requests use (as typed dicts)
    response_schemas: set[str]  # named schemas answers use (as models)
    events: list[EventType]


def words(identifier: str) -> list[str]:
    """`listInvoicePayments` -> [list, Invoice, Payments]; `payment_links` -> [payment, links]."""
    return [w for w in re.split(r"(?<=[a-z0-9])(?=[A-Z])|[_\s.-]+", identifier) if w]


def camel(parts: list[str]) -> str:
    return parts[0].lower() + "".join(p[:1].upper() + p[1:].lower() for p in parts[1:]) if parts else ""


def pascal(parts: list[str]) -> str:
    return "".join(p[:1].upper() + p[1:] for p in parts)


def snake(identifier: str) -> str:
    return "_".join(w.lower() for w in words(identifier))


def singular(word: str) -> str:
    lower = word.lower()
    if lower.endswith("ies"):
        return word[:-3] + "y"
    if lower.endswith("s") and not lower.endswith(("ss", "settings")):
        return word[:-1]
    return word


def method_name(operation_id: str, tag: str) -> str:
    """The operationId without its resource's noun: `createInvoice` in Invoices is `create`,
    `listInvoicePayments` is `listPayments`; `get` is `retrieve`."""
    if operation_id in NAMING:
        return NAMING[operation_id]
    verb, *rest = words(operation_id)
    noun = [singular(w).lower() for w in words(tag)]
    taken = 0
    while taken < min(len(rest), len(noun)) and singular(rest[taken]).lower() == noun[taken]:
        taken += 1
    verb = "retrieve" if verb == "get" else verb
    return camel([verb, *rest[taken:]])


def query_type(resource: Resource, method: Method) -> str:
    """The name of a method's query type: `InvoiceListParams`, `DisbursementCreateFromCsvParams`."""
    noun = pascal([singular(w) for w in words(resource.tag)])
    return f"{noun}{pascal(words(method.name))}{'FromCsv' if method.csv_body else ''}Params"


def number_fields(api: Api) -> list[str]:
    """The properties JSON writes as numbers: exact decimals the TypeScript and PHP libraries carry
    as text (their exact JSON reads and writes these as numbers)."""

    def number(t: Type) -> bool:
        while t.kind == "nullable" and t.item is not None:
            t = t.item
        return t.kind == "decimal" and t.name == "number"

    return sorted({p.json_name for s in api.schemas.values() for p in s.properties if number(p.type)})


class Reader:
    def __init__(self, document: dict[str, Any]):
        self.document = document
        self.components: dict[str, Any] = document["components"]["schemas"]
        self.schemas: dict[str, Schema] = {}

    def type_of(self, schema: dict[str, Any], owner: str) -> Type:
        """The type of `schema`, a property or item of the schema `owner`."""
        if "$ref" in schema:
            return Type("ref", name=self.named(schema["$ref"].rsplit("/", 1)[-1]))
        if "allOf" in schema:
            return Type("ref", name=self.named(self.extension(schema)))
        if "oneOf" in schema or "anyOf" in schema:
            options = schema.get("oneOf") or schema["anyOf"]
            others = [o for o in options if o.get("type") != "null"]
            if len(others) == 1 and len(options) == 2:
                return Type("nullable", item=self.type_of(others[0], owner))
            raise ValueError(f"{owner}: a union the libraries cannot type: {schema}")
        kind = schema.get("type")
        if isinstance(kind, list):
            rest = [k for k in kind if k != "null"]
            if len(rest) != 1:
                raise ValueError(f"{owner}: types {kind}")
            inner = self.type_of({**schema, "type": rest[0]}, owner)
            return Type("nullable", item=inner) if "null" in kind else inner
        if "enum" in schema:
            return Type("literal", values=tuple(v for v in schema["enum"] if v is not None))
        if "const" in schema:
            return Type("literal", values=(schema["const"],))
        if kind == "string":
            return Type(
                {"decimal": "decimal", "date": "date", "date-time": "datetime"}.get(schema.get("format", ""), "str")
            )
        if kind == "number":
            # A JSON number read exactly: the TypeScript and PHP libraries carry it as text.
            return Type("decimal", name="number")
        if kind == "integer":
            return Type("int")
        if kind == "boolean":
            return Type("bool")
        if kind == "array":
            return Type("list", item=self.type_of(schema["items"], owner))
        if kind == "object" and "properties" not in schema:
            return Type("any")
        if kind is None and not schema:
            return Type("any")
        raise ValueError(f"{owner}: an inline schema the libraries cannot name: {schema}")

    def extension(self, schema: dict[str, Any]) -> str:
        """Names an inline `allOf` of a named schema and more properties (an event's object):
        `InvoiceView` and `creditNote` make `InvoiceWithCreditNote`."""
        base, extra = schema["allOf"]
        stem = base["$ref"].rsplit("/", 1)[-1].removesuffix("View")
        name = stem + "With" + "And".join(pascal(words(p)) for p in extra["properties"])
        name = EXTENSION_NAMES.get(name, name)
        if self.components.setdefault(name, schema) != schema:
            raise ValueError(f"two shapes named {name}")
        return name

    def named(self, name: str) -> str:
        if name in self.schemas:
            return name
        schema = self.components[name]
        placeholder = Schema(name, description=schema.get("description", ""))
        self.schemas[name] = placeholder  # before reading its properties: they may refer back
        if schema.get("type") == "object" or "allOf" in schema:
            placeholder.properties = self.properties(schema, name)
        else:
            placeholder.alias = self.type_of(schema, name)
        return name

    def properties(self, schema: dict[str, Any], owner: str) -> list[Property]:
        if "allOf" in schema:
            merged: dict[str, Property] = {}
            for part in schema["allOf"]:
                parts = (
                    self.properties(self.components[part["$ref"].rsplit("/", 1)[-1]], owner)
                    if "$ref" in part
                    else self.properties(part, owner)
                )
                merged.update({p.json_name: p for p in parts})
            return list(merged.values())
        required = set(schema.get("required", []))
        return [
            Property(
                json_name=name,
                type=self.type_of(prop, owner),
                required=name in required,
                description=prop.get("description", "") or first_description(prop),
                deprecated=bool(prop.get("deprecated")),
            )
            for name, prop in schema.get("properties", {}).items()
        ]


def first_description(schema: dict[str, Any]) -> str:
    for option in schema.get("oneOf", []):
        if option.get("description"):
            return option["description"]
    return ""


def refs(api_schemas: dict[str, Schema], start: Type | None, seen: set[str]) -> set[str]:
    """Every named schema `start` reaches."""
    if start is None:
        return seen
    if start.kind == "ref" and start.name not in seen:
        seen.add(start.name)
        schema = api_schemas[start.name]
        for p in schema.properties:
            refs(api_schemas, p.type, seen)
        refs(api_schemas, schema.alias, seen)
    elif start.item is not None:
        refs(api_schemas, start.item, seen)
    return seen


def read(document: dict[str, Any]) -> Api:
    reader = Reader(document)
    tags = {t["name"]: t.get("description", "") for t in document.get("tags", [])}
    resources: dict[str, Resource] = {}
    for path, item in document["paths"].items():
        for http_method, op in item.items():
            if http_method not in ("get", "post", "put", "patch", "delete"):
                continue
            tag = op["tags"][0]
            if tag in SKIPPED_TAGS:
                continue
            resource = resources.setdefault(tag, Resource(tag, camel(words(tag)), tags.get(tag, ""), []))
            resource.methods.append(method_of(reader, path, http_method, op, tag))
    ordered = [resources[t] for t in tags if t in resources]
    for resource in ordered:
        names = [m.name for m in resource.methods]
        if len(set(names)) != len(names):
            raise ValueError(f"{resource.tag}: two methods with one name in {names}: add to NAMING")

    events = []
    for event_type, item in document.get("webhooks", {}).items():
        schema = item["post"]["requestBody"]["content"]["application/json"]["schema"]
        parts = schema["allOf"]
        obj = parts[1]["properties"]["data"]["properties"]["object"]
        events.append(EventType(event_type, reader.type_of(obj, event_type)))
    reader.named("EventView")

    requests: set[str] = set()
    responses: set[str] = set()
    for resource in ordered:
        for m in resource.methods:
            refs(reader.schemas, m.body, requests)
            refs(reader.schemas, m.returns, responses)
    for event in events:
        refs(reader.schemas, event.object, responses)
    refs(reader.schemas, Type("ref", name="EventView"), responses)
    reader.named("ErrorBody")
    refs(reader.schemas, Type("ref", name="ErrorBody"), responses)
    both = {n for n in requests & responses if reader.schemas[n].alias is None}
    if both:
        raise ValueError(f"object schemas both sent and answered: {sorted(both)}")
    info = document["info"]
    return Api(info["title"], info["version"], ordered, reader.schemas, requests, responses, events)


def method_of(reader: Reader, path: str, http_method: str, op: dict[str, Any], tag: str) -> Method:
    params = [p for p in op.get("parameters", [])]
    path_params = [
        Parameter(p["name"], "path", reader.type_of(p["schema"], op["operationId"]), True, p.get("description", ""))
        for p in params
        if p["in"] == "path"
    ]
    order = re.findall(r"\{(\w+)\}", path)
    path_params.sort(key=lambda p: order.index(p.json_name))
    query = [
        Parameter(
            p["name"],
            "query",
            reader.type_of(p["schema"], op["operationId"]),
            p.get("required", False),
            p.get("description", ""),
        )
        for p in params
        if p["in"] == "query" and p["name"] != "page"
    ]
    content = op.get("requestBody", {}).get("content", {})
    body = None
    if "application/json" in content:
        body = reader.type_of(content["application/json"]["schema"], op["operationId"])
    # With a CSV body, the query parameters describe the batch; the JSON method sends none.
    csv_body = "text/csv" in content
    returns = None
    page_item = None
    for status, response in op["responses"].items():
        if status.startswith("2") and "application/json" in response.get("content", {}):
            returns = reader.type_of(response["content"]["application/json"]["schema"], op["operationId"])
    cursor = any(p.json_name == "startingAfter" for p in query)
    if cursor:
        assert returns is not None and returns.kind == "ref"
        data = next(p for p in reader.schemas[returns.name].properties if p.json_name == "data")
        assert data.type.kind == "list"
        page_item = data.type.item
        # A page's next cursor is an item's id.
        item_schema = reader.schemas[page_item.name] if page_item is not None and page_item.kind == "ref" else None
        if item_schema is None or not any(p.json_name == "id" for p in item_schema.properties):
            raise ValueError(f"{op['operationId']}: a cursor page of items without an id")
    return Method(
        operation_id=op["operationId"],
        name=method_name(op["operationId"], tag),
        http_method=http_method.upper(),
        path=path,
        description=op.get("description", ""),
        path_params=path_params,
        query=query,
        body=body,
        body_required=bool(op.get("requestBody", {}).get("required")),
        csv_body=csv_body,
        returns=returns,
        page_item=page_item,
        idempotent=any(p["name"] == "Idempotency-Key" for p in params),
    )
