"""`python -m bench BENCHMARK [options]`: run one benchmark; `--help` lists them."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Protocol, cast

BENCHMARKS: dict[str, tuple[str, str]] = {
    "catalog": ("bench.catalog_search",
                "catalog import and search at 10k/100k (and 1M) papers, beside a naive LIKE "
                "baseline"),
    "interactions": ("bench.interactions",
                     "/paper round trip through the Discord stand-in, idle and during a catalog "
                     "reload, beside direct search"),
    "digest": ("bench.digest",
               "paper of the day for 1,000 servers due at once under the 50 requests/s global "
               "limit, beside no limit"),
    "reminders": ("bench.reminders",
                  "session reminders for 1,000 servers due at once under the 50 requests/s "
                  "global limit, beside no limit"),
    "sharded": ("bench.sharded_digest",
                "the 1,000-server paper of the day: 1 process on SQLite, 1 and 3 sharded "
                "processes on one PostgreSQL, against the 50 requests/s global limit of the "
                "token"),
    "views": ("bench.result_views",
              "memory of /paper result lists: RSS before and after 10,000 lookups through the "
              "stand-in, beside lists that hold their papers with no cap (the old behaviour)"),
    "subscriptions": ("bench.subscriptions",
                      "topic subscriptions: 10,000 members' topics matched against the paper of "
                      "the day and a load of 1,000 papers, beside per-topic SQLite searches"),
    "arxiv": ("bench.arxiv",
              "adding 1,000 ids from arXiv in id_list batches of 100 against the arXiv stand-in "
              "with the real 3 s spacing: elapsed vs the (batches - 1) x 3 s bound, beside no "
              "spacing"),
    "crosslingual": ("bench.crosslingual",
                     "Chinese queries (Simplified, Traditional) over the real English-only arXiv "
                     "sample and English queries over the listing's Chinese with its English "
                     "hidden: precision@5, recall@20, p50/p99, beside today's lexical search"),
    "meaning": ("bench.meaning",
                "search by meaning on the real arXiv sample: 48 descriptive Chinese and "
                "English queries, precision@5 / recall@20 per language for lexical, hybrid and "
                "the encoder alone; /paper p99 with and without the semantic step; encoding "
                "throughput and memory"),
    "postgres": ("bench.postgres_search",
                 "/paper lookups per second and p99, and search p99, on SQLite vs PostgreSQL "
                 "(a throwaway server) at 100k papers"),
    "recommend": ("bench.recommend",
                  "recommendations on 11,648 real arXiv papers: nDCG@10 and Recall@10 for "
                  "simulated members seeded with 1, 3, 10 papers, beside arxiv-sanity-lite's "
                  "recipe, most recent first and random; and what two 👎 do to the next page"),
    "web": ("bench.web",
            "each server's web page: 200 page loads in flight at once while /paper lookups "
            "go through the stand-in, their p50/p99 beside /paper alone, with the pages "
            "served by the bot and by a process of their own"),
    "db-api": ("bench.db_api",
               "per-query overhead of a read by primary key on SQLite and PostgreSQL: the "
               "backends' own classes, the one API over them (storage.db), SQLAlchemy Core"),
    "similar": ("bench.similar",
                "papers like my bookmarks on the real arXiv sample split in time: precision, "
                "recall and volume per threshold; the paper of the day's pick with and without "
                "the recency prior"),
    "ops-metrics": ("bench.ops_metrics",
                    "the metrics' cost: /paper round trips with the metrics on and off, in "
                    "paired rounds on one bot"),
    "summaries": ("bench.summaries",
                  "AI summaries' cost to members: /paper round trips idle and while the bot's "
                  "summariser backfills against the chat-completions stand-in, paired rounds"),
    "summaries-once": ("bench.summaries_once",
                       "AI summaries exactly once: two paperclub summarize processes, one "
                       "SIGKILLed and restarted, over arXiv-style papers in both languages"),
}
"""Benchmark name -> (module, one-line description)."""


class Benchmark(Protocol):
    """What a benchmark module provides."""

    def configure(self, parser: argparse.ArgumentParser) -> None:
        """Add the benchmark's options."""

    def run(self, args: argparse.Namespace) -> int:
        """Run it, print the figures, return an exit code."""


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the chosen benchmark."""
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="paperclub benchmarks; each prints its figures beside a baseline measured "
                    "in the same run.",
    )
    commands = parser.add_subparsers(dest="benchmark", required=True, metavar="BENCHMARK",
                                     title="benchmarks")
    argv = sys.argv[1:] if argv is None else argv
    # Import only the chosen benchmark: the others' imports (discord, ...) would otherwise weigh
    # on start-up and on the memory figures of benchmark subprocesses.
    chosen = next((arg for arg in argv if arg in BENCHMARKS), None)
    for name, (module_name, summary) in BENCHMARKS.items():
        command = commands.add_parser(name, help=summary, description=summary)
        if name == chosen:
            module = cast(Benchmark, importlib.import_module(module_name))
            module.configure(command)
            command.set_defaults(benchmark_module=module)
    args = parser.parse_args(argv)
    return cast(Benchmark, args.benchmark_module).run(args)


if __name__ == "__main__":
    sys.exit(main())
