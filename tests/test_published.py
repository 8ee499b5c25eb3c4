"""What a tool library publishes is exported: the names its top-level package binds (link.published).

A library of tools has no agent of its own; the agents that use it live in other repositories, and
they import what the package's `__init__.py` publishes. Those tools are export roots; a tool the
package keeps to itself is not.
"""

from __future__ import annotations

import pytest

from tests.helpers import exported

TOOLS = '''
from langchain_core.tools import tool


@tool
def send_invoice(invoice_id: str) -> str:
    """Email an invoice."""
    return invoice_id


@tool
def void_invoice(invoice_id: str) -> str:
    """Cancel an invoice."""
    return invoice_id


@tool
def _reindex(invoice_id: str) -> str:
    """Rebuild the search index."""
    return invoice_id
'''


def names(files: dict[str, str]) -> set[str]:
    return {e.name for e in exported(files).values()}


@pytest.mark.parametrize(
    ("init", "expected"),
    [
        # every public name the package binds, when it has no __all__
        ("from billing.tools import send_invoice, void_invoice\n", {"send_invoice", "void_invoice"}),
        ("from billing.tools import send_invoice as send\n", {"send_invoice"}),
        ("from .tools import send_invoice\n", {"send_invoice"}),
        # a name the package keeps private is not published
        ("from billing.tools import send_invoice, _reindex\n", {"send_invoice"}),
        ("from billing.tools import void_invoice as _void\n", set()),
        # a literal __all__ says what is published
        ("from billing.tools import send_invoice, void_invoice\n__all__ = ['send_invoice']\n", {"send_invoice"}),
        ("from billing.tools import send_invoice, void_invoice\n__all__ = ('void_invoice',)\n", {"void_invoice"}),
        # an __all__ built otherwise is not read: every public name counts (more, never fewer)
        ("from billing.tools import send_invoice, void_invoice\n__all__ = ['send_invoice'] + []\n", {"send_invoice", "void_invoice"}),
        # a star import publishes the public names of the module it reads (its __all__ when literal)
        ("from billing.tools import *\n", {"send_invoice", "void_invoice"}),
        ("import billing.tools\n", set()),  # a module is not a tool
        ("", set()),
    ],
)
def test_a_top_level_package_publishes_what_its_init_binds(init: str, expected: set[str]) -> None:
    assert names({"billing/__init__.py": init, "billing/tools.py": TOOLS}) == expected


def test_star_import_of_a_module_with_an_all_publishes_only_those() -> None:
    tools = TOOLS + "\n__all__ = ['void_invoice']\n"
    assert names({"billing/__init__.py": "from billing.tools import *\n", "billing/tools.py": tools}) == {"void_invoice"}


def test_a_tool_defined_in_the_init_itself_is_published() -> None:
    assert names({"billing/__init__.py": TOOLS}) == {"send_invoice", "void_invoice"}


def test_only_the_top_level_package_publishes() -> None:
    """`billing.tools.__init__` re-exporting is the library's own plumbing, not its public face."""
    files = {
        "billing/__init__.py": "",
        "billing/tools/__init__.py": "from billing.tools.invoices import send_invoice\n",
        "billing/tools/invoices.py": TOOLS,
    }
    assert names(files) == set()


def test_the_import_name_decides_under_a_src_layout() -> None:
    files = {"src/billing/__init__.py": "from billing.tools import send_invoice\n", "src/billing/tools.py": TOOLS}
    assert names(files) == {"send_invoice"}


def test_a_published_name_bound_to_something_else_publishes_nothing() -> None:
    files = {"billing/__init__.py": "send_invoice = None\n", "billing/tools.py": TOOLS}
    assert names(files) == set()
