"""Hypothesis strategies shared by the property tests (needs hypothesis, the 'test' extra)."""

from __future__ import annotations

from hypothesis import strategies as st

__all__ = ["rankings"]


def rankings(max_n: int = 8) -> st.SearchStrategy[tuple[list[int], list[int]]]:
    """Small rankings ``(labels, scores)`` of 2 to ``max_n`` items with both classes and heavily
    tied scores (integers 0..3)."""
    return st.integers(2, max_n).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < n),
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
        )
    )
