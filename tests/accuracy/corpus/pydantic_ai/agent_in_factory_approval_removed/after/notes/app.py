from pydantic_ai import Agent, Tool

from notes.tools import delete_note, list_notes


def build_agent(model: str = "openai:gpt-4o") -> Agent:
    agent = Agent(
        model,
        name="notes",
        instructions="Manage the user's notes.",
        tools=[Tool(list_notes), Tool(delete_note)],
    )
    return agent


def main() -> None:
    print(build_agent().run_sync("list my notes").output)
