"""Publishing to GitHub: the API client, the sticky PR comment, and the Actions runtime files.

- `receipt.github.api`: REST + GraphQL over httpx, bounded retries, rate limits, `Link` pagination;
  talks only to GITHUB_API_URL / GITHUB_GRAPHQL_URL.
- `receipt.github.comments`: the hidden marker, the token's identity, update / new / hide-and-new.
- `receipt.github.actions_env`: the event payload, `$GITHUB_OUTPUT`, `$GITHUB_STEP_SUMMARY`, and
  escaped workflow commands.

Nothing here is imported by the other commands: httpx loads only when `receipt ci` runs.
"""
