"""Write a weekly newsletter from links the editor collected."""

from crewai import Agent, Crew, Task

from tools.web_tools import fetch_page

curator = Agent(
    role="Newsletter Curator",
    goal="Summarise this week's links for {audience}",
    backstory="You read every link before recommending it.",
    tools=[fetch_page],
)

newsletter_crew = Crew(
    agents=[curator],
    tasks=[Task(description="Summarise the links in {links}", expected_output="Five short summaries", agent=curator)],
)

if __name__ == "__main__":
    print(newsletter_crew.kickoff(inputs={"audience": "developers", "links": "[]"}))
