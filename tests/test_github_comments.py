"""The sticky PR comment against the fake GitHub server: marker, identity, modes, races, faults."""

from __future__ import annotations

import pytest

from receipt.errors import UsageError
from receipt.github.api import Comment, GitHubClient, Identity, ReadOnlyToken, RetryPolicy
from receipt.github.comments import (
    Marker,
    make_marker,
    parse_marker,
    sync_comment,
    validate_key,
)
from tests.fake_github import FakeGitHub

REPO = "octo/widgets"
PR = 12
BASE = "b" * 40
H1, H2, H3 = "1" * 40, "2" * 40, "3" * 40


@pytest.fixture
def gh():
    with FakeGitHub() as fake:
        yield fake


def client(fake: FakeGitHub) -> GitHubClient:
    return GitHubClient(
        api_url=fake.url,
        token=fake.token,
        graphql_url=fake.graphql_url,
        retry=RetryPolicy(attempts=4, backoff=0.001),
        sleep=lambda _s: None,
    )


def body(head: str, text: str = "receipt", key: str = "default") -> str:
    return f"{make_marker(key, head, BASE).render()}\n## Behavior receipt\n\n{text}\n"


def sync(fake: FakeGitHub, head: str, text: str = "receipt", mode: str = "update", key: str = "default", newer=()):
    newer_set = set(newer)
    return sync_comment(
        client(fake), REPO, PR, body(head, text, key), make_marker(key, head, BASE), mode, is_newer=lambda h: h in newer_set
    )


# -- marker and identity ------------------------------------------------------------------------


def test_marker_round_trip_and_position():
    m = make_marker("api-v2.x_1", H1, BASE)
    assert m.render() == f"<!-- behavior-receipt:comment key=api-v2.x_1 head={H1} base={BASE} -->"
    assert parse_marker(m.render() + "\nbody") == m
    assert parse_marker(m.render()) == m
    assert parse_marker("intro\n" + m.render()) is None  # only the first line counts
    assert parse_marker("> " + m.render()) is None  # a quote of it is not it
    assert parse_marker(m.render().replace("key=api", "key=a p")) is None


@pytest.mark.parametrize("key", ["", "a" * 65, "x -->", "k\nv", "<b>", "key=x head=y", "é"])
def test_receipt_keys_that_could_break_the_marker_are_refused(key):
    with pytest.raises(UsageError, match="invalid receipt key"):
        validate_key(key)


def _c(login: str, user_type: str, app: str = "") -> Comment:
    return Comment(id=1, node_id="n", body="", login=login, created_at="", updated_at="", html_url="", user_type=user_type, app_slug=app)


def test_identity_is_login_and_type_exactly():
    actions = Identity.from_viewer("github-actions", "Bot")  # what GITHUB_TOKEN's viewer answers
    assert actions.wrote(_c("github-actions[bot]", "Bot"))
    assert Identity.from_viewer("My-App[bot]", "Bot").wrote(_c("my-app[bot]", "Bot"))
    assert not actions.wrote(_c("github-actions", "User"))  # a person named like the App
    assert not actions.wrote(_c("github-actions-impostor[bot]", "Bot"))
    assert Identity.from_viewer("my-app", "Bot").wrote(_c("renamed[bot]", "Bot", app="my-app"))  # performed_via_github_app
    assert not Identity.from_viewer("my-app", "Bot").wrote(_c("octocat", "User", app="my-app"))  # a person using the App
    pat = Identity.from_viewer("octocat", "User")
    assert pat.wrote(_c("octocat", "User")) and not pat.wrote(_c("octocat[bot]", "Bot"))


# -- update mode --------------------------------------------------------------------------------


def test_first_run_creates_then_updates_in_place(gh):
    r1 = sync(gh, H1, "first")
    assert r1.action == "created"
    (c,) = gh.issue_comments(REPO, PR)
    assert c["body"] == body(H1, "first") and c["user"]["login"] == "github-actions[bot]"
    assert r1.comment.id == c["id"] and r1.comment.html_url == c["html_url"]

    r2 = sync(gh, H2, "second")
    assert r2.action == "updated" and r2.comment.id == c["id"]
    (c2,) = gh.issue_comments(REPO, PR)
    assert c2["body"] == body(H2, "second")


def test_identical_body_writes_nothing(gh):
    sync(gh, H1)
    gh.clear_log()
    r = sync(gh, H1)
    assert r.action == "unchanged"
    assert gh.writes() == []


def test_a_marker_comment_by_someone_else_is_never_touched(gh):
    forged = gh.add_comment(REPO, PR, body(H1, "forged by a human"), login="mallory")
    r = sync(gh, H1, "real")
    assert r.action == "created" and r.ignored_foreign == 1
    comments = gh.issue_comments(REPO, PR)
    assert [c["body"] for c in comments] == [forged["body"], body(H1, "real")]
    assert not [w for w in gh.writes() if w.path.endswith(f"/{forged['id']}")]


def test_other_receipt_keys_are_separate_comments(gh):
    sync(gh, H1, "api", key="api")
    sync(gh, H1, "worker", key="worker")
    sync(gh, H2, "api 2", key="api")
    bodies = sorted(c["body"] for c in gh.issue_comments(REPO, PR))
    assert bodies == sorted([body(H2, "api 2", "api"), body(H1, "worker", "worker")])


