"""Messages taken at the desk for a person: kept as slips (:mod:`.slips`), e-mailed to the
person (:mod:`.mail`), delivered and retried by :mod:`.courier`, and noted on the call
record. No Textual here: the slips screen (F6) and the message form are front ends."""
