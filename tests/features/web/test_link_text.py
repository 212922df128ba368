"""`/group web`'s answers in each case, and the note when this bot serves no web pages."""

from __future__ import annotations

from bot.features.group.cog import web_text
from bot.features.web.service import LinkAction, LinkAnswer
from bot.shared.lang import Lang

URL = "https://paperclub.example.org/s/abc/"


def test_each_action_says_what_happened() -> None:
    shown = web_text(LinkAction.SHOW, LinkAnswer(URL, False), Lang.EN, served=True)
    assert f"<{URL}>" in shown and "rotate it if it leaks" in shown
    rotated = web_text(LinkAction.ROTATE, LinkAnswer(URL, True), Lang.EN, served=True)
    assert rotated.startswith("New web page link: the old one stopped working.")
    assert web_text(LinkAction.OFF, LinkAnswer(None, True), Lang.EN, served=True) == \
        "The web page is off: its link no longer works."
    assert web_text(LinkAction.OFF, LinkAnswer(None, False), Lang.EN, served=True) == \
        "The web page was already off."
    assert "/group web action:rotate" in web_text(LinkAction.SHOW, LinkAnswer(None, False),
                                                  Lang.EN, served=True)


def test_an_unserved_page_says_so_in_each_language() -> None:
    for lang, says in ((Lang.EN, "[web]"), (Lang.ZH_HANS, "网页服务"), (Lang.ZH_HANT, "網頁服務")):
        text = web_text(LinkAction.SHOW, LinkAnswer(URL, False), lang, served=False)
        assert says in text and f"<{URL}>" in text
