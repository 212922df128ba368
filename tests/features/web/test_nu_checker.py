"""The web page read by the Nu HTML Checker (vnu.jar, from the npm registry): every variant a
member can open — each language, a search with results, one with none, hostile text, the
sessions, history and paper of the day — is valid HTML with no error and no warning.

Needs Java and `npm ci` in tests/features/web/nu (`.ci/run` does it); skips, saying so, without.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import date, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import pytest

from domain.digest import Claim
from domain.leases import Lease
from domain.paper import Paper
from storage import backend as stores
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.features.web.conftest import GUILD, OTHER, Site

VNU = Path(__file__).parent / "nu" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
HOSTILE = "<b>x</b> & \"q\" 'a' <!-- --> ]]> \u202e @everyone"


def _nu_messages(pages: dict[str, str], folder: Path) -> list[dict[str, object]]:
    """The checker's messages for each page, in one JVM run."""
    files = []
    for name, body in pages.items():
        path = folder / f"{name}.html"
        path.write_text(body, encoding="utf-8")
        files.append(str(path))
    done = subprocess.run(["java", "-jar", str(VNU), "--format", "json", "--stdout",
                           "--also-check-css", *files],
                          capture_output=True, text=True, timeout=120, check=False)
    messages: list[dict[str, object]] = json.loads(done.stdout)["messages"]
    return messages


@pytest.mark.skipif(shutil.which("java") is None or not VNU.exists(),
                    reason="needs Java and `npm ci --prefix tests/features/web/nu`")
async def test_every_page_variant_is_valid_html(
        site: Site, db: Database, store: SqlitePaperStore, bundled_papers: list[Paper],
        tmp_path: Path) -> None:
    papers = bundled_papers
    hostile = Paper(title_en=f"Grokking {HOSTILE}", title_zh=f"顿悟{HOSTILE}",
                    authors=(HOSTILE,), summary_zh=HOSTILE, summary_en=HOSTILE)
    await store.add_papers([hostile])
    await site.queue.suggest(GUILD, 1, hostile.id, HOSTILE)
    await site.queue.suggest(GUILD, 2, papers[1].id, "")
    await site.queue.suggest(OTHER, 3, papers[2].id, "")
    when = datetime(2026, 11, 2, 18, 0, tzinfo=site.clock().tzinfo)
    await stores.HISTORY.open(db).record_discussed(GUILD, papers[5].id, when, 42, HOSTILE, 777)
    lease = Lease("test", when + timedelta(hours=1))
    day = date(2026, 11, 20)
    await site.digests.claim(GUILD, day, Claim(papers[6].id, 1, 0, 30, "n0", 5, False, lease))
    await site.digests.mark_posted(GUILD, day, 1000)
    await site.digests.mark_thread(GUILD, day, 888)

    pages: dict[str, str] = {}
    for guild in (GUILD, OTHER):
        link = await site.pages.link(guild)
        assert link is not None
        path = link.split("://", 1)[1].split("/", 1)[1]
        for name, query in (("plain", ""), ("zh-CN", "?lang=zh-CN"), ("zh-TW", "?lang=zh-TW"),
                            ("found", "?q=grokking"), ("none", "?q=qqqzzzxxx"),
                            ("hostile", "?q=" + quote(HOSTILE))):
            response = await site.http.get("/" + path + query)
            assert response.status == 200
            pages[f"{guild}-{name}"] = await response.text()

    messages = _nu_messages(pages, tmp_path)
    problems = [f"{Path(str(m.get('url', ''))).name}:{m.get('lastLine')}: {m.get('message')}"
                for m in messages if m.get("type") == "error" or m.get("subType") == "warning"]
    assert not problems, "\n".join(problems)
    assert all(m.get("type") == "info" for m in messages), messages
