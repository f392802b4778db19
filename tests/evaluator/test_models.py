"""Model specs, QuickGELU for OpenAI weights, offline errors, and the common encoder interface."""

from __future__ import annotations

import json

import pytest
import torch

from crepe_datasets.evaluator.models import is_openai_derived, load_model, parse_model_spec
from crepe_datasets.evaluator.tiny import TINY_OPEN_CLIP_CFG
from crepe_datasets.infra.errors import CrepeInputError, MissingResourceError


def test_parse_specs(tmp_path) -> None:
    assert parse_model_spec("open_clip:ViT-B-32/laion400m_e32") == (
        "open_clip",
        "ViT-B-32",
        "laion400m_e32",
    )
    assert parse_model_spec("hf:openai/clip-vit-base-patch32") == (
        "hf",
        "openai/clip-vit-base-patch32",
        None,
    )
    ckpt = tmp_path / "ViT-B-32.pt"
    ckpt.write_bytes(b"x")
    assert parse_model_spec(f"open_clip:ViT-B-32@{ckpt}") == ("open_clip", "ViT-B-32", str(ckpt))
    (tmp_path / "oc").mkdir()
    (tmp_path / "oc" / "open_clip_config.json").write_text("{}")
    assert parse_model_spec(str(tmp_path / "oc")) == (
        "open_clip",
        f"local-dir:{tmp_path / 'oc'}",
        None,
    )
    with pytest.raises(CrepeInputError, match="does not exist"):
        parse_model_spec(f"open_clip:ViT-B-32@{tmp_path / 'missing.pt'}")
    with pytest.raises(CrepeInputError, match="not understood"):
        parse_model_spec("ViT-B-32")


def test_quick_gelu_for_openai_weights() -> None:
    assert is_openai_derived("ViT-B-32", "openai")
    assert is_openai_derived("ViT-B-32", "/models/ViT-B-32.pt")
    assert is_openai_derived("RN50", "/ckpt/openai/rn50.bin")
    assert not is_openai_derived("ViT-B-32", "laion400m_e32")
    assert not is_openai_derived("ViT-B-32-quickgelu", "openai")
    assert not is_openai_derived("ViT-B-32", None)


@pytest.mark.slow
def test_names_not_cached_fail_offline(monkeypatch) -> None:
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(MissingResourceError, match="not available offline"):
        load_model("open_clip:ViT-B-32/laion400m_e32", device="cpu")
    with pytest.raises(MissingResourceError, match="not cached"):
        load_model("hf:some-org/no-such-clip-model", device="cpu")
    with pytest.raises(CrepeInputError, match="no architecture"):
        load_model("open_clip:NoSuchNet/openai", device="cpu")


def test_checkpoint_by_name_and_path_and_interface(tmp_path) -> None:
    import open_clip
    from PIL import Image

    cfg_file = tmp_path / "crepe-tiny-test.json"
    cfg_file.write_text(json.dumps(TINY_OPEN_CLIP_CFG))
    open_clip.add_model_config(cfg_file)
    torch.manual_seed(0)
    ckpt = tmp_path / "openai-tiny.pt"
    torch.save(open_clip.CLIP(**TINY_OPEN_CLIP_CFG, quick_gelu=True).state_dict(), ckpt)
    model = load_model(f"open_clip:crepe-tiny-test@{ckpt}", device="cpu", precision="amp")
    assert (
        model.quick_gelu
        and model.precision == "fp32"
        and model.model_id.startswith("open_clip:crepe-tiny-test@openai-tiny.pt#")
    )
    images = model.encode_images(
        [Image.new("RGB", (40, 30), (250, 0, 0)), Image.new("RGB", (20, 50), (0, 0, 250))]
    )
    texts = model.encode_texts(["a red thing", "a blue thing", "a red thing"])
    assert images.shape == (2, 32) and texts.shape == (3, 32)
    assert torch.allclose(images.norm(dim=-1), torch.ones(2), atol=1e-5)
    assert torch.equal(texts[0], texts[2])
    with pytest.raises(CrepeInputError, match="needs a CUDA device"):
        load_model(f"open_clip:crepe-tiny-test@{ckpt}", device="cpu", precision="fp16")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_fp32_on_cuda_runs_convolutions_without_tf32(tmp_path) -> None:
    from crepe_datasets.evaluator.tiny import write_tiny_open_clip

    model = load_model(
        f"open_clip:{write_tiny_open_clip(tmp_path)}", device="cuda", precision="fp32"
    )
    before = torch.backends.cudnn.allow_tf32
    with model._autocast():
        assert torch.backends.cudnn.allow_tf32 is False
    assert torch.backends.cudnn.allow_tf32 == before
