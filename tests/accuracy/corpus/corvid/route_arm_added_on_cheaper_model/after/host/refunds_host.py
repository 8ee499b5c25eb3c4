"""Python host for the compiled Corvid refund agent (loads the shared library built by `corvid build`)."""

from __future__ import annotations

import ctypes
import json
from pathlib import Path

_LIB = ctypes.CDLL(str(Path(__file__).resolve().parent.parent / "build" / "librefunds.so"))
_LIB.corvid_agent_refund_bot.argtypes = [ctypes.c_char_p]
_LIB.corvid_agent_refund_bot.restype = ctypes.c_char_p


def decide(ticket: dict) -> dict:
    """Run the refund agent on one ticket; the descriptor next to the library documents its contract."""
    raw = _LIB.corvid_agent_refund_bot(json.dumps(ticket).encode("utf-8"))
    return json.loads(raw.decode("utf-8"))
