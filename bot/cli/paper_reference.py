"""A paper named on the command line (`show`, `similar`): the one resolver's answer
(`bot.features.papers.lookup`), or why there is none, one line each on stderr."""

from __future__ import annotations

from rich.markup import escape

from bot.cli.common import err
from bot.features.papers.lookup import PaperLookup
from domain.paper import Paper


async def paper_named(lookup: PaperLookup, reference: str, verb: str) -> Paper | None:
    """The paper `reference` names (id, arXiv id or link, DOI, exact title, or words only it
    matches); None after saying why not: the choices, or that nothing matches. `verb` says
    what to do with a choice's id ("show", "compare")."""
    found = await lookup.lookup(reference)
    if found.paper is not None:
        return found.paper
    if found.choices:
        err.print(f"{escape(reference)!s} matches several papers; {verb} one by its id:")
        for choice in found.choices:
            err.print(f"  {choice.id}  {escape(choice.title_en)}")
    elif found.identifier:
        err.print(f"no paper with id {escape(found.identifier)!s} in the catalog")
    else:
        err.print(f"no paper matches {escape(reference)!s}")
    return None
