SERVER_NAME = "notes"
