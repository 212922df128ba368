"""The throwaway PostgreSQL server the tests use (shared with the benchmarks, see
tools/throwaway_postgres.py)."""

from __future__ import annotations

from tools.throwaway_postgres import TEMPLATE, PostgresServer, find_binaries

__all__ = ["TEMPLATE", "PostgresServer", "find_binaries"]
