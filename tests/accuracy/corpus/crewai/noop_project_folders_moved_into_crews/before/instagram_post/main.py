"""Draft an Instagram post for a product launch."""

from __future__ import annotations

from crewai import Agent, Crew, Task

from tools.browser_tools import scrape_website

researcher = Agent(
    role="Principal Researcher",
    goal="Find what customers say about {product} online",
    backstory="You read reviews and forums so the copy sounds like real people.",
    tools=[scrape_website],
)

copywriter = Agent(
    role="Creative Content Creator",
    goal="Write a post for {product} that people want to share",
    backstory="You have run the accounts of three award-winning brands.",
)

post_crew = Crew(
    agents=[researcher, copywriter],
    tasks=[
        Task(description="Summarise what people like about {product}", expected_output="Five quotes", agent=researcher),
        Task(description="Write the post", expected_output="A caption and three hashtags", agent=copywriter),
    ],
)

if __name__ == "__main__":
    print(post_crew.kickoff(inputs={"product": "a trail running shoe"}))
