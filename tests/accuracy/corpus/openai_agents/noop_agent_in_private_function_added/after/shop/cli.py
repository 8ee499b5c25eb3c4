import asyncio
import sys

from agents import Agent, Runner

from shop.tools import order_status, refund_order


def main() -> None:
    agent = Agent(
        name="Support",
        instructions="Help customers with their orders.",
        tools=[order_status, refund_order],
        model="gpt-4.1",
    )
    result = asyncio.run(Runner.run(agent, sys.argv[1]))
    print(result.final_output)


if __name__ == "__main__":
    main()
