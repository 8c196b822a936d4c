"""`corpdir gateway`: the directory as PBXs and desk phones ask for it.

One asyncio process (an HTTP server of its own, :mod:`corpdir.gateway.httpserver`) answers caller-ID lookups and desk-phone directories from
the profile's cache, keeps the cache fresh with a background sync paced by the API
client's rate limiter, and asks the service (N1) about a number the cache does not know
only as long as the PBX can wait: past the deadline the answer is "unknown", never late.
``corpdir ldap-sync`` keeps an OpenLDAP tree in step with the same cache for phones
that read only LDAP. Everything here goes through :mod:`corpdir.service`.
"""
