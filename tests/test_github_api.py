"""The GitHub client against a real local HTTP server that answers like the GitHub API."""

from __future__ import annotations

import time

import httpx
import pytest
from tests.fake_github import FakeGitHub

from receipt.github.api import (
    MAX_COMMENT_CHARS,
    AmbiguousWrite,
    GitHubClient,
    GitHubError,
    Identity,
    ReadOnlyToken,
    RetryPolicy,
    default_graphql_url,
    next_link,
)

REPO = "octo/widgets"


@pytest.fixture
def gh():
    with FakeGitHub() as fake:
        yield fake


def client_for(fake: FakeGitHub, waits: list[float] | None = None, **policy: float) -> GitHubClient:
    """A client whose waits are recorded instead of slept (timing only; every request is real)."""
    recorded = waits if waits is not None else []
    retry = RetryPolicy(**{"attempts": 5, "backoff": 0.5, "max_wait": 60.0, **policy})
    return GitHubClient(api_url=fake.url, token=fake.token, graphql_url=fake.graphql_url, retry=retry, sleep=recorded.append)


def test_sends_the_documented_headers_and_bearer_token(gh):
    client_for(gh).list_issue_comments(REPO, 1)
    (req,) = gh.requests
    assert req.headers["authorization"] == "Bearer test-token"
    assert req.headers["accept"] == "application/vnd.github+json"
    assert req.headers["x-github-api-version"] == "2022-11-28"
    assert req.headers["user-agent"].startswith("behavior-receipt")
    assert req.query["per_page"] == ["100"]


def test_reads_every_page_following_link_headers(gh):
    for i in range(250):
        gh.add_comment(REPO, 7, f"comment {i}", login=f"user{i % 3}")
    comments = client_for(gh).list_issue_comments(REPO, 7)
    assert [c.body for c in comments] == [f"comment {i}" for i in range(250)]
    gets = [r for r in gh.requests if r.method == "GET"]
    assert len(gets) == 3
    # GitHub's next links use /repositories/{id}/...; the client follows whatever it is given.
    assert gets[1].path.startswith("/repositories/")
    assert comments[0].login == "user0" and comments[0].node_id and comments[0].html_url


def test_refuses_a_next_link_to_another_host(gh):
    for i in range(150):
        gh.add_comment(REPO, 7, f"c{i}")
    gh.foreign_next_link = True
    with pytest.raises(GitHubError, match="leaves GITHUB_API_URL"):
        client_for(gh).list_issue_comments(REPO, 7)
    assert len(gh.requests) == 1  # nothing was sent elsewhere (and there is no elsewhere here)


def test_next_link_parsing():
    header = '<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last"'
    assert next_link(header) == "https://api.github.com/x?page=2"
    assert next_link('<https://api.github.com/x?page=1>; rel="prev"') is None
    assert next_link(None) is None


def test_honours_retry_after_on_429(gh):
    gh.fail(429, method="GET", headers={"retry-after": "7"}, times=2, message="You have exceeded a secondary rate limit")
    waits: list[float] = []
    client_for(gh, waits).list_issue_comments(REPO, 1)
    assert waits == [7.0, 7.0]
    assert [r.status for r in gh.requests] == [429, 429, 200]


def test_honours_x_ratelimit_reset_on_403(gh):
    reset = int(time.time()) + 20
    gh.fail(
        403,
        method="POST",
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset), "x-ratelimit-limit": "5000"},
        message="API rate limit exceeded for installation ID 1.",
    )
    waits: list[float] = []
    comment = client_for(gh, waits).create_issue_comment(REPO, 1, "hello")
    assert len(waits) == 1 and 15 <= waits[0] <= 22
    assert comment.body == "hello"
    assert len(gh.issue_comments(REPO, 1)) == 1  # a rejected POST is safe to repeat: exactly one comment


def test_rate_limit_longer_than_the_cap_fails_at_once(gh):
    gh.fail(429, headers={"retry-after": "3600"})
    waits: list[float] = []
    with pytest.raises(GitHubError, match="RECEIPT_GITHUB_MAX_WAIT"):
        client_for(gh, waits, max_wait=60).list_issue_comments(REPO, 1)
    assert waits == [] and len(gh.requests) == 1


def test_5xx_is_retried_with_growing_backoff(gh):
    gh.fail(502, method="GET", times=2)
    gh.fail(503, method="GET", times=1)
    waits: list[float] = []
    client_for(gh, waits).list_issue_comments(REPO, 1)
    assert [r.status for r in gh.requests] == [502, 502, 503, 200]
    # backoff 0.5 * 2**i with jitter in [0.5, 1.0]
    assert 0.25 <= waits[0] <= 0.5 and 0.5 <= waits[1] <= 1.0 and 1.0 <= waits[2] <= 2.0


def test_retries_are_bounded(gh):
    gh.fail(500, method="GET", times=100)
    with pytest.raises(GitHubError, match="after 5 attempts"):
        client_for(gh).list_issue_comments(REPO, 1)
    assert len(gh.requests) == 5


