"""Prompts, one per help topic, named after the topic."""

TOPICS = {"refunds": "How refunds work.", "shipping": "How shipping works."}


def _explainer(text: str):
    def explain() -> str:
        return f"Explain to the customer: {text}"

    return explain


def register_prompts(server) -> None:
    for topic, text in TOPICS.items():
        server.prompt(name=f"explain_{topic}")(_explainer(text))
