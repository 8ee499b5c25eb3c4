from agents import Agent

from support.tools import make_profile_lookup

DIRECTORY = {"101": "Customer Ana P. (tier gold)."}


def build_agent() -> Agent:
    profile_lookup = make_profile_lookup(DIRECTORY)
    return Agent(
        name="Support desk",
        instructions="Look the customer up before answering. Keep answers short.",
        tools=[profile_lookup],
    )
