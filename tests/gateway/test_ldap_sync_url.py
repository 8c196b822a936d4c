"""A password put in `ldap-sync --url` is never repeated: the command says where the
password goes instead, and shows the URL as ldap://[redacted]@host (it echoed it whole)."""

from __future__ import annotations

import subprocess
import sys

from ssh_helpers import demo_home_env


def test_a_password_in_the_url_is_refused_without_being_repeated(tmp_path):
    done = subprocess.run([sys.executable, "-m", "corpdir.cli", "ldap-sync", "--url",
                           "ldap://cn=admin:S3cret-Pw%2F9@127.0.0.1:1389", "--base-dn", "ou=phonebook,dc=example,dc=com"],
                          capture_output=True, text=True, env=demo_home_env(tmp_path), timeout=300)
    assert done.returncode == 2
    assert "ldap://[redacted]@127.0.0.1:1389" in done.stderr and "--password-file" in done.stderr
    assert "S3cret" not in done.stderr + done.stdout and "admin" not in done.stderr + done.stdout
