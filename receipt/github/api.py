"""A small GitHub client: REST + GraphQL, bounded retries, rate limits, `Link` pagination.

Only two hosts are ever contacted: `GITHUB_API_URL` and `GITHUB_GRAPHQL_URL` (GitHub Enterprise
Server works unchanged, and so do the tests' local server). The token is sent as a header and never
appears in a message: every error text is scrubbed of it before it leaves this module.

Retry rules (GitHub's documented best practice):
- 429, or 403 that is a rate limit: wait `retry-after` seconds, else until `x-ratelimit-reset` when
  `x-ratelimit-remaining` is 0, else back off exponentially. A wait longer than the cap
  (`RECEIPT_GITHUB_MAX_WAIT`, default 60 s) is not slept through: the call fails at once, so a job
  never hangs for an hour on an exhausted quota.
- 5xx and connection errors: bounded exponential backoff with jitter (jitter changes timing only,
  never output). A request that may already have taken effect (POST) is *not* retried here: it
  raises `AmbiguousWrite` so the caller can look before writing again (nothing is posted twice).
- 403 "Resource not accessible by integration" is a read-only token (fork PRs): `ReadOnlyToken`,
  never retried.
"""

from __future__ import annotations

import email.utils
import os
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping
from urllib.parse import urlsplit

import httpx

from receipt.errors import EXIT_GIT, ReceiptError

API_VERSION = "2022-11-28"
MAX_COMMENT_CHARS = 65536  # GitHub rejects longer issue comment bodies with 422
DEFAULT_API_URL = "https://api.github.com"
READ_ONLY_MESSAGE = "Resource not accessible by integration"
_MAX_PAGES = 1000  # 100,000 comments: far past any real PR, stops a server that loops its Link header


class GitHubError(ReceiptError):
    """A GitHub API call failed for good (after retries, or with a non-retryable status)."""

    exit_code = EXIT_GIT

    def __init__(self, message: str, *, status: int | None = None, hint: str | None = None):
        super().__init__(message, hint=hint)
        self.status = status


class ReadOnlyToken(GitHubError):
    """The token may read but not write (fork PRs, or a workflow without `pull-requests: write`)."""


class AmbiguousWrite(GitHubError):
    """A non-idempotent write failed in a way that does not tell whether it took effect."""


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 5  # total tries per request, first one included
    backoff: float = 1.0  # first backoff in seconds; doubles each retry
    max_backoff: float = 30.0
    max_wait: float = 60.0  # longest rate-limit wait honoured; longer -> fail now

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> RetryPolicy:
        """Test and tuning knobs: RECEIPT_GITHUB_ATTEMPTS / _BACKOFF / _MAX_WAIT."""

        def num(name: str, default: float) -> float:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            try:
                value = float(raw)
            except ValueError:
                raise ReceiptError(f"{name} must be a number, got {raw!r}") from None
            if value < 0:
                raise ReceiptError(f"{name} must not be negative")
            return value

        return cls(
            attempts=max(1, int(num("RECEIPT_GITHUB_ATTEMPTS", cls.attempts))),
            backoff=num("RECEIPT_GITHUB_BACKOFF", cls.backoff),
            max_wait=num("RECEIPT_GITHUB_MAX_WAIT", cls.max_wait),
        )


@dataclass
class Comment:
    """The fields of a REST issue comment that the sticky logic needs."""

    id: int
    node_id: str
    body: str
    login: str
    created_at: str
    updated_at: str
    html_url: str
    user_type: str = ""  # REST `user.type`: "Bot" for Apps and GITHUB_TOKEN, "User" for people (and PATs)
    app_slug: str = ""  # REST `performed_via_github_app.slug`, when an App wrote it

    @classmethod
    def from_api(cls, data: Mapping[str, Any]) -> Comment:
        user = data.get("user") or {}
        return cls(
            id=int(data["id"]),
            node_id=str(data.get("node_id") or ""),
            body=str(data.get("body") or ""),
            login=str(user.get("login") or ""),
            created_at=str(data.get("created_at") or ""),
            updated_at=str(data.get("updated_at") or ""),
            html_url=str(data.get("html_url") or ""),
            user_type=str(user.get("type") or ""),
            app_slug=str((data.get("performed_via_github_app") or {}).get("slug") or ""),
        )


