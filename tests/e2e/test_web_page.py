"""Each server's web page in a real headless Chromium, served by the running bot: it loads with
no console error and no request leaving the local server, shows the same queue and history as
`/queue show` and `/history`, renders hostile titles and notes as text, reads on a phone
(screenshot at 390×844), switches language, searches without JavaScript, and a rotated or
turned-off link answers 404."""

from __future__ import annotations

import functools
import os
import re
import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright

from bot.client.bot import PaperclubBot
from bot.features.papers.query import parse_query
from bot.settings import Settings
from discord_standin import Guild, StandIn
from domain.paper import Paper
from domain.text import to_traditional
from tests.clocks import FakeClock
from tests.e2e.group_steps import answer, suggest
from tests.e2e.web_server import reading_group, web_settings
from tests.group import People

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)")
LINK = re.compile(r"<(https?://[^>]+/s/[-\w]+/)>")
HOSTILE_NOTE = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script> & more'
HOSTILE = Paper(title_en='<script>window.pwned=3</script> Grokking "Quoted" <b>Titles</b>',
                title_zh="<i>敌意</i>标题的顿悟", authors=("Mallory <svg onload=x>",),
                summary_zh="摘要<iframe src=//evil.example></iframe>")
DAY = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)
TITLE_LINE = re.compile(r"^\*\*\d+\. (.+?)\*\*", re.MULTILINE)


