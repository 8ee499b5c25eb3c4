"""In-memory stand-in for the cache cluster's admin API."""


class Cache:
    def __init__(self) -> None:
        self.regions: dict[str, dict[str, bytes]] = {}

    def stats(self, region: str) -> dict:
        return {"objects": len(self.regions.get(region, {}))}

    def purge(self, region: str) -> int:
        return len(self.regions.pop(region, {}))


CACHE = Cache()
