"""A tool the maintainers use to poke at the admin API while developing; not published."""

from __future__ import annotations

from crewai.tools import BaseTool

from shop_tools._client import client


class RawAdminCallTool(BaseTool):
    name: str = "Raw admin call"
    description: str = "Call any admin API path (development only)."

    def _run(self, path: str) -> str:
        return client().get(path).text
