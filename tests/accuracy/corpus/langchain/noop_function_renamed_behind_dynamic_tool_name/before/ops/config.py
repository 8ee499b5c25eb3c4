import os

RESTART_TOOL = os.environ["RESTART_TOOL_NAME"]
