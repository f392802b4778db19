from __future__ import annotations

import dataclasses

import pytest

from crepe_datasets.sources.records import CaptionRecord, GroupSample, PairSample


def test_records_are_frozen_and_meta_is_not_compared():
    a = PairSample("1", "a red car", ("a blue car",), meta={"subset": "x"})
    b = PairSample("1", "a red car", ("a blue car",), meta={"subset": "y"})
    assert a == b and hash(a) == hash(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.caption = "other"  # type: ignore[misc]
    assert CaptionRecord("t", "1").source == ""
    assert GroupSample("g", "c0", "c1").image_1_file is None
