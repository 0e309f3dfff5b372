"""A developer's day of work against the quick-start server, driven by python-gitlab (Debian's python3-gitlab).

Usage: python3 day-of-work.py <base url> <admin token>. The administrator creates the day's developer
(and their personal access token); the developer then creates a group and a project in it, adds the demo
user bob as a member, pushes commits with the git CLI, opens, comments on and closes an issue, creates a
branch and a merge request and merges it, lists the project's events, creates a snippet, and rotates
their token. Every step checks what it got back. Exits non-zero on the first failure; prints OK at the end.
"""
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse

import gitlab

url, admin_token = sys.argv[1], sys.argv[2]
run = f"{int(time.time() * 1000) % 100000000:08d}"  # names unique per run: the script can run again on one server
admin = gitlab.Gitlab(url, private_token=admin_token)
admin.auth()
assert admin.user.is_admin is True, "the token given is not an administrator's"

# Morning: the administrator creates the developer's account and a token for it.
dev = admin.users.create({"username": f"dev{run}", "name": "Day Developer", "email": f"dev{run}@example.com", "password": "day-of-work-1", "skip_confirmation": True})
pat = dev.personal_access_tokens.create({"name": "laptop", "scopes": ["api"]})
assert pat.token and pat.scopes == ["api"], pat.scopes
gl = gitlab.Gitlab(url, private_token=pat.token)
gl.auth()
assert gl.user.username == f"dev{run}", gl.user.username

# A group and a project in it.
group = gl.groups.create({"name": f"Team {run}", "path": f"team-{run}", "visibility": "private"})
assert group.full_path == f"team-{run}" and group.visibility == "private", (group.full_path, group.visibility)
assert [m.username for m in group.members.list()] == [f"dev{run}"], "the creator owns the new group"
project = gl.projects.create({"name": "Service", "path": "service", "namespace_id": group.id, "visibility": "private"})
assert project.path_with_namespace == f"team-{run}/service", project.path_with_namespace
assert gl.projects.get(f"team-{run}/service").id == project.id