def _unmarkdown(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


@pytest.fixture
def settings(tmp_path: Path, people: People) -> Settings:
    """The e2e settings with the web server on (a free local port)."""
    return web_settings(tmp_path, people)


@pytest.fixture
def guild(people: People) -> Guild:
    """The reading group; carol presents under her server nickname."""
    return reading_group(people)


@pytest.fixture(autouse=True)
def same_clock(standin: StandIn, clock: FakeClock) -> None:
    standin.set_clock(clock)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        await launched.close()


class Watched:
    """A phone-sized page that records every request and every console error."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.requests: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))


async def _phone(browser: Browser, *, javascript: bool = True) -> Watched:
    context = await browser.new_context(viewport={"width": 390, "height": 844},
                                        device_scale_factor=1, is_mobile=True,
                                        java_script_enabled=javascript)
    return Watched(await context.new_page())


async def _texts(page: Page, selector: str) -> list[str]:
    return [text.strip() for text in await page.locator(selector).all_inner_texts()]


async def _group_with_history(bot: PaperclubBot, standin: StandIn, guild: Guild,
                              people: People, papers: list[Paper]) -> str:
    """A queue (one +1'd, one hostile), a scheduled session, two discussions; the page link."""
    await bot.services.catalog.add_papers([HOSTILE])
    await suggest(standin, guild, people.alice, papers[0].id, note=HOSTILE_NOTE)
    await suggest(standin, guild, people.bob, papers[0].id)
    await suggest(standin, guild, people.carol, HOSTILE.id, note="read <u>this</u>")
    await suggest(standin, guild, people.alice, papers[1].id)
    history = bot.services.sessions.history
    await history.record_discussed(guild.id, papers[2].id, DAY, people.carol.id,
                                   HOSTILE_NOTE, 777)
    await history.record_discussed(guild.id, HOSTILE.id, DAY + timedelta(weeks=1), None,
                                   "", None)
    slash = functools.partial(standin.slash, guild=guild)
    scheduled = await slash("session schedule", {"paper": papers[3].id,
                                                 "when": "2026-12-03 18:00",
                                                 "presenter": people.carol.id}, user=people.bob)
    assert "Scheduled session #1" in (await scheduled.followup()).content
    link = await (await standin.slash("group web", {}, guild=guild, user=people.alice)).reply()
    (url,) = LINK.findall(link.content)
    return str(url)


async def test_the_page_in_chromium_matches_the_commands_and_stays_inert(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], browser: Browser, tmp_path: Path) -> None:
    url = await _group_with_history(bot, standin, guild, people, bundled_papers)
    origin = url.split("/s/", 1)[0] + "/"
    queue = await answer(standin, "queue show", {}, guild=guild, user=people.alice)
    history = await answer(standin, "history", {}, guild=guild, user=people.alice)
    queue_body, history_body = queue.embeds[0]["description"], history.embeds[0]["description"]

    watched = await _phone(browser)
    page = watched.page
    response = await page.goto(url)
    assert response is not None and response.status == 200
    headers = response.headers
    assert "default-src 'none'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"
    assert "no-cache" in headers["cache-control"] and headers["etag"]

    # The same papers in the same order as the commands, with the same support counts.
    shown_queue = await _texts(page, "#queue > li > .paper-title")
    assert shown_queue == [_unmarkdown(t) for t in TITLE_LINE.findall(queue_body)]
    assert len(shown_queue) == 3 and HOSTILE.title_en in shown_queue
    supports = await _texts(page, "#queue > li > .meta")
    assert supports == re.findall(r"— (\d+ in favour)", queue_body)
    shown_past = await _texts(page, "#past > li > .paper-title")
    assert shown_past == [_unmarkdown(t) for t in TITLE_LINE.findall(history_body)]
    assert shown_past == [HOSTILE.title_en, bundled_papers[2].title_en]
    presenters = await _texts(page, "#past > li > .presenter")
    assert presenters == ["Presenter: Carol Reader"]  # /history names no one for the other
    assert history_body.count("presented by") == 1 and f"<@{people.carol.id}>" in history_body
    assert str(people.carol.id) not in await page.content()  # names, never member ids
    assert await _texts(page, "#upcoming .presenter") == ["Presenter: Carol Reader"]
    assert await _texts(page, "#upcoming .meta:not(.presenter)") == ["2026-12-03 18:00"]
    threads = await page.locator("#past a", has_text="Discussion thread").get_attribute("href")
    assert threads == f"https://discord.com/channels/{guild.id}/777"

    # Hostile text is text: nothing injected, nothing ran, nothing fetched.
    assert HOSTILE_NOTE in await _texts(page, "#queue blockquote")
    assert await page.locator("script, img, iframe, svg, b, i, u").count() == 0
    assert await page.evaluate("window.pwned") is None
    assert all(request.startswith(origin) for request in watched.requests), watched.requests
    assert watched.errors == []

    # A phone reads it without sideways scrolling.
    assert await page.evaluate("document.scrollingElement.scrollWidth") <= 390
    shots = Path(os.environ.get("PAPERCLUB_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(shots / "web-phone.png"), full_page=False)
    assert (shots / "web-phone.png").stat().st_size > 5_000

    # Traditional Chinese through the switch, the catalog's Chinese converted by OpenCC.
    await page.click("nav.langs a[hreflang=zh-TW]")
    assert await page.get_attribute("html", "lang") == "zh-TW"
    assert await page.title() == "Reading Group"  # the server's name says "reading group"
    assert "即將舉行的讀書會" in await page.content()
    zh = to_traditional(bundled_papers[2].title_zh)
    assert zh in await _texts(page, "#past > li > .paper-title")
    assert watched.errors == []


async def test_search_needs_no_javascript_and_old_links_answer_404(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], browser: Browser) -> None:
    url = await _group_with_history(bot, standin, guild, people, bundled_papers)
    watched = await _phone(browser, javascript=False)
    page = watched.page
    await page.goto(url + "?lang=en")
    await page.fill("input[name=q]", "grokking")
    await page.click("form.search button")
    assert "q=grokking" in page.url
    found = await bot.services.search.search(parse_query("grokking"), limit=10,
                                             guild_id=guild.id)
    assert await _texts(page, "#results > li > .paper-title") == [
        h.paper.title_en for h in found.hits]
    assert found.hits and watched.errors == []

    rotated = await answer(standin, "group web", {"action": "rotate"}, guild=guild,
                           user=people.bob)
    (new_url,) = LINK.findall(rotated.content)
    refused = await answer(standin, "group web", {"action": "rotate"}, guild=guild,
                           user=people.alice)
    assert "organis" in refused.content and not LINK.findall(refused.content)
    for gone in (url, url.rsplit("/", 2)[0] + "/not-a-token-at-all-0000/"):
        response = await page.goto(gone)
        assert response is not None and response.status == 404, gone
    response = await page.goto(new_url)
    assert response is not None and response.status == 200
    off = await answer(standin, "group web", {"action": "off"}, guild=guild, user=people.bob)
    assert "off" in off.content
    response = await page.goto(new_url)
    assert response is not None and response.status == 404
    shown = await answer(standin, "group web", {}, guild=guild, user=people.alice)
    assert "is off" in shown.content and not LINK.findall(shown.content)
