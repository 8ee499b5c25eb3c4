from crewai import Agent, Crew, Task

from policy.tools import PolicyDocsTool

advisor = Agent(
    role="Policy advisor",
    goal="Answer employee questions about company policy",
    backstory="You know the handbook by heart.",
    tools=[PolicyDocsTool()],
)

answer = Task(description="Answer: {question}", expected_output="A short answer with the policy section.", agent=advisor)

crew = Crew(agents=[advisor], tasks=[answer])
