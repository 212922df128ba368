"""The per-server paper cycle: no repeats until exhausted, reproducible, reload-proof."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from bot.features.digest.paper_order import Choice, cycle_order, next_paper, rank

PAPERS = [f"p{i:02d}" for i in range(30)]
ids = st.text(alphabet="0123456789abcdef", min_size=1, max_size=10)
catalogs = st.sets(ids, min_size=1, max_size=40)
guilds = st.integers(min_value=0, max_value=2**63 - 1)
cycles = st.integers(min_value=0, max_value=10_000)


def _run(eligible: list[str] | set[str], guild: int, cycle: int, days: int,
         posted: set[str] | None = None) -> tuple[list[Choice], int, set[str]]:
    """Post `days` papers the way the caller would: track the cycle and its posted set."""
    posted = set() if posted is None else posted
    choices: list[Choice] = []
    last: str | None = None
    for _ in range(days):
        choice = next_paper(eligible, posted, guild, cycle, avoid=last)
        assert choice is not None
        if choice.new_cycle:
            cycle, posted = choice.cycle, set()
        posted.add(choice.paper_id)
        last = choice.paper_id
        choices.append(choice)
    return choices, cycle, posted


@given(catalogs, guilds, cycles)
def test_a_full_cycle_posts_every_paper_once_in_rank_order(
        catalog: set[str], guild: int, cycle: int) -> None:
    choices, final_cycle, _ = _run(catalog, guild, cycle, len(catalog))
    assert [c.paper_id for c in choices] == cycle_order(catalog, guild, cycle)
    assert [c.position for c in choices] == list(range(1, len(catalog) + 1))
    assert {c.cycle_size for c in choices} == {len(catalog)}
    assert {c.cycle for c in choices} == {cycle} == {final_cycle}
    assert not any(c.new_cycle for c in choices)


@given(catalogs, guilds, cycles)
def test_exhausting_the_cycle_starts_the_next_one(
        catalog: set[str], guild: int, cycle: int) -> None:
    choices, _, _ = _run(catalog, guild, cycle, 3 * len(catalog))
    n = len(catalog)
    for k in range(3):
        block = choices[k * n:(k + 1) * n]
        assert {c.paper_id for c in block} == catalog  # no repeat within a cycle
        assert {c.cycle for c in block} == {cycle + k}
        assert [c.new_cycle for c in block] == [k > 0] + [False] * (n - 1)
        assert [c.position for c in block] == list(range(1, n + 1))
    # never the same paper twice in a row, even across a cycle boundary
    if n > 1:
        assert all(a.paper_id != b.paper_id for a, b in pairwise(choices))


def test_a_single_paper_catalog_repeats_it_every_cycle() -> None:
    choices, cycle, _ = _run(["only"], 5, 1, 3)
    assert [(c.paper_id, c.cycle, c.position, c.cycle_size) for c in choices] == [
        ("only", 1, 1, 1), ("only", 2, 1, 1), ("only", 3, 1, 1)]
    assert cycle == 3


def test_nothing_eligible_gives_none() -> None:
    assert next_paper([], set(), 1, 1) is None
    assert next_paper(iter(()), {"gone"}, 1, 1) is None


@given(catalogs, guilds, cycles, st.data())
def test_reproducible_across_calls_and_input_order(
        catalog: set[str], guild: int, cycle: int, data: st.DataObject) -> None:
    posted = data.draw(st.sets(st.sampled_from(sorted(catalog))))
    shuffled = data.draw(st.permutations(sorted(catalog)))
    first = next_paper(catalog, posted, guild, cycle)
    assert first == next_paper(shuffled, set(posted), guild, cycle)
    assert first == next_paper(list(shuffled) * 2, frozenset(posted), guild, cycle)  # duplicates


def test_rank_is_a_fixed_function_of_its_inputs() -> None:
    # pinned, so an accidental change of the key format (which would reshuffle every server's
    # current cycle after an upgrade) fails loudly
    assert rank(42, 1, "abc").hex()[:16] == "8b01dcca898ce346"
    assert rank(42, 1, "abc") != rank(43, 1, "abc") != rank(42, 2, "abc")


def test_different_guilds_get_different_orders() -> None:
    orders = {tuple(cycle_order(PAPERS, guild, 1)) for guild in range(20)}
    assert len(orders) == 20


def test_each_cycle_has_a_new_order() -> None:
    orders = [cycle_order(PAPERS[:5], 7, cycle) for cycle in range(1, 11)]
    assert all(a != b for a, b in pairwise(orders))
    assert len({tuple(o) for o in orders}) == 10  # 10 of the 120 possible orders
    choices, _, _ = _run(PAPERS, 7, 1, 60)
    assert [c.paper_id for c in choices[:30]] != [c.paper_id for c in choices[30:]]


def test_orders_look_shuffled_not_sorted() -> None:
    order = cycle_order(PAPERS, 123456789012345678, 1)
    assert order != sorted(PAPERS) and order != sorted(PAPERS, reverse=True)


@given(catalogs, catalogs, guilds, cycles, st.data())
def test_new_papers_join_the_current_cycle(old: set[str], new: set[str], guild: int, cycle: int,
                                           data: st.DataObject) -> None:
    added = new - old
    posted = data.draw(st.sets(st.sampled_from(sorted(old)), max_size=len(old) - 1))
    catalog = old | added
    rest, final_cycle, _ = _run(catalog, guild, cycle, len(catalog - posted), set(posted))
    assert final_cycle == cycle and not any(c.new_cycle for c in rest)
    assert {c.paper_id for c in rest} == catalog - posted  # added ones included, none repeated
    assert [c.position for c in rest] == list(range(len(posted) + 1, len(catalog) + 1))
    assert {c.cycle_size for c in rest} == {len(catalog)}
    # and the unposted old papers keep their relative order
    old_rest = [c.paper_id for c in rest if c.paper_id in old]
    assert old_rest == [p for p in cycle_order(old, guild, cycle) if p not in posted]


@given(catalogs, guilds, cycles, st.data())
def test_removed_papers_are_skipped_and_not_counted(
        catalog: set[str], guild: int, cycle: int, data: st.DataObject) -> None:
    posted = data.draw(st.sets(st.sampled_from(sorted(catalog))))
    removed = data.draw(st.sets(st.sampled_from(sorted(catalog))))
    eligible = catalog - removed
    choice = next_paper(eligible, posted, guild, cycle)
    if not eligible:
        assert choice is None
        return
    assert choice is not None
    assert choice.paper_id in eligible
    assert choice.cycle_size == len(eligible)
    if eligible - posted:
        assert choice.paper_id not in posted and choice.cycle == cycle
        assert choice.position == len(eligible & posted) + 1
    else:
        assert choice.new_cycle and choice.cycle == cycle + 1 and choice.position == 1


def test_a_filter_restricts_the_choice_but_keeps_the_cycle() -> None:
    # the caller passes only the papers matching the server's filter
    matching = set(PAPERS[::3])
    choices, cycle, _ = _run(matching, 9, 4, len(matching))
    assert {c.paper_id for c in choices} == matching and cycle == 4
    assert choices[-1].position == choices[-1].cycle_size == len(matching)


def test_avoid_only_matters_when_a_cycle_starts() -> None:
    order = cycle_order(PAPERS, 3, 2)
    mid = next_paper(PAPERS, {order[0]}, 3, 2, avoid=order[1])
    assert mid is not None and mid.paper_id == order[1]  # mid-cycle: rank order wins
    start = next_paper(PAPERS, set(PAPERS), 3, 1, avoid=order[0])
    assert start == Choice(order[1], 2, 1, 30, new_cycle=True)
    after = next_paper(PAPERS, {order[1]}, 3, 2, avoid=order[1])
    assert after == Choice(order[0], 2, 2, 30)
