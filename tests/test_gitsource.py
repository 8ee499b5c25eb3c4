"""Reading revisions from git objects: real repositories, including bare and shallow clones."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from receipt.errors import GitError
from receipt.gitsource import GitRepo, matches_any
from tests.helpers import GitRepoBuilder


def test_resolves_every_revision_spelling(git_repo: GitRepoBuilder) -> None:
    first = git_repo.commit({"a.py": "x = 1\n"})
    second = git_repo.commit({"a.py": "x = 2\n"})
    git_repo.git("tag", "-a", "v1", "-m", "release", first)
    git_repo.git("branch", "feature", second)
    repo = GitRepo(git_repo.path)
    assert repo.resolve("HEAD") == second
    assert repo.resolve("HEAD~1") == first
    assert repo.resolve("v1") == first  # annotated tag peeled to its commit
    assert repo.resolve("feature") == second
    assert repo.resolve(first[:10]) == first


def test_unknown_revision_is_a_git_error_with_exit_3(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"a.py": "x = 1\n"})
    repo = GitRepo(git_repo.path)
    with pytest.raises(GitError) as e:
        repo.resolve("no-such-branch")
    assert e.value.exit_code == 3
    assert "unknown revision 'no-such-branch'" in str(e.value)
    with pytest.raises(GitError) as e:
        repo.resolve("deadbeefdeadbeefdeadbeefdeadbeefdeadbeef")
    assert e.value.hint == "fix: git fetch --no-tags origin deadbeefdeadbeefdeadbeefdeadbeefdeadbeef"


def test_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(GitError, match="not a git repository"):
        GitRepo(tmp_path)
    with pytest.raises(GitError, match="does not exist"):
        GitRepo(tmp_path / "missing")


def test_reads_bare_repositories_without_a_worktree(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    sha = git_repo.commit({"pkg/a.py": "x = 1\n"})
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(git_repo.path), str(bare)], check=True)
    repo = GitRepo(bare)
    listing = repo.list_files(repo.resolve("HEAD"))
    assert [f.path for f in listing.files] == ["pkg/a.py"]
    assert repo.read_blob(listing.files[0].blob) == b"x = 1\n"
    assert repo.resolve("HEAD") == sha


def test_reads_a_bare_mirror_that_does_not_say_it_is_bare(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    """Some mirroring tools write a bare repository without `core.bare`; git itself reads it as bare
    when named directly, and so must the receipt (it used to report "unknown revision 'HEAD'")."""
    git_repo.commit({"pkg/a.py": "x = 1\n"})
    sha = git_repo.commit({"pkg/a.py": "x = 2\n"})
    mirror = tmp_path / "mirror" / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(git_repo.path), str(mirror)], check=True)
    subprocess.run(["git", "--git-dir", str(mirror), "config", "--unset", "core.bare"], check=True)
    repo = GitRepo(mirror)
    assert repo.resolve("HEAD") == sha
    assert repo.work_tree is None
    assert [f.path for f in repo.list_files(repo.resolve("HEAD~1")).files] == ["pkg/a.py"]


def test_shallow_clone_missing_history_says_how_to_fetch(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    git_repo.commit({"a.py": "x = 1\n"})
    git_repo.commit({"a.py": "x = 2\n"})
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth=1", f"file://{git_repo.path}", str(shallow)], check=True)
    repo = GitRepo(shallow)
    assert repo.is_shallow
    with pytest.raises(GitError) as e:
        repo.resolve("HEAD~1")
    assert "shallow" in str(e.value)
    assert e.value.hint and "git fetch --deepen" in e.value.hint


def test_symlinks_submodules_and_huge_files_are_listed_not_read(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    sub = GitRepoBuilder(tmp_path / "sub")
    sub.commit({"s.py": "y = 1\n"})
    git_repo.write({"real.py": "x = 1\n", "big.py": "x = 1\n" * 300_000, "notes.txt": "hello"})
    os.symlink("real.py", git_repo.path / "link.py")
    git_repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub.path), "vendor/sub")
    sha = git_repo.commit({}, "with odd entries")
    repo = GitRepo(git_repo.path)
    listing = repo.list_files(sha)
    assert [f.path for f in listing.files] == ["real.py"]
    reasons = {s.path: (s.kind, s.reason) for s in listing.skipped}
    assert reasons["link.py"] == ("skipped", "symlink")
    assert reasons["vendor/sub"] == ("skipped", "submodule")
    assert reasons["big.py"] == ("error", "too-large")  # a tool could hide in it: reported as an error
    assert "notes.txt" not in reasons


def test_paths_limit_the_scan_and_a_missing_path_is_an_error(git_repo: GitRepoBuilder) -> None:
    sha = git_repo.commit({"src/agents/a.py": "x = 1\n", "src/other/b.py": "y = 1\n", "top.py": "z = 1\n"})
    repo = GitRepo(git_repo.path)
    assert [f.path for f in repo.list_files(sha, ["src/agents"]).files] == ["src/agents/a.py"]
    assert [f.path for f in repo.list_files(sha, ["top.py", "src/other/"]).files] == ["src/other/b.py", "top.py"]
    with pytest.raises(GitError, match="path not found at .*: src/missing"):
        repo.list_files(sha, ["src/missing"], strict_paths=True)


def test_exclude_globs() -> None:
    assert matches_any("tests/unit/test_a.py", ["tests/**"])
    assert matches_any("pkg/migrations/0001.py", ["**/migrations/**"])
    assert matches_any("pkg/x_test.py", ["**/*_test.py"])
    assert not matches_any("pkg/agent.py", ["tests/**", "**/*_test.py"])


def test_a_listing_excludes_what_each_glob_matches_alone(git_repo: GitRepoBuilder) -> None:
    """Excludes are screened by the literal each pattern holds before the globs run: what is left
    out (and which excludes are reported unused) is what each pattern alone decides."""
    paths = [
        "tests/unit/test_a.py", "pkg/tests/b.py", "pkg/testsuite/c.py", "pkg/test_d.py", "pkg/sub/e_test.py", "conftest.py",
        "pkg/conftest.py", "pkg/conftest.pyx.py", "a*b/x.py", "a?b/y.py", "abb/z.py", "gen/v1/api.py", "gen/v12/api.py",
        "x/migrations/0001.py", "migrations.py", "docs/[draft]/d.py", "docs/d/d.py", "keep.py",
    ]
    git_repo.commit({p: "x = 1\n" for p in paths})
    repo = GitRepo(git_repo.path)
    sha = repo.resolve("HEAD")
    pattern_sets = [
        ["**/tests/**", "**/test/**", "**/test_*.py", "*_test.py", "**/conftest.py"],
        ["a*b/**", "gen/v?/**", "**/migrations/**"],
        ["a?b/y.py", "docs/[d]*/**", "nothing/here/**"],
        ["*", "keep.py"],
        ["**/*.py"],
    ]
    for patterns in pattern_sets:
        listing = repo.list_files(sha, exclude=patterns)
        alone = {p: [pat for pat in patterns if matches_any(p, [pat])] for p in paths}
        assert [f.path for f in listing.files] == sorted(p for p in paths if not alone[p]), patterns
        assert listing.unused_excludes == [pat for pat in patterns if not any(pat in hit for hit in alone.values())], patterns


def test_a_file_is_read_at_a_revision_the_same_before_and_after_its_tree_is_listed(git_repo: GitRepoBuilder) -> None:
    files = {"pyproject.toml": "a", "a\tpyproject.toml": "tab", "sub/pyproject.toml": "sub", "pyproject.toml.bak": "bak", "dir/f.txt": "f"}
    old = git_repo.commit({**files, "gone.toml": "g"})
    git_repo.write({"link.toml": None})
    os.symlink("pyproject.toml", git_repo.path / "link.toml")
    new = git_repo.commit({"gone.toml": None, "pyproject.toml": "b"})
    asked = ["pyproject.toml", "sub/pyproject.toml", "a\tpyproject.toml", "pyproject.toml.bak", "gone.toml", "link.toml", "dir", "dir/f.txt",
             "toml", "missing.toml", "./pyproject.toml", "sub/../pyproject.toml"]
    for listed_first in (False, True, "side by side"):
        repo = GitRepo(git_repo.path)
        if listed_first == "side by side":
            repo.list_tree(old, new)
        elif listed_first:
            repo.list_tree(old)
            repo.list_tree(new)
        got = {(rev, p): repo.read_path(rev, p) for rev in (old, new) for p in asked}
        assert got[(old, "pyproject.toml")] == b"a" and got[(new, "pyproject.toml")] == b"b"
        assert got[(old, "a\tpyproject.toml")] == b"tab" and got[(old, "sub/pyproject.toml")] == b"sub"
        assert got[(old, "gone.toml")] == b"g" and got[(new, "gone.toml")] is None
        assert got[(new, "link.toml")] is None and got[(old, "dir")] is None and got[(old, "dir/f.txt")] == b"f"
        assert got[(old, "toml")] is None and got[(old, "missing.toml")] is None
        if listed_first:
            assert got == before
        before = got


def test_merge_base_and_ancestry(git_repo: GitRepoBuilder) -> None:
    root = git_repo.commit({"a.py": "x = 1\n"})
    git_repo.git("checkout", "-q", "-b", "feature")
    feature = git_repo.commit({"b.py": "y = 1\n"})
    git_repo.git("checkout", "-q", "main")
    main = git_repo.commit({"c.py": "z = 1\n"})
    repo = GitRepo(git_repo.path)
    assert repo.merge_base(main, feature) == root
    assert repo.is_ancestor(root, feature)
    assert not repo.is_ancestor(feature, main)


def test_a_folder_inside_the_work_tree_a_linked_worktree_and_the_git_dir_name_the_same_repository(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    sha = git_repo.commit({"pkg/a.py": "x = 1\n"})
    linked = tmp_path / "linked"
    git_repo.git("worktree", "add", "-q", "--detach", str(linked), sha)
    for where, work in [(git_repo.path / "pkg", git_repo.path), (linked, linked), (git_repo.path / ".git", git_repo.path)]:
        repo = GitRepo(where)
        assert repo.resolve("HEAD") == sha, where
        assert repo.work_tree == work.resolve(), where
        assert [f.path for f in repo.list_files(sha).files] == ["pkg/a.py"]
        repo.close()


def test_a_revision_that_is_not_a_commit_and_an_object_that_is_missing(git_repo: GitRepoBuilder) -> None:
    sha = git_repo.commit({"a.py": "x = 1\n"})
    git_repo.git("tag", "tree-tag", f"{sha}^{{tree}}")
    repo = GitRepo(git_repo.path)
    for rev, kind in [(f"{sha}^{{tree}}", "tree"), ("HEAD:a.py", "blob"), ("tree-tag", "tree")]:
        with pytest.raises(GitError, match=f"is a {kind}, not a commit") as e:
            repo.resolve(rev)
        assert e.value.exit_code == 3
    with pytest.raises(GitError, match="cannot read object 0123456789ab") as e:
        repo.read_blob("0123456789abcdef0123456789abcdef01234567")
    assert e.value.exit_code == 3
    with pytest.raises(GitError, match="cannot read object"):
        repo.read_blob("HEAD")  # an object id, not any name git resolves
    assert repo.read_blob(repo.list_files(sha).files[0].blob) == b"x = 1\n"  # the reader still answers


def test_a_reader_whose_git_process_died_starts_another(git_repo: GitRepoBuilder) -> None:
    sha = git_repo.commit({"a.py": "x = 1\n"})
    repo = GitRepo(git_repo.path)
    blob = repo.list_files(sha).files[0].blob
    assert repo.read_blob(blob) == b"x = 1\n"
    repo._batch.kill()  # type: ignore[union-attr]
    repo._batch.wait()  # type: ignore[union-attr]
    assert repo.read_blob(blob) == b"x = 1\n"
    assert repo.resolve("HEAD") == sha


def test_blobs_read_together_are_the_blobs_read_one_by_one(git_repo: GitRepoBuilder) -> None:
    """What extraction workers read a chunk at a time: each blob's bytes in the order asked, a
    missing object or a name that is no object id as None, and the reader answers on afterwards."""
    big = "x = '" + "y" * 200_000 + "'\n"  # more than a pipe holds, before the next answer
    sha = git_repo.commit({"a.py": "x = 1\n", "b.py": big, "c.py": ""})
    repo = GitRepo(git_repo.path)
    blobs = {f.path: f.blob for f in repo.list_files(sha).files}
    missing = "0123456789abcdef0123456789abcdef01234567"
    asked = [blobs["b.py"], missing, blobs["a.py"], "HEAD", blobs["c.py"], blobs["a.py"]]
    assert repo.read_blobs(asked) == [big.encode(), None, b"x = 1\n", None, b"", b"x = 1\n"]
    assert repo.read_blob(blobs["a.py"]) == b"x = 1\n"
    repo._batch.kill()  # type: ignore[union-attr]
    repo._batch.wait()  # type: ignore[union-attr]
    assert repo.read_blobs([blobs["c.py"]]) == [b""]  # a git process died: another is started


def test_a_listing_is_the_same_whatever_was_listed_before_by_the_same_reader(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    """A reader keeps what each tree record came to for the next listing with the same settings:
    a second tree, other settings and a fresh reader all list the same, and each listing has its
    own issue objects (a receipt marks the head's `touched`, never the base's)."""
    sub = GitRepoBuilder(tmp_path / "sub")
    sub.commit({"s.py": "y = 1\n"})
    git_repo.write({"a.py": "x = 1\n", "big.py": "x = 1\n" * 2_000, "tests/test_a.py": "t = 1\n", "ext.so": "\0", "setup.cfg": "[x]\n"})
    os.symlink("a.py", git_repo.path / "link.py")
    git_repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub.path), "vendor/sub")
    old = git_repo.commit({}, "odd entries")
    new = git_repo.commit({"a.py": "x = 2\n", "b.py": "y = 1\n", "big.py": None}, "a change")
    settings = [
        {}, {"exclude": ["tests/**"]}, {"exclude": ["**/*.py"]}, {"max_bytes": 100}, {"paths": ["tests"]},
        {"wanted": lambda p: p.endswith(".cfg")},
    ]
    shared = GitRepo(git_repo.path)
    for kw in settings:
        for sha in (old, new):
            first, fresh = shared.list_files(sha, **kw), GitRepo(git_repo.path).list_files(sha, **kw)
            assert first == fresh, (kw, sha)
            again = shared.list_files(sha, **kw)
            assert again == first and all(a is not b for a, b in zip(again.skipped, first.skipped)), kw
    listing = shared.list_files(old, max_bytes=100)
    assert {s.path: s.reason for s in listing.skipped} == {"big.py": "too-large", "ext.so": "compiled-code", "link.py": "symlink", "vendor/sub": "submodule"}


def test_a_blob_reads_as_stored_whatever_git_replace_says(git_repo: GitRepoBuilder) -> None:
    # The facts cache is keyed by blob id: a replacement read as that blob would stay in the cache.
    git_repo.commit({"server.py": "def refund(): ...\n", "other.py": "def wipe_everything(): ...\n"})
    blob = lambda p: subprocess.run(["git", "-C", str(git_repo.path), "rev-parse", f"HEAD:{p}"], capture_output=True, text=True, check=True).stdout.strip()
    server, other = blob("server.py"), blob("other.py")
    subprocess.run(["git", "-C", str(git_repo.path), "replace", server, other], check=True)
    repo = GitRepo(git_repo.path)
    assert repo.read_blob(server) == b"def refund(): ...\n"
    assert repo.read_path(repo.resolve("HEAD"), "server.py") == b"def refund(): ...\n"


def test_the_repository_named_is_read_whatever_git_variables_the_environment_sets(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Inside a git hook, `rebase -x` or `bisect run`, GIT_DIR names another repository.
    git_repo.commit({"a.py": "A = 1\n"})
    head = git_repo.commit({"a.py": "A = 2\n"})
    other = tmp_path / "other"
    other.mkdir()
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    repo = GitRepo(git_repo.path)
    assert repo.resolve("HEAD") == head
    assert repo.read_path(repo.resolve("HEAD~1"), "a.py") == b"A = 1\n"


def _git_children() -> list[str]:
    """The `git` processes this process started that are still there (running or not yet reaped)."""
    import os

    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()
        if name == "git" and int(rest[1]) == os.getpid():
            found.append(entry)
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_a_receipt_built_from_a_path_leaves_no_git_process_behind(tmp_path: Path) -> None:
    """`build_receipt("path", ...)` opens the repository itself: its long-lived `git cat-file`
    ends with the call, not when the program exits (a service building receipts in a loop)."""
    from receipt.gitsource import GitRepo
    from receipt.pipeline import build_receipt, template_text_for

    repo = GitRepoBuilder(tmp_path / "repo")
    base = repo.commit({"app.py": "from agents import function_tool\n\n@function_tool\ndef ping() -> str:\n    '''Ping.'''\n    return 'pong'\n"})
    head = repo.commit({"app.py": "from agents import function_tool\n\n@function_tool\ndef ping() -> str:\n    '''Ping twice.'''\n    return 'pong'\n"})
    before = set(_git_children())  # what other tests of this process left
    for _ in range(3):
        build_receipt(str(repo.path), base, head)
        template_text_for(str(repo.path), base)
    assert set(_git_children()) - before == set()
    # A reader the caller opened is the caller's: still usable after the call, and closed by it.
    with GitRepo(repo.path) as reader:
        build_receipt(reader, base, head)
        assert reader.resolve("HEAD") == head
    assert set(_git_children()) - before == set()
