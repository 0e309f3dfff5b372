"""Accounts routes driven by python-gitlab (Debian's python3-gitlab), as a script of a client would.

Usage: python3 python-gitlab-accounts.py <base url> <admin token>. Exits non-zero on the first failure.
"""
import sys

import gitlab

url, admin_token = sys.argv[1], sys.argv[2]
gl = gitlab.Gitlab(url, private_token=admin_token)

version, revision = gl.version()
assert version.count(".") == 2 and revision.startswith("forgekit-"), (version, revision)

user = gl.users.create({"username": "pyuser", "name": "Py User", "email": "py@example.com", "password": "py-password-1", "skip_confirmation": True})
assert user.email == "py@example.com" and user.is_admin is False
assert [u.username for u in gl.users.list(username="PYUSER")] == ["pyuser"]
try:
    gl.users.create({"username": "pyuser", "name": "Again", "email": "again@example.com", "password": "py-password-1"})
    raise AssertionError("a taken username was accepted")
except gitlab.exceptions.GitlabCreateError as error:
    assert error.response_code == 409, error.response_code

user.name = "Py Renamed"
user.save()
assert gl.users.get(user.id).name == "Py Renamed"
user.block()
assert gl.users.get(user.id).state == "blocked"
user.unblock()
user.deactivate()
user.activate()
assert gl.users.get(user.id).state == "active"

email = user.emails.create({"email": "py2@example.com"})
assert [e.email for e in user.emails.list()] == ["py@example.com", "py2@example.com"]
email.delete()
assert [e.email for e in user.emails.list()] == ["py@example.com"]

pat = user.personal_access_tokens.create({"name": "pytok", "scopes": ["api"]})
as_user = gitlab.Gitlab(url, private_token=pat.token)
as_user.auth()
assert as_user.user.username == "pyuser"
assert [e.email for e in as_user.user.emails.list()] == ["py@example.com"]
assert [t.name for t in as_user.personal_access_tokens.list()] == ["pytok"]
rotated = as_user.http_post(f"/personal_access_tokens/{pat.id}/rotate")
assert rotated["name"] == "pytok" and rotated["token"] != pat.token
assert gitlab.Gitlab(url, private_token=rotated["token"]).http_get("/personal_access_tokens/self")["id"] == rotated["id"]
gl.personal_access_tokens.delete(rotated["id"])
try:
    gitlab.Gitlab(url, private_token=rotated["token"]).auth()
    raise AssertionError("a revoked token still works")
except gitlab.exceptions.GitlabAuthenticationError:
    pass

project = gl.projects.get("grp/public-project")
token = project.access_tokens.create({"name": "deploy", "scopes": ["read_api"], "access_level": 30})
assert token.access_level == 30 and token.token
assert [t.name for t in project.access_tokens.list()] == ["deploy"]
project.access_tokens.delete(token.id)
group_token = gl.groups.get("grp").access_tokens.create({"name": "gbot", "scopes": ["api"]})
assert group_token.access_level == 40

settings = gl.settings.get()
assert settings.impersonation_enabled is True
settings.impersonation_enabled = False
settings.save()
assert gl.settings.get().impersonation_enabled is False

doomed = gl.users.create({"username": "doomed", "name": "Doomed", "email": "doomed@example.com", "force_random_password": True})
gl.users.delete(doomed.id)
try:
    gl.users.delete(gl.users.list(username="alice")[0].id)
    raise AssertionError("the sole owner of a group was deleted")
except gitlab.exceptions.GitlabDeleteError as error:
    assert error.response_code == 409, error.response_code

print("OK")
