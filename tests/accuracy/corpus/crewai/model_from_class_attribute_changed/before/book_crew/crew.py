from crewai import LLM, Agent, Crew, Process, Task
from crewai.project import CrewBase, agent, crew, task


@CrewBase
class BookCrew:
    """Outlines a book and drafts its first chapter."""

    llm = LLM(model="openai/gpt-4o", temperature=0.4)

    @agent
    def outliner(self) -> Agent:
        return Agent(
            role="Outliner",
            goal="Outline a book about {topic} in ten chapters",
            backstory="An editor who has shaped a hundred non-fiction books.",
            llm=self.llm,
        )

    @agent
    def writer(self) -> Agent:
        return Agent(
            role="Chapter Writer",
            goal="Draft chapter one from the outline",
            backstory="A writer who turns outlines into readable prose.",
            llm=self.llm,
        )

    @task
    def outline_task(self) -> Task:
        return Task(description="Outline the book on {topic}", expected_output="Ten chapter titles with summaries", agent=self.outliner())

    @task
    def chapter_task(self) -> Task:
        return Task(description="Write chapter one", expected_output="About 2,000 words of markdown", agent=self.writer())

    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.sequential)