def test_a_dropped_connection_is_retried_for_reads(gh):
    gh.fail(0, method="GET")
    gh.add_comment(REPO, 1, "x")
    assert [c.body for c in client_for(gh).list_issue_comments(REPO, 1)] == ["x"]
    assert len(gh.requests) == 2


def test_an_ambiguous_post_is_not_blindly_repeated(gh):
    gh.fail(502, method="POST")
    with pytest.raises(AmbiguousWrite):
        client_for(gh).create_issue_comment(REPO, 1, "hello")
    assert len(gh.writes()) == 1


def test_patch_is_retried_because_it_is_idempotent(gh):
    c = gh.add_comment(REPO, 1, "old")
    gh.fail(503, method="PATCH")
    client_for(gh).update_issue_comment(REPO, c["id"], "new")
    assert gh.issue_comments(REPO, 1)[0]["body"] == "new"


def test_delete_of_a_comment_already_gone_is_success(gh):
    c = gh.add_comment(REPO, 1, "old")
    client = client_for(gh)
    client.delete_issue_comment(REPO, c["id"])
    client.delete_issue_comment(REPO, c["id"])  # 404 now: the goal is met
    assert gh.issue_comments(REPO, 1) == []


def test_read_only_token_is_recognised_and_not_retried(gh):
    gh.read_only = True
    with pytest.raises(ReadOnlyToken, match="Resource not accessible by integration"):
        client_for(gh).create_issue_comment(REPO, 1, "hello")
    assert len(gh.requests) == 1


def test_read_only_graphql_mutation_is_recognised(gh):
    c = gh.add_comment(REPO, 1, "old")
    gh.read_only = True
    with pytest.raises(ReadOnlyToken):
        client_for(gh).minimize_comment(c["node_id"])


def test_plain_403_is_an_error_not_a_retry(gh):
    gh.fail(403, method="GET", message="Must have admin rights to Repository.")
    with pytest.raises(GitHubError, match="403 Must have admin rights") as e:
        client_for(gh).list_issue_comments(REPO, 1)
    assert not isinstance(e.value, ReadOnlyToken)
    assert len(gh.requests) == 1


def test_bodies_over_the_limit_never_reach_github(gh):
    # The fake, like GitHub, rejects them ...
    resp = httpx.post(
        f"{gh.url}/repos/{REPO}/issues/1/comments",
        json={"body": "x" * (MAX_COMMENT_CHARS + 1)},
        headers={"Authorization": f"Bearer {gh.token}"},
    )
    assert resp.status_code == 422 and "too long" in resp.text
    gh.clear_log()
    # ... and the client refuses before sending.
    with pytest.raises(GitHubError, match="over GitHub's 65536 limit"):
        client_for(gh).create_issue_comment(REPO, 1, "x" * (MAX_COMMENT_CHARS + 1))
    assert gh.requests == []
    client_for(gh).create_issue_comment(REPO, 1, "x" * MAX_COMMENT_CHARS)
    assert len(gh.issue_comments(REPO, 1)) == 1


def test_viewer_login_and_minimize_through_graphql(gh):
    c = gh.add_comment(REPO, 1, "old")
    client = client_for(gh)
    assert client.viewer() == Identity(login="github-actions[bot]", type="Bot", app_slug="github-actions")
    assert client.minimized([c["node_id"]]) == {c["node_id"]: False}
    client.minimize_comment(c["node_id"])
    assert gh.minimized == {c["node_id"]: "OUTDATED"}
    assert client.minimized([c["node_id"]]) == {c["node_id"]: True}


def test_errors_never_contain_the_token():
    secret = "ghs_" + "S3cr3t" * 6
    with FakeGitHub(token="other") as fake:
        client = GitHubClient(api_url=fake.url, token=secret, retry=RetryPolicy(attempts=1), sleep=lambda _s: None)
        with pytest.raises(GitHubError) as e:
            client.list_issue_comments(REPO, 1)
        assert "401" in str(e.value) and secret not in str(e.value)
        assert fake.requests[0].headers["authorization"] == f"Bearer {secret}"


def test_only_the_two_configured_hosts_are_called(gh):
    client = client_for(gh)
    with pytest.raises(GitHubError, match="only GITHUB_API_URL and GITHUB_GRAPHQL_URL"):
        client.request("GET", "https://example.invalid/repos/x/y")


def test_graphql_url_defaults():
    assert default_graphql_url("https://api.github.com") == "https://api.github.com/graphql"
    assert default_graphql_url("https://ghe.example.com/api/v3/") == "https://ghe.example.com/api/graphql"


def test_retry_policy_from_env():
    p = RetryPolicy.from_env({"RECEIPT_GITHUB_ATTEMPTS": "3", "RECEIPT_GITHUB_BACKOFF": "0.01", "RECEIPT_GITHUB_MAX_WAIT": "2"})
    assert (p.attempts, p.backoff, p.max_wait) == (3, 0.01, 2.0)
    assert RetryPolicy.from_env({}) == RetryPolicy()
