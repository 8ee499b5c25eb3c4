from deepagents import FilesystemPermission, create_deep_agent
from deepagents.backends import FilesystemBackend
from langchain.chat_models import init_chat_model

from support.tools import lookup_order, refund_order

billing = {
    "name": "billing",
    "description": "Handles refunds and billing questions.",
    "system_prompt": "You handle refunds. Check the order before refunding.",
    "tools": [refund_order],
}

agent = create_deep_agent(
    model=init_chat_model("anthropic:claude-sonnet-4-5"),
    tools=[lookup_order],
    system_prompt="You are the support desk. Hand refunds to the billing subagent.",
    subagents=[billing],
    interrupt_on={"refund_order": True},
    backend=FilesystemBackend(root_dir="/srv/support", virtual_mode=True),
    permissions=[
        FilesystemPermission(operations=["read"], paths=["/**"]),
    ],
)
