"""Receipt -> the JSON receipt (`--format json`): the machine-readable twin of the markdown.

Key order, indentation and non-ASCII handling are fixed, so identical receipts give identical
bytes. No escaping is needed beyond JSON's own: consumers parse it, nobody renders it as markup.
"""

from __future__ import annotations

import json

from receipt.models import Receipt


def render_json(receipt: Receipt, *, include_surfaces: bool = False) -> str:
    """Pretty, sorted, UTF-8 JSON ending with one newline; `surfaces` only when asked for."""
    data = receipt.to_json_dict(include_surfaces)
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
