from crewai import Agent, Crew, Task

from toolkit.tools import close_account

agent = Agent(role="Account Desk", goal="Handle account requests", backstory="You own the accounts queue.", tools=[close_account], llm="gpt-4o")
handle = Task(description="Handle {request}.", expected_output="The reply.", agent=agent)
desk = Crew(agents=[agent], tasks=[handle])


from crewai.hooks import before_tool_call  # noqa: E402


@before_tool_call
def confirm(context):
    if input(f"Allow {context.tool_name}? [yes/no] ").strip() != "yes":
        return False
    return None
