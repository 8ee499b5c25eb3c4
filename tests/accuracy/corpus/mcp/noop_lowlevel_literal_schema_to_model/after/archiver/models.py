"""Arguments of the archive tools."""

from pydantic import BaseModel, Field


class ArchiveArgs(BaseModel):
    path: str
    keep_days: int = Field(default=30, ge=1, le=365)
