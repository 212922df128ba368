"""Combining two records of one paper: what an add, an update and a reload each keep.

The bundled listing has Chinese titles, summaries, affiliations and venues but no arXiv ids;
arXiv has ids, links and English abstracts but nothing Chinese. A paper known from both keeps
the facts of both; which side wins where both speak is the caller's choice (`base` below).
"""

from __future__ import annotations

import dataclasses

from domain.paper import Links, Paper, Venue


def _empty(value: object) -> bool:
    return value is None or value in ("", 0, ()) or value == Venue()


def filled_links(base: Links, extra: Links) -> Links:
    """`base`'s links, each empty one taken from `extra` (a version only with its own id)."""
    values = {f.name: getattr(base, f.name) if not _empty(getattr(base, f.name))
              else getattr(extra, f.name) for f in dataclasses.fields(Links)}
    if base.arxiv_id and extra.arxiv_id and base.arxiv_id != extra.arxiv_id:
        values["arxiv_version"] = base.arxiv_version
    return Links(**values)


def filled(base: Paper, extra: Paper) -> Paper:
    """`base`, each empty field (and link) taken from `extra`."""
    values = {f.name: getattr(base, f.name) if not _empty(getattr(base, f.name))
              else getattr(extra, f.name) for f in dataclasses.fields(Paper)}
    values["links"] = filled_links(base.links, extra.links)
    return Paper(**values)


def adds_only(base: Paper, extra: Paper) -> bool:
    """True when `extra` (a record with `base`'s title) says nothing against `base`: each of
    its fields is empty, equal, or fills one `base` lacks (an arXiv id, an abstract)."""
    extra = dataclasses.replace(extra, title_en=base.title_en)
    return filled(base, extra) == filled(extra, base)


def keeping_added_facts(reloaded: Paper, stored: Paper) -> Paper:
    """A reloaded record (authoritative for the listing's fields) that keeps the English
    abstract and links an add filled in, where the file has none."""
    return dataclasses.replace(reloaded, summary_en=reloaded.summary_en or stored.summary_en,
                               links=filled_links(reloaded.links, stored.links))


def newer_version(stored: Paper, incoming: Paper) -> Paper:
    """A newer arXiv version over the stored record: its facts win, the stored ones fill the
    gaps. The title follows only when it names the same paper (case, spacing, punctuation):
    a retitled version keeps the stored title, so the public id and every reference to it
    stay valid."""
    if incoming.key != stored.key:
        incoming = dataclasses.replace(incoming, title_en=stored.title_en)
    return filled(incoming, stored)
