"""The papers the stand-in serves by default: a few hand-written records (one of them a paper
of the bundled ICML 2026 listing, so adding it finds the catalog's record) and generated ones
in the shape arXiv gives (wrapped LaTeX titles, several categories, affiliations, DOIs), plus
`synthetic_papers` for benchmarks that need many ids. Deterministic: ids never change."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from .records import StandinPaper

BUNDLED_TITLE = "To Grok Grokking: Provable Grokking in Ridge Regression"
"""A title also in the bundled catalog: the stand-in's record for it is `2602.01234`."""


def _at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=UTC)


HAND_WRITTEN = (
    StandinPaper(
        id="2602.01234", version=2, title=BUNDLED_TITLE,
        summary=("We study grokking in classical ridge regression. We prove that gradient "
                 "descent with weight decay on an over-parameterised linear model goes through "
                 "three stages: overfitting, a long plateau, and generalisation with an "
                 "arbitrarily small error, and we give the first quantitative bound on the "
                 "grokking time $t_{\\mathrm{grok}} = O(\\lambda^{-1}\\log(1/\\epsilon))$. "
                 "Experiments suggest the bound also holds for non-linear networks."),
        authors=("Mingyue Xu", "Gal Vardi", "Itay Safran"),
        affiliations={"Mingyue Xu": ("Purdue University",),
                      "Gal Vardi": ("Weizmann Institute of Science",),
                      "Itay Safran": ("Ben-Gurion University of the Negev",)},
        categories=("cs.LG", "stat.ML"), published=_at("2026-02-03T18:00:00"),
        updated=_at("2026-05-20T09:30:00"),
        comment="Accepted to the 43rd International Conference on Machine Learning (ICML 2026)"),
    StandinPaper(
        id="2401.01234", title="Grokking Beyond $\\ell_2$: Sparse Circuits Emerge Late in "
                               "Modular Arithmetic Transformers",
        summary=("Grokking, the sudden generalisation long after a network fits its training "
                 "data, has mostly been studied with $\\ell_2$ regularisation. We show that "
                 "with $\\ell_1$ penalties sparse Fourier circuits emerge even later, and "
                 "relate the delay to the norm of the memorising solution."),
        authors=("Ada Lindqvist", "Tomás Ferreira"), categories=("cs.LG", "cs.AI"),
        published=_at("2024-01-03T12:00:00"), comment="18 pages, 9 figures"),
    StandinPaper(
        id="2312.04567", version=3,
        title="Kernel Ridge Regression in the $\\alpha$-Stable Regime: Rates and Phase Diagrams",
        summary=("We derive excess-risk rates for kernel ridge regression when the noise is "
                 "$\\alpha$-stable with $\\alpha\\in(1,2)$, and draw the phase diagram of "
                 "optimal regularisation. 50% of the mass of the spectrum suffices."),
        authors=("Léa Moreau", "Kenji Watanabe", "Priya Raman"),
        categories=("stat.ML", "math.ST", "cs.LG"), published=_at("2023-12-07T16:20:00"),
        updated=_at("2024-06-11T08:00:00"), doi="10.1214/24-AOS0001",
        journal_ref="Ann. Statist. 52 (2024) 1-40"),
    StandinPaper(
        id="hep-th/9901001", title="Branes, Fluxes and the Large $N$ Limit of Gauge Theories",
        summary="We revisit the large $N$ limit of gauge theories on D-branes with fluxes.",
        authors=("A. Physicist",), categories=("hep-th",), published=_at("1999-01-04T00:00:00"),
        journal_ref="Nucl.Phys. B550 (1999) 1-20"),
    StandinPaper(
        id="math/0309136", title="Knot Floer Homology and the Four-Ball Genus",
        summary="We use knot Floer homology to bound the four-ball genus of knots.",
        authors=("P. Ozsváth", "Z. Szabó"), categories=("math.GT",),
        published=_at("2003-09-08T00:00:00")),
    StandinPaper(
        id="0704.0001", title="Calculation of Prompt Diphoton Production Cross Sections at "
                              "Tevatron and LHC Energies",
        summary="A fully differential calculation in perturbative QCD is presented.",
        authors=("C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C.-P. Yuan"),
        categories=("hep-ph",), published=_at("2007-04-02T19:18:42"),
        comment="37 pages, 15 figures"),
)

