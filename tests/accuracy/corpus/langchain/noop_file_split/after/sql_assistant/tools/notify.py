from __future__ import annotations

import smtplib
from email.message import EmailMessage

from langchain.tools import tool


@tool("send_report", description="Email a short report to a colleague.")
def email_report(to: str, subject: str, body: str) -> str:
    msg = EmailMessage()
    msg["To"], msg["Subject"] = to, subject
    msg.set_content(body)
    with smtplib.SMTP("smtp.internal") as smtp:
        smtp.send_message(msg)
    return "sent"
