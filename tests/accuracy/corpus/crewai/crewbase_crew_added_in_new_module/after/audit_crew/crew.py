from crewai import Agent, Crew, Process, Task
from crewai.agents.agent_builder.base_agent import BaseAgent
from crewai.project import CrewBase, agent, crew, task

from audit_crew.tools import read_ledger


@CrewBase
class AuditCrew:
    """Quarterly audit crew: a lead who delegates, and the specialists it delegates to."""

    agents: list[BaseAgent]
    tasks: list[Task]

    @agent
    def audit_lead(self) -> Agent:
        return Agent(
            role="Audit Lead",
            goal="Deliver the quarterly audit of {account}",
            backstory="You split the audit between your specialists and review their findings.",
            allow_delegation=True,
        )

    @agent
    def ledger_reviewer(self) -> Agent:
        return Agent(
            role="Ledger Reviewer",
            goal="Find unusual entries in the ledger of {account}",
            backstory="A careful bookkeeper.",
            tools=[read_ledger],
        )

    @task
    def audit_task(self) -> Task:
        return Task(description="Audit {account} for {quarter}", expected_output="An audit memo", agent=self.audit_lead())

    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.sequential)
