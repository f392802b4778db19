"""EntailmentFilter with a tiny randomly initialised RoBERTa NLI model loaded from a folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from crepe_datasets.generators.filters.entailment import (
    EntailmentFilter,
    entailment_index,
    length_batches,
)
from crepe_datasets.infra.errors import MissingResourceError
from tests.generators.filters.tiny_models import SENTENCES, one_thread, save_tiny_nli

pytestmark = pytest.mark.slow  # imports torch and transformers

single_thread = pytest.fixture(scope="module", autouse=True)(one_thread)

PREMISES = [SENTENCES[i % len(SENTENCES)] for i in range(11)]
HYPOTHESES = [SENTENCES[(3 * i + 1) % len(SENTENCES)] for i in range(11)]


@pytest.fixture(scope="module")
def nli_folder(tmp_path_factory) -> Path:
    return save_tiny_nli(tmp_path_factory.mktemp("nli") / "tiny-nli")


@pytest.fixture(scope="module")
def nli(nli_folder) -> EntailmentFilter:
    return EntailmentFilter(str(nli_folder), device="cpu", batch_size=4)


def test_probabilities_have_one_value_per_pair(nli) -> None:
    probs = nli.entailment_probs(PREMISES, HYPOTHESES)
    assert len(probs) == len(PREMISES)
    assert all(0.0 <= p <= 1.0 for p in probs)
    assert len(set(probs)) > 1  # different pairs, different scores
    assert nli.entailment_probs([], []) == []
    with pytest.raises(ValueError, match="2 premises but 1 hypotheses"):
        nli.entailment_probs(PREMISES[:2], HYPOTHESES[:1])


def test_order_is_restored_across_batches(nli, nli_folder) -> None:
    batched = nli.entailment_probs(PREMISES, HYPOTHESES)
    one_by_one = EntailmentFilter(str(nli_folder), device="cpu", batch_size=1)
    single = [
        one_by_one.entailment_probs([p], [h])[0] for p, h in zip(PREMISES, HYPOTHESES, strict=True)
    ]
    assert batched == pytest.approx(single, abs=1e-5)
    reversed_probs = nli.entailment_probs(PREMISES[::-1], HYPOTHESES[::-1])
    assert reversed_probs == pytest.approx(batched[::-1], abs=1e-5)


def test_probabilities_are_the_entailment_column(nli) -> None:
    import torch

    encoded = nli.tokenizer(PREMISES[:3], HYPOTHESES[:3], padding=True, return_tensors="pt")
    with torch.inference_mode():
        expected = nli.model(**encoded).logits.softmax(-1)[:, 2].tolist()
    assert nli.entailment_index == 2
    assert nli.entailment_probs(PREMISES[:3], HYPOTHESES[:3]) == pytest.approx(expected, abs=1e-5)


def test_deterministic_across_calls_and_loads(nli, nli_folder) -> None:
    first = nli.entailment_probs(PREMISES, HYPOTHESES)
    assert nli.entailment_probs(PREMISES, HYPOTHESES) == first
    again = EntailmentFilter(str(nli_folder), device="cpu", batch_size=4)
    assert again.entailment_probs(PREMISES, HYPOTHESES) == first


def test_entailed_applies_the_threshold(nli, nli_folder) -> None:
    probs = nli.entailment_probs(PREMISES, HYPOTHESES)
    middle = sorted(probs)[len(probs) // 2]
    cut = EntailmentFilter(str(nli_folder), device="cpu", threshold=middle)
    assert cut.entailed(PREMISES, HYPOTHESES) == [p >= middle for p in probs]
    assert any(cut.entailed(PREMISES, HYPOTHESES)) and not all(cut.entailed(PREMISES, HYPOTHESES))


def test_manifest_identity(nli, nli_folder) -> None:
    assert nli.model_id == str(nli_folder)
    assert nli.describe() == {
        "model": str(nli_folder),
        "threshold": 0.5,
        "batch_size": 4,
        "device": "cpu",
        "entailment_label": "ENTAILMENT",
    }


def test_label_lookup_is_case_insensitive(tmp_path) -> None:
    from transformers import PretrainedConfig

    lower_first = PretrainedConfig(id2label={0: "entailment", 1: "neutral", 2: "contradiction"})
    assert entailment_index(lower_first) == 0
    only_id2label = PretrainedConfig(id2label={0: "contradiction", 1: "Entailment"})
    only_id2label.label2id = {}
    assert entailment_index(only_id2label) == 1
    with pytest.raises(MissingResourceError, match="no 'entailment' label"):
        entailment_index(PretrainedConfig(id2label={0: "NEGATIVE", 1: "POSITIVE"}))

    folder = save_tiny_nli(
        tmp_path / "swapped", {0: "Entailment", 1: "Neutral", 2: "Contradiction"}
    )
    assert EntailmentFilter(str(folder), device="cpu").entailment_index == 0


def test_missing_model_name_is_one_clear_error() -> None:
    with pytest.raises(MissingResourceError, match="pass --nli a local folder") as info:
        EntailmentFilter("no-such-org/no-such-nli-model", local_files_only=True)
    assert "\n" not in str(info.value)


def test_missing_local_folder_is_one_clear_error(tmp_path) -> None:
    with pytest.raises(MissingResourceError, match=r"has no config\.json"):
        EntailmentFilter(str(tmp_path / "not-there"))


def test_length_batches_sort_longest_first() -> None:
    assert length_batches([3, 10, 1, 10, 5], 2) == [[1, 3], [4, 0], [2]]


def test_device_defaults_to_cuda_when_available() -> None:
    import torch

    from crepe_datasets.generators.filters.loading import resolve_device

    assert resolve_device(None) == ("cuda" if torch.cuda.is_available() else "cpu")
    assert resolve_device("cpu") == "cpu"
