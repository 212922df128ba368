"""The page over HTTP on real stores: one server's data under its own link only, 404 for any
other link, caching and security headers, hostile text as text, both languages (Traditional
through OpenCC), and the catalog search `/paper` uses."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, timedelta
from html.parser import HTMLParser
from typing import Any

import pytest

from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService
from bot.features.web.render import STYLE_HASH
from bot.features.web.service import TOKEN_SECONDS, LinkAction, PageData
from bot.features.web.web import PAGE_SECONDS
from domain.digest import Claim
from domain.leases import Lease
from domain.paper import Paper
from domain.text import to_traditional
from storage import backend as stores
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.features.web.conftest import BASE, GUILD, OTHER, Site

HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>{{7*7}}'
ALLOWED_TAGS = {"html", "head", "meta", "link", "title", "style", "body", "header", "nav",
                "a", "strong", "h1", "h2", "small", "form", "input", "button", "main",
                "section", "ol", "li", "p", "dl", "dt", "dd", "details", "summary",
                "blockquote", "footer"}


class Tags(HTMLParser):
    """Every start tag of a page, and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        assert not any(name.startswith("on") for name, _ in attrs), (tag, attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parsed(body: str) -> Tags:
    tags = Tags()
    tags.feed(body)
    return tags


def _path(url: str | None) -> str:
    assert url is not None and url.startswith(BASE + "/s/")
    return url.removeprefix(BASE)


async def test_each_link_shows_its_own_server_and_nothing_else(
        site: Site, bundled_papers: list[Paper]) -> None:
    mine, theirs = bundled_papers[0], bundled_papers[1]
    await site.queue.suggest(GUILD, 1, mine.id, "")
    await site.queue.suggest(OTHER, 2, theirs.id, "")
    url, other_url = await site.pages.link(GUILD), await site.pages.link(OTHER)
    assert url != other_url and await site.pages.link(GUILD) == url
    page = await (await site.http.get(_path(url))).text()
    assert mine.title_en in page and theirs.title_en not in page
    other = await (await site.http.get(_path(other_url))).text()
    assert other.index(to_traditional(theirs.title_zh)) < other.index(theirs.title_en)
    assert to_traditional(theirs.title_zh) in other and mine.title_en not in other
    for gone in ("/s/not-a-live-token-0123456789/", "/s/%3Cscript%3E/", "/s/x/", "/s/",
                 _path(url).rstrip("/")):
        response = await site.http.get(gone)
        assert response.status == 404, gone
        assert "<script>" not in await response.text()


async def test_rotated_and_turned_off_links_answer_404(site: Site) -> None:
    old = _path(await site.pages.link(GUILD))
    new = _path((await site.pages.act(GUILD, LinkAction.ROTATE)).url)
    assert (await site.http.get(old)).status == 404
    assert (await site.http.get(new)).status == 200
    done = await site.pages.act(GUILD, LinkAction.OFF)
    assert done.changed and done.url is None
    assert (await site.http.get(new)).status == 404
    assert (await site.pages.act(GUILD, LinkAction.SHOW)).url is None  # stays off
    assert not (await site.pages.act(GUILD, LinkAction.OFF)).changed


async def test_a_rotation_in_another_process_is_seen_within_the_token_window(
        site: Site) -> None:
    path = _path(await site.pages.link(GUILD))
    assert (await site.http.get(path)).status == 200
    await site.elsewhere.rotate(GUILD)
    site.ticks[0] += TOKEN_SECONDS
    assert (await site.http.get(path)).status == 404


async def test_headers_cache_and_revalidate(site: Site, bundled_papers: list[Paper]) -> None:
    path = _path(await site.pages.link(GUILD))
    response = await site.http.get(path)
    headers = response.headers
    assert response.content_type == "text/html" and response.charset == "utf-8"
    assert headers["Cache-Control"] == "private, no-cache"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"
    policy = headers["Content-Security-Policy"]
    assert policy.startswith("default-src 'none'; ") and f"style-src '{STYLE_HASH}'" in policy
    assert "script-src" not in policy and "img-src 'self' data:" in policy
    etag, modified = headers["ETag"], headers["Last-Modified"]
    for condition in ({"If-None-Match": etag}, {"If-Modified-Since": modified}):
        again = await site.http.get(path, headers=condition)
        assert again.status == 304 and again.headers["ETag"] == etag, condition
    await site.queue.suggest(GUILD, 1, bundled_papers[0].id, "")
    site.clock.advance(minutes=5)
    changed = await site.http.get(path, headers={"If-None-Match": etag})
    assert changed.status == 200 and changed.headers["ETag"] != etag
    assert changed.headers["Last-Modified"] != modified
    stale = await site.http.get(path, headers={"If-Modified-Since": modified})
    assert stale.status == 200  # the new body was first served after that date


async def test_hostile_titles_notes_and_queries_are_text(
        site: Site, store: SqlitePaperStore) -> None:
    hostile = Paper(title_en=f"Grokking {HOSTILE}", title_zh=f"顿悟{HOSTILE}",
                    authors=(HOSTILE,), summary_zh=HOSTILE, summary_en=HOSTILE)
    await store.add_papers([hostile])
    await site.queue.suggest(GUILD, 1, hostile.id, HOSTILE)
    path = _path(await site.pages.link(GUILD))
    for query in ("", "?q=" + HOSTILE.replace("&", "%26").replace("#", "%23"), "?lang=zh-CN"):
        body = await (await site.http.get(path + query)).text()
        tags = _parsed(body)
        assert set(tags.tags) <= ALLOWED_TAGS, set(tags.tags) - ALLOWED_TAGS
        assert "<script" not in body and "<img" not in body
        assert any(HOSTILE in text for text in tags.text), query


async def test_languages_switch_and_traditional_is_converted(
        site: Site, bundled_papers: list[Paper]) -> None:
    paper = bundled_papers[2]
    await site.queue.suggest(GUILD, 1, paper.id, "")
    path = _path(await site.pages.link(GUILD))
    english = await (await site.http.get(path)).text()
    assert '<html lang="en">' in english and "Reading list" in english
    assert 'href="?lang=zh-TW"' in english and 'href="?lang=zh-CN"' in english
    simplified = await (await site.http.get(path + "?lang=zh-CN")).text()
    assert "待读列表" in simplified and paper.title_zh in simplified
    response = await site.http.get(path + "?lang=zh-TW")
    assert response.headers["Content-Language"] == "zh-TW"
    traditional = await response.text()
    assert "待讀列表" in traditional and to_traditional(paper.title_zh) in traditional
    assert to_traditional(paper.summary_zh) in traditional
    for wanted in ("fr", "../..", "..%2F..%2Fetc%2Fpasswd", "zh-CN%00"):
        response = await site.http.get(path + "?lang=" + wanted)
        unknown = await response.text()
        assert response.status == 200 and response.headers["Content-Language"] == "en"
        assert '<html lang="en">' in unknown  # ignored: the server's language
        assert "../" not in unknown and "passwd" not in unknown


async def test_search_is_the_paper_search(site: Site, search: SearchService,
                                          bundled_papers: list[Paper]) -> None:
    path = _path(await site.pages.link(GUILD))
    for query in ("grokking", "岭回归", "grokkng", "diffusion model"):
        outcome = await search.search(parse_query(query), limit=10, guild_id=GUILD)
        body = await (await site.http.get(path, params={"q": query})).text()
        assert outcome.hits, query
        positions = [body.index(h.paper.title_en) for h in outcome.hits]
        assert positions == sorted(positions), query
    corrected = await (await site.http.get(path, params={"q": "grokkng"})).text()
    assert "Showing results for “grokking”" in corrected
    named = await (await site.http.get(path, params={"q": bundled_papers[4].id})).text()
    assert bundled_papers[4].title_en in named
    nothing = await (await site.http.get(path, params={"q": "zzzqqxx"})).text()
    assert "No paper matches “zzzqqxx”." in nothing
    refused = await (await site.http.get(path, params={"q": "year:abc"})).text()
    assert "year" in refused


async def test_sessions_history_and_paper_of_the_day(
        site: Site, db: Database, bundled_papers: list[Paper]) -> None:
    papers = bundled_papers
    when = datetime(2026, 11, 2, 18, 0, tzinfo=site.clock().tzinfo)
    await stores.HISTORY.open(db).record_discussed(  # what /session done writes
        GUILD, papers[5].id, when, 42, "We liked section 3.", 777)
    lease = Lease("test", when + timedelta(hours=1))
    for n in range(3):
        day = date(2026, 11, 20 + n)
        await site.digests.claim(GUILD, day, Claim(papers[6 + n].id, 1, n, 30, f"n{n}", 5,
                                                   False, lease))
        if n < 2:  # the third is still being posted: not shown
            await site.digests.mark_posted(GUILD, day, 1000 + n)
    await site.digests.mark_thread(GUILD, date(2026, 11, 21), 888)
    body = await (await site.http.get(_path(await site.pages.link(GUILD)))).text()
    past, daily = body.index('id="past"'), body.index('id="daily"')
    assert past < body.index(papers[5].title_en) < daily
    assert "Presenter: Ada L." in body and "We liked section 3." in body
    assert f"https://discord.com/channels/{GUILD}/777" in body
    assert "2026-11-02" in body and "2026-11-21" in body and "2026-11-20" in body
    assert body.index(papers[7].title_en) < body.index(papers[6].title_en)  # newest first
    assert papers[8].title_en not in body
    assert f"https://discord.com/channels/{GUILD}/888" in body


async def test_concurrent_loads_share_one_build_and_changes_show_after_the_window(
        site: Site, bundled_papers: list[Paper], monkeypatch: pytest.MonkeyPatch) -> None:
    built = []
    page = site.pages.page

    async def counted(guild_id: int, **options: Any) -> PageData:
        built.append(guild_id)
        return await page(guild_id, **options)

    monkeypatch.setattr(site.pages, "page", counted)
    path = _path(await site.pages.link(GUILD))
    answers = await asyncio.gather(*(site.http.get(path) for _ in range(20)))
    assert [a.status for a in answers] == [200] * 20 and built == [GUILD]
    assert len({a.headers["ETag"] for a in answers}) == 1
    await site.queue.suggest(GUILD, 1, bundled_papers[0].id, "")
    site.clock.advance(seconds=PAGE_SECONDS)
    fresh = await (await site.http.get(path)).text()
    assert bundled_papers[0].title_en in fresh and built == [GUILD, GUILD]
    await site.http.get(path + "?lang=zh-CN")
    assert len(built) == 3  # each language is its own page


async def test_display_names_are_fetched_once_across_pages(
        site: Site, db: Database, bundled_papers: list[Paper]) -> None:
    history = stores.HISTORY.open(db)
    when = site.clock()
    for n, presenter in enumerate((42, 1000, 1001)):  # cached, fetched, left the server
        await history.record_discussed(GUILD, bundled_papers[n].id, when, presenter, "", None)
    path = _path(await site.pages.link(GUILD))
    first = await (await site.http.get(path)).text()
    site.clock.advance(seconds=PAGE_SECONDS)
    again = await (await site.http.get(path)).text()
    assert first == again
    assert "Presenter: Ada L." in first and "Presenter: Fetched 1000" in first
    assert "Presenter: a former member" in first
    assert sorted(site.client.guilds[GUILD].fetched) == [1000, 1001]  # not again later


async def test_the_title_names_the_group_once_and_a_query_without_words_says_so(
        site: Site) -> None:
    path = _path(await site.pages.link(GUILD))
    site.client.guilds[GUILD].name = "Reading Group"
    body = await (await site.http.get(path, params={"q": "🤖 *"})).text()
    assert "<title>Reading Group</title>" in body
    assert "“🤖 *” has no words to search for." in body and "No paper matches" not in body
    other = _path(await site.pages.link(OTHER))
    titled = await (await site.http.get(other)).text()
    assert "<title>其他读书会</title>" in titled  # the name as it is: not "… 讀書會" again
