"""`corpdir ssh-server`: the directory TUI over SSH, one read-only app process per session.

- :mod:`corpdir.ssh.authorized` who may log in (OpenSSH authorized_keys) and which
  service profile each key gets (a TOML file);
- :mod:`corpdir.ssh.session` the app as a child process on its own PTY;
- :mod:`corpdir.ssh.server` the asyncssh server: public keys only, one shell per
  session, nothing else (no exec, subsystems, forwarding or agent), idle timeout and a
  cap on concurrent sessions;
- :mod:`corpdir.ssh.hostkey` the host key, generated on the first start.

Nothing here is imported by the TUI or the client.
"""
