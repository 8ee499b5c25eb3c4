"""Connection to the analytics warehouse."""

from __future__ import annotations

import os

import sqlalchemy

engine = sqlalchemy.create_engine(os.environ.get("WAREHOUSE_URL", "sqlite:///analytics.db"))
