
SERVER_NAME = "notes"
