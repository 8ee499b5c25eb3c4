from langchain_openai import ChatOpenAI

# The router only picks a queue; answers go to the stronger model.
fast_llm = ChatOpenAI(model="gpt-4o-mini", temperature=0)
strong_llm = ChatOpenAI(model="gpt-4o", temperature=0.2)
