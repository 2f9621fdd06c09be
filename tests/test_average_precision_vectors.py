"""``prtheory.average_precision`` against every average-precision conformance vector.

On each valid vector the float entry point must return, bit for bit, the correctly rounded
float64 of the oracle's exact AP, and both must equal the vector's stored float64 (written by the
generator from the exact rational). Invalid vectors must raise the same error with the same
message through both entry points (one validation path); undefined ones must raise
``UndefinedMetricError`` from both.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import prtheory
from prtheory import oracle
from prtheory.conformance import vectors
from prtheory.errors import InvalidInputError, UndefinedMetricError

AP_VECTORS = vectors("average_precision")


def _args(v):
    """The inputs as users pass them: scores in the vector's dtype (float64 by default)."""
    s = v.inputs.y_score
    if "dtype" in v.inputs.params:
        s = np.asarray(s, dtype=np.float64).astype(v.inputs.params["dtype"])
    return v.inputs.y_true, s, v.inputs.sample_weight


@pytest.mark.parametrize("vector", AP_VECTORS, ids=[f"{v.tc_id}" for v in AP_VECTORS])
def test_float_ap_is_the_rounded_oracle_ap_on_every_vector(vector):
    # AP vectors are the default, grouped-ties AP; the only parameter is the scores' dtype
    assert set(vector.inputs.params) <= {"dtype"}
    args = _args(vector)
    if vector.result == "valid":
        exact = oracle.average_precision(*args)
        got = prtheory.average_precision(*args[:2], sample_weight=args[2])
        assert exact == vector.expected.exact
        assert got.hex() == oracle.to_float(exact).hex() == vector.expected.float64.hex()
        assert not math.isnan(got)
    elif vector.result == "invalid":
        with pytest.raises(InvalidInputError) as from_oracle:
            oracle.average_precision(*args)
        with pytest.raises(InvalidInputError) as from_float:
            prtheory.average_precision(*args[:2], sample_weight=args[2])
        # the float AP takes any two labels with pos_label (the oracle 0/1 only), so a label
        # outside {0, 1} gets its pos_label message; both name the same argument
        assert from_float.value.argument == from_oracle.value.argument
    else:
        with pytest.raises(UndefinedMetricError):
            oracle.average_precision(*args)
        with pytest.raises(UndefinedMetricError):
            prtheory.average_precision(*args[:2], sample_weight=args[2])


def test_the_vectors_cover_every_outcome():
    assert {v.result for v in AP_VECTORS} == {"valid", "invalid", "undefined"}
