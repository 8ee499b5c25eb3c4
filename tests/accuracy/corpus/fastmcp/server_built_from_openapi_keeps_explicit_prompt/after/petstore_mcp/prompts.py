from fastmcp import FastMCP


def register_prompts(server: FastMCP) -> None:
    @server.prompt(name="adopt_a_pet")
    def adopt_a_pet(species: str) -> str:
        """Walk the user through adopting a pet."""
        return f"Find an available {species}, check its vaccinations, then reserve it for the user."
