"""The prefix expansion rules (`domain.prefixes`): which words expand, to what, in which order."""

from __future__ import annotations

from domain.prefixes import PREFIX_CAP, choose, expandable, upper_bound


def test_only_single_ascii_tokens_of_three_letters_or_more_expand() -> None:
    assert expandable("control") == "control"
    assert expandable("gro") == "gro"
    assert expandable("ab") is None
    assert expandable("2024") is None  # starts with a digit
    assert expandable("蒸馏") is None
    assert expandable("foo-bar") is None  # two tokens: a phrase, left as it is
    assert expandable("Naïve") == "naive"  # folded as the index folds it
    assert expandable("straße") is None  # ß stays: not an ASCII token
    assert upper_bound("con") > "conzzzz" and upper_bound("con") < "cop"


def test_completions_are_most_frequent_first_then_by_term_and_capped() -> None:
    rows = [("controls", 5), ("control", 50), ("contrast", 5), ("zebra", 99), ("contour", 0)]
    expansion = choose("cont", rows, window=10)
    assert expansion.terms == ("control", "contrast", "controls")  # 0 papers: never offered
    assert not expansion.more
    many = [(f"con{i:03d}", i + 1) for i in range(PREFIX_CAP + 5)]
    capped = choose("con", many, window=10_000)
    assert len(capped.terms) == PREFIX_CAP and capped.more
    assert capped.terms[0] == f"con{PREFIX_CAP + 4:03d}"


def test_rare_completions_only_when_the_window_overflows() -> None:
    rows = [("control", 900), ("controllability", 1), ("controller", 2), ("controls", 40)]
    assert choose("control", rows, window=1000, rare_rows=4).rare == ()
    rare = choose("control", rows, window=500, rare_rows=4).rare
    assert rare == ("controllability", "controller")  # 1 + 2 papers fit in 4, + 40 do not
    assert choose("control", rows, window=500, rare_rows=0).rare == ()


def test_the_word_as_typed_counts_twice_only_when_it_is_a_term_within_the_window() -> None:
    rows = [("xia", 1), ("xiaoyuan", 1), ("xiaohui", 1)]
    assert choose("xia", rows, window=500).exact
    assert not choose("xia", rows, window=0).exact  # frequent: not counted again
    assert not choose("xiao", rows, window=500).exact  # `xiao` is no term of its own


def test_an_expansion_knows_how_many_papers_its_completions_are_in() -> None:
    rows = [("control", 900), ("controller", 2), ("controls", 40), ("contour", 7)]
    assert choose("control", rows, window=500).papers == 942  # `contour` is no completion
    many = [(f"con{i:03d}", 1) for i in range(PREFIX_CAP + 5)]
    assert choose("con", many, window=500).papers == PREFIX_CAP + 5  # the uncapped tail too
