from support.tools import issue_refund


def allow_refunds(config: dict) -> None:
    """Let the agent built from `config` refund orders too."""
    config["tools"] = [*config["tools"], issue_refund]
