"""Records the cache tests store: users in divisions, a contact, a division tree."""

USERS = [
    {"userId": 1, "fullname": "山田 太郎", "fullnameKana": "ヤマダ タロウ", "fullnameAlphabet": "Taro Yamada",
     "employeeNum": "E0001", "extensionNum": "1234", "phoneNum": "03-1234-5678", "email1": "taro.yamada@example.jp",
     "position": "部長", "sortScore": 5, "divisions": [{"divisionId": 10, "divisionName": "第一営業部"}]},
    {"userId": 2, "fullname": "山田川 花子", "fullnameKana": "ヤマダガワ ハナコ", "fullnameAlphabet": "Hanako Yamadagawa",
     "sortScore": 9, "mobileNum": "090-1111-2222", "divisions": [{"divisionId": 11, "divisionName": "第二営業部"}]},
    {"userId": 3, "fullname": "王伟", "fullnameKana": "オウ イ", "companyMobileNum": "+81-90-5555-1234", "sortScore": 1,
     "divisions": [{"divisionId": 12, "divisionName": "1課"}]},
    {"userId": 4, "fullname": "小山田 健", "fullnameKana": "コヤマダ ケン", "sortScore": 100},
]
CONTACTS = [
    {"contactId": 7, "fullname": "佐藤 一郎", "fullnameKana": "サトウ イチロウ", "companyName": "株式会社テスト商事",
     "phoneNum": "0312345678", "email1": "ichiro@test.example", "folderId": {"directory": "SHARED", "folderNum": 1},
     "updatedAt": "2026-01-01T00:00:00.000Z"},
]
DIVISIONS = [
    {"divisionId": 9, "divisionName": "営業本部", "childDivisionIds": [10, 11], "sortScore": 0},
    {"divisionId": 10, "parentDivisionId": 9, "divisionName": "第一営業部", "childDivisionIds": [12]},
    {"divisionId": 11, "parentDivisionId": 9, "divisionName": "第二営業部"},
    {"divisionId": 12, "parentDivisionId": 10, "divisionName": "1課"},
]
