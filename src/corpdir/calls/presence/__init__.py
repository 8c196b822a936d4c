"""Who is free now: the busy-lamp field of the people the desk puts calls through to.

A source (kamailio's evapi, Asterisk's manager) tells what the phone system sees; a
:class:`~corpdir.calls.presence.lamps.LampBoard` keeps it per extension, and
:class:`~corpdir.calls.presence.watch.Presence` runs the source, reconnects it, and
publishes changes for the extensions a front end watches (on screen plus favourites, at
most a configured number)."""
