"""Spark MLlib's down-sampling of the PR curve, emulated in numpy from its source.

``BinaryClassificationMetrics`` (``mllib/src/main/scala/org/apache/spark/mllib/evaluation/
BinaryClassificationMetrics.scala``, ``binnedCounts``) sorts the counts of each distinct score
in decreasing order (``sortByKey(ascending = false)``); with ``numBins > 0`` and ``grouping =
countsSize / numBins >= 2`` it cuts every partition of that sorted RDD
(``counts.mapPartitions``) into chunks of ``grouping`` consecutive scores from the partition's
start, and each chunk becomes one point at its last, lowest, score holding the chunk's counts.
:func:`spark_bins` gives the scores as that binning sees them, so the oracle's area of the
binned scores is MLlib's binned area. ``numBins`` is 1000 by default, both in
``BinaryClassificationEvaluator`` and in the JVM ``BinaryClassificationMetrics`` the Python
wrapper builds: binning starts at 2000 distinct scores.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["DEFAULT_BINS", "spark_bins"]

#: ``numBins`` of ``BinaryClassificationEvaluator`` and of ``BinaryClassificationMetrics``
DEFAULT_BINS = 1000


def spark_bins(scores: Any, num_bins: int, starts: tuple[int, ...] = (0,)) -> np.ndarray:
    """The scores as MLlib's binning sees them (``BinaryClassificationMetrics``' ``grouping``).

    With ``d`` distinct scores and ``g = d // num_bins >= 2``, the distinct scores in
    decreasing order are held in partitions starting at the indices ``starts`` (one partition:
    ``(0,)``); each partition is cut into runs of ``g`` from its start (the last run may be
    shorter) and every score becomes the lowest score of its run. With ``g < 2`` nothing
    changes.

    Parameters
    ----------
    scores : array-like
        The scores.
    num_bins : int
        Spark's ``numBins``.
    starts : tuple of int, default (0,)
        The index, among the distinct scores in decreasing order, where each partition starts.

    Returns
    -------
    numpy.ndarray
        float64 scores, each replaced by the lowest of its run.

    Examples
    --------
    Six distinct scores and 3 bins: runs of 6 // 3 = 2 from the top, 5 4 | 3 2 | 1 0, each
    score becoming its run's lowest; in two partitions of three, 5 4 | 3 and 2 1 | 0:

    >>> from prtheory.conformance.spark_models import spark_bins
    >>> spark_bins([0, 1, 2, 3, 4, 5], 3).tolist()
    [0.0, 0.0, 2.0, 2.0, 4.0, 4.0]
    >>> spark_bins([0, 1, 2, 3, 4, 5], 3, starts=(0, 3)).tolist()
    [0.0, 1.0, 1.0, 3.0, 4.0, 4.0]
    >>> spark_bins([0, 1, 2], 2).tolist()  # 3 // 2 = 1 < 2: unchanged
    [0.0, 1.0, 2.0]
    """
    s = np.asarray(scores, dtype=np.float64)
    distinct = np.unique(s)[::-1]
    d = distinct.size
    g = d // num_bins
    if g < 2:
        unchanged: np.ndarray = s.copy()
        return unchanged
    bounds = np.append(np.asarray(starts, dtype=np.int64), d)
    idx = np.arange(d)
    part = np.searchsorted(bounds, idx, side="right") - 1
    first = bounds[part] + (idx - bounds[part]) // g * g
    lowest = distinct[np.minimum(first + g, bounds[part + 1]) - 1]
    binned: np.ndarray = lowest[np.searchsorted(-distinct, -s)]
    return binned