# A member: the demo user bob, as a developer.
bob = admin.users.list(username="bob")[0]
member = project.members.create({"user_id": bob.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
assert member.username == "bob" and member.access_level == gitlab.const.DEVELOPER_ACCESS
assert sorted(m.username for m in project.members_all.list(all=True)) == sorted(["bob", f"dev{run}"])

# Push with git: an initial commit on main, then a feature branch with a second commit.
work = tempfile.mkdtemp(prefix="day-of-work-")
env = {**os.environ, "HOME": work, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
       "GIT_AUTHOR_NAME": "Day Developer", "GIT_AUTHOR_EMAIL": f"dev{run}@example.com",
       "GIT_COMMITTER_NAME": "Day Developer", "GIT_COMMITTER_EMAIL": f"dev{run}@example.com"}
remote = urllib.parse.urlsplit(project.http_url_to_repo)
remote = remote._replace(netloc=f"oauth2:{pat.token}@{remote.netloc}").geturl()


def git(*args):
    done = subprocess.run(["git", *args], cwd=work, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"git {args[0]} failed: {done.stderr.strip()}"
    return done.stdout.strip()


git("init", "-q", "-b", "main")
with open(os.path.join(work, "README.md"), "w") as readme:
    readme.write("# Service\n")
git("add", "README.md")
git("commit", "-q", "-m", "Initial commit")
git("push", "-q", remote, "main")
first = git("rev-parse", "HEAD")
assert project.branches.get("main").commit["id"] == first
assert gl.projects.get(project.id).default_branch == "main"

# An issue: open, comment, close.
issue = project.issues.create({"title": "The service has no health check", "description": "Add /health."})
assert issue.iid == 1 and issue.state == "opened" and issue.author["username"] == f"dev{run}"
note = issue.notes.create({"body": "I'll take this one."})
assert note.body == "I'll take this one." and note.system is False
assert [n.body for n in issue.notes.list(all=True) if not n.system] == ["I'll take this one."]
issue.state_event = "close"
issue.save()
assert project.issues.get(issue.iid).state == "closed"
assert [i.iid for i in project.issues.list(state="closed")] == [issue.iid]

# A branch and a merge request, merged for real.
branch = project.branches.create({"branch": "health-check", "ref": "main"})
assert branch.name == "health-check" and branch.commit["id"] == first
git("fetch", "-q", remote, "health-check")
git("checkout", "-q", "-b", "health-check", "FETCH_HEAD")
with open(os.path.join(work, "health.txt"), "w") as health:
    health.write("ok\n")
git("add", "health.txt")
git("commit", "-q", "-m", f"Add a health check (closes #{issue.iid})")
git("push", "-q", remote, "health-check")
second = git("rev-parse", "HEAD")
mr = project.mergerequests.create({"source_branch": "health-check", "target_branch": "main", "title": "Add a health check", "remove_source_branch": True})
assert mr.iid == 1 and mr.state == "opened" and mr.sha == second, (mr.iid, mr.state, mr.sha)
assert [c.id for c in mr.commits()] == [second]
assert [c["new_path"] for c in mr.changes()["changes"]] == ["health.txt"]
merged = mr.merge(should_remove_source_branch=True)
assert merged["state"] == "merged" and merged["merge_commit_sha"], merged
main = project.commits.get("main")
assert main.id == merged["merge_commit_sha"] and main.parent_ids == [first, second], main.parent_ids
assert project.files.raw(file_path="health.txt", ref="main") == b"ok\n"
assert "health-check" not in [b.name for b in project.branches.list(all=True)], "the source branch was removed"
assert project.mergerequests.get(mr.iid).state == "merged"

# The day's events, newest first.
events = project.events.list(all=True)
actions = [(e.action_name, e.target_type) for e in events]
for expected in [("created", None), ("joined", None), ("pushed new", None), ("opened", "Issue"), ("commented on", "Note"), ("closed", "Issue"), ("opened", "MergeRequest"), ("accepted", "MergeRequest")]:
    assert expected in actions, f"{expected} missing from {actions}"
assert {e.author_username for e in events if e.action_name != "joined"} == {f"dev{run}"}
assert [e.author_username for e in events if e.action_name == "joined"] == ["bob"], "bob joined the project"
assert events[0].created_at >= events[-1].created_at
pushes = [e.push_data for e in project.events.list(action="pushed", all=True)]
# The merge's push to main brought two commits: the feature's and the merge commit.
assert [(p["action"], p["commit_to"], p["commit_count"]) for p in pushes if p["ref"] == "main"] == [("pushed", merged["merge_commit_sha"], 2), ("created", first, 1)], pushes
assert pushes[-1]["commit_title"] == "Initial commit" and pushes[-1]["commit_count"] == 1, pushes[-1]
assert [e.action_name for e in gl.events.list(target_type="issue", all=True)][:2] == ["closed", "opened"]

# Snippets: a project snippet in the form python-gitlab 3.12 knows (file_name and content), and a
# personal one with two files (the `files` form, which this python-gitlab only sends through http_post).
snippet = project.snippets.create({"title": "Health check", "visibility": "private", "file_name": "curl.sh", "content": "curl -f http://localhost/health\n"})
assert snippet.title == "Health check" and snippet.file_name == "curl.sh" and [f["path"] for f in snippet.files] == ["curl.sh"]
assert snippet.content() == b"curl -f http://localhost/health\n"
assert [s.title for s in project.snippets.list()] == ["Health check"]
created = gl.http_post("/snippets", post_data={"title": "Scratch", "visibility": "private", "files": [
    {"file_path": "todo.txt", "content": "rotate the token\n"}, {"file_path": "notes.md", "content": "Merged !1.\n"}]})
personal = gl.snippets.get(created["id"])
assert personal.project_id is None and sorted(f["path"] for f in personal.files) == ["notes.md", "todo.txt"], personal.files
assert gl.http_get(f"/snippets/{personal.id}/files/main/notes.md/raw", raw=True).content == b"Merged !1.\n"
assert personal.id in [s.id for s in gl.snippets.list(all=True)]

# Evening: rotate the token; the new one works, the old one no longer does.
rotated = gl.http_post("/personal_access_tokens/self/rotate")
assert rotated["name"] == "laptop" and rotated["token"] != pat.token and rotated["id"] != pat.id, rotated
renewed = gitlab.Gitlab(url, private_token=rotated["token"])
renewed.auth()
assert renewed.user.username == f"dev{run}"
assert renewed.projects.get(project.id).path_with_namespace == f"team-{run}/service"
try:
    gitlab.Gitlab(url, private_token=pat.token).auth()
    raise AssertionError("the token that was rotated still works")
except gitlab.exceptions.GitlabAuthenticationError as error:
    assert error.response_code == 401, error.response_code

print("OK")