_TOPICS = (
    ("Grokking", "delayed generalisation"), ("Diffusion Models", "score matching"),
    ("Sparse Autoencoders", "mechanistic interpretability"),
    ("In-Context Learning", "transformers"), ("Low-Rank Adaptation", "fine-tuning"),
    ("Neural ODEs", "differential equations"), ("Graph Neural Networks", "message passing"),
    ("Reinforcement Learning from Human Feedback", "reward models"),
    ("Causal Discovery", "location-scale noise"), ("Federated Learning", "client drift"),
)
_FRAMES = (
    "{topic} at Scale: {aspect} in $\\mathcal{{O}}(n \\log n)$ Time",
    "When Does {topic} Help? A Study of {aspect}",
    "Revisiting {topic} through the Lens of {aspect}",
)
_CATEGORIES = (("cs.LG",), ("cs.LG", "stat.ML"), ("cs.CL", "cs.LG"), ("cs.CV", "cs.LG"),
               ("stat.ML", "math.OC"))
_NAMES = ("Wei Zhang", "Maria García", "Oluwaseun Adeyemi", "Hannah Schmidt", "Arjun Mehta",
          "Yuki Tanaka", "Chloé Martin", "Ivan Petrov", "Fatima Khan", "Liam O'Brien")
_PLACES = ("Tsinghua University", "ETH Zürich", "Mila", "University of Oxford",
           "Carnegie Mellon University", "The University of Tokyo")


def _generated(index: int, rng: random.Random, first_day: datetime) -> StandinPaper:
    topic, aspect = _TOPICS[index % len(_TOPICS)]
    frame = _FRAMES[index // len(_TOPICS) % len(_FRAMES)]
    day = first_day + timedelta(days=index * 3)
    authors = tuple(rng.sample(_NAMES, rng.randint(1, 4)))
    return StandinPaper(
        id=f"{day:%y%m}.{10000 + index:05d}", version=rng.randint(1, 3),
        title=frame.format(topic=topic, aspect=aspect),
        summary=(f"We study {topic.lower()} and {aspect}. Our analysis of a model with "
                 f"$d={rng.randint(2, 512)}$ dimensions shows that {aspect} improves by "
                 f"{rng.randint(5, 60)}% over baselines on standard benchmarks."),
        authors=authors, affiliations={a: (rng.choice(_PLACES),) for a in authors[:2]},
        categories=_CATEGORIES[index % len(_CATEGORIES)], published=day,
        updated=day + timedelta(days=rng.randint(0, 40)),
        comment=rng.choice(("", "Accepted at ICML 2026", "NeurIPS 2025 Workshop on Optimization "
                            "for Machine Learning", "12 pages, 4 figures")))


def default_papers() -> list[StandinPaper]:
    """The stand-in's fixtures: 6 hand-written records and 30 generated ones."""
    rng = random.Random(11)
    return [*HAND_WRITTEN,
            *(_generated(i, rng, _at("2025-03-01T10:00:00")) for i in range(30))]


def synthetic_papers(count: int, *, seed: int = 0) -> list[StandinPaper]:
    """`count` more records with their own ids (`2510.20000` on), for benchmarks."""
    rng = random.Random(seed)
    first = _at("2025-10-01T10:00:00")
    papers = []
    for i in range(count):
        paper = _generated(i, rng, first)
        papers.append(StandinPaper(**{**paper.__dict__, "id": f"2510.{20000 + i:05d}",
                                      "title": f"{paper.title} ({i})"}))
    return papers
