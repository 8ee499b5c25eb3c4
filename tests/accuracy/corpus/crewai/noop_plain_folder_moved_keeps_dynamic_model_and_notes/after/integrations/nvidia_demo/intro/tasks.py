"""Tasks built for whichever agent the caller passes."""

from crewai import Task


def review_task(agent):
    return Task(description="Review the summary for errors", expected_output="A list of fixes", agent=agent)
