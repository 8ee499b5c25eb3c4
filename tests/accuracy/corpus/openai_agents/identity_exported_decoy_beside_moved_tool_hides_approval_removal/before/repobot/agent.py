from agents import Agent

from repobot.tools import delete_repo, list_repos

repo_admin = Agent(
    name="repo_admin",
    instructions="Help the user manage repositories. Confirm before deleting anything.",
    tools=[list_repos, delete_repo],
)
