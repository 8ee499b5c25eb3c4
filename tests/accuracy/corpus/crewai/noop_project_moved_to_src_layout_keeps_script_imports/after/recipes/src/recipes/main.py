"""Plan a week of dinners from recipe sites."""

from crewai import Agent, Crew, Task

from tools.web_tools import fetch_page

planner = Agent(
    role="Meal Planner",
    goal="Plan seven dinners for {household} from trusted recipe sites",
    backstory="You cook for a family of four on a budget.",
    tools=[fetch_page],
)

recipes_crew = Crew(
    agents=[planner],
    tasks=[Task(description="Plan dinners for {household}", expected_output="Seven recipes with links", agent=planner)],
)

if __name__ == "__main__":
    print(recipes_crew.kickoff(inputs={"household": "four people"}))
