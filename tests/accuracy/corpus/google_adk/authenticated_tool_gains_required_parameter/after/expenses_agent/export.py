"""Exports to the finance team's spreadsheet, on the employee's own Google account."""

from __future__ import annotations

from fastapi.openapi.models import OAuth2, OAuthFlowAuthorizationCode, OAuthFlows
from google.adk.auth import AuthCredential, AuthCredentialTypes, OAuth2Auth
from google.adk.auth.auth_tool import AuthConfig
from google.adk.tools import ToolContext
from google.adk.tools.authenticated_function_tool import AuthenticatedFunctionTool

from expenses_agent.ledger import ledger

SHEETS_AUTH = AuthConfig(
    auth_scheme=OAuth2(
        flows=OAuthFlows(
            authorizationCode=OAuthFlowAuthorizationCode(
                authorizationUrl="https://accounts.google.com/o/oauth2/auth",
                tokenUrl="https://oauth2.googleapis.com/token",
                scopes={"https://www.googleapis.com/auth/spreadsheets": "Edit your spreadsheets"},
            )
        )
    ),
    raw_auth_credential=AuthCredential(
        auth_type=AuthCredentialTypes.OAUTH2,
        oauth2=OAuth2Auth(client_id="expenses-bot", client_secret="set-in-deployment"),
    ),
)


def export_expenses(employee_id: str, sheet_id: str, credential: AuthCredential, tool_context: ToolContext) -> dict:
    """Append the employee's expenses to the finance spreadsheet."""
    rows = ledger.expenses(employee_id, tool_context.state.get("month", ""))
    return {"status": "success", "rows": len(rows), "token_type": credential.auth_type}


export_tool = AuthenticatedFunctionTool(func=export_expenses, auth_config=SHEETS_AUTH)
