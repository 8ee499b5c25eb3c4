import httpx
from fastmcp import FastMCP

from petstore_mcp.prompts import register_prompts

SPEC_URL = "https://petstore.example.invalid/openapi.json"

client = httpx.AsyncClient(base_url="https://petstore.example.invalid")
# The store's own API operations become tools at start-up, next to the hand-written ones below.
server = FastMCP.from_openapi(
    openapi_spec=httpx.get(SPEC_URL).json(),
    client=client,
    name="petstore",
    instructions="Answers questions about the pet store's animals.",
)


@server.tool(annotations={"readOnlyHint": True})
async def list_pets(species: str | None = None) -> list[dict]:
    """List the pets currently in the store."""
    response = await client.get("/pets", params={"species": species} if species else None)
    return response.json()


register_prompts(server)
