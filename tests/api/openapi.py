"""Reading the served OpenAPI document: its operations, their bodies, and JSON Schema of them."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator

METHODS = ("get", "post", "put", "patch", "delete")
UNSAFE = ("post", "put", "patch", "delete")


def served_schema(version: str = "v1") -> dict[str, Any]:
    """The OpenAPI document as ``/api/<version>/schema/`` serves it (JSON)."""
    from django.test import Client

    response = Client().get(f"/api/{version}/schema/", {"format": "json"})
    assert response.status_code == 200, response.content[:500]
    return json.loads(response.content)


@dataclass
class Operation:
    """One operation of the document."""

    method: str
    path: str
    spec: dict[str, Any]

    @property
    def id(self) -> str:
        """The operation id."""
        return self.spec["operationId"]

    @property
    def label(self) -> str:
        """``GET /api/v1/…`` (operation id)."""
        return f"{self.method.upper()} {self.path} ({self.id})"


def operations(document: dict[str, Any]) -> list[Operation]:
    """Every operation of the document, in its order."""
    return [
        Operation(method, path, spec)
        for path, item in document["paths"].items()
        for method, spec in item.items()
        if method in METHODS
    ]


def resolve(document: dict[str, Any], node: Any) -> Any:
    """A schema node with its ``$ref`` (and a lone ``allOf`` wrapper) followed."""
    while isinstance(node, dict):
        if "$ref" in node:
            node = document["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
        elif len(node.get("allOf", [])) == 1 and "properties" not in node:
            node = node["allOf"][0]
        else:
            break
    return node


def _convert(node: Any, direction: str) -> Any:
    """An OpenAPI 3.0 schema node as JSON Schema 2020-12 (nullable, read/write-only)."""
    if isinstance(node, list):
        return [_convert(item, direction) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _convert(value, direction) for key, value in node.items()}
    hidden = "readOnly" if direction == "request" else "writeOnly"
    if "required" in out and isinstance(out.get("properties"), dict):
        out["required"] = [
            name for name in out["required"]
            if not (out["properties"].get(name) or {}).get(hidden)
        ]
    if out.pop("nullable", False):
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
            if "enum" in out and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def validator(document: dict[str, Any], node: dict[str, Any],
              direction: str) -> Draft202012Validator:
    """A validator of a request or response body against a schema node of the document."""
    components = {
        name: _convert(schema, direction)
        for name, schema in document["components"]["schemas"].items()
    }
    root = {**_convert(copy.deepcopy(node), direction), "components": {"schemas": components}}
    return Draft202012Validator(root)


def problems(document: dict[str, Any], node: dict[str, Any], value: Any,
             direction: str) -> list[str]:
    """Why ``value`` does not match the schema node (empty when it does)."""
    return [
        f"{'/'.join(map(str, error.absolute_path)) or '(body)'}: {error.message[:300]}"
        for error in validator(document, node, direction).iter_errors(value)
    ]


def properties(document: dict[str, Any], node: Any,
               seen: frozenset[str] = frozenset()) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every property of a body schema, nested ones too: (component or path, name, schema)."""
    if not isinstance(node, dict):
        return
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            target = document["components"]["schemas"][name]
            yield from _properties_of(document, target, name, seen | {name})
        return
    yield from _properties_of(document, node, "(inline)", seen)


def _properties_of(document: dict[str, Any], node: dict[str, Any], where: str,
                   seen: frozenset[str]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The properties of one schema node and of what it nests."""
    for key in ("allOf", "oneOf", "anyOf"):
        for sub in node.get(key, []):
            yield from properties(document, sub, seen)
    for name, prop in (node.get("properties") or {}).items():
        yield where, name, prop
        yield from properties(document, prop, seen)
    if isinstance(node.get("items"), dict):
        yield from properties(document, node["items"], seen)
    if isinstance(node.get("additionalProperties"), dict):
        yield from properties(document, node["additionalProperties"], seen)


def enum_values(document: dict[str, Any], node: Any) -> set[Any]:
    """The values a property's enum allows (blank and null left out); empty without one."""
    node = resolve(document, node)
    if not isinstance(node, dict):
        return set()
    values = set(node.get("enum") or [])
    for key in ("allOf", "oneOf", "anyOf"):
        for sub in node.get(key, []):
            values |= enum_values(document, sub)
    return values - {"", None}


def bodies(operation: Operation) -> Iterator[tuple[str, dict[str, Any]]]:
    """The body schemas of an operation: ("request", schema) and ("<status>", schema)."""
    for media in (operation.spec.get("requestBody") or {}).get("content", {}).values():
        if "schema" in media:
            yield "request", media["schema"]
    for status, response in operation.spec["responses"].items():
        for media in (response.get("content") or {}).values():
            if "schema" in media:
                yield status, media["schema"]
