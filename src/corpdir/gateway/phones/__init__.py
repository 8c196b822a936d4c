"""Desk-phone directory formats, one module per maker (XML as each maker documents it)."""
