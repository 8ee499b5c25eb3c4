from agents.sandbox import SandboxAgent
from agents.sandbox.capabilities import Filesystem, Shell

coder = SandboxAgent(
    name="Coder",
    instructions="Fix the failing test in the workspace.",
    capabilities=[Filesystem(), Shell()],
)
