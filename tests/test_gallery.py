"""The gallery's examples check what they say: the library test of examples/test_my_ap.py fails
an average precision that is wrong, and the chunked evaluation of examples/big_file_ap.py is the
batch value for any chunking. (The pages' commands themselves run in test_doc_examples.py.)"""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

import prtheory
from prtheory import oracle

ROOT = Path(__file__).resolve().parents[1]


def test_the_library_test_fails_an_ap_that_breaks_ties_by_input_order():
    example = runpy.run_path(str(ROOT / "examples" / "test_my_ap.py"))
    test, small = example["test_my_average_precision"], example["SMALL"]

    def input_order(y_true, y_score, sample_weight=None):  # the mutant: tied blocks not grouped
        ap = oracle.average_precision(y_true, y_score, sample_weight, ties="input-order")
        return float(ap)

    # the vectors with tied scores on which input order gives another exact AP than grouping
    # (found here with the oracle, not with the example) are the ones the mutant must fail
    tied = [v for v in small if "ties" in v.flags and v.expected is not None]
    differ = {
        v.tc_id
        for v in tied
        if oracle.average_precision(
            v.inputs.y_true, v.inputs.y_score, v.inputs.sample_weight, ties="input-order"
        )
        != v.expected.exact
    }
    failed = set()
    for vector in tied:
        test.__globals__["my_average_precision"] = input_order
        try:
            test(vector)
        except AssertionError:
            failed.add(vector.tc_id)
        finally:
            test.__globals__["my_average_precision"] = example["my_average_precision"]
        test(vector)  # and the example's own function passes it
    assert failed == differ
    assert len(differ) == 16  # the number docs/gallery/index.md states


def test_the_small_vectors_are_the_kit_without_the_three_of_a_million_items():
    example = runpy.run_path(str(ROOT / "examples" / "test_my_ap.py"))
    everything = prtheory.conformance.vectors("average_precision")
    left_out = [v for v in everything if v not in example["SMALL"]]
    assert [len(v.inputs.y_true) for v in left_out] == [10**6 + 1] * 3


@pytest.mark.parametrize("chunk", [7, 1000])
def test_the_chunked_ap_of_a_file_is_the_batch_value(tmp_path, monkeypatch, chunk):
    pytest.importorskip("pyarrow", reason="needs pyarrow: pip install -e '.[spark]'")
    example = runpy.run_path(str(ROOT / "examples" / "big_file_ap.py"))
    path = tmp_path / "scores.parquet"
    example["write_demo"](path, 2500)
    example["chunked_ap"].__globals__["CHUNK"] = chunk
    acc = example["chunked_ap"](path)
    import pyarrow.parquet as pq

    whole = pq.read_table(path)
    y, s = whole["label"].to_numpy(), whole["score"].to_numpy()
    assert acc.n_items == 2500
    assert acc.n_blocks == np.unique(s).size
    assert acc.compute() == oracle.average_precision(y, s)  # exact, Fraction against Fraction
