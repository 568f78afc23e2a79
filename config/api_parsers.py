"""The API's JSON parser: DRF's, refusing a body nested deeper than ``JSON_MAX_DEPTH`` before it
is parsed (a body nested some 1,000 levels was a ``RecursionError``, a 500, on every endpoint)."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from scoring.core.json_input import NUL_MESSAGE, nul_field, too_deep


class DepthLimitedJSONParser(JSONParser):
    """JSON bodies nested at most ``settings.JSON_MAX_DEPTH`` levels; a deeper one is 400
    ``{"body": ["The JSON nests deeper than 32 levels."]}``, nothing parsed. A NUL character in
    any text is 400 naming the top-level field (PostgreSQL cannot store it)."""

    def parse(
        self, stream: IO[bytes], media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        """Measure the body's nesting, parse it as DRF does, then refuse a NUL character in any
        of its text (400 naming the top-level field it is under)."""
        body = stream.read()
        reason = too_deep(body)
        if reason:
            raise ParseError({"body": [reason]})
        data = super().parse(io.BytesIO(body), media_type, parser_context)
        field = nul_field(data)
        if field is not None:
            raise ParseError({field: [str(NUL_MESSAGE)]})
        return data
