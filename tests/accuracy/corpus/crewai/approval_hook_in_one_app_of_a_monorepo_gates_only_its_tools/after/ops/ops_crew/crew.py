from crewai import Agent, Crew, Task
from crewai.tools import tool


@tool("Restart Service")
def restart_service(name: str) -> str:
    """Restart a production service."""
    return name


operator = Agent(role="Operator", goal="Keep services up", backstory="You run the pager.", tools=[restart_service], llm="gpt-4o")
mend = Task(description="Mend {incident}.", expected_output="What was done.", agent=operator)
ops = Crew(agents=[operator], tasks=[mend])


from crewai.hooks import before_tool_call  # noqa: E402


@before_tool_call
def confirm_restarts(context):
    # A human confirms every restart this app's crew asks for.
    if input(f"Run {context.tool_name}? [yes/no] ").strip() != "yes":
        return False
    return None
