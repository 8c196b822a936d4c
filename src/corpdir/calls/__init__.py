"""The desk's telephone: call feeds (what rings, where) and dialers (calling out).

Everything here sits under the service facade (architecture.md): feeds turn a soft phone,
a PBX manager, a desk phone's action URL, the service's own history or `corpdir ring` into
one :class:`~corpdir.calls.events.CallEvent` shape; the TUI shows them, and the recorder
writes the desk's finished calls back to the service (H2). Nothing here imports Textual.
"""
