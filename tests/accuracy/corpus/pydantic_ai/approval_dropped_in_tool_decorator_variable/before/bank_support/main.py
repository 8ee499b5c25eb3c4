from __future__ import annotations

from bank_support import tools  # noqa: F401  (registers the tools)
from bank_support.agent import support_agent
from bank_support.db import DatabaseConn
from bank_support.deps import SupportDependencies


def main() -> None:
    deps = SupportDependencies(customer_id=123, db=DatabaseConn())
    result = support_agent.run_sync("What is my balance?", deps=deps)
    print(result.output)


if __name__ == "__main__":
    main()
