"""One screen per place the user goes: directory, contacts, calls, lookup."""
