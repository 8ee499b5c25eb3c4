from .accounts import reset_password, unlock_account
from .kb import search_kb

COMMON_TOOLS = [search_kb]
ACCOUNT_TOOLS = [unlock_account, reset_password]
