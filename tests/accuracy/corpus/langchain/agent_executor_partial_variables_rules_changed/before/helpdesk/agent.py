from langchain_classic.agents import AgentExecutor, create_tool_calling_agent
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder, SystemMessagePromptTemplate
from langchain_openai import ChatOpenAI

from helpdesk.tools import lookup_order

RULES = "Never promise a delivery date."

llm = ChatOpenAI(model="gpt-4o-mini", temperature=0)
tools = [lookup_order]

system = SystemMessagePromptTemplate.from_template(
    "You answer questions about customer orders.\n{rules}",
    partial_variables={"rules": RULES},
)
prompt = ChatPromptTemplate.from_messages(
    [
        system,
        ("human", "{input}"),
        MessagesPlaceholder("agent_scratchpad"),
    ]
)

agent = create_tool_calling_agent(llm, tools, prompt)
executor = AgentExecutor(agent=agent, tools=tools, max_iterations=5)
