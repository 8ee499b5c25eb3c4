"""A receipt's head compares its program with its base's without building the base's again: what
depends on the tree alone (`Program.tree_only`) and the base's effects by where each one is, as the
kept screens entry holds them (screenstore.py, screens.effects_placed). That comparison may only be
coarser than comparing the effects themselves, never laxer: every receiver whose effects differ is a
changed key, whether a changed module adds one or an untouched module's effect now lands on another
receiver. Real extraction and programs; the placed effects through the entry's JSON codec."""

from __future__ import annotations

import json

from receipt.extract import extract_file
from receipt.extract.program import Program
from receipt.extract.screens import _Kept, changed_keys, effects_placed, kept_of
from receipt.extract.screenstore import _placed_json, _placed_of

UNTOUCHED = {
    "ops/__init__.py": "",
    "ops/lists.py": "TOOLS = []\nSTABLE = []\n",
    "ops/other.py": "OTHER = []\n",
    # `T` is whatever ops/alias.py binds: its receiver moves when that module changes
    "ops/use.py": "from ops.alias import T\nfrom ops.lists import STABLE\n\n\ndef f():\n    pass\n\n\nT.append(f)\nSTABLE.append(f)\n",
}
BASE = {"ops/alias.py": "from ops.lists import TOOLS as T\n", "ops/more.py": "X = 1\n"}
HEAD = {"ops/alias.py": "from ops.other import OTHER as T\n", "ops/more.py": "from ops.lists import TOOLS\n\n\ndef g():\n    pass\n\n\nTOOLS.append(g)\n"}


def _effect_keys(keys: set) -> set[str]:
    return {key for tag, key in keys if tag == "effects_by_receiver"}


def test_placed_effects_mark_every_receiver_whose_effects_differ_and_only_those() -> None:
    shared = {path: extract_file(path, text.encode()) for path, text in UNTOUCHED.items()}  # one object in both, as in a run
    base_facts = [*shared.values(), *(extract_file(p, t.encode()) for p, t in BASE.items())]
    head_facts = [*shared.values(), *(extract_file(p, t.encode()) for p, t in HEAD.items())]
    base, head = Program(base_facts), Program(head_facts)
    assert len(base.effects_by_receiver["ops.lists.TOOLS"]) == 1 and "ops.other.OTHER" in head.effects_by_receiver
    exact = _effect_keys(changed_keys(kept_of(base), head))
    tree = Program.tree_only(base_facts)
    stored = _placed_of(json.loads(json.dumps(_placed_json(effects_placed(base)))))  # as the entry keeps them
    placed = _effect_keys(changed_keys(_Kept(tree.modules, tree.homes, tree._by_import, tree._suffix, stored, placed=True), head))
    # ops/more.py appends to TOOLS at head; ops/use.py's untouched `T.append(f)` moved from TOOLS to OTHER
    assert {"ops.lists.TOOLS", "ops.other.OTHER"} <= exact
    assert exact <= placed
    assert "ops.lists.STABLE" not in placed  # an untouched module's effect on an untouched receiver: no change
    assert (tree.modules.keys(), tree.homes, tree._by_import, tree._suffix) == (base.modules.keys(), base.homes, base._by_import, base._suffix)
