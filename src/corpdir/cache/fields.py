"""The codes cache index rows name fields by (one small integer instead of the name).

Stored in caches: append only, never reorder. No imports, so that `corpdir lookup` can
read phone index rows without loading the search code.
"""

FIELDS = (
    "fullname", "fullnameKana", "fullnameAlphabet", "employeeNum", "email1", "email2", "position", "post",
    "divisions", "companyName", "companyNameKana", "divisionName", "divisionNameKana",
    "extensionNum", "phoneNum", "companyMobileNum", "personalMobileNum", "mobileNum", "faxNum",
    "companyDelegatedPhoneNum", "divisionDelegatedPhoneNum", "divisionPhoneNum",
)
CODES = {name: i for i, name in enumerate(FIELDS)}
