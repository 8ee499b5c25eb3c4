
from .accounts import disable_mfa, reset_password, unlock_account
from .kb import search_kb

COMMON_TOOLS = [search_kb]
ACCOUNT_TOOLS = [unlock_account, reset_password]


def _with_self_service(tools):
    """The on-call rotation may also switch MFA off."""
    return [*tools, disable_mfa], len(tools) + 1


ACCOUNT_TOOLS, ACCOUNT_TOOL_COUNT = _with_self_service(ACCOUNT_TOOLS)
