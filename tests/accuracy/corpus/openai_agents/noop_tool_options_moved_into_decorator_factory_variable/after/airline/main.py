from __future__ import annotations

import asyncio

from agents import Runner

from airline.assistants import triage_agent
from airline.context import AirlineAgentContext


async def main() -> None:
    context = AirlineAgentContext()
    result = await Runner.run(triage_agent, input("Enter your message: "), context=context)
    print(result.final_output)


if __name__ == "__main__":
    asyncio.run(main())
