from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, Field

drafting_llm = ChatOpenAI(model="gpt-4.1", temperature=0.3)


class Stops(BaseModel):
    stops: list[str] = Field(description="Cities to visit, in order.")


stops_prompt = ChatPromptTemplate.from_messages(
    [("system", "Suggest the cities of a trip."), ("user", "{request}")]
)
stops_chain = stops_prompt | drafting_llm.with_structured_output(Stops)

itinerary_prompt = ChatPromptTemplate.from_messages(
    [("system", "Write a day-by-day itinerary through these cities."), ("user", "{stops}")]
)
