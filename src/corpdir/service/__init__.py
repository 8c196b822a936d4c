"""The one façade the TUI and the CLI call: cache first, then the API client.

Modules here import their heavy dependencies (pydantic models, httpx, the reference
server) only where needed, so the CLI's fast paths stay fast.
"""
