from research.agent import create_researcher

if __name__ == "__main__":
    print(create_researcher().run_sync("What is MCP?").output)
