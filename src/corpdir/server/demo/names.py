"""Name pools and word tables: everything the generator combines into records.

Faker ja_JP is asked *once per tenant* for weighted pools (surname and given-name
triples, town and building names); records are then made by combining pool entries with
the tenant's ``random.Random``. Calling Faker per record would make 100,000 users take
minutes, and Faker's ``name()``/``kana_name()`` draw independently, so their kana would not
match the kanji (design/field-notes.md). Only the ``*_pair()`` methods give consistent
(kanji, katakana, romaji) triples, so those are the only person-name source here.

Every word table carries its katakana reading and an ASCII form, because the directory
is searched by kana and the demo must show that working.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from faker import Faker


class Triple(NamedTuple):
    """One name or word: kanji (display), katakana (reading), romaji/English (ASCII)."""

    kanji: str
    kana: str
    roman: str


class Person(NamedTuple):
    last: Triple
    first: Triple

    @property
    def fullname(self) -> str:
        return f"{self.last.kanji} {self.first.kanji}"

    @property
    def fullname_kana(self) -> str:
        return f"{self.last.kana} {self.first.kana}"

    @property
    def fullname_alphabet(self) -> str:
        return f"{self.first.roman} {self.last.roman}"

    @property
    def slug(self) -> str:
        """'kenta.takahashi': the local part of mail addresses and login ids."""
        return f"{self.first.roman.lower()}.{self.last.roman.lower()}"


# --- pools drawn from Faker, once per tenant -------------------------------------------

POOL_SIZE = 4000  # draws per pool: enough for Faker's frequency weights to show


@dataclass(frozen=True)
class Pools:
    """Weighted pools from Faker ja_JP. Choosing uniformly from a pool reproduces Faker's
    frequency weights (佐藤 is common, 杉山 rare) without calling Faker again."""

    surnames: tuple[Triple, ...]
    male_given: tuple[Triple, ...]
    female_given: tuple[Triple, ...]
    towns: tuple[str, ...]
    buildings: tuple[str, ...]

    def person(self, rng: random.Random) -> Person:
        given = self.male_given if rng.random() < 0.55 else self.female_given
        return Person(rng.choice(self.surnames), rng.choice(given))


def build_pools(seed: int) -> Pools:
    fake = Faker("ja_JP")
    fake.seed_instance(seed)
    return Pools(
        surnames=tuple(Triple(*fake.last_name_pair()) for _ in range(POOL_SIZE)),
        male_given=tuple(Triple(*fake.first_name_male_pair()) for _ in range(POOL_SIZE // 2)),
        female_given=tuple(Triple(*fake.first_name_female_pair()) for _ in range(POOL_SIZE // 2)),
        towns=tuple(fake.town() for _ in range(400)),
        buildings=tuple(fake.building_name() for _ in range(100)),
    )


# --- numbers read aloud ----------------------------------------------------------------

_DIGIT_KANJI = "〇一二三四五六七八九"
_DIGIT_KANA = ("", "イチ", "ニ", "サン", "ヨン", "ゴ", "ロク", "ナナ", "ハチ", "キュウ")


def kanji_number(n: int) -> str:
    """1..99 in kanji numerals: 1 -> 一, 12 -> 十二, 20 -> 二十."""
    tens, ones = divmod(n, 10)
    head = "" if tens == 0 else ("十" if tens == 1 else _DIGIT_KANJI[tens] + "十")
    return head + (_DIGIT_KANJI[ones] if ones else "")


def kana_number(n: int) -> str:
    """The reading of kanji_number(n): 1 -> イチ, 12 -> ジュウニ, 20 -> ニジュウ."""
    tens, ones = divmod(n, 10)
    head = "" if tens == 0 else ("ジュウ" if tens == 1 else _DIGIT_KANA[tens] + "ジュウ")
    return head + _DIGIT_KANA[ones]


SECTION_KANA = ("", "イッカ", "ニカ", "サンカ", "ヨンカ", "ゴカ", "ロッカ", "ナナカ", "ハッカ", "キュウカ")
"""'1課'..'9課' read aloud (with the sound changes a plain digit table would miss)."""

FLOOR_KANA = ("", "イッカイ", "ニカイ", "サンガイ", "ヨンカイ", "ゴカイ", "ロッカイ", "ナナカイ", "ハチカイ", "キュウカイ")

LETTER_KANA = dict(zip(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    ("エー", "ビー", "シー", "ディー", "イー", "エフ", "ジー", "エイチ", "アイ", "ジェー", "ケー", "エル", "エム",
     "エヌ", "オー", "ピー", "キュー", "アール", "エス", "ティー", "ユー", "ブイ", "ダブリュー", "エックス", "ワイ", "ゼット"),
))


# --- places ----------------------------------------------------------------------------

class City(NamedTuple):
    prefecture: str
    city: str
    area_code: str  # with the trunk 0: '03', '045'
    zip3: str
    branch: Triple  # the branch office named after the city


CITIES: tuple[City, ...] = (
    City("東京都", "千代田区", "03", "100", Triple("東京", "トウキョウ", "Tokyo")),
    City("大阪府", "大阪市北区", "06", "530", Triple("大阪", "オオサカ", "Osaka")),
    City("愛知県", "名古屋市中村区", "052", "450", Triple("名古屋", "ナゴヤ", "Nagoya")),
    City("福岡県", "福岡市博多区", "092", "812", Triple("福岡", "フクオカ", "Fukuoka")),
    City("北海道", "札幌市中央区", "011", "060", Triple("札幌", "サッポロ", "Sapporo")),
    City("宮城県", "仙台市青葉区", "022", "980", Triple("仙台", "センダイ", "Sendai")),
    City("広島県", "広島市中区", "082", "730", Triple("広島", "ヒロシマ", "Hiroshima")),
    City("神奈川県", "横浜市西区", "045", "220", Triple("横浜", "ヨコハマ", "Yokohama")),
    City("京都府", "京都市下京区", "075", "600", Triple("京都", "キョウト", "Kyoto")),
    City("兵庫県", "神戸市中央区", "078", "650", Triple("神戸", "コウベ", "Kobe")),
    City("埼玉県", "さいたま市大宮区", "048", "330", Triple("埼玉", "サイタマ", "Saitama")),
    City("千葉県", "千葉市中央区", "043", "260", Triple("千葉", "チバ", "Chiba")),
    City("静岡県", "静岡市葵区", "054", "420", Triple("静岡", "シズオカ", "Shizuoka")),
    City("石川県", "金沢市", "076", "920", Triple("金沢", "カナザワ", "Kanazawa")),
    City("新潟県", "新潟市中央区", "025", "950", Triple("新潟", "ニイガタ", "Niigata")),
    City("香川県", "高松市", "087", "760", Triple("高松", "タカマツ", "Takamatsu")),
    City("熊本県", "熊本市中央区", "096", "860", Triple("熊本", "クマモト", "Kumamoto")),
    City("岡山県", "岡山市北区", "086", "700", Triple("岡山", "オカヤマ", "Okayama")),
    City("東京都", "港区", "03", "105", Triple("港", "ミナト", "Minato")),
    City("東京都", "品川区", "03", "141", Triple("品川", "シナガワ", "Shinagawa")),
    City("東京都", "新宿区", "03", "160", Triple("新宿", "シンジュク", "Shinjuku")),
    City("神奈川県", "川崎市川崎区", "044", "210", Triple("川崎", "カワサキ", "Kawasaki")),
)
HEAD_OFFICE_CITY = CITIES[0]
BRANCH_CITIES = CITIES[1:18]
"""Cities that get a branch office (支社) when the tenant is large enough."""

# --- the demo company ------------------------------------------------------------------

COMPANY_NAME = "コーポ電機株式会社"
EMAIL_DOMAIN = "corpo-denki.example"  # .example is reserved (RFC 2606): no real mail can go there
INTRANET = "https://intra.corpo-denki.example"

# --- external companies ----------------------------------------------------------------

COMPANY_STEMS: tuple[Triple, ...] = (
    Triple("中央", "チュウオウ", "chuo"), Triple("北斗", "ホクト", "hokuto"), Triple("若葉", "ワカバ", "wakaba"),
    Triple("青葉", "アオバ", "aoba"), Triple("桜", "サクラ", "sakura"), Triple("光", "ヒカリ", "hikari"),
    Triple("昭和", "ショウワ", "showa"), Triple("平和", "ヘイワ", "heiwa"), Triple("協和", "キョウワ", "kyowa"),
    Triple("共栄", "キョウエイ", "kyoei"), Triple("新星", "シンセイ", "shinsei"), Triple("東邦", "トウホウ", "toho"),
    Triple("大洋", "タイヨウ", "taiyo"), Triple("明星", "ミョウジョウ", "myojo"), Triple("白鳥", "シラトリ", "shiratori"),
    Triple("青空", "アオゾラ", "aozora"), Triple("三つ星", "ミツボシ", "mitsuboshi"), Triple("七海", "ナナミ", "nanami"),
    Triple("暁", "アカツキ", "akatsuki"), Triple("翼", "ツバサ", "tsubasa"), Triple("銀河", "ギンガ", "ginga"),
    Triple("はやぶさ", "ハヤブサ", "hayabusa"), Triple("みらい", "ミライ", "mirai"), Triple("あさひ", "アサヒ", "asahi"),
)
COMPANY_CATEGORIES: tuple[Triple, ...] = (
    Triple("建設", "ケンセツ", "kensetsu"), Triple("商事", "ショウジ", "shoji"), Triple("電機", "デンキ", "denki"),
    Triple("工業", "コウギョウ", "kogyo"), Triple("製作所", "セイサクショ", "seisakusho"), Triple("物産", "ブッサン", "bussan"),
    Triple("運輸", "ウンユ", "unyu"), Triple("食品", "ショクヒン", "shokuhin"), Triple("印刷", "インサツ", "insatsu"),
    Triple("情報システム", "ジョウホウシステム", "joho-system"), Triple("ソフトウェア", "ソフトウェア", "software"),
    Triple("通信", "ツウシン", "tsushin"), Triple("化学", "カガク", "kagaku"), Triple("精密", "セイミツ", "seimitsu"),
    Triple("不動産", "フドウサン", "fudosan"), Triple("設備", "セツビ", "setsubi"), Triple("産業", "サンギョウ", "sangyo"),
    Triple("電子", "デンシ", "denshi"), Triple("技研", "ギケン", "giken"), Triple("物流", "ブツリュウ", "butsuryu"),
    Triple("商会", "ショウカイ", "shokai"), Triple("コンサルティング", "コンサルティング", "consulting"),
)
LEGAL_FORMS: tuple[tuple[str, bool, str], ...] = (
    # (form, written before the name?, English suffix)
    ("株式会社", True, "Co., Ltd."), ("株式会社", False, "Co., Ltd."), ("有限会社", True, "Ltd."),
    ("合同会社", False, "LLC"),
)
GOVERNMENT: tuple[Triple, ...] = (
    Triple("経済産業省", "ケイザイサンギョウショウ", "meti"), Triple("国土交通省", "コクドコウツウショウ", "mlit"),
    Triple("総務省", "ソウムショウ", "soumu"), Triple("厚生労働省", "コウセイロウドウショウ", "mhlw"),
    Triple("特許庁", "トッキョチョウ", "jpo"), Triple("中小企業庁", "チュウショウキギョウチョウ", "chusho"),
    Triple("東京都庁", "トウキョウトチョウ", "metro-tokyo"), Triple("千代田区役所", "チヨダクヤクショ", "city-chiyoda"),
    Triple("港区役所", "ミナトクヤクショ", "city-minato"), Triple("大阪府庁", "オオサカフチョウ", "pref-osaka"),
    Triple("横浜市役所", "ヨコハマシヤクショ", "city-yokohama"), Triple("麹町税務署", "コウジマチゼイムショ", "kojimachi-tax"),
)
GOVERNMENT_DIVISIONS: tuple[Triple, ...] = (
    Triple("総務課", "ソウムカ", "General Affairs"), Triple("企画課", "キカクカ", "Planning"),
    Triple("調達課", "チョウタツカ", "Procurement"), Triple("契約課", "ケイヤクカ", "Contracts"),
    Triple("産業振興課", "サンギョウシンコウカ", "Industry Promotion"),
)
CONTACT_DIVISIONS: tuple[Triple, ...] = (
    Triple("営業部", "エイギョウブ", "Sales"), Triple("第一営業部", "ダイイチエイギョウブ", "Sales 1"),
    Triple("営業企画部", "エイギョウキカクブ", "Sales Planning"), Triple("購買部", "コウバイブ", "Purchasing"),
    Triple("資材部", "シザイブ", "Materials"), Triple("総務部", "ソウムブ", "General Affairs"),
    Triple("人事部", "ジンジブ", "Human Resources"), Triple("経理部", "ケイリブ", "Accounting"),
    Triple("技術部", "ギジュツブ", "Engineering"), Triple("開発部", "カイハツブ", "Development"),
    Triple("情報システム部", "ジョウホウシステムブ", "IT"), Triple("品質管理部", "ヒンシツカンリブ", "Quality Control"),
    Triple("広報部", "コウホウブ", "Public Relations"), Triple("経営企画部", "ケイエイキカクブ", "Corporate Planning"),
    Triple("海外事業部", "カイガイジギョウブ", "International Business"),
)
CONTACT_POSITIONS: tuple[tuple[str, float], ...] = (
    ("代表取締役", 0.02), ("取締役", 0.03), ("部長", 0.12), ("次長", 0.05), ("課長", 0.18), ("係長", 0.1),
    ("主任", 0.15), ("担当", 0.1), ("マネージャー", 0.05), ("", 0.2),
)

# --- users -----------------------------------------------------------------------------

class Rank(NamedTuple):
    position: str
    alphabet: str
    level: int
    score: int  # sortScore base: seniors list first when sorted by sortScore descending


PRESIDENT = Rank("代表取締役社長", "President and CEO", 10, 990_000_000)
DIRECTOR = Rank("取締役", "Director", 9, 950_000_000)
DIVISION_HEAD = Rank("本部長", "Executive General Manager", 9, 900_000_000)
BRANCH_HEAD = Rank("支社長", "Branch Manager", 8, 880_000_000)
DEPT_HEAD = Rank("部長", "General Manager", 8, 800_000_000)
SECTION_HEAD = Rank("課長", "Manager", 7, 600_000_000)
CHIEF = Rank("係長", "Assistant Manager", 6, 500_000_000)
LEAD = Rank("主任", "Supervisor", 5, 400_000_000)
STAFF = Rank("", "", 5, 100_000_000)
STAFF_RANKS: tuple[tuple[Rank, float], ...] = ((CHIEF, 0.1), (LEAD, 0.2), (STAFF, 0.7))

POSTS: dict[str, tuple[str, ...]] = {
    # division kind -> post (the duty a person is known for at the front desk)
    "sales": ("法人営業担当", "営業事務", "代理店担当", "官公庁担当", "営業推進"),
    "tech": ("ソフトウェア開発", "回路設計", "品質保証", "生産技術", "研究開発"),
    "admin": ("総務担当", "人事担当", "経理担当", "法務担当", "社内システム担当"),
    "factory": ("生産管理", "調達担当", "物流担当", "製造ライン"),
    "planning": ("経営企画", "広報担当", "新規事業", "マーケティング"),
    "reception": ("受付", "来客対応", "電話交換"),
}
CHAT_CLIENTS: tuple[tuple[int, str], ...] = ((1, "Slack"), (2, "Microsoft Teams"), (3, "LINE WORKS"))

# --- profiles --------------------------------------------------------------------------

ONE_WORDS = (
    "よろしくお願いします！", "お客様第一で頑張ります。", "最近ランニングを始めました。", "何でも気軽に相談してください。",
    "週末はキャンプに行っています。", "コーヒーが好きです。", "新しい技術を試すのが好きです。", "電話よりチャット派です。",
    "現在育休から復帰しました。", "社内の勉強会を主催しています。", "",
)
SKILLS: dict[str, tuple[str, ...]] = {
    "sales": ("法人営業", "提案書作成", "プレゼンテーション", "価格交渉", "顧客管理", "英語", "展示会運営", "代理店開拓"),
    "tech": ("Python", "C++", "組込み開発", "回路設計", "テスト設計", "要件定義", "データ分析", "機械学習", "英語"),
    "admin": ("労務管理", "給与計算", "決算業務", "契約書レビュー", "社内規程整備", "ネットワーク管理", "ヘルプデスク"),
    "factory": ("生産計画", "品質管理", "在庫管理", "QC七つ道具", "安全衛生", "フォークリフト"),
    "planning": ("事業計画", "市場調査", "広報", "SNS運用", "データ分析", "英語", "中国語"),
    "reception": ("来客対応", "電話応対", "秘書業務", "英語", "会議室管理"),
}
TOOLS = ("Excel", "PowerPoint", "Salesforce", "Slack", "Teams", "Python", "SQL", "AutoCAD", "SAP", "kintone",
         "Tableau", "Git", "Jira", "Figma", "Visual Studio Code")
QUALIFICATIONS = ("TOEIC 800点", "基本情報技術者", "応用情報技術者", "日商簿記2級", "衛生管理者", "宅地建物取引士",
                  "普通自動車第一種運転免許", "中小企業診断士", "秘書検定2級", "電気工事士", "危険物取扱者乙種4類",
                  "情報処理安全確保支援士", "社会保険労務士")
ACHIEVEMENTS = ("社長賞受賞", "年間営業目標達成", "業務改善提案で表彰", "新製品の立ち上げ", "特許出願", "社内ハッカソン優勝",
                "大口案件の受注", "ISO認証取得を推進", "新人研修講師を担当")
HOBBIES = ("ランニング", "料理", "釣り", "読書", "映画鑑賞", "キャンプ", "ゴルフ", "将棋", "写真", "旅行", "ヨガ", "登山")
CUSTOM_COLUMNS: tuple[str, ...] = ("趣味", "出身地", "座席")
PREFECTURES = ("北海道", "青森県", "宮城県", "東京都", "神奈川県", "埼玉県", "千葉県", "新潟県", "静岡県", "愛知県",
               "京都府", "大阪府", "兵庫県", "広島県", "香川県", "福岡県", "熊本県", "沖縄県")

# --- calls -----------------------------------------------------------------------------

CALL_NOTES = ("折り返し希望", "見積の件", "請求書の件", "打ち合わせ日程の調整", "納期の確認", "不在のため伝言",
              "来客の取次ぎ", "資料送付の依頼", "担当者変更のご連絡", "至急連絡がほしいとのこと")
