"""What real clients read of the page besides its body: the search form submits to a real
address (the Nu checker refuses `action=""`), and `/robots.txt` asks every crawler to stay out."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urljoin
from urllib.robotparser import RobotFileParser

from aiohttp.test_utils import TestClient, TestServer

from bot.features.web.web import GatewayDirectory, WebPages, WebServer
from bot.settings import WebSettings
from tests.features.web.conftest import BASE, GUILD, Site


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.actions: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "form":
            self.actions.append(dict(attrs).get("action"))


async def test_the_search_form_submits_to_the_page_itself(site: Site) -> None:
    url = await site.pages.link(GUILD)
    assert url is not None
    forms = _Forms()
    forms.feed(await (await site.http.get(url.removeprefix(BASE))).text())
    assert forms.actions, "the page has a search form"
    for action in forms.actions:
        assert action and action.strip(), "an empty action is not a valid URL"
        assert urljoin(url, action) == url


async def test_robots_txt_disallows_every_path(site: Site) -> None:
    pages = WebPages(GatewayDirectory(site.client), site.pages)  # type: ignore[arg-type]
    app = WebServer(WebSettings(host="127.0.0.1", port=0), [pages.add_routes]).app()
    async with TestClient(TestServer(app)) as http:
        response = await http.get("/robots.txt")
        assert response.status == 200
        assert response.content_type == "text/plain"
        robots = RobotFileParser()
        robots.parse((await response.text()).splitlines())
        page = await site.pages.link(GUILD)
        assert page is not None
        for path in (page, BASE + "/", BASE + "/c/anything.ics"):
            assert not robots.can_fetch("Googlebot", path)
            assert not robots.can_fetch("*", path)
