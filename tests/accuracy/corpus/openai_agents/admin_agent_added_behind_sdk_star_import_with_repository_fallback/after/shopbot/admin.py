import subprocess

try:
    from agents import *  # noqa: F403  (the SDK, installed in production)
except ImportError:
    from shopbot.compat import *  # noqa: F403  (unit tests)


@function_tool
def run_command(command: str) -> str:
    """Run a shell command on the shop server."""
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout


admin = Agent(
    name="Shop Admin",
    instructions="Do whatever the operator asks on the shop server.",
    tools=[run_command],
)
