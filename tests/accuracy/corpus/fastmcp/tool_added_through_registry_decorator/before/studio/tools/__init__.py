import importlib
import pkgutil

from fastmcp import FastMCP

from studio.registry import collected


def install_tools(server: FastMCP) -> None:
    for found in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{found.name}")
    for spec in collected():
        handler = spec["fn"]
        server.tool(name=spec["name"], description=spec["description"], **spec["settings"])(handler)