@dataclass(frozen=True)
class Identity:
    """The token's identity as REST shows the comments it writes.

    An App (and `GITHUB_TOKEN`, the `github-actions` App) is a Bot whose comments are by
    `<slug>[bot]`; GraphQL's viewer may spell it with or without the suffix. A PAT is its User.
    `[` is not allowed in user names, so no person can be `<slug>[bot]`; matching the type as well
    keeps a person named like the App's slug from ever counting as the App.
    """

    login: str  # as REST shows it: "name[bot]" for a Bot
    type: str  # "Bot" or "User"
    app_slug: str = ""

    @classmethod
    def from_viewer(cls, login: str, typename: str) -> Identity:
        login = login.strip()
        if typename == "Bot" or (not typename and login.endswith("[bot]")):
            slug = login.removesuffix("[bot]")
            return cls(login=f"{slug}[bot]", type="Bot", app_slug=slug)
        return cls(login=login, type="User")

    def wrote(self, comment: Comment) -> bool:
        """Exactly this identity: same type, and the same login (or, for an App, its own slug)."""
        if not self.login or comment.user_type != self.type:
            return False
        if comment.login.casefold() == self.login.casefold():
            return True
        return self.type == "Bot" and bool(comment.app_slug) and comment.app_slug.casefold() == self.app_slug.casefold()


def default_graphql_url(api_url: str) -> str:
    """GITHUB_GRAPHQL_URL when the environment lacks it: github.com and GHES differ in shape."""
    base = api_url.rstrip("/")
    if base.endswith("/api/v3"):  # GHES: https://host/api/v3 -> https://host/api/graphql
        return base[: -len("/v3")] + "/graphql"
    return base + "/graphql"


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme.lower(), (parts.hostname or "").lower(), port


def next_link(link_header: str | None) -> str | None:
    """The `rel="next"` target of an RFC 8288 `Link` header, or None."""
    if not link_header:
        return None
    for part in link_header.split(","):
        m = re.match(r'\s*<([^>]*)>\s*;(.*)', part)
        if not m:
            continue
        rels = re.findall(r'rel\s*=\s*"?([^";]+)"?', m.group(2))
        if any("next" in r.split() for r in rels):
            return m.group(1)
    return None


