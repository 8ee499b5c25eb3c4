from crewai_tools import RagTool


class PolicyDocsTool(RagTool):
    name: str = "policy_docs"
    description: str = "Answer questions from the policy documents and the HR wiki."
