"""Pieces of the layout finder checked on their own (the whole layout is checked on
rendered and random screens in test_reader.py and test_buttons.py)."""

from __future__ import annotations

import warnings

import numpy as np

from kamivision.vision.layout import nan_median


def test_nan_median_is_numpys_nanmedian_without_its_import():
    """Each column's median without the pixels cut out of the screenshot (NaN), 0 where
    all are: the same numbers as ``np.nanmedian`` on 2,000 random bands."""
    rng = np.random.default_rng(0)
    for _ in range(2000):
        rows, columns = int(rng.integers(1, 12)), int(rng.integers(1, 6))
        band = rng.normal(size=(rows, columns, 3)).astype(np.float32)
        band[rng.random((rows, columns)) < rng.random()] = np.nan
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column
            expected = np.nan_to_num(np.nanmedian(band, axis=0), nan=0.0)
        assert np.allclose(nan_median(band), expected, atol=1e-6)
