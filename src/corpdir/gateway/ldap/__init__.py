"""The phonebook for LDAP-only desk phones, on a real directory server (OpenLDAP slapd):
inetOrgPerson entries made from the cache (:mod:`.entries`), written as LDIF
(``corpdir export --format ldif``) or kept in step with a slapd tree (``corpdir ldap-sync``)."""
