"""Adding 1,000 papers by id from arXiv: `id_list` batches of 100 through the real client,
against the local arXiv stand-in, with arXiv's real 3 s spacing.

The time is bound by the spacing: `n` batches cannot take less than (n - 1) × 3 s, so the report
gives the elapsed time, that bound and their ratio (1.00 would be a client that loses nothing
between requests). Baseline, same run: the same batches with no spacing, i.e. what the stand-in,
HTTP and Atom parsing cost; the difference is what politeness costs.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from arxiv_standin import ArxivStandIn, synthetic_papers
from bench.report import progress, publish
from bot.features.adding.arxiv_client import ID_BATCH, MIN_INTERVAL, ArxivClient
from domain.arxiv_ids import ArxivRef

TAG = "arxiv"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options."""
    parser.add_argument("--ids", type=int, default=1000, help="ids to add (default 1000)")
    parser.add_argument("--out", type=Path, default=Path("bench/out/arxiv.md"))


async def _timed(count: int, min_interval: float) -> tuple[float, int, int]:
    papers = synthetic_papers(count)
    async with ArxivStandIn(papers) as arxiv:
        client = ArxivClient(arxiv.api_base, min_interval=min_interval)
        try:
            started = time.perf_counter()
            result = await client.fetch([ArxivRef(p.id) for p in papers])
            elapsed = time.perf_counter() - started
        finally:
            await client.close()
        return elapsed, len(result.entries), len(arxiv.requests)


def run(args: argparse.Namespace) -> int:
    """Run both passes and print the table."""
    progress(TAG, f"baseline: {args.ids} ids with no spacing")
    base, base_found, base_requests = asyncio.run(_timed(args.ids, 0.0))
    progress(TAG, f"paced: {args.ids} ids with {MIN_INTERVAL:.0f} s between requests")
    paced, found, requests = asyncio.run(_timed(args.ids, MIN_INTERVAL))
    bound = (requests - 1) * MIN_INTERVAL
    text = "\n".join([
        f"# arXiv: adding {args.ids:,} ids in id_list batches of {ID_BATCH}",
        "",
        "| pass | requests | papers | elapsed | bound | ratio to bound |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        f"| paced ({MIN_INTERVAL:.0f} s) | {requests} | {found:,} | {paced:.2f} s | "
        f"{bound:.0f} s | {paced / bound if bound else float('nan'):.3f} |",
        f"| baseline (no spacing) | {base_requests} | {base_found:,} | {base:.2f} s | – | – |",
        "",
        f"Politeness costs {paced - base:.2f} s of {paced:.2f} s; the rest "
        f"({base / requests * 1000:.0f} ms a batch) is the stand-in, HTTP and Atom parsing.",
    ])
    publish(text, args.out, TAG)
    return 0
