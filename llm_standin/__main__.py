"""`python -m llm_standin [--port N]`: serve the stand-in until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from .server import LlmStandIn


async def _serve(port: int) -> None:
    async with LlmStandIn(port=port) as llm:
        print(f"chat-completions stand-in at {llm.base_url}", flush=True)
        await asyncio.Event().wait()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m llm_standin")
    parser.add_argument("--port", type=int, default=11435)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(parser.parse_args().port))


if __name__ == "__main__":
    main()
