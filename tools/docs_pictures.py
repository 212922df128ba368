"""Make the documentation's pictures from the real output, with the system's Chromium.

    python -m tools.docs_pictures [--out docs/images]

The real bot runs in local mode (the Discord stand-in, the bundled catalog): a paper card
(`/paper` by its title), the paper of the day (`/digest now`) and the group's web page with a
suggestion, a bookmark and a scheduled session. The two messages are drawn as Discord draws them
(a small HTML rendering of their embeds and buttons, `render_message`), the web page is the page
itself; each is screenshotted by Chromium (Debian's `chromium`, driven by Playwright; no browser
is downloaded; `fonts-wqy-zenhei` and `fonts-noto-color-emoji` draw the Chinese and the emoji).
Run it again whenever the cards or the page change.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import re
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, async_playwright

from bot.cli.local import LocalSession, local_session
from bot.cli.local_terminal import quiet_logging
from bot.settings import load_settings

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
CARD_TITLE = "To Grok Grokking: Provable Grokking in Ridge Regression"
LINES = (
    f"/paper {CARD_TITLE}",
    "/digest set channel:#papers time:09:00 timezone:Europe/Berlin",
    "/digest now",
    f"/suggest paper:{CARD_TITLE} note:Short, and the proofs are readable.",
    "/suggest paper:Stabilizing Native Low-Rank LLM Pretraining",
    f"/bookmark paper:{CARD_TITLE}",
    "/group timezone timezone:Europe/Berlin",
    "/present volunteer",
    f"/session schedule paper:{CARD_TITLE} when:2030-01-15 18:00 link:https://meet.example.org/rg",
)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}
BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"}
_STYLE = """
body { margin: 0; background: #313338; font: 15px/1.375 "gg sans", "Noto Sans", "Helvetica Neue",
       Arial, "WenQuanYi Zen Hei", sans-serif; color: #dbdee1; }
.message { display: flex; gap: 16px; padding: 16px 20px 20px; width: 700px; }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; background: #5865f2;
          color: #fff; font-weight: 700; display: grid; place-items: center; }
.head { margin-bottom: 2px; } .name { color: #f2f3f5; font-weight: 600; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; padding: 1px 4px;
       border-radius: 3px; margin: 0 4px; vertical-align: 2px; }
.time { color: #949ba4; font-size: 12px; }
.embed { background: #2b2d31; border-left: 4px solid var(--colour); border-radius: 4px;
         padding: 8px 16px 16px 12px; margin-top: 4px; max-width: 520px; }
.embed .title { color: #00a8fc; font-weight: 600; margin-top: 8px; display: block;
                text-decoration: none; }
.embed .description, .field .value { font-size: 14px; margin-top: 8px; white-space: normal; }
.fields { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin-top: 8px; }
.field { grid-column: 1 / -1; } .field.inline { grid-column: auto; }
.field .name { font-size: 14px; font-weight: 600; color: #f2f3f5; }
.field .value { margin-top: 2px; }
.footer { font-size: 12px; color: #b5bac1; margin-top: 8px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { border-radius: 3px; padding: 2px 16px; min-height: 32px; display: inline-flex;
          align-items: center; gap: 4px; font-size: 14px; font-weight: 500; color: #fff; }
.button.secondary, .button.link { background: #4e5058; } .button.primary { background: #5865f2; }
.button.success { background: #248046; } .button.danger { background: #da373c; }
.button.link::after { content: "↗"; font-size: 12px; margin-left: 4px; }
.select { background: #1e1f22; border-radius: 4px; padding: 10px 12px; width: 400px;
          color: #949ba4; font-size: 14px; margin-top: 8px; }
.thread { margin-top: 8px; background: #2b2d31; border-radius: 4px; padding: 8px 12px;
          font-size: 14px; max-width: 500px; } .thread b { color: #f2f3f5; }
.small { font-size: 12px; color: #949ba4; }
blockquote { margin: 4px 0; padding-left: 12px; border-left: 4px solid #4e5058; }
a { color: #00a8fc; text-decoration: none; } code { background: #1e1f22; padding: 0 3px; }
"""


def _inline(text: str) -> str:
    """Discord's Markdown for one line, as HTML (the text escaped first)."""
    out = html.escape(text, quote=False)
    out = re.sub(r"\[([^\]]+)\]\((https?://[^)\s]+)\)", r'<a href="\2">\1</a>', out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"__(.+?)__", r"<u>\1</u>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", out)
    out = re.sub(r"&lt;t:(\d+)(?::\w)?&gt;", r"<time>\1</time>", out)
    return re.sub(r"\\([\\*_`~|>#\[\]()-])", r"\1", out)


def markdown(text: str) -> str:
    """A message's or an embed's text as Discord shows it."""
    lines: list[str] = []
    for line in text.split("\n"):
        if line.startswith("-# "):
            lines.append(f'<span class="small">{_inline(line[3:])}</span>')
        elif line.startswith("> "):
            lines.append(f"<blockquote>{_inline(line[2:])}</blockquote>")
        else:
            lines.append(_inline(line))
    return "<br>".join(lines).replace("</blockquote><br>", "</blockquote>")


def _embed(embed: Mapping[str, Any]) -> str:
    colour = f"#{int(embed.get('color') or 0x4E5058):06x}"
    parts = [f'<div class="embed" style="--colour: {colour}">']
    if title := embed.get("title"):
        parts.append(f'<a class="title">{_inline(str(title))}</a>')
    if description := embed.get("description"):
        parts.append(f'<div class="description">{markdown(str(description))}</div>')
    fields = [
        f'<div class="field{" inline" if field.get("inline") else ""}">'
        f'<div class="name">{_inline(str(field["name"]))}</div>'
        f'<div class="value">{markdown(str(field["value"]))}</div></div>'
        for field in embed.get("fields", [])]
    if fields:
        parts.append(f'<div class="fields">{"".join(fields)}</div>')
    if footer := embed.get("footer", {}).get("text"):
        parts.append(f'<div class="footer">{_inline(str(footer))}</div>')
    return "".join(parts) + "</div>"


def _component(item: Mapping[str, Any]) -> str:
    if item.get("type") == 3:
        placeholder = item.get("placeholder") or "Make a selection"
        return f'<div class="select">{html.escape(str(placeholder))} ▾</div>'
    emoji = (item.get("emoji") or {}).get("name") or ""
    label = f"{emoji} {item.get('label') or ''}".strip()
    style = BUTTON_STYLES.get(int(item.get("style", 2)), "secondary")
    return f'<span class="button {style}">{html.escape(label)}</span>'


def render_message(content: str, embeds: Sequence[Mapping[str, Any]],
                   components: Sequence[Mapping[str, Any]], *, author: str = "paperclub",
                   thread: str | None = None) -> str:
    """One bot message as a page that looks like Discord's dark theme."""
    rows = "".join(
        f'<div class="row">{"".join(_component(c) for c in row.get("components", []))}</div>'
        for row in components)
    thread_bar = (f'<div class="thread">🧵 <b>{html.escape(thread)}</b> · a thread</div>'
                  if thread else "")
    body = (f'<div class="message" id="message"><div class="avatar">pc</div><div>'
            f'<div class="head"><span class="name">{html.escape(author)}</span>'
            f'<span class="tag">APP</span><span class="time">Today at 09:00</span></div>'
            f'<div class="content">{markdown(content)}</div>'
            f'{"".join(_embed(e) for e in embeds)}{rows}{thread_bar}</div></div>')
    return (f'<!doctype html><html><head><meta charset="utf-8"><style>{_STYLE}</style>'
            f"</head><body>{body}</body></html>")


async def _message_shot(browser: Browser, page_html: str, path: Path) -> None:
    page = await browser.new_page(viewport={"width": 760, "height": 400},
                                  device_scale_factor=2)
    await page.set_content(page_html)
    await page.locator("#message").screenshot(path=str(path))
    await page.close()


async def _page_shot(browser: Browser, url: str, viewport: dict[str, int], path: Path,
                     *, scale: int) -> None:
    page = await browser.new_page(viewport=viewport, device_scale_factor=scale)  # type: ignore[arg-type]
    await page.goto(url)
    await page.screenshot(path=str(path), full_page=False)
    await page.close()


def _thread_name(session: LocalSession, message_id: int) -> str | None:
    channel = session.standin.world.channels.get(message_id)  # a thread opened on a message
    return channel.name if channel is not None else None


async def make_pictures(out: Path, chromium: str) -> list[Path]:
    """Run the bot in local mode, then write the four pictures into `out`."""
    quiet_logging()
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(None, {"PAPERCLUB_DATABASE__PATH": f"{folder}/pictures.db",
                                        "PAPERCLUB_WEB__PORT": "0"})
        transcript: list[str] = []
        async with local_session(settings, transcript.append) as session, \
                async_playwright() as playwright:
            await session.command(LINES[0])
            card = session.last
            for line in LINES[1:]:
                await session.command(line)
            if card is None or any(line.startswith("! ") for line in transcript):
                raise RuntimeError("local mode refused a line:\n" + "\n".join(transcript))
            posts = [m for m in session.standin.messages(session.guild.channel("papers"))
                     if m.embeds]
            daily = posts[0]
            browser = await playwright.chromium.launch(executable_path=chromium)
            shots = {
                "paper-card.png": render_message(card.content, card.embeds, card.components),
                "paper-of-the-day.png": render_message(
                    daily.content, daily.embeds, daily.components,
                    thread=_thread_name(session, daily.id)),
            }
            for name, page_html in shots.items():
                await _message_shot(browser, page_html, out / name)
                written.append(out / name)
            link = await session.web_link()
            await _page_shot(browser, link, PHONE, out / "web-phone.png", scale=1)
            await _page_shot(browser, link, DESKTOP, out / "web-desktop.png", scale=1)
            written += [out / "web-phone.png", out / "web-desktop.png"]
            await browser.close()
    return written


def main(argv: Sequence[str]) -> int:
    """Write the pictures; exit 2 without a Chromium."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("docs_pictures: no chromium binary (apt-get install chromium)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for path in asyncio.run(make_pictures(args.out, chromium)):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
