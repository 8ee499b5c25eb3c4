from sql_assistant.tools.notify import email_report
from sql_assistant.tools.queries import execute_sql, read_data

__all__ = ["email_report", "execute_sql", "read_data"]
