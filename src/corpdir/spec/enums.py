"""Every enumeration of spec section 2.3."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class UserType(StrEnum):
    REGULAR_USER = "REGULAR_USER"
    REGISTRATION_ONLY_USER = "REGISTRATION_ONLY_USER"
    FACILITY = "FACILITY"


class Role(StrEnum):
    """roles item. ADMIN_IBASHO counts only when the location service was contracted on or after 2019-07-04."""

    ADMIN_COMPANY = "ADMIN_COMPANY"
    ADMIN_DIVISION = "ADMIN_DIVISION"
    ADMIN_USER = "ADMIN_USER"
    ADMIN_INTERNAL_CONTACT = "ADMIN_INTERNAL_CONTACT"
    ADMIN_COMMON_CONTACT = "ADMIN_COMMON_CONTACT"
    ADMIN_INFORMATION = "ADMIN_INFORMATION"
    ADMIN_SIGMA_IMPORT = "ADMIN_SIGMA_IMPORT"
    ADMIN_ACTION_LOG = "ADMIN_ACTION_LOG"
    ADMIN_CLOUD_ACTIVE_DIRECTORY = "ADMIN_CLOUD_ACTIVE_DIRECTORY"
    ADMIN_ACTIVE_DIRECTORY = "ADMIN_ACTIVE_DIRECTORY"
    ADMIN_CUCM = "ADMIN_CUCM"
    ADMIN_DIAL_PICKUP = "ADMIN_DIAL_PICKUP"
    ADMIN_CMX = "ADMIN_CMX"
    ADMIN_EX_BEACON = "ADMIN_EX_BEACON"
    ADMIN_NETDEV = "ADMIN_NETDEV"
    ADMIN_ANPI = "ADMIN_ANPI"
    ADMIN_IBASHO = "ADMIN_IBASHO"
    ADMIN_THANKS = "ADMIN_THANKS"
    ADMIN_GOTALK = "ADMIN_GOTALK"


class SpCallSetting(StrEnum):
    DIRECT_CALL = "DIRECT_CALL"
    SETTING_1 = "SETTING_1"
    SETTING_2 = "SETTING_2"
    SETTING_3 = "SETTING_3"
    SETTING_4 = "SETTING_4"
    SETTING_5 = "SETTING_5"
    SETTING_6 = "SETTING_6"
    SETTING_7 = "SETTING_7"
    SETTING_8 = "SETTING_8"
    SETTING_9 = "SETTING_9"
    SETTING_10 = "SETTING_10"

    @property
    def number(self) -> int:
        """0 for DIRECT_CALL, n for SETTING_n (variants A/B stop at 5)."""
        return 0 if self is SpCallSetting.DIRECT_CALL else int(self.value.rsplit("_", 1)[1])


class ForceRequestOperator(StrEnum):
    DISABLE = "DISABLE"
    FORCE = "FORCE"
    SELECT = "SELECT"


class Groupware(StrEnum):
    """Request values are M365 and GWS; a response can carry NONE."""

    M365 = "M365"
    GWS = "GWS"
    NONE = "NONE"


class Directory(StrEnum):
    SHARED = "SHARED"
    PERSONAL = "PERSONAL"


class OcrStatus(StrEnum):
    CAN_SEND = "CAN_SEND"
    SENDING = "SENDING"


class OcrType(StrEnum):
    NONE = "NONE"
    MACHINE = "MACHINE"
    OPERATOR = "OPERATOR"


class OcrResult(StrEnum):
    SUCCESS = "SUCCESS"
    FAILURE = "FAILURE"


class PhotoSize(StrEnum):
    FULL = "FULL"
    THUMBNAIL = "THUMBNAIL"


class ReaderType(StrEnum):
    AUTO = "AUTO"
    OPERATOR = "OPERATOR"


class OcrLanguage(StrEnum):
    JAPANESE = "JAPANESE"
    ENGLISH = "ENGLISH"


class OrderDirection(StrEnum):
    ASC = "asc"
    DESC = "desc"


class PhoneNumContactType(StrEnum):
    """Only SHARED_NUMBER is given by the spec; the full set is not shown.

    The reference server also answers USER (an internal user's number) and CONTACT
    (an external contact's number); responses accept any string (see identify.py).
    """

    SHARED_NUMBER = "SHARED_NUMBER"
    USER = "USER"
    CONTACT = "CONTACT"


# U1's orderBy (a Literal, not an enum: the query sends it as written); here, beside the
# enums, so the TUI's first screen names the orders without importing the models
UserOrderBy = Literal["fullname", "sortScore", "employeeNum"]
