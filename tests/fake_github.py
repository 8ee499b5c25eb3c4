"""A fake GitHub API: real HTTP on 127.0.0.1, enough REST and GraphQL for `receipt ci`.

It behaves like api.github.com where our code can tell the difference:
- issue comments: list (per_page default 30, max 100; `Link` with rel=next/last/prev/first, pointing
  at `/repositories/{id}/...` as GitHub does), create, update, delete; 422 when a body is over
  65,536 characters; comments carry id, node_id, body, user.login, created_at, updated_at, html_url;
- `GET /repos/{o}/{r}/pulls/{n}` (head sha), GraphQL `viewer { login }`, `minimizeComment`,
  `nodes(ids:) { ... on IssueComment { isMinimized } }`;
- `Authorization: Bearer <token>` required (401 otherwise);
- read-only mode: every write answers 403 "Resource not accessible by integration" (REST) or a
  FORBIDDEN GraphQL error, as for a fork PR's token;
- faults, queued per request (method, path pattern, body substring): any status with headers (429 + retry-after,
  403 + x-ratelimit-remaining 0 + x-ratelimit-reset, 502, 503), a dropped connection (status 0), or
  a fault *after* the write took effect (the response is lost, the comment exists).

Tests inspect `requests`, `writes()`, `issue_comments()`, `minimized`. Timestamps come from a fake
clock (one second per write), so ordering is deterministic.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

MAX_BODY = 65536
READ_ONLY = "Resource not accessible by integration"


@dataclass
class Fault:
    status: int  # 0: close the connection without answering
    method: str | None = None
    path: str | None = None  # regex searched in the request path
    headers: dict[str, str] = field(default_factory=dict)
    message: str = "fault injected"
    times: int = 1
    after_write: bool = False  # perform the request, then answer with the fault
    body_contains: str | None = None  # e.g. "minimizeComment": one GraphQL operation only

    def matches(self, method: str, path: str, raw_body: str = "") -> bool:
        return (
            (self.method is None or self.method == method)
            and (self.path is None or re.search(self.path, path) is not None)
            and (self.body_contains is None or self.body_contains in raw_body)
        )


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    status: int = 0

    @property
    def is_write(self) -> bool:
        if self.path == "/graphql":
            return "mutation" in str((self.body or {}).get("query", ""))
        return self.method in {"POST", "PATCH", "PUT", "DELETE"}


class FakeGitHub:
    def __init__(
        self,
        *,
        token: str = "test-token",
        login: str = "github-actions[bot]",
        viewer_login: str = "github-actions",
        viewer_type: str | None = None,
        app_slug: str | None = None,
    ) -> None:
        self.token = token
        self.login = login  # how REST shows comments written with the token
        self.viewer_login = viewer_login  # what GraphQL `viewer { login }` answers
        # GraphQL `viewer { __typename }`: Apps and GITHUB_TOKEN are Bots, a PAT is a User.
        self.viewer_type = viewer_type or ("Bot" if login.endswith("[bot]") else "User")
        self.app_slug = app_slug  # `performed_via_github_app.slug` on the token's comments (App tokens)
        self.read_only = False
        self.foreign_next_link = False  # Link rel=next pointing at another host
        self.comments: dict[int, dict[str, Any]] = {}
        self.issue_of: dict[int, tuple[str, int]] = {}
        self.pulls: dict[tuple[str, int], str] = {}
        self.minimized: dict[str, str] = {}  # node_id -> classifier
        self.requests: list[Request] = []
        self.faults: list[Fault] = []
        self.repo_ids: dict[str, int] = {}
        self._next_id = 1000
        self._clock = datetime(2024, 5, 1, 12, 0, 0, tzinfo=timezone.utc)
        self._lock = threading.RLock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> FakeGitHub:
        fake = self

        class Handler(_Handler):
            server_state = fake

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-github", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeGitHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def graphql_url(self) -> str:
        return self.url + "/graphql"

    def env(self) -> dict[str, str]:
        """The Actions environment variables that point `receipt ci` at this server."""
        return {"GITHUB_API_URL": self.url, "GITHUB_GRAPHQL_URL": self.graphql_url, "GITHUB_TOKEN": self.token}

    # -- state helpers for tests ---------------------------------------------------------------

    def tick(self) -> str:
        with self._lock:
            self._clock += timedelta(seconds=1)
            return self._clock.strftime("%Y-%m-%dT%H:%M:%SZ")

    def repo_id(self, repo: str) -> int:
        with self._lock:
            return self.repo_ids.setdefault(repo, 500000 + len(self.repo_ids))

    def add_comment(
        self, repo: str, number: int, body: str, login: str | None = None, *, user_type: str | None = None, app: str | None = None
    ) -> dict[str, Any]:
        """A comment by the token (no login given) or by `login` (a User unless it ends in [bot] or `user_type` says)."""
        with self._lock:
            self._next_id += 1
            cid = self._next_id
            now = self.tick()
            if login is None:
                login, user_type, app = self.login, self.viewer_type, self.app_slug
            comment = {
                "id": cid,
                "node_id": f"IC_kwDO{cid:08d}",
                "body": body,
                "user": {"login": login, "type": user_type or ("Bot" if login.endswith("[bot]") else "User")},
                "performed_via_github_app": {"slug": app, "name": app} if app else None,
                "created_at": now,
                "updated_at": now,
                "html_url": f"https://github.com/{repo}/pull/{number}#issuecomment-{cid}",
                "issue_url": f"{self.url}/repos/{repo}/issues/{number}",
                "author_association": "NONE",
            }
            self.comments[cid] = comment
            self.issue_of[cid] = (repo, number)
            return comment

    def issue_comments(self, repo: str, number: int) -> list[dict[str, Any]]:
        with self._lock:
            return [c for cid, c in sorted(self.comments.items()) if self.issue_of[cid] == (repo, number)]

    def fail(self, status: int, **kwargs: Any) -> Fault:
        fault = Fault(status=status, **kwargs)
        with self._lock:
            self.faults.append(fault)
        return fault

    def writes(self) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.is_write]

    def clear_log(self) -> None:
        with self._lock:
            self.requests.clear()

    # -- request handling (called from server threads) ----------------------------------------------

    def take_fault(self, method: str, path: str, raw_body: str = "") -> Fault | None:
        with self._lock:
            for fault in self.faults:
                if fault.times > 0 and fault.matches(method, path, raw_body):
                    fault.times -= 1
                    return fault
        return None

    def handle(self, req: Request) -> tuple[int, dict[str, str], Any]:
        """Route one authenticated request to (status, headers, json body)."""
        if req.path == "/graphql" and req.method == "POST":
            return self._graphql(req)
        m = re.fullmatch(r"/(?:repos/([^/]+/[^/]+)|repositories/(\d+))/issues/(\d+)/comments", req.path)
        if m:
            repo = m.group(1) or self._repo_by_id(int(m.group(2)))
            number = int(m.group(3))
            if req.method == "GET":
                return self._list(req, repo, number)
            if req.method == "POST":
                return self._create(req, repo, number)
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/issues/comments/(\d+)", req.path)
        if m:
            cid = int(m.group(2))
            with self._lock:
                comment = self.comments.get(cid)
                if comment is None or self.issue_of[cid][0] != m.group(1):
                    return 404, {}, {"message": "Not Found"}
                if req.method == "GET":
                    return 200, {}, comment
                if self.read_only and req.method in {"PATCH", "DELETE"}:
                    return _read_only()
                if req.method == "PATCH":
                    body = (req.body or {}).get("body")
                    if not isinstance(body, str):
                        return 422, {}, {"message": "Invalid request."}
                    if len(body) > MAX_BODY:
                        return _too_long()
                    comment["body"] = body
                    comment["updated_at"] = self.tick()
                    return 200, {}, comment
                if req.method == "DELETE":
                    del self.comments[cid]
                    self.issue_of.pop(cid, None)
                    return 204, {}, None
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/pulls/(\d+)", req.path)
        if m and req.method == "GET":
            sha = self.pulls.get((m.group(1), int(m.group(2))))
            if sha is None:
                return 404, {}, {"message": "Not Found"}
            return 200, {}, {"number": int(m.group(2)), "head": {"sha": sha}, "state": "open"}
        return 404, {}, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}

    def _repo_by_id(self, rid: int) -> str:
        with self._lock:
            for repo, i in self.repo_ids.items():
                if i == rid:
                    return repo
        return "unknown/unknown"

    def _list(self, req: Request, repo: str, number: int) -> tuple[int, dict[str, str], Any]:
        try:
            per_page = min(100, max(1, int(req.query.get("per_page", ["30"])[0])))
            page = max(1, int(req.query.get("page", ["1"])[0]))
        except ValueError:
            return 422, {}, {"message": "Invalid pagination"}
        items = self.issue_comments(repo, number)
        last = max(1, -(-len(items) // per_page))
        chunk = items[(page - 1) * per_page : page * per_page]
        base = "https://elsewhere.example" if self.foreign_next_link else self.url
        link_base = f"{base}/repositories/{self.repo_id(repo)}/issues/{number}/comments?per_page={per_page}&page="
        links = []
        if page < last:
            links += [f'<{link_base}{page + 1}>; rel="next"', f'<{link_base}{last}>; rel="last"']
        if page > 1:
            links += [f'<{link_base}{page - 1}>; rel="prev"', f'<{link_base}1>; rel="first"']
        headers = {"Link": ", ".join(links)} if links else {}
        return 200, headers, chunk

    def _create(self, req: Request, repo: str, number: int) -> tuple[int, dict[str, str], Any]:
        if self.read_only:
            return _read_only()
        body = (req.body or {}).get("body")
        if not isinstance(body, str):
            return 422, {}, {"message": "Invalid request."}
        if len(body) > MAX_BODY:
            return _too_long()
        return 201, {}, self.add_comment(repo, number, body)

    def _graphql(self, req: Request) -> tuple[int, dict[str, str], Any]:
        payload = req.body or {}
        query = str(payload.get("query", ""))
        variables = payload.get("variables") or {}
        if re.search(r"\bmutation\b", query) and "minimizeComment" in query:
            if self.read_only:
                return 200, {}, {
                    "data": {"minimizeComment": None},
                    "errors": [{"type": "FORBIDDEN", "path": ["minimizeComment"], "message": READ_ONLY}],
                }
            node_id = variables.get("id")
            classifier = variables.get("classifier")
            with self._lock:
                found = any(c["node_id"] == node_id for c in self.comments.values())
                if not found:
                    return 200, {}, {
                        "data": {"minimizeComment": None},
                        "errors": [{"type": "NOT_FOUND", "message": f"Could not resolve to a node with the global id of '{node_id}'"}],
                    }
                self.minimized[node_id] = classifier
            return 200, {}, {"data": {"minimizeComment": {"minimizedComment": {"isMinimized": True}}}}
        if "nodes(" in query:
            with self._lock:
                by_node = {c["node_id"]: c for c in self.comments.values()}
                nodes = [
                    {"id": i, "isMinimized": i in self.minimized} if i in by_node else None for i in variables.get("ids", [])
                ]
            return 200, {}, {"data": {"nodes": nodes}}
        if "viewer" in query:
            viewer: dict[str, Any] = {"login": self.viewer_login}
            if "__typename" in query:
                viewer["__typename"] = self.viewer_type
            return 200, {}, {"data": {"viewer": viewer}}
        return 200, {}, {"errors": [{"message": "this fake does not know that query"}]}


def _read_only() -> tuple[int, dict[str, str], Any]:
    return 403, {}, {
        "message": READ_ONLY,
        "documentation_url": "https://docs.github.com/rest/issues/comments#create-an-issue-comment",
        "status": "403",
    }


def _too_long() -> tuple[int, dict[str, str], Any]:
    return 422, {}, {
        "message": "Validation Failed",
        "errors": [
            {
                "resource": "IssueComment",
                "code": "custom",
                "field": "body",
                "message": f"body is too long (maximum is {MAX_BODY} characters)",
            }
        ],
        "status": "422",
    }


class _Handler(BaseHTTPRequestHandler):
    server_state: FakeGitHub
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms delayed-ACK stall

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet test output
        pass

    def _serve(self) -> None:
        fake = self.server_state
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        req = Request(
            method=self.command,
            path=parts.path,
            query=parse_qs(parts.query),
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
        )
        with fake._lock:
            fake.requests.append(req)

        if self.headers.get("Authorization") != f"Bearer {fake.token}":
            return self._send(req, 401, {}, {"message": "Bad credentials"})
        fault = fake.take_fault(req.method, req.path, raw.decode("utf-8", "replace"))
        if fault is not None and fault.after_write:
            fake.handle(req)  # it happened; the client just never hears about it
        if fault is not None:
            if fault.status == 0:
                req.status = 0
                self.close_connection = True
                return  # no response at all: the client sees the connection drop
            return self._send(req, fault.status, fault.headers, {"message": fault.message})
        status, headers, payload = fake.handle(req)
        self._send(req, status, headers, payload)

    def _send(self, req: Request, status: int, headers: dict[str, str], payload: Any) -> None:
        req.status = status
        data = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-GitHub-Api-Version-Selected", "2022-11-28")
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        if data:
            self.wfile.write(data)

    do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _serve
