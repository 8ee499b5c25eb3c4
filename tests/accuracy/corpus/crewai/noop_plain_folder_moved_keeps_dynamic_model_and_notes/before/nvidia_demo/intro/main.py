"""Ask a NIM-hosted model through CrewAI's LLM wrapper."""

import os

from crewai import LLM, Agent, Crew, Task

MODEL = os.environ.get("MODEL", "meta/llama-3.1-8b-instruct")


def nim_llm(model_name: str) -> LLM:
    return LLM(model="nvidia_nim/" + model_name, base_url=os.environ.get("NVIDIA_API_BASE"))


researcher = Agent(
    role="Senior Researcher",
    goal="Summarise the newest papers on {topic}",
    backstory="You read arXiv every morning.",
    llm=nim_llm(MODEL),
)

summary_crew = Crew(
    agents=[researcher],
    tasks=[Task(description="Summarise three papers on {topic}", expected_output="Three paragraphs", agent=researcher)],
)

if __name__ == "__main__":
    print(summary_crew.kickoff(inputs={"topic": "retrieval"}))
