from fastmcp import FastMCP


class DeployServer(FastMCP):
    def __init__(self, environment: str):
        super().__init__(name=f"deploy-{environment}")
        self.environment = environment

        @self.tool(annotations={"readOnlyHint": True})
        def status(service: str) -> str:
            """Report the deployed version of a service."""
            return f"{service}@{self.environment}: v1"


server = DeployServer("staging")

if __name__ == "__main__":
    server.run()
