from langchain_classic.agents import AgentExecutor, create_tool_calling_agent
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_openai import ChatOpenAI

from helpdesk.tools import lookup_order

llm = ChatOpenAI(model="gpt-4o-mini", temperature=0)
tools = [lookup_order]

template = ChatPromptTemplate.from_messages(
    [
        ("system", "You answer questions about customer orders.{% if customer.answer_format %} Reply in the customer's format.{% endif %}"),
        ("human", "{{ input }} (answer as {{ answer_format }})"),
        MessagesPlaceholder("agent_scratchpad"),
    ],
    template_format="jinja2",
)
prompt = template.partial(answer_format="a bulleted list")

agent = create_tool_calling_agent(llm, tools, prompt)
executor = AgentExecutor(agent=agent, tools=tools, max_iterations=5)
