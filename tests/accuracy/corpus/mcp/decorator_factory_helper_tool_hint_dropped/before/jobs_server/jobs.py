"""Job tools: read a job, cancel one."""

from mcp.types import ToolAnnotations

from jobs_server.audit import audited

READ_ONLY = ToolAnnotations(readOnlyHint=True)
NON_DESTRUCTIVE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)


class JobTools:
    def __init__(self, mcp) -> None:
        audited(mcp, "get_job", title="Get job", annotations=READ_ONLY)(self.get_job)
        audited(mcp, "cancel_job", title="Cancel job", annotations=NON_DESTRUCTIVE)(self.cancel_job)

    async def get_job(self, job_id: str) -> dict:
        """Return a job's status."""
        return {"id": job_id}

    async def cancel_job(self, job_id: str) -> dict:
        """Cancel a running job; its partial results are kept."""
        return {"id": job_id, "status": "cancelled"}
