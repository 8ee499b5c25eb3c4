from typing import TypedDict


class ResearchState(TypedDict):
    topic: str
    outline: str
    article: str