def _retry_after_seconds(value: str | None, now: float) -> float | None:
    """`retry-after` is seconds, or (rarely) an HTTP date."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


@dataclass
class GitHubClient:
    api_url: str
    token: str
    graphql_url: str = ""
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    user_agent: str = "behavior-receipt"
    timeout: float = 30.0
    # Seams for timing only: tests record the waits instead of sleeping them.
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.time
    log: Callable[[str], None] = lambda _msg: None

    def __post_init__(self) -> None:
        self.api_url = self.api_url.rstrip("/") or DEFAULT_API_URL
        self.graphql_url = self.graphql_url or default_graphql_url(self.api_url)
        self._http = httpx.Client(
            timeout=self.timeout,
            follow_redirects=False,  # a redirect could leave the two allowed hosts
            headers={
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": API_VERSION,
                "User-Agent": self.user_agent,
            },
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **kwargs: Any) -> GitHubClient:
        env = os.environ if env is None else env
        token = env.get("GITHUB_TOKEN", "")
        if not token:
            raise ReceiptError("GITHUB_TOKEN is not set; it is needed to post the PR comment (or use --comment off)")
        api_url = env.get("GITHUB_API_URL") or DEFAULT_API_URL
        return cls(
            api_url=api_url,
            token=token,
            graphql_url=env.get("GITHUB_GRAPHQL_URL") or "",
            retry=RetryPolicy.from_env(env),
            **kwargs,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GitHubClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing --------------------------------------------------------------------------

    def _scrub(self, text: str) -> str:
        return text.replace(self.token, "***") if self.token else text

    def _url(self, path_or_url: str) -> str:
        if path_or_url.startswith(("http://", "https://")):
            return path_or_url
        return self.api_url + "/" + path_or_url.lstrip("/")

    def _allowed(self, url: str) -> bool:
        return _origin(url) in {_origin(self.api_url), _origin(self.graphql_url)}

    def backoff_delay(self, retry_index: int) -> float:
        base = min(self.retry.max_backoff, self.retry.backoff * (2**retry_index))
        return base * (0.5 + random.random() / 2)  # jitter: timing only

    def _rate_limit_wait(self, resp: httpx.Response, retry_index: int) -> float | None:
        """Seconds to wait before retrying a rate-limited response, or None if it is not one."""
        headers = resp.headers
        now = self.clock()
        after = _retry_after_seconds(headers.get("retry-after"), now)
        if after is not None:
            return after
        if headers.get("x-ratelimit-remaining") == "0" and headers.get("x-ratelimit-reset", "").isdigit():
            return max(0.0, float(headers["x-ratelimit-reset"]) - now) + 1.0  # +1: the reset second itself
        if resp.status_code == 429 or "rate limit" in _message(resp).lower():
            # Secondary rate limit without headers: GitHub asks for at least a minute; we back off.
            return self.backoff_delay(retry_index)
        return None

    def request(
        self,
        method: str,
        path_or_url: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        idempotent: bool | None = None,
        ok: tuple[int, ...] = (200, 201, 204),
    ) -> httpx.Response:
        """One API call with the retry rules above. Returns the final response (status in `ok`)."""
        url = self._url(path_or_url)
        if not self._allowed(url):
            raise GitHubError(f"refusing to call {_origin(url)[1]!r}: only GITHUB_API_URL and GITHUB_GRAPHQL_URL are allowed")
        if idempotent is None:
            idempotent = method.upper() in {"GET", "HEAD", "PUT", "PATCH", "DELETE"}
        what = f"{method.upper()} {urlsplit(url).path}"
        attempts = self.retry.attempts
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                resp = self._http.request(
                    method,
                    url,
                    json=json,
                    params=params,
                    headers={"Authorization": f"Bearer {self.token}"},
                )
            except httpx.TransportError as e:
                reason = self._scrub(f"{type(e).__name__}: {e}")
                if not idempotent:
                    raise AmbiguousWrite(f"{what}: connection failed ({reason})") from None
                if last:
                    raise GitHubError(f"{what}: connection failed after {attempts} attempts ({reason})") from None
                wait = self.backoff_delay(attempt)
                self.log(f"{what}: {reason}; retrying in {wait:.1f}s")
                self.sleep(wait)
                continue

            status = resp.status_code
            if status in ok:
                return resp
            message = self._scrub(_message(resp))
            if status == 403 and READ_ONLY_MESSAGE.lower() in message.lower():
                raise ReadOnlyToken(f"{what}: 403 {message}", status=status)
            if status in (403, 429):
                wait = self._rate_limit_wait(resp, attempt)
                if wait is not None:
                    if last:
                        raise GitHubError(f"{what}: still rate limited after {attempts} attempts ({message})", status=status)
                    if wait > self.retry.max_wait:
                        raise GitHubError(
                            f"{what}: rate limited for {wait:.0f}s, longer than the {self.retry.max_wait:.0f}s cap "
                            "(RECEIPT_GITHUB_MAX_WAIT)",
                            status=status,
                        )
                    self.log(f"{what}: rate limited; waiting {wait:.1f}s")
                    self.sleep(wait)
                    continue
            if status >= 500:
                if not idempotent:
                    raise AmbiguousWrite(f"{what}: {status} {message}", status=status)
                if not last:
                    wait = self.backoff_delay(attempt)
                    self.log(f"{what}: {status}; retrying in {wait:.1f}s")
                    self.sleep(wait)
                    continue
                raise GitHubError(f"{what}: {status} after {attempts} attempts ({message})", status=status)
            raise GitHubError(f"{what}: {status} {message}", status=status)
        raise AssertionError("unreachable")  # pragma: no cover

    def paginate(self, path: str, params: Mapping[str, Any] | None = None) -> Iterator[Any]:
        """Every item of every page, following `Link: rel="next"` on the API's own origin only."""
        url: str | None = self._url(path)
        query: Mapping[str, Any] | None = params
        seen: set[str] = set()
        for _ in range(_MAX_PAGES):
            if url is None:
                return
            resp = self.request("GET", url, params=query)
            data = resp.json()
            if not isinstance(data, list):
                raise GitHubError(f"GET {urlsplit(url).path}: expected a list, got {type(data).__name__}")
            yield from data
            seen.add(str(resp.request.url))
            nxt = next_link(resp.headers.get("link"))
            if nxt is None:
                return
            if _origin(nxt) != _origin(self.api_url):
                # Reading only part of the comments could make us post a duplicate: stop loudly.
                raise GitHubError(f"pagination link leaves GITHUB_API_URL ({_origin(nxt)[1]!r}); refusing to follow it")
            if nxt in seen:
                raise GitHubError("pagination loops back to a page already read")
            url, query = nxt, None  # the next link carries its own query string
        raise GitHubError(f"more than {_MAX_PAGES} pages; refusing to read further")

    def graphql(self, query: str, variables: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """POST a GraphQL document. Our documents (viewer, minimize, nodes) are safe to repeat."""
        resp = self.request(
            "POST", self.graphql_url, json={"query": query, "variables": dict(variables or {})}, idempotent=True
        )
        payload = resp.json()
        errors = payload.get("errors") or []
        if errors:
            text = self._scrub("; ".join(str(e.get("message", e)) for e in errors))
            if any(e.get("type") == "FORBIDDEN" for e in errors) or READ_ONLY_MESSAGE.lower() in text.lower():
                raise ReadOnlyToken(f"GraphQL: {text}", status=resp.status_code)
            raise GitHubError(f"GraphQL: {text}", status=resp.status_code)
        data = payload.get("data")
        if not isinstance(data, dict):
            raise GitHubError("GraphQL: response without data")
        return data

    # -- the calls receipt ci makes ----------------------------------------------------------

    def viewer(self) -> Identity:
        """Who the token is (GraphQL `viewer`): its login and whether it is a Bot (App, GITHUB_TOKEN) or a User."""
        data = self.graphql("query { viewer { login __typename } }")
        viewer = data.get("viewer") or {}
        login = viewer.get("login")
        if not login:
            raise GitHubError("GraphQL: viewer has no login")
        return Identity.from_viewer(str(login), str(viewer.get("__typename") or ""))

    def list_issue_comments(self, repository: str, number: int) -> list[Comment]:
        path = f"/repos/{_repo(repository)}/issues/{int(number)}/comments"
        return [Comment.from_api(c) for c in self.paginate(path, {"per_page": 100})]

    def create_issue_comment(self, repository: str, number: int, body: str) -> Comment:
        _check_body(body)
        path = f"/repos/{_repo(repository)}/issues/{int(number)}/comments"
        return Comment.from_api(self.request("POST", path, json={"body": body}, ok=(201, 200)).json())

    def update_issue_comment(self, repository: str, comment_id: int, body: str) -> Comment:
        _check_body(body)
        path = f"/repos/{_repo(repository)}/issues/comments/{int(comment_id)}"
        return Comment.from_api(self.request("PATCH", path, json={"body": body}, ok=(200,)).json())

    def delete_issue_comment(self, repository: str, comment_id: int) -> None:
        path = f"/repos/{_repo(repository)}/issues/comments/{int(comment_id)}"
        # 404: already gone (a retried DELETE, or another run cleaned up first) - the goal is met.
        self.request("DELETE", path, ok=(204, 200, 404))

    def pull_request_head(self, repository: str, number: int) -> str:
        data = self.request("GET", f"/repos/{_repo(repository)}/pulls/{int(number)}").json()
        return str(((data.get("head") or {}).get("sha")) or "")

    def minimize_comment(self, node_id: str, classifier: str = "OUTDATED") -> None:
        self.graphql(
            "mutation($id: ID!, $classifier: ReportedContentClassifiers!) {"
            " minimizeComment(input: {subjectId: $id, classifier: $classifier})"
            " { minimizedComment { isMinimized } } }",
            {"id": node_id, "classifier": classifier},
        )

    def minimized(self, node_ids: list[str]) -> dict[str, bool]:
        """isMinimized for each comment node id (100 ids per query, the API's limit)."""
        out: dict[str, bool] = {}
        for i in range(0, len(node_ids), 100):
            chunk = node_ids[i : i + 100]
            data = self.graphql(
                "query($ids: [ID!]!) { nodes(ids: $ids) { ... on IssueComment { id isMinimized } } }",
                {"ids": chunk},
            )
            for node in data.get("nodes") or []:
                if node and node.get("id"):
                    out[str(node["id"])] = bool(node.get("isMinimized"))
        return out


def _message(resp: httpx.Response) -> str:
    try:
        data = resp.json()
    except ValueError:
        return resp.text[:200].strip() or resp.reason_phrase
    if isinstance(data, dict) and data.get("message"):
        return str(data["message"])[:300]
    return resp.reason_phrase


_REPO_RE = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


def _repo(repository: str) -> str:
    if not _REPO_RE.match(repository):
        raise ReceiptError(f"not an owner/name repository: {repository!r}")
    return repository


def _check_body(body: str) -> None:
    # The renderer's budget (60,000) keeps us far below this; a body over it is our bug, not GitHub's.
    if len(body) > MAX_COMMENT_CHARS:
        raise GitHubError(f"comment body is {len(body)} characters, over GitHub's {MAX_COMMENT_CHARS} limit")
