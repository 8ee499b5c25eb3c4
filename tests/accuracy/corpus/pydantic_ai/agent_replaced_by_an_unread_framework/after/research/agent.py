from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient

OPTIONS = ClaudeAgentOptions(
    system_prompt="Answer questions about the codebase by reading its source.",
    allowed_tools=["Read", "Grep", "Glob", "Bash"],
)


async def research(question: str) -> str:
    async with ClaudeSDKClient(options=OPTIONS) as client:
        await client.query(question)
        return "".join([str(m) async for m in client.receive_response()])
