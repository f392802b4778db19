"""Any HuggingFace dual encoder through the Auto classes: CLIP, SigLIP and ALIGN, tiny and random.

Each model is written to a folder (no download), loaded by its ``hf:`` spec and evaluated end to
end on the demo dataset; its embeddings are checked against the model's own forward pass (the
logits it computes from the same texts and pixels rank the same way as our cosines), and SigLIP's
texts are padded to its 64 positions, as it was trained.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from crepe_datasets.evaluator.backends import hf_text_padding
from crepe_datasets.evaluator.models import load_model
from crepe_datasets.evaluator.records import read_records
from crepe_datasets.evaluator.tiny import (
    TINY_OPEN_CLIP_CFG,
    write_tiny_hf_align,
    write_tiny_hf_clip,
    write_tiny_hf_siglip,
    write_tiny_open_clip,
)
from crepe_datasets.scripts.cli import main

WRITERS = {
    "clip": (write_tiny_hf_clip, "softmax(exp(logit_scale) * cosine)", True, 77),
    "siglip": (write_tiny_hf_siglip, "sigmoid(exp(logit_scale) * cosine + logit_bias)", "max_length", 64),
    "align": (write_tiny_hf_align, "softmax(cosine / temperature)", "max_length", 64),
}  # fmt: skip


@pytest.fixture(scope="module")
def hf_models(tmp_path_factory, demo) -> dict:
    root = tmp_path_factory.mktemp("hf-models")
    return {name: w[0](root / name, demo[2]) for name, w in WRITERS.items()}


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_loads_with_its_own_padding_and_scores_like_its_forward(kind, hf_models, demo) -> None:
    from PIL import Image

    _, images, texts = demo
    model = load_model(f"hf:{hf_models[kind]}", device="cpu")
    _, rule, padding, length = WRITERS[kind]
    assert model.score_rule == rule
    assert (model.tokenize.padding, model.tokenize.max_length) == (padding, length)
    tokens = model.tokenize(texts[:3])
    if padding == "max_length":
        assert tokens["input_ids"].shape == (3, length)
    crops = [Image.open(p).convert("RGB") for p in sorted(images.glob("*_square.png"))[:4]]
    img, txt = model.encode_images(crops), model.encode_texts(texts[:3])
    assert torch.allclose(img.norm(dim=-1), torch.ones(4), atol=1e-5)
    pixels = torch.stack([model.preprocess(c) for c in crops])
    with torch.inference_mode():
        logits = model.model(pixel_values=pixels, **tokens).logits_per_image
    cos = (img @ txt.T).double()
    assert np.array_equal(logits.argsort(dim=1).numpy(), cos.argsort(dim=1).numpy())
    if kind == "siglip":  # sigmoid(exp(t) * cos + b) is the model's own logit
        scale, bias = model.model.logit_scale.exp(), model.model.logit_bias
        assert torch.allclose(logits, (cos.float() * scale + bias), atol=1e-4)


def test_padding_rules_of_model_types() -> None:
    class Text:
        max_position_embeddings = 64

    assert hf_text_padding("siglip", Text()) == ("max_length", 64)
    assert hf_text_padding("siglip2", Text()) == ("max_length", 64)
    assert hf_text_padding("align", Text()) == ("max_length", 64)
    assert hf_text_padding("clip", Text()) == (True, 64)


@pytest.mark.slow
def test_evaluate_records_name_the_scoring_rule(hf_models, demo, tmp_path) -> None:
    dataset, images, _ = demo
    sig_oc = write_tiny_open_clip(
        tmp_path / "oc-sig", cfg={**TINY_OPEN_CLIP_CFG, "init_logit_bias": -10.0}
    )
    args = ["evaluate", "--dataset", f"{dataset}:hn_atom", "--images", str(images),
            "--out", str(tmp_path / "results"), "--device", "cpu", "--batch-size", "4",
            "--bootstrap", "50", "--model", f"open_clip:{sig_oc}"]  # fmt: skip
    for folder in hf_models.values():
        args += ["--model", f"hf:{folder}"]
    assert main(args) == 0
    records = read_records(tmp_path / "results")
    rules = {r.model_spec: r.score_rule for r in records}
    assert rules == {
        **{f"hf:{hf_models[k]}": WRITERS[k][1] for k in WRITERS},
        f"open_clip:{sig_oc}": "sigmoid(exp(logit_scale) * cosine + logit_bias)",
    }
    assert all(r.n == 6 and r.metrics for r in records)
