class NoteStore:
    def __init__(self, path: str):
        self.path = path
        self.notes: dict[str, str] = {}

    def put(self, title: str, body: str) -> None:
        self.notes[title] = body

    def search(self, query: str) -> list[str]:
        return [t for t in self.notes if query in t]
