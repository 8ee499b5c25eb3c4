from dataclasses import dataclass


@dataclass
class Plugin:
    name: str
    description: str


def discovered() -> list[Plugin]:
    return [Plugin("lint", "Lint the workspace.")]
