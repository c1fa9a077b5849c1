"""Walking a JSON document by location, for the fuzz tests that edit random places in a file."""

from __future__ import annotations

from typing import Any


def locations(node: Any, path: tuple = ()) -> list[tuple]:
    """Every place in the document: a tuple of keys / indices from the root."""
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += locations(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += locations(value, (*path, i))
    return found
