
import os

ALLOW_PUBLISH = os.environ.get("RESEARCH_ALLOW_PUBLISH") == "1"
