"""Engine-neutral exact arithmetic for ranking metrics computed in pieces (Spark, Dask, DuckDB).

A distributed engine reduces a ranking to *blocks*: one per distinct score, holding the exact
positive and negative weight of the items with that score, as integer numerators over one
common denominator (which cancels in every metric). It cuts the blocks, in decreasing score
order, into contiguous *pieces* (ranges of scores; tied items are one block, so a tie never
straddles two pieces), and evaluates each piece where it lives. A piece needs only its own
blocks and its *offset*, the positive and total weight of all pieces before it
(:func:`prefix_offsets` of the per-piece totals): one small number pair per piece, so the
driver's memory grows with the number of pieces, not of items.

Every metric here is ``(sum of quotient terms over the pieces) / divisor``
(:mod:`prtheory.distributed.terms`: AP, the trapezoid areas with a named first point, ROC AUC,
P@k and R-precision under the expected/optimistic/pessimistic tie policies). A piece returns
either its exact partial sum (a reduced ``(numerator, denominator)`` pair) or an integer
interval ``X 2**-E <= S <= (X + t) 2**-E`` (:mod:`prtheory.distributed.sums`); the driver adds
the pieces exactly and rounds once, falling back to the exact partial sums when the interval
cannot decide the rounding (:func:`evaluate`). The Davis-Goadrich area
(:mod:`prtheory.distributed.fixed_point`) adds fixed-point integers in two passes.

The sums reuse :func:`prtheory.oracle.summation.rational_sum` and
:func:`~prtheory.oracle.summation.quotient_sum_bounds`, and the rounding
:func:`prtheory.oracle.rounding.to_float` of the single-machine oracle, so the results equal the
oracle's exactly. An engine adapter only has to produce the blocks of each piece, ship the
offsets and collect one small result per piece (``prtheory.spark`` is one); if it can also run
a function on a few driver-side items in parallel (``spread``), a large exact sum is reduced
there (:func:`~prtheory.distributed.sums.combine_exact`).
"""

# ruff: noqa: F401  (this module is a list of re-exports)

from prtheory.distributed.blocks import (
    Piece,
    check_rows,
    decode_fraction,
    distinct_sums,
    dyadic_blocks,
    encode_fraction,
    prefix_offsets,
    run_starts,
    sum_ties,
)
from prtheory.distributed.fixed_point import davis_goadrich
from prtheory.distributed.sums import evaluate, exact_partial, interval_partial, round_intervals
from prtheory.distributed.terms import (
    FIRST,
    TOP_TIES,
    ap_terms,
    check_top_ties,
    roc_terms,
    top_terms,
    trapezoid_terms,
)