def test_finds_its_comment_on_a_later_page(gh):
    for i in range(230):
        gh.add_comment(REPO, PR, f"chatter {i}", login="octocat")
    ours = gh.add_comment(REPO, PR, body(H1, "old"))
    r = sync(gh, H2, "new")
    assert r.action == "updated" and r.comment.id == ours["id"]
    assert len(gh.issue_comments(REPO, PR)) == 231
    assert len([q for q in gh.requests if q.method == "GET"]) == 3


def test_a_race_keeps_the_oldest_and_deletes_the_others(gh):
    oldest = gh.add_comment(REPO, PR, body(H1, "run a"))
    dup1 = gh.add_comment(REPO, PR, body(H1, "run b"))
    dup2 = gh.add_comment(REPO, PR, body(H1, "run c"))
    r = sync(gh, H2, "latest")
    assert r.action == "updated" and r.comment.id == oldest["id"]
    assert sorted(r.deleted) == sorted([dup1["id"], dup2["id"]])
    assert [(c["id"], c["body"]) for c in gh.issue_comments(REPO, PR)] == [(oldest["id"], body(H2, "latest"))]


def test_never_overwrites_a_receipt_for_a_newer_head(gh):
    sync(gh, H2, "newer")
    gh.clear_log()
    r = sync(gh, H1, "older", newer={H2})
    assert r.action == "stale" and r.newer_head == H2
    assert gh.writes() == []
    assert gh.issue_comments(REPO, PR)[0]["body"] == body(H2, "newer")


def test_a_stale_run_does_not_clean_up_either(gh):
    gh.add_comment(REPO, PR, body(H1, "a"))
    gh.add_comment(REPO, PR, body(H2, "b"))
    gh.clear_log()
    assert sync(gh, H1, "older", newer={H2}).action == "stale"
    assert gh.writes() == [] and len(gh.issue_comments(REPO, PR)) == 2


# -- new and hide-and-new ---------------------------------------------------------------------------


def test_new_mode_posts_each_run_but_not_an_identical_rerun(gh):
    sync(gh, H1, "one", mode="new")
    sync(gh, H2, "two", mode="new")
    gh.clear_log()
    assert sync(gh, H2, "two", mode="new").action == "unchanged"
    assert gh.writes() == []
    assert [c["body"] for c in gh.issue_comments(REPO, PR)] == [body(H1, "one"), body(H2, "two")]


def test_hide_and_new_minimizes_the_previous_receipts_once(gh):
    first = sync(gh, H1, "one", mode="hide-and-new").comment
    r2 = sync(gh, H2, "two", mode="hide-and-new")
    assert r2.action == "created" and r2.minimized == [first.id]
    assert gh.minimized == {first.node_id: "OUTDATED"}
    r3 = sync(gh, H3, "three", mode="hide-and-new")
    assert r3.minimized == [r2.comment.id]  # the first one is already hidden: not minimized again
    assert len(gh.issue_comments(REPO, PR)) == 3
    mutations = [w for w in gh.writes() if w.path == "/graphql"]
    assert len(mutations) == 2


def test_hide_and_new_posts_before_hiding(gh):
    sync(gh, H1, "one", mode="hide-and-new")
    gh.fail(503, method="POST", path=r"/comments$", times=10)
    with pytest.raises(Exception):
        sync(gh, H2, "two", mode="hide-and-new")
    assert gh.minimized == {}  # the old receipt stays visible when the new one could not be posted


def test_off_makes_no_request(gh):
    assert sync(gh, H1, mode="off").action == "off"
    assert gh.requests == []


# -- faults ---------------------------------------------------------------------------------------


def test_a_lost_response_to_a_create_does_not_post_twice(gh):
    gh.fail(502, method="POST", path=r"/comments$", after_write=True)
    r = sync(gh, H1, "once")
    assert r.action == "created"
    assert [c["body"] for c in gh.issue_comments(REPO, PR)] == [body(H1, "once")]
    assert r.comment.id == gh.issue_comments(REPO, PR)[0]["id"]


def test_a_dropped_connection_on_create_is_retried_after_looking(gh):
    gh.fail(0, method="POST", path=r"/comments$")
    assert sync(gh, H1, "once").action == "created"
    assert len(gh.issue_comments(REPO, PR)) == 1
    assert len([w for w in gh.writes() if w.method == "POST"]) == 2


def test_read_only_token_surfaces_as_read_only(gh):
    gh.read_only = True
    with pytest.raises(ReadOnlyToken):
        sync(gh, H1)
    assert gh.issue_comments(REPO, PR) == []


def test_marker_must_match_the_body():
    with FakeGitHub() as fake, pytest.raises(ValueError):
        sync_comment(client(fake), REPO, PR, "no marker", Marker("default", H1, BASE))


def test_hide_and_new_reports_a_failed_minimize_without_losing_the_new_receipt(gh):
    sync(gh, H1, "one", mode="hide-and-new")
    gh.fail(502, path=r"^/graphql$", body_contains="minimizeComment", times=100)
    r = sync(gh, H2, "two", mode="hide-and-new")
    assert r.action == "created" and r.minimized == []
    assert len(r.problems) == 1 and "could not minimize" in r.problems[0]
    assert len(gh.issue_comments(REPO, PR)) == 2 and gh.minimized == {}
