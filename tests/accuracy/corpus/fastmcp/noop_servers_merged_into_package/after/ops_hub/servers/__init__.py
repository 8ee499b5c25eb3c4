from ops_hub.servers.deploys import deploys
from ops_hub.servers.metrics import metrics

__all__ = ["deploys", "metrics"]
