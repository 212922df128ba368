"""The index's text rules, shared by storage and the pure matching: which text each full-text
column holds (`index_columns`) and the tokens FTS5's `unicode61 remove_diacritics 2` makes of it
(`index_tokens`), emulated from tables taken from SQLite itself (at the end of this module);
`tests/storage/test_topic_match_equivalence.py` checks them against the linked SQLite for every
code point.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from domain.boilerplate import without_boilerplate
from domain.paper import Paper
from domain.text import index_form

AUTHORS_COLUMN = 2
"""Position of the authors column in `index_columns` (`storage.papers.fts.COLUMNS`)."""


def index_tokens(text: str) -> list[str]:
    """The tokens FTS5's `unicode61 remove_diacritics 2` makes of `text`, in order.

    Used for an indexed column (after `index_form`) and for a quoted query string alike: runs of
    token characters, each character case-folded and stripped of diacritics as SQLite does it
    (`É` → `e`, but `ß` stays `ß` and Greek keeps its accents); a combining accent inside a word
    is dropped without splitting it.
    """
    folded = text.translate(_FOLD)
    if folded.isascii() or max(folded) < _ASTRAL:
        return _BMP_TOKEN_RUN.findall(folded)
    return _TOKEN_RUN.findall(folded)


def index_columns(paper: Paper) -> tuple[str, ...]:
    """The text of each full-text column (title_en, title_zh, authors, affiliations, summary,
    venue, summary_en): what storage indexes and what topic matching reads. The venue column
    holds the venue facts and the comments and journal reference without their boilerplate."""
    venue = paper.venue
    venue_text = " ".join(
        str(part)
        for part in (
            venue.conference,
            venue.year,
            venue.track.value,
            venue.workshop,
            *venue.honours,
            without_boilerplate(paper.comments),
            without_boilerplate(paper.journal_ref),
        )
        if part
    )
    affiliations = " ; ".join(f"{a.en} {a.zh}".strip() for a in paper.affiliations)
    return (
        index_form(paper.title_en),
        index_form(paper.title_zh),
        index_form(" ; ".join(paper.authors)),
        index_form(affiliations),
        index_form(paper.summary_zh),
        index_form(venue_text),
        index_form(paper.summary_en),
    )


# --- FTS5 unicode61 tables -------------------------------------------------------------------
# Taken from SQLite 3.40 by tokenising "a<c>b" for every code point c, once with
# remove_diacritics 2 and once with 0 (the generator is in the equivalence test):
# - _SEPARATORS: code points that end a token (hex ranges);
# - _CASE_FOLDS: `start[-end][/step]:delta`, code point -> code point + delta (case folding);
# - _DIACRITICS: pairs `xy`: after case folding, character x becomes y;
# - _DROPPED: combining accents that stay inside a token but vanish from it.

_SEPARATORS = (
    "0-2f 3a-40 5b-60 7b-a9 ab-b1 b4 b6-b8 bb bf d7 f7 2c2-2c5 2d2-2df 2e5-2eb 2ed 2ef-2ff 305 "
    "30d-30e 310 312-31a 31c-322 329-32c 32f 332-36f 375 37e 384-385 387 3f6 482-489 55a-55f "
    "589-58a 58f 591-5c7 5f3-5f4 600-604 606-61b 61e-61f 64b-65f 66a-66d 670 6d4 6d6-6e4 6e7-6ed "
    "6fd-6fe 700-70d 70f 711 730-74a 7a6-7b0 7eb-7f3 7f6-7f9 816-819 81b-823 825-827 829-82d "
    "830-83e 859-85b 85e 8e4-8fe 900-903 93a-93c 93e-94f 951-957 962-965 970 981-983 9bc 9be-9c4 "
    "9c7-9c8 9cb-9cd 9d7 9e2-9e3 9f2-9f3 9fa-9fb a01-a03 a3c a3e-a42 a47-a48 a4b-a4d a51 a70-a71 "
    "a75 a81-a83 abc abe-ac5 ac7-ac9 acb-acd ae2-ae3 af0-af1 b01-b03 b3c b3e-b44 b47-b48 b4b-b4d "
    "b56-b57 b62-b63 b70 b82 bbe-bc2 bc6-bc8 bca-bcd bd7 bf3-bfa c01-c03 c3e-c44 c46-c48 c4a-c4d "
    "c55-c56 c62-c63 c7f c82-c83 cbc cbe-cc4 cc6-cc8 cca-ccd cd5-cd6 ce2-ce3 d02-d03 d3e-d44 "
    "d46-d48 d4a-d4d d57 d62-d63 d79 d82-d83 dca dcf-dd4 dd6 dd8-ddf df2-df4 e31 e34-e3a e3f "
    "e47-e4f e5a-e5b eb1 eb4-eb9 ebb-ebc ec8-ecd f01-f1f f34-f3f f71-f87 f8d-f97 f99-fbc fbe-fcc "
    "fce-fda 102b-103e 104a-104f 1056-1059 105e-1060 1062-1064 1067-106d 1071-1074 1082-108d 108f "
    "109a-109f 10fb 135d-1368 1390-1399 1400 166d-166e 1680 169b-169c 16eb-16ed 1712-1714 "
    "1732-1736 1752-1753 1772-1773 17b4-17d6 17d8-17db 17dd 1800-180e 18a9 1920-192b 1930-193b "
    "1940 1944-1945 19b0-19c0 19c8-19c9 19de-19ff 1a17-1a1b 1a1e-1a1f 1a55-1a5e 1a60-1a7c 1a7f "
    "1aa0-1aa6 1aa8-1aad 1b00-1b04 1b34-1b44 1b5a-1b7c 1b80-1b82 1ba1-1bad 1be6-1bf3 1bfc-1bff "
    "1c24-1c37 1c3b-1c3f 1c7e-1c7f 1cc0-1cc7 1cd0-1ce8 1ced 1cf2-1cf4 1dc0-1de6 1dfc-1dff 1fbd "
    "1fbf-1fc1 1fcd-1fcf 1fdd-1fdf 1fed-1fef 1ffd-1ffe 2000-2064 206a-206f 207a-207e 208a-208e "
    "20a0-20b9 20d0-20f0 2100-2101 2103-2106 2108-2109 2114 2116-2118 211e-2123 2125 2127 2129 "
    "212e 213a-213b 2140-2144 214a-214d 214f 2190-23f3 2400-2426 2440-244a 249c-24e9 2500-26ff "
    "2701-2775 2794-2b4c 2b50-2b59 2ce5-2cea 2cef-2cf1 2cf9-2cfc 2cfe-2cff 2d70 2d7f 2de0-2e2e "
    "2e30-2e3b 2e80-2e99 2e9b-2ef3 2f00-2fd5 2ff0-2ffb 3000-3004 3008-3020 302a-3030 3036-3037 "
    "303d-303f 3099-309c 30a0 30fb 3190-3191 3196-319f 31c0-31e3 3200-321e 322a-3247 3250 "
    "3260-327f 328a-32b0 32c0-32fe 3300-33ff 4dc0-4dff a490-a4c6 a4fe-a4ff a60d-a60f a66f-a67e "
    "a69f a6f0-a6f7 a700-a716 a720-a721 a789-a78a a802 a806 a80b a823-a82b a836-a839 a874-a877 "
    "a880-a881 a8b4-a8c4 a8ce-a8cf a8e0-a8f1 a8f8-a8fa a926-a92f a947-a953 a95f a980-a983 "
    "a9b3-a9cd a9de-a9df aa29-aa36 aa43 aa4c-aa4d aa5c-aa5f aa77-aa79 aa7b aab0 aab2-aab4 "
    "aab7-aab8 aabe-aabf aac1 aade-aadf aaeb-aaf1 aaf5-aaf6 abe3-abed fb1e fb29 fbb2-fbc1 "
    "fd3e-fd3f fdfc-fdfd fe00-fe19 fe20-fe26 fe30-fe52 fe54-fe66 fe68-fe6b feff ff01-ff0f "
    "ff1a-ff20 ff3b-ff40 ff5b-ff65 ffe0-ffe6 ffe8-ffee fff9-ffff 10100-10102 10137-1013f "
    "10179-10189 10190-1019b 101d0-101fd 1039f 103d0 10857 1091f 1093f 10a01-10a03 10a05-10a06 "
    "10a0c-10a0f 10a38-10a3a 10a3f 10a50-10a58 10a7f 10b39-10b3f 11000-11002 11038-1104d "
    "11080-11082 110b0-110c1 11100-11102 11127-11134 11140-11143 11180-11182 111b3-111c0 "
    "111c5-111c8 116ab-116b7 12470-12473 16f51-16f7e 16f8f-16f92 1d000-1d0f5 1d100-1d126 "
    "1d129-1d1dd 1d200-1d245 1d300-1d356 1d6c1 1d6db 1d6fb 1d715 1d735 1d74f 1d76f 1d789 1d7a9 "
    "1d7c3 1eef0-1eef1 1f000-1f02b 1f030-1f093 1f0a0-1f0ae 1f0b1-1f0be 1f0c1-1f0cf 1f0d1-1f0df "
    "1f110-1f12e 1f130-1f16b 1f170-1f19a 1f1e6-1f202 1f210-1f23a 1f240-1f248 1f250-1f251 "
    "1f300-1f320 1f330-1f335 1f337-1f37c 1f380-1f393 1f3a0-1f3c4 1f3c6-1f3ca 1f3e0-1f3f0 "
    "1f400-1f43e 1f440 1f442-1f4f7 1f4f9-1f4fc 1f500-1f53d 1f540-1f543 1f550-1f567 1f5fb-1f640 "
    "1f645-1f64f 1f680-1f6c5 1f700-1f773 e0001 e0020-e007f e0100-e01ef "
)
_CASE_FOLDS = (
    "41-5a:+32 b5:+775 c0-d6:+32 d8-de:+32 100-12e/2:+1 132-136/2:+1 139-147/2:+1 14a-176/2:+1 "
    "178:-121 179-17d/2:+1 17f:-268 181:+210 182-184/2:+1 186:+206 187:+1 189-18a:+205 18b:+1 "
    "18e:+79 18f:+202 190:+203 191:+1 193:+205 194:+207 196:+211 197:+209 198:+1 19c:+211 "
    "19d:+213 19f:+214 1a0-1a4/2:+1 1a6:+218 1a7:+1 1a9:+218 1ac:+1 1ae:+218 1af:+1 1b1-1b2:+217 "
    "1b3-1b5/2:+1 1b7:+219 1b8:+1 1bc:+1 1c4:+2 1c5:+1 1c7:+2 1c8:+1 1ca:+2 1cb-1db/2:+1 "
    "1de-1ee/2:+1 1f1:+2 1f2-1f4/2:+1 1f6:-97 1f7:-56 1f8-21e/2:+1 220:-130 222-232/2:+1 "
    "23a:+10795 23b:+1 23d:-163 23e:+10792 241:+1 243:-195 244:+69 245:+71 246-24e/2:+1 "
    "370-372/2:+1 376:+1 386:+38 388-38a:+37 38c:+64 38e-38f:+63 391-3a1:+32 3a3-3ab:+32 3c2:+1 "
    "3cf:+8 3d0:-30 3d1:-25 3d5:-15 3d6:-22 3d8-3ee/2:+1 3f0:-54 3f1:-48 3f4:-60 3f5:-64 3f7:+1 "
    "3f9:-7 3fa:+1 3fd-3ff:-130 400-40f:+80 410-42f:+32 460-480/2:+1 48a-4be/2:+1 4c0:+15 "
    "4c1-4cd/2:+1 4d0-526/2:+1 531-556:+48 10a0-10c5:+7264 10c7:+7264 10cd:+7264 1e00-1e94/2:+1 "
    "1e9b:-58 1e9e:-7615 1ea0-1efe/2:+1 1f08-1f0f:-8 1f18-1f1d:-8 1f28-1f2f:-8 1f38-1f3f:-8 "
    "1f48-1f4d:-8 1f59-1f5f/2:-8 1f68-1f6f:-8 1f88-1f8f:-8 1f98-1f9f:-8 1fa8-1faf:-8 1fb8-1fb9:-8 "
    "1fba-1fbb:-74 1fbc:-9 1fbe:-7173 1fc8-1fcb:-86 1fcc:-9 1fd8-1fd9:-8 1fda-1fdb:-100 "
    "1fe8-1fe9:-8 1fea-1feb:-112 1fec:-7 1ff8-1ff9:-128 1ffa-1ffb:-126 1ffc:-9 2126:-7517 "
    "212a:-8383 212b:-8262 2132:+28 2160-216f:+16 2183:+1 2c00-2c2e:+48 2c60:+1 2c62:-10743 "
    "2c63:-3814 2c64:-10727 2c67-2c6b/2:+1 2c6d:-10780 2c6e:-10749 2c6f:-10783 2c70:-10782 "
    "2c72:+1 2c75:+1 2c7e-2c7f:-10815 2c80-2ce2/2:+1 2ceb-2ced/2:+1 2cf2:+1 a640-a66c/2:+1 "
    "a680-a696/2:+1 a722-a72e/2:+1 a732-a76e/2:+1 a779-a77b/2:+1 a77d:-35332 a77e-a786/2:+1 "
    "a78b:+1 a78d:-42280 a790-a792/2:+1 a7a0-a7a8/2:+1 a7aa:-42308 ff21-ff3a:+32 10400-10427:+40 "
)
_DROPPED = "300-304 306-30c 30f 311 31b 323-328 32d-32e 330-331"
_DIACRITICS = (
    "àa áa âa ãa äa åa çc èe ée êe ëe ìi íi îi ïi ñn òo óo ôo õo öo ùu úu ûu üu ýy ÿy āa ăa ąa ćc "
    "ĉc ċc čc ďd ēe ĕe ėe ęe ěe ĝg ğg ġg ģg ĥh ĩi īi ĭi įi İi ĵj ķk ĺl ļl ľl ńn ņn ňn ōo ŏo őo ŕr "
    "ŗr řr śs ŝs şs šs ţt ťt ũu ūu ŭu ůu űu ųu ŵw ŷy źz żz žz ơo ưu ǎa ǐi ǒo ǔu ǖu ǘu ǚu ǜu ǟa ǧg "
    "ǩk ǫo ǭo ǰj ǵg ǹn ǻa ȁa ȃa ȅe ȇe ȉi ȋi ȍo ȏo ȑr ȓr ȕu ȗu șs țt ȟh ȧa ȩe ȫo ȭo ȯo ȱo ȳy ḁa ḃb "
    "ḅb ḇb ḉc ḋd ḍd ḏd ḑd ḓd ḕe ḗe ḙe ḛe ḝe ḟf ḡg ḣh ḥh ḧh ḩh ḫh ḭi ḯi ḱk ḳk ḵk ḷl ḹl ḻl ḽl ḿm ṁm "
    "ṃm ṅn ṇn ṉn ṋn ṍo ṏo ṑo ṓo ṕp ṗp ṙr ṛr ṝr ṟr ṡs ṣs ṥs ṧs ṩs ṫt ṭt ṯt ṱt ṳu ṵu ṷu ṹu ṻu ṽv ṿv "
    "ẁw ẃw ẅw ẇw ẉw ẋx ẍx ẏy ẑz ẓz ẕz ẖh ẗt ẘw ẙy ạa ảa ấa ầa ẩa ẫa ậa ắa ằa ẳa ẵa ặa ẹe ẻe ẽe ếe "
    "ềe ểe ễe ệe ỉi ịi ọo ỏo ốo ồo ổo ỗo ộo ớo ờo ởo ỡo ợo ụu ủu ứu ừu ửu ữu ựu ỳy ỵy ỷy ỹy "
)


def _code_points(ranges: str) -> Iterator[int]:
    for item in ranges.split():
        start, _, end = item.partition("-")
        yield from range(int(start, 16), int(end or start, 16) + 1)


def _fold_table() -> list[int | None]:
    """`str.translate` table: case folding, then diacritics, and the dropped accents; a list
    indexed by code point up to the last one that changes (a dict made `translate` raise and
    catch a `KeyError` for every other character, 2.5x slower on Chinese text)."""
    case: dict[int, int] = {}
    for item in _CASE_FOLDS.split():
        span, _, delta = item.partition(":")
        span, _, step = span.partition("/")
        start, _, end = span.partition("-")
        for code in range(int(start, 16), int(end or start, 16) + 1, int(step or 1)):
            case[code] = code + int(delta)
    strip = {ord(pair[0]): ord(pair[1]) for pair in _DIACRITICS.split()}
    table: dict[int, int | None] = {}
    for code in case.keys() | strip.keys():
        folded = case.get(code, code)
        folded = strip.get(folded, folded)
        if folded != code:
            table[code] = folded
    table.update(dict.fromkeys(_code_points(_DROPPED)))
    indexed: list[int | None] = list(range(max(table) + 1))
    for code, folded_to in table.items():
        indexed[code] = folded_to
    return indexed


def _token_run(*, bmp_only: bool = False) -> re.Pattern[str]:
    """Runs of token characters; `bmp_only` for text without astral characters (they all
    separate then): `re` tests that class with one bitmap look-up, where the full class (its
    astral ranges) is a scan of every range for each character, 3-5x slower."""
    spans = []
    for item in _SEPARATORS.split():
        start, _, end = item.partition("-")
        first, last = int(start, 16), int(end or start, 16)
        if bmp_only and first >= ord(_ASTRAL):
            continue
        spans.append(f"\\U{first:08x}-\\U{last:08x}")
    if bmp_only:
        spans.append(f"\\U{ord(_ASTRAL):08x}-\\U0010ffff")
    return re.compile("[^" + "".join(spans) + "]+")


_ASTRAL = "\U00010000"
_FOLD = _fold_table()
_TOKEN_RUN = _token_run()
_BMP_TOKEN_RUN = _token_run(bmp_only=True)
