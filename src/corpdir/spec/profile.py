"""The profile resource (spec 2.6), one per user."""

from __future__ import annotations

from datetime import datetime

from corpdir.spec import constraints as c
from corpdir.spec.common import OMIT, RequestModel, ResponseModel

# skills, toolTechnologies, qualifications: <= 20 items, each NOT_BLANK and <= 100
# characters, stored in the given order, duplicates keep the first.
ProfileList = c.items(c.text(100, not_blank=True), 20, keep_first=True)


class BriefHistory(RequestModel):
    briefHistoryDate: c.Date
    briefHistoryText: c.text(500)


class AchievementHistory(RequestModel):
    achievementHistoryDate: c.Date
    achievementHistoryText: c.text(500)


class ExternalLink(RequestModel):
    externalLinkUrl: c.text(256)
    externalLinkTitle: c.text(256) = OMIT


class CustomColumnValue(RequestModel):
    customColumnId: c.Id
    customColumnValue: c.text(500) = OMIT


class ProfileEdit(RequestModel):
    """U10 body: partial; a list sent replaces the stored list."""

    oneWord: c.text(280) = OMIT
    jobDescription: c.text(280) = OMIT
    skills: ProfileList = OMIT
    toolTechnologies: ProfileList = OMIT
    qualifications: ProfileList = OMIT
    briefHistories: c.items(BriefHistory, 30) = OMIT
    achievementHistories: c.items(AchievementHistory, 30) = OMIT
    externalLinks: c.items(ExternalLink, 3) = OMIT
    customColumns: c.items(CustomColumnValue, 3, unique=True) = OMIT


class BriefHistoryOut(ResponseModel):
    briefHistoryDate: str | None = None
    briefHistoryText: str | None = None


class AchievementHistoryOut(ResponseModel):
    achievementHistoryDate: str | None = None
    achievementHistoryText: str | None = None


class ExternalLinkOut(ResponseModel):
    externalLinkUrl: str | None = None
    externalLinkTitle: str | None = None


class CustomColumn(ResponseModel):
    customColumnId: int | None = None
    customColumnTitle: str | None = None
    customColumnValue: str | None = None


class Profile(ResponseModel):
    oneWord: str | None = None
    jobDescription: str | None = None
    skills: list[str] | None = None
    toolTechnologies: list[str] | None = None
    qualifications: list[str] | None = None
    briefHistories: list[BriefHistoryOut] | None = None
    achievementHistories: list[AchievementHistoryOut] | None = None
    externalLinks: list[ExternalLinkOut] | None = None
    customColumns: list[CustomColumn] | None = None
    selfUpdatedAt: datetime | None = None
