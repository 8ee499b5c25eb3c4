
"""Connection to the analytics warehouse."""

from __future__ import annotations

import os

import sqlalchemy

# Small pool: the assistant runs one query at a time per session.
engine = sqlalchemy.create_engine(os.environ.get("WAREHOUSE_URL", "sqlite:///analytics.db"), pool_size=2)
