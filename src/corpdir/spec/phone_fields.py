"""Which fields of a user and of an external contact hold phone numbers.

Their own module (re-exported by :mod:`corpdir.spec.user` and :mod:`corpdir.spec.contact`):
the cache's index needs the lists at start-up, and importing the contact models for two
tuples cost the first screen ~20 ms.
"""

USER_PHONE_FIELDS = ("extensionNum", "phoneNum", "companyMobileNum", "personalMobileNum", "mobileNum", "faxNum")

CONTACT_PHONE_FIELDS = (
    "phoneNum", "companyMobileNum", "personalMobileNum", "mobileNum", "faxNum",
    "companyDelegatedPhoneNum", "divisionDelegatedPhoneNum",
)

# The number a receptionist dials first, in this order (the extension, the desk phone ...).
PHONE_PRIORITY = ("extensionNum", "phoneNum", "companyMobileNum", "mobileNum", "personalMobileNum",
                  "companyDelegatedPhoneNum", "divisionDelegatedPhoneNum", "faxNum")


def first_phone(record: object) -> str:
    """The number a receptionist dials first: the extension, else the first phone there is."""
    for field in PHONE_PRIORITY:
        value = getattr(record, field, None)
        if value:
            return value
    return ""
