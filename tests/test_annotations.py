"""Annotations compare by meaning: equal types render to equal text, different types never do."""

from __future__ import annotations

import pytest

from receipt.extract import extract_file

HEADER = (
    "from __future__ import annotations\n"
    "import typing\nimport typing as t\nimport collections.abc\n"
    "from typing import Optional, List, Dict, Union, Literal, Sequence\n"
    "from typing_extensions import Annotated\n"
    "from pydantic import Field\n"
    "from app.models import Args\n"
)


def annotation(text: str) -> str:
    facts = extract_file("m.py", (HEADER + f"def f(x: {text}): ...\n").encode())
    assert facts.error is None, facts.error
    return facts.functions[0].params[0].annotation


@pytest.mark.parametrize(
    "spellings",
    [
        ["Optional[bool]", "bool | None", "Union[bool, None]", "None | bool", "typing.Optional[bool]", "'Optional[bool]'"],
        ["List[str]", "list[str]", "t.List[str]", "'list[str]'"],
        ["Dict[str, Args]", "dict[str, 'Args']", "typing.Dict[str, Args]"],
        ["Union[int, str, None]", "str | int | None", "Optional[Union[str, int]]", "Union[str, Union[int, None]]"],
        ["Literal['a', 'b']", "Literal['b', 'a']", "Literal['a', 'b', 'a']"],
        ["Sequence[int]", "collections.abc.Sequence[int]", "t.Sequence[int]"],
        ["Annotated[int, Field(ge=1)]", "'Annotated[int, Field(ge=1)]'"],
    ],
)
def test_spellings_of_one_type_render_identically(spellings: list[str]) -> None:
    assert len({annotation(s) for s in spellings}) == 1, {s: annotation(s) for s in spellings}


@pytest.mark.parametrize(
    "a, b",
    [
        ("Optional[int]", "Optional[str]"),
        ("int | None", "int"),
        ("Literal['a', 'b']", "Literal['a', 'c']"),
        ("Annotated[int, Field(ge=1)]", "Annotated[int, Field(ge=0)]"),
        ("list[str]", "set[str]"),
        ("dict[str, int]", "dict[int, str]"),
    ],
)
def test_different_types_never_collapse(a: str, b: str) -> None:
    assert annotation(a) != annotation(b)


def test_canonical_rendering_is_readable() -> None:
    assert annotation("Optional[List[str]]") == "list[str] | None"
    assert annotation("Union[str, int]") == "int | str"
