import os

CANCELLATIONS_ENABLED = os.environ.get("AIRLINE_CANCELLATIONS", "off") == "on"
