#!/usr/bin/env python3
# oracle.py: Headroom's formulas against what PyTorch saves and allocates
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# For each configuration: build the reference model (model.py), run two
# training steps and measure the second (measure.py), plan the same
# configuration with headroom-cli (headroom.py), and compare.  Prints TAP:
# one line per configuration with the figures, and a summary.
#
#   python3 tests/reference/oracle.py --cli BUILD/src/headroom-cli \
#       --presets presets [--seed N] [--count 300] [--device cpu|cuda]
#
# docs/reference-oracle.md says what is compared, with which tolerance and
# why, and lists what the oracle cannot see.

import os

# oneDNN's AMX kernels (bf16 matmuls on Sapphire Rapids and later) need the
# kernel's permission for AMX tile data, which containers do not always
# grant: the process dies of SIGILL.  Capping oneDNN at AVX-512 BF16 keeps
# the same results on any CPU.  Before torch is imported.
os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX512_CORE_BF16")
os.environ.setdefault("DNNL_MAX_CPU_ISA", "AVX512_CORE_BF16")

import argparse
import glob
import json
import random
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import headroom  # noqa: E402

# Tolerances (docs/reference-oracle.md).
TOL_SAVED = 0.02        # saved activations, one layer and the whole model
SLACK_SAVED = 8 << 10   # ... beyond malloc's and the tensors' own overhead
TOL_PHASE = 0.05        # peaks of live memory per phase
SLACK_PHASE = 64 << 10  # ... beyond the allocator's small change (docs/reference-oracle.md)
TOL_BACKWARD = 0.10     # the backward pass's peak: two moments and one layer's working
                        # set, not the engine's op-by-op order (docs/reference-oracle.md)

LORA_ALL = ("q", "k", "v", "o", "gate", "up", "down")


def base_config():
    return {
        "kind": "decoder", "layers": 2, "hidden": 128, "heads": 4, "kv_heads": 4,
        "head_dim": 32, "ffn": 344, "mlp": "swiglu", "vocab": 512,
        "tied_embeddings": False, "norm": "rmsnorm", "bias": "none",
        "parallel_block": False, "norms_per_layer": 0, "learned_positions": 0,
        "experts": 1, "experts_active": 1, "expert_ffn": 0, "dropout": False,
        "head": "lm", "classes": 0, "qk_norm": "none", "lm_head_bias": False,
        "token_types": 0, "pooler": False,
        "method": "full", "lora_rank": 8, "lora_targets": list(LORA_ALL), "lora_dropout": 0.0,
        "precision": "fp32", "optimizer": "adamw", "optimizer_impl": "foreach",
        "micro_batch": 2, "seq_len": 64, "grad_accum": 1,
        "checkpointing": "none", "checkpoint_every": 1, "attention": "eager",
        "loss": "standard", "loss_chunk": 16, "logits_fp32": True, "zero_grad_to_none": True,
        "input_requires_grad": False, "seed": 0,
        "decoder_layers": 0, "position_buckets": 0, "post_norm": False, "target_len": 0,
        "ssm": "none", "ssm_state": 0, "ssm_conv": 0, "ssm_expand": 0, "ssm_dt_rank": 0,
        "ssm_head_dim": 0, "ssm_groups": 0, "ssm_bc_norm": False,
        "attn_layer_period": 0, "attn_layer_offset": 0,
        "expert_layer_period": 0, "expert_layer_offset": 0, "layer_pattern": "",
        "shared_blocks": 0, "shared_adapter_rank": 0, "shared_attention_adapters": False,
        "moe_latent_size": 0,
        "attention_kind": "standard", "q_lora_rank": 0, "kv_lora_rank": 0, "qk_nope_head_dim": 0,
        "qk_rope_head_dim": 0, "v_head_dim": 0, "shared_experts": 0, "dense_layers": 0, "mtp_modules": 0, "mtp_pattern": "",
        "vision": "none", "vision_layers": 0, "vision_hidden": 0, "vision_heads": 0,
        "vision_ffn": 0, "vision_patch": 0, "vision_image": 0, "vision_channels": 3,
        "vision_feature_layer": 0, "projector": "none", "projector_merge": 0,
        "images_per_sample": 0, "freeze_vision": False,
        "audio_mel_bins": 0, "audio_frames": 0,
    }


def finish(cfg):
    """Derived settings, the same for the reference and for Headroom."""
    if cfg["method"] == "lora" and cfg["checkpointing"] == "full":
        cfg["input_requires_grad"] = True
    if cfg["head"] != "lm":
        cfg["loss"] = "standard"
        cfg["tied_embeddings"] = False
        cfg["lm_head_bias"] = False
        cfg["lora_targets"] = [t for t in cfg["lora_targets"] if t != "lm_head"] or ["q"]
    cfg["loss_chunk"] = max(1, cfg["seq_len"] // 4)
    return cfg


def scale_width(cfg, factor):
    """The same configuration with every width times factor."""
    c = dict(cfg)
    c["hidden"] *= factor
    c["head_dim"] *= factor
    c["ffn"] *= factor
    c["expert_ffn"] *= factor
    for key in ("q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim",
                "vision_hidden", "vision_ffn", "moe_latent_size"):
        c[key] *= factor
    return c


def random_config(rng, index):
    c = base_config()
    c["seed"] = rng.randrange(1 << 30)
    c["kind"] = "encoder" if rng.random() < 0.15 else "decoder"
    dec = c["kind"] == "decoder"
    c["layers"] = rng.choice((1, 2, 2, 2, 3))
    # a·d from 32 to 128 (mostly 64): at the base width the constant terms
    # count, at 4 times it (--widths) the per-element ones dominate
    a, d = rng.choice(((2, 32), (4, 16), (4, 16), (4, 32), (8, 8), (8, 16)))
    c["heads"] = a
    c["kv_heads"] = rng.choice([k for k in (1, 2, 4, 8) if a % k == 0 and k <= a])
    c["head_dim"] = d
    c["hidden"] = 2 * a * d if a * d <= 64 and rng.random() < 0.2 else a * d
    h = c["hidden"]
    c["mlp"] = rng.choice(("swiglu", "geglu", "gelu", "relu"))
    gated = c["mlp"] in ("swiglu", "geglu")
    c["ffn"] = (8 * (8 * h // 3 // 8)) if gated else 4 * h
    if rng.random() < 0.3:
        c["ffn"] = 8 * rng.randrange(h // 8, 6 * h // 8 + 1)
    c["vocab"] = rng.choice((128, 256, 512))
    c["norm"] = "layernorm" if not dec else rng.choice(("rmsnorm", "layernorm"))
    c["bias"] = rng.choice(("none", "none", "qkv", "all"))
    c["dropout"] = rng.random() < 0.3
    s = rng.choice((16, 32, 32, 64))
    c["seq_len"] = s
    c["micro_batch"] = min(rng.choice((1, 2, 2, 4)), 128 // s)
    c["grad_accum"] = rng.choice((1, 1, 2))
    if dec:
        c["learned_positions"] = rng.choice((0, 0, 0, s, 2 * s))
        c["parallel_block"] = rng.random() < 0.15
        if c["parallel_block"]:
            c["norms_per_layer"] = rng.choice((0, 2))
        c["qk_norm"] = rng.choice(("none",) * 8 + ("head", "full"))
        if rng.random() < 0.2 and c["micro_batch"] * s >= 64:
            # with 64 tokens or more every expert gets some: one that got
            # none would have no gradient and no optimizer state
            c["experts"] = rng.choice((2, 4))
            c["experts_active"] = rng.choice([k for k in (1, 2) if k <= c["experts"]])
            c["expert_ffn"] = 8 * max(1, c["ffn"] // 16)
        c["head"] = "lm" if rng.random() < 0.9 else "classifier"
    else:
        c["learned_positions"] = s
        c["head"] = "classifier"
        c["token_types"] = rng.choice((0, 2))
        c["pooler"] = rng.random() < 0.5
    if c["head"] == "classifier":
        c["classes"] = rng.choice((2, 3, 10))
    else:
        c["tied_embeddings"] = rng.random() < 0.4
        c["lm_head_bias"] = rng.random() < 0.1
        c["loss"] = rng.choice(("standard", "standard", "chunked"))
        c["logits_fp32"] = rng.random() < 0.6
    if rng.random() < 0.4:
        c["method"] = "lora"
        c["lora_rank"] = rng.choice((2, 4, 8))
        n = rng.randrange(1, len(LORA_ALL) + 1)
        c["lora_targets"] = sorted(rng.sample(LORA_ALL, n), key=LORA_ALL.index)
        if not gated:
            # no gate projection to adapt in a plain MLP
            c["lora_targets"] = [t for t in c["lora_targets"] if t != "gate"] or ["up"]
        if c["head"] == "lm" and rng.random() < 0.1:
            c["lora_targets"].append("lm_head")
        # (an adapter on the token table in every 7th configuration, by its
        # number: no draw of its own, so that a seed's other configurations
        # stay as they were)
        if index % 7 == 3:
            c["lora_targets"].append("embed_tokens")
        c["lora_dropout"] = rng.choice((0.0, 0.1))
    c["precision"] = rng.choice(("fp32", "bf16-true", "amp-bf16"))
    if c["method"] == "lora" and c["precision"] == "amp-bf16" and c["loss"] == "chunked":
        # autocast casts a frozen head once per chunk (it caches only the
        # casts of trainable weights): Headroom has no chunk size
        # (docs/reference-oracle.md, what the oracle leaves out)
        c["loss"] = "standard"
    c["optimizer"] = rng.choice(("adamw", "adamw", "sgd", "sgd-momentum"))
    c["optimizer_impl"] = rng.choice(("foreach", "loop", "fused"))
    ck = rng.random()
    c["checkpointing"] = "none" if ck < 0.55 else "full"
    if c["checkpointing"] == "full" and c["layers"] >= 2 and rng.random() < 0.25:
        # 2, or 3 for an even count above 2: with 3 layers only the middle
        # one is wrapped, with 4 the third, neither the first nor the last
        # (no draw of its own, so that a seed's other configurations stay
        # as they were)
        c["checkpoint_every"] = 3 if c["layers"] > 2 and c["layers"] % 2 == 0 else 2
    c["attention"] = rng.choice(("eager", "flash", "sdpa"))
    c["zero_grad_to_none"] = rng.random() < 0.6
    # torchtitan's per-op checkpointing where it applies (opcheckpoint.py:
    # full training, no autocast, flash-like attention, a dense MLP), for
    # every second such configuration (no draw of its own)
    if (c["checkpointing"] == "full" and c["checkpoint_every"] == 1 and c["method"] == "full"
            and c["precision"] != "amp-bf16" and c["experts"] == 1 and c["attention"] != "eager"
            and index % 2 == 0):
        c["checkpointing"] = "op"
    c["name"] = "random %d" % index
    return finish(c)


def seq2seq_config(rng, index):
    """An encoder-decoder model (T5's pre-norm layers with or without its
    relative bias, or BART's post-norm ones), in the space Headroom plans
    for it (hr-validate.c, validate_encoder_decoder): multi-head attention,
    a dense MLP, an LM head, full training, every layer checkpointed or
    none.  Two layers or more per stack, so that the last layer of each is
    neither the one that saves the stack's shared inputs nor the first."""
    c = base_config()
    c["seed"] = rng.randrange(1 << 30)
    c["kind"] = "encoder-decoder"
    c["layers"] = rng.choice((2, 3))
    c["decoder_layers"] = rng.choice((2, 3))
    a, d = rng.choice(((2, 32), (4, 16), (4, 32), (8, 8), (8, 16)))
    c["heads"] = c["kv_heads"] = a
    c["head_dim"] = d
    c["hidden"] = h = a * d
    c["mlp"] = rng.choice(("swiglu", "geglu", "gelu", "relu"))
    gated = c["mlp"] in ("swiglu", "geglu")
    c["ffn"] = (8 * (8 * h // 3 // 8)) if gated else 4 * h
    c["vocab"] = rng.choice((128, 256, 512))
    c["tied_embeddings"] = rng.random() < 0.5
    c["post_norm"] = rng.random() < 0.4
    s = rng.choice((16, 32, 64))
    c["seq_len"] = s
    c["target_len"] = rng.choice((8, 16, 32, 0))
    st = c["target_len"] or s
    c["micro_batch"] = min(rng.choice((1, 2, 4)), 128 // max(s, st))
    c["grad_accum"] = rng.choice((1, 1, 2))
    if c["post_norm"]:
        c["norm"] = "layernorm"
        c["bias"] = rng.choice(("all", "none"))
        c["learned_positions"] = max(s, st) + 2
    else:
        c["norm"] = rng.choice(("rmsnorm", "rmsnorm", "layernorm"))
        c["bias"] = rng.choice(("none", "none", "qkv", "all"))
        if rng.random() < 0.5:
            c["position_buckets"] = rng.choice((8, 32))
    c["attention"] = "eager" if c["position_buckets"] else rng.choice(("eager", "flash", "sdpa"))
    c["dropout"] = rng.random() < 0.3
    c["logits_fp32"] = rng.random() < 0.6
    c["precision"] = rng.choice(("fp32", "bf16-true", "amp-bf16"))
    c["optimizer"] = rng.choice(("adamw", "adamw", "sgd", "sgd-momentum"))
    c["optimizer_impl"] = rng.choice(("foreach", "loop", "fused"))
    c["checkpointing"] = rng.choice(("none", "full"))
    c["zero_grad_to_none"] = rng.random() < 0.6
    c["name"] = "encoder-decoder %d" % index
    return finish(c)


def ssm_config(rng, index):
    """A state-space model (Mamba, Mamba-2) or a Jamba-like hybrid, in the
    space Headroom plans for them (hr-validate.c, validate_ssm): full
    training on one stage.  Compared for its counts and the bytes of its
    weights, gradients and optimizer states only (ssm.py says why)."""
    c = base_config()
    c["seed"] = rng.randrange(1 << 30)
    c["ssm"] = rng.choice(("mamba", "mamba", "mamba2"))
    c["ssm_state"] = rng.choice((4, 8, 16))
    c["ssm_conv"] = rng.choice((2, 4))
    c["ssm_expand"] = rng.choice((1, 2))
    hybrid = c["ssm"] == "mamba" and rng.random() < 0.5
    if hybrid:
        # Jamba's layout, scaled: attention every 2nd or 4th layer, experts
        # in every 2nd, the dt/B/C norms
        c["layers"] = 4
        c["attn_layer_period"], c["attn_layer_offset"] = rng.choice(((4, 2), (2, 1)))
        c["heads"], c["kv_heads"], c["head_dim"] = 4, rng.choice((1, 2, 4)), 16
        c["hidden"] = h = 64
        c["ffn"] = 8 * (8 * h // 3 // 8)
        c["ssm_bc_norm"] = True
        if rng.random() < 0.6:
            c["experts"], c["experts_active"] = 4, 2
            c["expert_layer_period"], c["expert_layer_offset"] = 2, 1
        c["attention"] = rng.choice(("eager", "flash"))
        # Bamba's layout instead, a third of the time: the mixers listed
        # one per layer, attention anywhere (its own generator, so that
        # the other draws and the seeds' replays stay as they were)
        own = random.Random(c["seed"] ^ 0x6d69786572)
        if own.random() < 1 / 3:
            mixers = [own.choice("M*") for _ in range(c["layers"])]
            mixers[own.randrange(c["layers"])] = "M"
            c["layer_mixers"] = "".join(mixers)
            c["attn_layer_period"] = c["attn_layer_offset"] = 0
    else:
        c["layers"] = rng.choice((2, 3))
        c["hidden"] = h = rng.choice((32, 64))
        c["heads"] = c["kv_heads"] = 1
        c["head_dim"] = h
        c["ffn"] = 0
        if c["ssm"] == "mamba2":
            c["ssm_head_dim"] = rng.choice((8, 16))
            heads = c["ssm_expand"] * h // c["ssm_head_dim"]
            c["ssm_groups"] = rng.choice([g for g in (1, 2, 4) if heads % g == 0])
        else:
            c["ssm_dt_rank"] = rng.choice((0, 0, 8))
        c["attention"] = "flash"
    c["vocab"] = rng.choice((128, 256))
    c["tied_embeddings"] = not hybrid and rng.random() < 0.7
    c["seq_len"] = rng.choice((8, 16))
    c["micro_batch"] = rng.choice((1, 2))
    if c.get("layer_mixers") and c["experts"] > 1:
        # 64 tokens, so that every expert gets some (random_config); the
        # periodic hybrids keep their draws as their replays have them
        c["seq_len"], c["micro_batch"] = 32, 2
    c["precision"] = rng.choice(("fp32", "bf16-true", "amp-bf16"))
    c["optimizer"] = rng.choice(("adamw", "adamw", "sgd", "sgd-momentum"))
    c["optimizer_impl"] = rng.choice(("foreach", "loop", "fused"))
    c["zero_grad_to_none"] = rng.random() < 0.6
    c["name"] = "state-space %d" % index
    return finish(c)


def deepseek_config(rng, index):
    """A DeepSeek-style decoder (DeepSeek-V2/V3 as Hugging Face writes
    them), in the space Headroom plans for it (hr-validate-deepseek.c):
    multi-head latent attention with or without a query latent, or standard
    attention; an MoE with shared experts and dense first layers, or a
    dense MLP; full training.  At least one MoE layer comes last, so that
    the layer compared is an MoE one when there are experts."""
    c = base_config()
    c["seed"] = rng.randrange(1 << 30)
    c["layers"] = rng.choice((2, 3))
    a = rng.choice((2, 4, 4, 8))
    c["heads"] = c["kv_heads"] = a
    c["hidden"] = h = a * rng.choice((16, 24, 32))
    c["head_dim"] = h // a
    if rng.random() < 0.8:
        c["attention_kind"] = "mla"
        c["q_lora_rank"] = rng.choice((0, 0, 32, 48))
        c["kv_lora_rank"] = rng.choice((16, 32, 48))
        c["qk_nope_head_dim"] = rng.choice((8, 16, 24))
        c["qk_rope_head_dim"] = rng.choice((8, 16))
        c["v_head_dim"] = rng.choice((8, 16, 24))
    c["mlp"] = rng.choice(("swiglu", "swiglu", "gelu"))
    c["ffn"] = 8 * rng.randrange(4 * h // 8, 8 * h // 8 + 1)
    if rng.random() < 0.75:
        # (as random_config: few enough experts that every one gets tokens;
        # an idle one would run no matmul and cast no weight)
        c["experts"] = rng.choice((2, 4))
        c["experts_active"] = rng.choice((1, 2))
        c["expert_ffn"] = 8 * rng.randrange(max(1, h // 16), h // 4 + 1)
        c["shared_experts"] = rng.choice((0, 1, 2))
        c["dense_layers"] = rng.randrange(0, c["layers"])
    c["vocab"] = rng.choice((128, 256, 512))
    c["tied_embeddings"] = False
    c["norm"] = "rmsnorm"
    s = rng.choice((32, 64))
    c["seq_len"] = s
    c["micro_batch"] = min(rng.choice((1, 2, 4)), 128 // s)
    c["grad_accum"] = rng.choice((1, 1, 2))
    c["attention"] = rng.choice(("eager", "flash", "sdpa"))
    if c["attention"] == "flash" and c["v_head_dim"] > c["qk_nope_head_dim"] + c["qk_rope_head_dim"]:
        c["attention"] = "sdpa"      # Hugging Face pads V for FlashAttention-2, never cuts it
    c["dropout"] = rng.random() < 0.2
    c["logits_fp32"] = rng.random() < 0.6
    c["precision"] = rng.choice(("fp32", "bf16-true", "amp-bf16"))
    c["optimizer"] = rng.choice(("adamw", "adamw", "sgd"))
    c["optimizer_impl"] = rng.choice(("foreach", "loop", "fused"))
    c["checkpointing"] = rng.choice(("none", "none", "full"))
    c["zero_grad_to_none"] = rng.random() < 0.6
    # DeepSeek-V3's multi-token-prediction modules, by the configuration's
    # number (no draw of its own): none, one or two, with experts
    c["mtp_modules"] = index % 3 if c["experts"] > 1 else 0
    c["name"] = "deepseek %d%s" % (index, " mtp %d" % c["mtp_modules"] if c["mtp_modules"] else "")
    return finish(c)


def ssm_lora_config(rng, index):
    """A state-space model (ssm_config's) fine-tuned with LoRA on the
    linears its layers call as modules (hr-validate-ssm.c): a Mamba or
    Mamba-2 model without a layer pattern on in_proj, the one linear PEFT's
    adapters train in Hugging Face's Mamba; a Jamba-like hybrid on any of
    in_proj, x_proj and out_proj (JambaMambaMixer calls them as modules)
    and the attention's and MLPs' q, k, v, o, gate, up, down.  Compared, as
    every SSM configuration, for its counts and the bytes of its weights,
    gradients and optimizer states."""
    c = ssm_config(rng, index)
    c["method"] = "lora"
    c["lora_rank"] = rng.choice((2, 4, 8))
    if c.get("attn_layer_period") or c.get("layer_mixers"):
        names = LORA_ALL + ("in_proj", "x_proj", "out_proj", "embed_tokens")
        n = rng.randrange(1, len(names) + 1)
        c["lora_targets"] = sorted(rng.sample(names, n), key=names.index)
    else:
        c["lora_targets"] = ["in_proj"]
    c["lora_dropout"] = rng.choice((0.0, 0.1))
    c["name"] = "ssm lora %d" % index
    return finish(c)


def pattern_config(rng, index):
    """A Nemotron-H-style layer pattern (model.layer_pattern): 3 to 5
    blocks, each a norm and one module.  Without SSM blocks (attention,
    MLP and expert blocks only, two in three configurations) every figure
    is compared, the attention-only and MLP-only blocks'
    (hr_activations_attention_block, hr-activations-ssm.c) among them; with
    Mamba-2 blocks, as every SSM configuration, the counts and the bytes of
    weights, gradients and optimizer states.  Full training or LoRA on the
    attention and MLP linears (and in_proj)."""
    c = base_config()
    c["seed"] = rng.randrange(1 << 30)
    ssm = rng.random() < 1 / 3
    experts = rng.random() < 0.3
    c["layers"] = n = rng.choice((3, 4, 5))
    blocks = ["*", "-"] + (["E"] if experts else []) + (["M"] if ssm else [])
    pattern = blocks + [rng.choice(blocks) for _ in range(n - len(blocks))] if n >= len(blocks) else blocks
    rng.shuffle(pattern)
    c["layers"] = len(pattern)
    c["layer_pattern"] = "".join(pattern)
    a, d = rng.choice(((2, 16), (4, 16), (4, 8)))
    c["heads"], c["head_dim"] = a, d
    c["kv_heads"] = rng.choice([k for k in (1, 2, 4) if a % k == 0 and k <= a])
    c["hidden"] = h = a * d
    c["mlp"] = rng.choice(("relu2", "relu2", "swiglu", "gelu"))
    gated = c["mlp"] == "swiglu"
    c["ffn"] = 8 * (8 * h // 3 // 8) if gated else 4 * h
    c["vocab"] = rng.choice((128, 256))
    s = rng.choice((16, 32))
    c["seq_len"] = s
    c["micro_batch"] = rng.choice((1, 2)) if not experts else 2
    if experts:
        # with 32 tokens or more every expert gets some (random_config)
        c["seq_len"] = 32
        c["experts"], c["experts_active"] = 4, 2
        c["expert_ffn"] = 8 * max(1, c["ffn"] // 16)
    if ssm:
        c["ssm"] = "mamba2"
        c["ssm_state"] = rng.choice((4, 8))
        c["ssm_conv"] = 4
        c["ssm_expand"] = 2
        c["ssm_head_dim"] = 8
        c["ssm_groups"] = rng.choice((1, 2))
    c["tied_embeddings"] = rng.random() < 0.3
    if rng.random() < 0.35:
        c["method"] = "lora"
        c["lora_rank"] = rng.choice((2, 4))
        names = [t for t in LORA_ALL if gated or t != "gate"] + (["in_proj"] if ssm else [])
        k = rng.randrange(1, len(names) + 1)
        c["lora_targets"] = sorted(rng.sample(names, k), key=names.index)
        c["lora_dropout"] = rng.choice((0.0, 0.1))
    c["precision"] = rng.choice(("fp32", "bf16-true", "amp-bf16"))
    c["optimizer"] = rng.choice(("adamw", "adamw", "sgd-momentum"))
    c["optimizer_impl"] = rng.choice(("foreach", "fused"))
    c["checkpointing"] = rng.choice(("none", "none", "full"))
    c["attention"] = rng.choice(("eager", "flash", "sdpa"))
    c["zero_grad_to_none"] = rng.random() < 0.6
    if experts:
        # Nemotron-H's MoE block has shared experts beside the routed ones
        # (NemotronHMoE.shared_experts): 0 to 2 by the configuration's
        # number, no draw of its own
        c["shared_experts"] = (index // 2) % 3
        # ... and, fully trained, every second one a latent MoE (its
        # NemotronHMoE with moe_latent_size: the experts over h / 2), by the
        # number too
        if c["method"] == "full" and (index // 3) % 2:
            c["moe_latent_size"] = h // 2
    # ... and, fully trained, every fourth one prediction modules of an
    # attention and an expert block (Nemotron 3 Super's "*E"), or of
    # attention and the MLP without experts, by the number too
    if c["method"] == "full" and index % 4 == 1:
        c["mtp_modules"] = 1 + (index // 4) % 2
        c["mtp_pattern"] = "*E" if experts else "*-"
    c["name"] = "pattern %s %d%s%s" % (c["layer_pattern"], index,
                                       " latent" if c.get("moe_latent_size") else "",
                                       " mtp %d %s" % (c["mtp_modules"], c["mtp_pattern"])
                                       if c.get("mtp_modules") else "")
    return finish(c)


def deepseek_lora_config(rng, index):
    """A DeepSeek-style decoder (deepseek_config) fine-tuned with LoRA, as
    PEFT adapts Hugging Face's DeepSeek: q the query projections (q_proj,
    or q_a_proj and q_b_proj), k kv_a_proj_with_mqa, v kv_b_proj, o
    o_proj, gate/up/down every MLP's (the routed experts', the shared
    experts', the dense first layers'); no LM head adapter, no fused QKV,
    no DoRA (hr-validate-deepseek.c)."""
    c = deepseek_config(rng, index)
    c["mtp_modules"] = 0      # (Hugging Face's DeepSeek builds no MTP module)
    c["method"] = "lora"
    c["lora_rank"] = rng.choice((2, 4, 8))
    n = rng.randrange(1, len(LORA_ALL) + 1)
    c["lora_targets"] = sorted(rng.sample(LORA_ALL, n), key=LORA_ALL.index)
    if c["mlp"] not in ("swiglu", "geglu"):
        c["lora_targets"] = [t for t in c["lora_targets"] if t != "gate"] or ["up"]
    c["lora_dropout"] = rng.choice((0.0, 0.1))
    if c["precision"] == "amp-bf16" and c["loss"] == "chunked":
        c["loss"] = "standard"    # (as random_config: no chunk size in Headroom)
    c["name"] = "deepseek lora %d" % index
    return finish(c)


def vision_config(rng, index):
    """A vision-language model (vision.py): LLaVA's (a CLIP tower of 1 to
    3 layers whose features come from its last layer or the one before,
    LLaVA's vision_feature_layer -2, and the mlp2x_gelu projector) or
    Qwen2-VL's (2 or 3 blocks, the patch merger of 2 x 2 patches), 1 or 2
    images per sample of 4 to 16 patches, and a Llama-style language model;
    the tower trained, frozen (training.freeze_vision) or, with LoRA on
    the language model, part of the frozen base; in the space Headroom
    plans for it (hr-validate-vision.c).  The patch's pixels (3·p²) stay
    under the tower's width, as CLIP's 588 under 1024."""
    c = base_config()
    c["seed"] = rng.randrange(1 << 30)
    c["layers"] = rng.choice((1, 2, 2))
    a, d = rng.choice(((2, 32), (4, 16), (4, 16), (8, 8), (8, 16)))
    c["heads"] = a
    c["kv_heads"] = rng.choice([k for k in (1, 2, 4) if a % k == 0 and k <= a])
    c["head_dim"] = d
    c["hidden"] = h = a * d
    c["mlp"] = rng.choice(("swiglu", "swiglu", "gelu"))
    c["ffn"] = (8 * (8 * h // 3 // 8)) if c["mlp"] == "swiglu" else 4 * h
    c["vocab"] = rng.choice((128, 256, 512))
    c["bias"] = rng.choice(("none", "none", "qkv"))
    c["tied_embeddings"] = rng.random() < 0.2
    # (which tower and which training by the number, so that a dozen
    # configurations cover each pairing: no draw of their own)
    qwen = index % 3 == 1
    hv = rng.choice((32, 64))
    c["vision_hidden"], c["vision_heads"], c["vision_ffn"] = hv, hv // 16, 4 * hv
    c["vision_patch"] = 2 if hv == 32 else 4
    if qwen:
        # Qwen2-VL: 2 or 3 blocks, all of them read (no feature layer),
        # 2 x 2 patches merged into each image token
        c["vision"], c["projector"], c["projector_merge"] = "qwen2-vl", "patch_merger", 2
        c["vision_layers"] = rng.choice((2, 3))
        c["vision_image"] = c["vision_patch"] * rng.choice((2, 4))
    else:
        c["vision"], c["projector"] = "clip", "mlp2x_gelu"
        c["vision_layers"] = rng.choice((1, 2, 3))
        c["vision_image"] = c["vision_patch"] * rng.choice((2, 3, 4))
        if c["vision_layers"] >= 2 and rng.random() < 0.5:
            c["vision_feature_layer"] = c["vision_layers"] - 1
    c["images_per_sample"] = rng.choice((1, 1, 2))
    P = (c["vision_image"] // c["vision_patch"]) ** 2 // (c["projector_merge"] or 1) ** 2
    c["seq_len"] = s = rng.choice([n for n in (32, 64) if c["images_per_sample"] * P + 4 <= n])
    c["micro_batch"] = min(rng.choice((1, 2, 2)), 128 // s)
    c["grad_accum"] = rng.choice((1, 1, 2))
    kind = ("full", "full", "frozen", "lora")[index % 4]
    if kind == "frozen":
        c["freeze_vision"] = True
    elif kind == "lora":
        c["method"] = "lora"
        c["lora_rank"] = rng.choice((2, 4, 8))
        n = rng.randrange(1, len(LORA_ALL) + 1)
        c["lora_targets"] = sorted(rng.sample(LORA_ALL, n), key=LORA_ALL.index)
        if c["mlp"] != "swiglu":
            c["lora_targets"] = [t for t in c["lora_targets"] if t != "gate"] or ["up"]
        c["lora_dropout"] = rng.choice((0.0, 0.1))
    c["precision"] = rng.choice(("fp32", "bf16-true", "amp-bf16"))
    c["attention"] = rng.choice(("eager", "flash", "sdpa"))
    c["optimizer"] = rng.choice(("adamw", "adamw", "sgd"))
    c["optimizer_impl"] = rng.choice(("foreach", "loop", "fused"))
    c["checkpointing"] = rng.choice(("none", "full"))
    c["logits_fp32"] = rng.random() < 0.6
    c["zero_grad_to_none"] = rng.random() < 0.6
    c["name"] = "vision %d" % index
    return finish(c)


def audio_config(rng, index):
    """Whisper (modeling_whisper.py): an encoder-decoder whose encoder reads
    log-mel frames through its convolutional stem and a frozen sinusoidal
    table, pre-norm LayerNorm layers with every bias but k_proj's, GELU
    MLPs, a learned decoder table, the head tied; in the space Headroom
    plans for it (hr-validate.c: multi-head attention, full training,
    every layer checkpointed or none, seq_len = audio_frames)."""
    c = base_config()
    c["seed"] = rng.randrange(1 << 30)
    c["kind"] = "encoder-decoder"
    c["layers"] = rng.choice((2, 3))
    c["decoder_layers"] = rng.choice((2, 3))
    a, d = rng.choice(((2, 32), (4, 16), (4, 32), (8, 8)))
    c["heads"] = c["kv_heads"] = a
    c["head_dim"] = d
    c["hidden"] = h = a * d
    c["mlp"], c["ffn"] = "gelu", 4 * h
    c["norm"], c["bias"] = "layernorm", "all-but-k"
    c["vocab"] = rng.choice((128, 256, 512))
    c["tied_embeddings"] = True
    c["audio_mel_bins"] = rng.choice((8, 16, 32))
    c["audio_frames"] = c["seq_len"] = rng.choice((16, 32, 64))
    c["target_len"] = rng.choice((8, 16, 32))
    c["learned_positions"] = c["target_len"] + rng.choice((0, 8))
    c["micro_batch"] = min(rng.choice((1, 2, 4)), 128 // c["seq_len"])
    c["grad_accum"] = rng.choice((1, 1, 2))
    c["attention"] = rng.choice(("eager", "flash", "sdpa"))
    c["logits_fp32"] = rng.random() < 0.6
    c["precision"] = rng.choice(("fp32", "bf16-true", "amp-bf16"))
    c["optimizer"] = rng.choice(("adamw", "adamw", "sgd", "sgd-momentum"))
    c["optimizer_impl"] = rng.choice(("foreach", "loop", "fused"))
    c["checkpointing"] = rng.choice(("none", "full"))
    c["zero_grad_to_none"] = rng.random() < 0.6
    c["name"] = "audio %d" % index
    return finish(c)


# Configurations that once failed, replayed on every run beside the random
# ones: (seed, number, the Headroom formula the failure corrected).
REGRESSIONS = (
    (294901, 230, "the optimizer loop's largest matrix: an all-MoE model's ffn counted, not its experts'"),
    (294901, 239, "a Q/K norm under autocast makes K fp32: its 16-bit cast copies the repeated K"),
    (5150, 31, "a chunked loss's backward holds the gradients of one chunk's log-probabilities and logits"),
)


# ... and of the layer-pattern generator (its stream: seed·7919 + 8)
PATTERN_REGRESSIONS = (
    (2024, 20, "under LoRA the blocks before the first adapted one keep nothing"),
    (2024, 2, "autocast's cache under full checkpointing: each wrapped block's own casts"),
    (1, 4, "a hybrid stage's recomputation: the largest of its kinds'"),
    (3, 29, "a latent MoE under autocast: its experts read 16-bit tokens, one copy for all"),
)


def regression_configs():
    out = []
    for seed, index, _why in REGRESSIONS:
        rng = random.Random(seed)
        for i in range(index + 1):
            c = random_config(rng, i)
        c["name"] = "regression %d/%d" % (seed, index)
        out.append(c)
    for seed, index, _why in PATTERN_REGRESSIONS:
        rng = random.Random(seed * 7919 + 8)
        for i in range(index + 1):
            c = pattern_config(rng, i)
        c["name"] = "regression pattern %d/%d" % (seed, index)
        out.append(c)
    return out


def preset_configs(presets_dir):
    """The bundled model presets, scaled down: 2 layers, 4 heads (GQA and
    MQA kept as ratios), head_dim 16, the widths in proportion."""
    out = []
    for path in sorted(glob.glob(os.path.join(presets_dir, "models", "*.json"))):
        with open(path) as f:
            m = json.load(f)["model"]
        if m.get("patch_dim", 0):
            continue      # vision encoders: no patch embedding in the reference
        if m.get("vision") == "mllama":
            c = mllama_preset(m, os.path.splitext(os.path.basename(path))[0])
            out.append(c)
            # ... with its tower trained too, and under full checkpointing
            out.append(finish(dict(c, name=c["name"] + " tower", freeze_vision=False)))
            out.append(finish(dict(c, name=c["name"] + " checkpointed", checkpointing="full")))
            # ... and under LoRA on every linear of both kinds of layer
            out.append(finish(dict(c, name=c["name"] + " lora", method="lora", lora_rank=4,
                                   lora_targets=list(LORA_ALL), lora_dropout=0.0)))
            continue
        if m.get("ssm", "none") != "none":
            c = ssm_preset(m, os.path.splitext(os.path.basename(path))[0])
            out.append(c)
            if "S" in c.get("layer_pattern", ""):
                out.append(shared_lora_preset(c))
            continue
        c = base_config()
        pid = os.path.splitext(os.path.basename(path))[0]
        c["name"] = "preset " + pid
        c["seed"] = sum(map(ord, pid))
        a0, k0 = m["heads"], m.get("kv_heads", m["heads"])
        d0 = m.get("head_dim") or m["hidden"] // a0
        a = 4
        k = max(1, a * k0 // a0) if k0 < a0 else a
        d = 16
        h0 = m["hidden"]
        h = max(a, round(h0 * a * d / (a0 * d0) / a) * a)
        for key in ("kind", "mlp", "tied_embeddings", "norm", "bias", "parallel_block",
                    "dropout", "head", "lm_head_bias", "pooler"):
            if key in m:
                c[key] = m[key]
        c.update(layers=2, heads=a, kv_heads=k, head_dim=d, hidden=h)
        ffn0 = m.get("ffn", 0)
        c["ffn"] = 8 * max(1, round(ffn0 * h / h0 / 8)) if ffn0 else 0
        c["experts"] = min(m.get("experts", 1), 4)
        c["experts_active"] = min(m.get("experts_active", 1), c["experts"])
        if m.get("expert_ffn"):
            c["expert_ffn"] = 8 * max(1, round(m["expert_ffn"] * h / h0 / 8))
        if c["ffn"] == 0 and c["experts"] <= 1:
            c["ffn"] = c["expert_ffn"]
        if m.get("attention_kind") == "mla":
            # the latent's ranks and head widths in the same proportions
            c["attention_kind"] = "mla"
            c["q_lora_rank"] = 48 if m.get("q_lora_rank") else 0
            c["kv_lora_rank"] = 16
            c["qk_nope_head_dim"] = 16
            c["qk_rope_head_dim"] = 8
            c["v_head_dim"] = 16
        c["shared_experts"] = min(m.get("shared_experts", 0), 2) if c["experts"] > 1 else 0
        c["dense_layers"] = min(m.get("dense_layers", 0), 1) if c["experts"] > 1 else 0
        c["norms_per_layer"] = m.get("norms_per_layer", 0)
        c["qk_norm"] = m.get("qk_norm", "none")
        c["token_types"] = m.get("token_types", 0)
        c["vocab"] = min(m.get("vocab", 512), 1024) or 512
        c["classes"] = m.get("classes", 0) or (2 if c["head"] != "lm" else 0)
        c["seq_len"] = 64
        c["learned_positions"] = 64 if m.get("learned_positions") else 0
        if c["kind"] == "encoder":
            c["learned_positions"] = 64
            if c["head"] == "lm":
                c["head"] = "classifier"      # an MLM head's transform is not modelled
                c["classes"] = 2
        c["precision"] = "amp-bf16"
        c["attention"] = "flash" if c["kind"] == "decoder" else "sdpa"
        c["optimizer_impl"] = "fused"
        if c["kind"] == "encoder-decoder":
            # 2 + 2 layers, a 32-token target; T5's bias needs eager attention
            c["decoder_layers"] = 2
            c["target_len"] = 32
            c["post_norm"] = m.get("post_norm", False)
            c["position_buckets"] = min(m.get("position_buckets", 0), 32)
            c["learned_positions"] = 66 if m.get("learned_positions") else 0
            c["attention"] = "eager" if c["position_buckets"] else "flash"
            if m.get("audio_mel_bins", 0):
                # Whisper: 16 mel bins, the 64 frames the sequence is, the
                # decoder's table as long as its 32 tokens
                c["audio_mel_bins"], c["audio_frames"] = 16, c["seq_len"]
                c["learned_positions"] = c["target_len"]
        if m.get("vision", "none") != "none":
            c.update(vision_preset(m, h))
        out.append(finish(c))
    return out


def vision_preset(m, h):
    """A vision-language preset's tower scaled down: 2 layers (the first
    the feature layer where the preset's is not the last), 4 heads of 16,
    the MLP in proportion, 16 patches of 4 x 4 pixels, one image."""
    v = {key: m[key] for key in ("vision", "projector") if key in m}
    hv = 64
    v.update(vision_layers=2, vision_hidden=hv, vision_heads=4,
             vision_ffn=8 * max(1, round(m["vision_ffn"] * hv / m["vision_hidden"] / 8)),
             vision_patch=4, vision_image=16, vision_channels=3,
             vision_feature_layer=1 if 0 < m.get("vision_feature_layer", 0) < m["vision_layers"] else 0,
             projector_merge=min(m.get("projector_merge", 0), 2), images_per_sample=1)
    return v


def mllama_preset(m, pid):
    """Llama 3.2 Vision scaled down (mllama.py): 4 language layers, the
    second and fourth gated cross-attention layers (period 2, offset 1), 4
    heads of 16 (GQA kept), 64 wide; a frozen tower of 2 local and 1
    global layers 32 wide over 2 tiles of 2 x 2 patches, one intermediate
    layer's output beside the last; one image a sample, in bf16 (the
    plans cover Llama 3.2 Vision without autocast, with SDPA)."""
    c = base_config()
    c["name"] = "preset " + pid
    c["seed"] = sum(map(ord, pid))
    for key in ("mlp", "tied_embeddings", "norm", "vision", "projector"):
        c[key] = m[key]
    c.update(layers=4, heads=4, kv_heads=max(1, 4 * m["kv_heads"] // m["heads"]), head_dim=16,
             hidden=64, vocab=256, seq_len=32, micro_batch=2)
    c["ffn"] = 8 * (8 * 64 // 3 // 8)
    c.update(cross_attn_layer_period=2, cross_attn_layer_offset=1,
             vision_layers=2, vision_global_layers=1, vision_hidden=32, vision_heads=2,
             vision_ffn=128, vision_patch=4, vision_image=8, vision_channels=3,
             vision_tiles=2, vision_aspect_ratios=m["vision_aspect_ratios"],
             vision_intermediate_layers=1, images_per_sample=1, freeze_vision=True)
    c["precision"] = "bf16-true"
    c["attention"] = "sdpa"
    c["optimizer_impl"] = "fused"
    return finish(c)


def ssm_preset(m, pid):
    """A state-space preset scaled down: its mixer and layer pattern, 64
    wide; a hybrid keeps its period and offsets over one period of
    layers (two, with experts every second), state 8, 16 tokens."""
    c = base_config()
    c["name"] = "preset " + pid
    c["seed"] = sum(map(ord, pid))
    for key in ("ssm", "ssm_bc_norm", "attn_layer_offset", "expert_layer_period",
                "expert_layer_offset", "tied_embeddings", "mlp", "norm"):
        if key in m:
            c[key] = m[key]
    c["hidden"] = h = 64
    c["ssm_state"], c["ssm_conv"], c["ssm_expand"] = 8, m.get("ssm_conv", 4), m.get("ssm_expand", 2)
    if c["ssm"] == "mamba2":
        c["ssm_head_dim"], c["ssm_groups"] = 16, min(m.get("ssm_groups", 1), 2)
    period = m.get("attn_layer_period", 0)
    if m.get("layer_pattern") and "S" in m["layer_pattern"]:
        # Zamba2's: three Mamba-2 layers, two of them hybrid (each S before
        # its M), the preset's shared blocks (at most two) taken in turn;
        # attention 2h wide (heads x head_dim), the preset's adapters
        c["layer_pattern"] = "MSMSM"
        c["layers"] = 5
        c["heads"] = c["kv_heads"] = 4
        c["head_dim"] = 2 * h // 4
        c["ffn"] = 8 * (8 * h // 3 // 8)
        c["shared_blocks"] = min(m["shared_blocks"], 2)
        c["shared_adapter_rank"] = 8 if m.get("shared_adapter_rank") else 0
        c["shared_attention_adapters"] = m.get("shared_attention_adapters", False)
        c["ssm_expand"] = m.get("ssm_inner", 2 * m["hidden"]) // m["hidden"]
    elif m.get("layer_pattern"):
        # Nemotron-H's pattern: one block of each kind, in the order the
        # preset's first has them (M-* for the 8B)
        c["layer_pattern"] = "".join(dict.fromkeys(m["layer_pattern"]))
        c["layers"] = len(c["layer_pattern"])
        c["heads"], c["kv_heads"], c["head_dim"] = 4, 2, 16
        c["ffn"] = 4 * h if c["mlp"] not in ("swiglu", "geglu") else 8 * (8 * h // 3 // 8)
        if "E" in c["layer_pattern"]:
            c["experts"] = min(m.get("experts", 1), 4)
            c["experts_active"] = min(m.get("experts_active", 1), c["experts"])
            c["shared_experts"] = min(m.get("shared_experts", 0), 2)
            # Nemotron 3 Super's latent MoE: the experts over h / 2 here,
            # as the pattern configurations run it
            if m.get("moe_latent_size"):
                c["moe_latent_size"] = h // 2
    elif m.get("layer_mixers"):
        # Bamba's mixers: one layer of each kind, in the order the
        # preset's first has them (M* for the 9B), each with its MLP
        c["layer_mixers"] = "".join(dict.fromkeys(m["layer_mixers"]))
        c["layers"] = len(c["layer_mixers"])
        c["heads"], c["kv_heads"], c["head_dim"] = 4, 2, 16
        c["ffn"] = 8 * (8 * h // 3 // 8)
        # Granite 4.0-H's: experts in every layer and the shared MLP
        if m.get("experts", 1) > 1:
            c["experts"] = min(m["experts"], 4)
            c["experts_active"] = min(m.get("experts_active", 1), c["experts"])
            c["shared_experts"] = min(m.get("shared_experts", 0), 2)
            c["expert_ffn"] = c["ffn"]
    elif period:
        c["attn_layer_period"] = period
        c["layers"] = period
        c["heads"], c["kv_heads"], c["head_dim"] = 4, 2, 16
        c["ffn"] = 8 * (8 * h // 3 // 8)
        c["experts"] = min(m.get("experts", 1), 4)
        c["experts_active"] = min(m.get("experts_active", 1), c["experts"])
    else:
        c["layers"] = 2
        c["heads"] = c["kv_heads"] = 1
        c["head_dim"] = h
        c["ffn"] = 0
    c["vocab"] = 256
    c["seq_len"] = 16
    # (Zamba2's blocks in bf16: under autocast the shared weights' casts
    # would be tagged to their first use, not to the use compared)
    c["precision"] = "bf16-true" if "S" in c.get("layer_pattern", "") else "amp-bf16"
    c["attention"] = "flash"
    c["optimizer_impl"] = "fused"
    return finish(c)


def shared_lora_preset(c):
    """A Zamba2 preset (ssm_preset's) fine-tuned with LoRA as PEFT adapts
    Hugging Face's Zamba2: in_proj of every Mamba layer, and on the shared
    blocks, once each, the attention's q, k, v, o and the MLP's
    gate_up_proj (gate and up together) and down; with dropout or without
    by the preset's seed.  in_proj adapted makes every layer after the
    first need an input gradient, as the shared block check's M, S, M and
    M, M stacks both have it."""
    c = dict(c)
    c["name"] += " lora"
    c["method"] = "lora"
    c["lora_rank"] = 4
    odd = (c["seed"] // 2) % 2
    c["lora_targets"] = (["q", "k", "v", "o", "gate", "up", "down", "in_proj"] if odd
                         else ["q", "v", "down", "in_proj"])
    c["lora_dropout"] = 0.1 if odd else 0.0
    return finish(c)


class Check:
    def __init__(self):
        self.rows = []      # (quantity, expected, measured, tolerance, ok)

    def exact(self, what, hr, ref):
        self.rows.append((what, hr, ref, 0.0, hr == ref))

    def near(self, what, hr, ref, tol, slack=0):
        self.rows.append((what, hr, ref, tol, abs(hr - ref) <= tol * abs(ref) + slack))

    def ok(self):
        return all(r[4] for r in self.rows)

    def line(self):
        parts = []
        for what, hr, ref, tol, ok in self.rows:
            if tol == 0.0:
                parts.append("%s %d%s" % (what, ref, "" if ok else " (headroom %d)" % hr))
            else:
                dev = (hr - ref) / ref * 100 if ref else 0.0
                parts.append("%s %+.1f%%%s" % (what, dev, "" if ok else "!"))
        return ", ".join(parts)


def pattern_block_adapted(cfg, char):
    """Whether a layer pattern's block holds an adapter of cfg's."""
    t = set(cfg["lora_targets"])
    if char == "*":
        return bool(t & {"q", "k", "v", "o"})
    if char == "M":
        return bool(t & {"in_proj", "x_proj", "out_proj"})
    return bool(t & {"gate", "up", "down"})


def compare(cfg, hr, device, fields, sampler="allocator"):
    """One configuration: measure, plan, compare.  Returns (Check, notes)."""
    import measure

    ref = measure.measure(cfg, device, sampler)
    every = cfg["checkpoint_every"] if cfg["checkpointing"] == "full" else 1
    direct = every == 1 or "training.checkpoint_every" in fields

    def plan(layers=None, ck=None):
        sc = headroom.scenario(cfg, layers, ck)
        if every > 1 and direct:
            sc["training"]["checkpoint_every"] = every
        return hr.plan(sc)

    L = cfg["layers"]
    p = plan()
    chk = Check()
    chk.exact("params", p.params, ref["params"])
    chk.exact("trainable", p.trainable, ref["trainable"])
    if cfg.get("ranks", 1) > 1:
        # one rank of N (--device cuda, untested): its phases; its tensors
        # are DTensors, whose shards and views the byte counts below do
        # not follow
        chk.near("forward", p.phase["forward"], ref["forward_end"], TOL_PHASE, SLACK_PHASE)
        chk.near("backward", p.backward(), ref["backward_peak"], TOL_BACKWARD, SLACK_PHASE)
        chk.near("step", p.phase["optimizer step"], ref["step_peak"], TOL_PHASE, SLACK_PHASE)
        chk.near("peak", p.allocated, ref["peak"], TOL_BACKWARD, SLACK_PHASE)
        return chk, ["one rank of %d (%s)" % (cfg["ranks"], cfg["parallel"])], ref, p
    chk.exact("weight bytes", p.weights(), ref["weight_bytes"])
    states = p.item("optimizer states")
    chk.exact("state bytes", states or 0, ref["state_bytes"])
    grads = p.item("gradients")
    if grads is not None:
        chk.exact("grad bytes", grads, ref["grad_bytes"])
    notes = []
    if cfg["ssm"] != "none":
        # the naive scan's saved tensors are not the fused kernels' (ssm.py)
        notes.append("activations: the fused kernels' save lists (test-activations), "
                     "not a naive scan's")
        if "S" in cfg.get("layer_pattern", "") and cfg["checkpointing"] == "none":
            # ... but a Zamba2 shared block's are a transformer's: one use
            # (the pattern's second S, tagged by its layer) against the
            # plan of an M, S, M stack less that of an M, M one
            def stack(pattern):
                sc = headroom.scenario(cfg)
                sc["model"].update(layer_pattern=pattern, layers=len(pattern))
                if "S" not in pattern:
                    sc["model"].update(shared_blocks=0, shared_adapter_rank=0,
                                       shared_attention_adapters=False)
                else:
                    sc["model"]["shared_blocks"] = 1
                return hr.plan(sc).forward_extra()
            use = cfg["layer_pattern"].rindex("S")
            chk.near("shared block saved", stack("MSM") - stack("MM"), ref["saved_detail_total"](use),
                     TOL_SAVED, SLACK_SAVED)
        return chk, notes, ref, p
    if direct and every == 1:
        p1 = plan(L + 1)
        layer = p1.forward_extra() - p.forward_extra()
        whole = p.forward_extra()
    elif direct:
        # every N-th layer: the last layer is wrapped as in the plan of L
        # layers, and the plan of L - 1 lacks exactly that layer
        layer = p.forward_extra() - plan(L - 1).forward_extra() if L >= 2 else None
        whole = p.forward_extra()
    else:
        # Headroom has no checkpoint_every (docs/scenario-format.md, "Not
        # yet accepted"): its per-layer figures, full and none, combined as
        # a plan with checkpoint_every would combine them.
        full0, full1 = plan(L, "full"), plan(L + 1, "full")
        none0, none1 = plan(L, "none"), plan(L + 1, "none")
        ck_layer = full1.forward_extra() - full0.forward_extra()
        plain_layer = none1.forward_extra() - none0.forward_extra()
        n_ck = len([i for i in range(L) if (i + 1) % every == 0])
        # the head and the embeddings as the full plan has them (the
        # checkpointed first layer makes the input need a gradient)
        whole = full0.forward_extra() - L * ck_layer + n_ck * ck_layer + (L - n_ck) * plain_layer
        layer = ck_layer if L % every == 0 else plain_layer
        notes.append("phases not compared: no training.checkpoint_every in Headroom")
    # One layer: the last, which is a middle one but in a one-layer model;
    # the first layer of a LoRA model without full checkpointing keeps less
    # (hr_activations_first_layer), compared only as part of the model.
    first_differs = cfg["method"] == "lora" and cfg["checkpointing"] != "full"
    # DeepSeek's dense first layers cast fewer weights than its MoE ones:
    # the reference spreads autocast's cache of a checkpointed forward over
    # the layers evenly (measure.py, cast_share), Headroom's one more layer
    # is an MoE one; the whole model compares them
    uneven_casts = ((cfg.get("dense_layers", 0) > 0 or len(set(cfg.get("layer_pattern", ""))) > 1)
                    and cfg["precision"] == "amp-bf16" and cfg["checkpointing"] == "full")
    # A layer pattern under LoRA: the blocks before the first with an
    # adapter keep nothing, and the first keeps what a first layer keeps
    # (hr-activations-ssm.c, unadapted_lead); where that reaches the last
    # layer, the last is no middle one
    pattern = cfg.get("layer_pattern", "")
    if pattern and first_differs:
        adapted = [pattern_block_adapted(cfg, c) for c in pattern]
        if True not in adapted[:-1]:
            first_differs_last = True
            notes.append("layer saved not compared: no adapter before the last block")
        else:
            first_differs_last = False
    else:
        first_differs_last = False
    if cfg.get("vision") == "mllama":
        notes.append("layer saved not compared: the plan's layer is the self- and cross-attention "
                     "layers' average")
    elif uneven_casts:
        notes.append("layer saved not compared: autocast's cache spread over layers of different kinds")
    elif first_differs_last:
        pass
    elif layer is not None and (L >= 2 or not first_differs):
        chk.near("layer saved", layer, ref["saved_layer"], TOL_SAVED, SLACK_SAVED)
    if cfg["kind"] == "encoder-decoder":
        # one more decoder layer: its self-attention, cross-attention and MLP
        more = headroom.scenario(cfg)
        more["model"]["decoder_layers"] += 1
        dec_layer = hr.plan(more).forward_extra() - p.forward_extra()
        chk.near("decoder layer saved", dec_layer, ref["saved_decoder_layer"], TOL_SAVED, SLACK_SAVED)
    if cfg.get("vision", "none") not in ("none", "mllama") and cfg["method"] == "full":
        # the tower's last layer the loss reaches, and the projector
        # (hr-activations-vision.c), where they train: the plan lists only
        # the items alive at its peak, so from its forward phase, as one
        # layer's: the images' share (the language model's sequence
        # counts their tokens whatever their number), and one more layer
        # run up to the feature layer
        # the projector's share from a plan with the tower frozen, which
        # leaves the language model and the projector as they are; what is
        # left of the images' share is the tower's embeddings' (and, under
        # autocast, the casts of the layers after the feature layer)
        def vplan(images=None, feature=None, freeze=None):
            sc = headroom.scenario(cfg)
            if images is not None:
                sc["training"]["images_per_sample"] = images
            if feature is not None:
                sc["model"]["vision_feature_layer"] = feature
                # one more layer, the layers after the feature layer as
                # many (under autocast their casts stay in the cache)
                sc["model"]["vision_layers"] = cfg["vision_layers"] + feature - run
            if freeze is not None:
                sc["training"]["freeze_vision"] = freeze
            return hr.plan(sc).forward_extra()

        run = cfg["vision_feature_layer"] or cfg["vision_layers"]
        images = p.forward_extra() - vplan(images=0)
        projector = vplan(freeze=True) - vplan(images=0, freeze=True)
        if not cfg["freeze_vision"]:
            v_layer = vplan(feature=run + 1) - p.forward_extra()
            chk.near("vision layer saved", v_layer, ref["saved_vision_layer"], TOL_SAVED, SLACK_SAVED)
            chk.near("vision embeddings saved", images - run * v_layer - projector,
                     ref["saved_vision_embed"], TOL_SAVED, SLACK_SAVED)
        chk.near("projector saved", projector, ref["saved_projector"], TOL_SAVED, SLACK_SAVED)
    chk.near("model saved", whole, ref["saved_total"], TOL_SAVED, SLACK_SAVED)
    if direct:
        chk.near("forward", p.phase["forward"], ref["forward_end"], TOL_PHASE, SLACK_PHASE)
        chk.near("backward", p.backward(), ref["backward_peak"], TOL_BACKWARD, SLACK_PHASE)
        chk.near("step", p.phase["optimizer step"], ref["step_peak"], TOL_PHASE, SLACK_PHASE)
        # the peak is the backward's in most runs, with the same tolerance
        backward_peak = (ref["peak"] == ref["backward_peak"]
                         or p.dev["peak_phase"] in headroom.PHASES[1:4])
        chk.near("peak", p.allocated, ref["peak"], TOL_BACKWARD if backward_peak else TOL_PHASE,
                 SLACK_PHASE)
    return chk, notes, ref, p


def describe(cfg):
    keys = ("kind", "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn", "mlp", "vocab",
            "norm", "bias", "experts", "experts_active", "method", "precision", "optimizer",
            "optimizer_impl", "micro_batch", "seq_len", "grad_accum", "checkpointing",
            "attention", "loss")
    s = " ".join("%s=%s" % (k, cfg[k]) for k in keys)
    flags = [k for k in ("tied_embeddings", "dropout", "parallel_block", "logits_fp32",
                         "zero_grad_to_none", "lm_head_bias", "pooler") if cfg[k]]
    if cfg["learned_positions"]:
        flags.append("positions=%d" % cfg["learned_positions"])
    if cfg["qk_norm"] != "none":
        flags.append("qk_norm=" + cfg["qk_norm"])
    if cfg["method"] == "lora":
        flags.append("lora=r%d:%s:%g" % (cfg["lora_rank"], ",".join(cfg["lora_targets"]),
                                          cfg["lora_dropout"]))
    if cfg["checkpointing"] == "full" and cfg["checkpoint_every"] > 1:
        flags.append("every=%d" % cfg["checkpoint_every"])
    if cfg["head"] != "lm":
        flags.append("classes=%d" % cfg["classes"])
    if cfg.get("attention_kind") == "mla":
        flags.append("mla=q%d:kv%d:nope%d:rope%d:v%d" % (cfg["q_lora_rank"], cfg["kv_lora_rank"],
                                                        cfg["qk_nope_head_dim"], cfg["qk_rope_head_dim"],
                                                        cfg["v_head_dim"]))
    if cfg.get("vision", "none") != "none":
        flags.append("vision=%s:L%d:F%d:h%d:a%d:f%d:p%d:img%d:x%d%s %s" % (
            cfg["vision"], cfg["vision_layers"], cfg["vision_feature_layer"], cfg["vision_hidden"],
            cfg["vision_heads"], cfg["vision_ffn"], cfg["vision_patch"], cfg["vision_image"],
            cfg["images_per_sample"], ":frozen" if cfg["freeze_vision"] else "", cfg["projector"]))
    if cfg.get("shared_experts") or cfg.get("dense_layers"):
        flags.append("shared=%d dense=%d expert_ffn=%d" % (cfg["shared_experts"], cfg["dense_layers"],
                                                          cfg["expert_ffn"]))
    return s + (" " + " ".join(flags) if flags else "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cli", required=True, help="the built headroom-cli")
    ap.add_argument("--presets", required=True, help="Headroom's presets folder")
    ap.add_argument("--seed", type=int, default=None,
                    help="seed of the random configurations (default: from the time, printed)")
    ap.add_argument("--count", type=int, default=300, help="random configurations")
    ap.add_argument("--seq2seq", type=int, default=30, help="random encoder-decoder configurations")
    ap.add_argument("--ssm", type=int, default=12, help="random state-space and hybrid configurations")
    ap.add_argument("--deepseek", type=int, default=30,
                    help="random DeepSeek-style configurations (latent attention, shared experts, dense first layers)")
    ap.add_argument("--pattern", type=int, default=12,
                    help="random Nemotron-H-style layer patterns of attention, MLP, expert and Mamba-2 blocks")
    ap.add_argument("--ssm-lora", type=int, default=8,
                    help="random Mamba and Mamba-2 configurations with LoRA on in_proj, and hybrids on any linear")
    ap.add_argument("--deepseek-lora", type=int, default=16,
                    help="random DeepSeek-style configurations fine-tuned with LoRA")
    ap.add_argument("--vision", type=int, default=12,
                    help="random vision-language configurations (LLaVA's CLIP tower and projector or "
                         "Qwen2-VL's tower and patch merger; trained, frozen or under LoRA)")
    ap.add_argument("--audio", type=int, default=6,
                    help="random Whisper-style configurations (the convolutional audio stem)")
    ap.add_argument("--widths", default="1,4",
                    help="width factors each configuration is run at (default 1,4)")
    ap.add_argument("--no-presets", action="store_true", help="leave out the preset list")
    ap.add_argument("--only", type=int, default=None, help="run only the configuration of this number")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("--ranks", type=int, default=1,
                    help="with --device cuda: one rank of N, FSDP2 or tensor parallelism over a fake "
                         "process group (untested)")
    ap.add_argument("--parallel", default="fsdp", choices=("fsdp", "tp"),
                    help="with --ranks: FSDP2 (ZeRO-3) or tensor parallelism")
    ap.add_argument("--sampler", default="allocator", choices=("allocator", "heap"),
                    help="on the CPU: tensor bytes from the profiler's allocator events (default), "
                         "or the heap (mallinfo2) after every op, autograd's graph included")
    ap.add_argument("--verbose", action="store_true", help="print each saved tensor of failures")
    args = ap.parse_args(argv)

    try:
        import torch  # noqa: F401
    except ImportError:
        print("1..0 # SKIP python3 cannot import torch (apt-get install python3-torch)")
        return 0
    if args.device == "cuda" and not torch.cuda.is_available():
        print("1..0 # SKIP --device cuda: no CUDA device")
        return 0
    if args.ranks > 1 and args.device != "cuda":
        print("1..0 # SKIP --ranks needs --device cuda")
        return 0

    seed = args.seed if args.seed is not None else int(time.time()) % 1000000
    rng = random.Random(seed)
    configs = [random_config(rng, i) for i in range(args.count)]
    # encoder-decoder models from a generator of their own, so that a
    # seed's other configurations stay as they were
    rng2 = random.Random(seed * 7919 + 1)
    configs += [seq2seq_config(rng2, i) for i in range(args.seq2seq)]
    rng3 = random.Random(seed * 7919 + 2)
    configs += [ssm_config(rng3, i) for i in range(args.ssm)]
    # DeepSeek-style decoders, likewise
    rng4 = random.Random(seed * 7919 + 3)
    configs += [deepseek_config(rng4, i) for i in range(args.deepseek)]
    # Mamba and Mamba-2 with LoRA on in_proj, likewise
    rng8 = random.Random(seed * 7919 + 7)
    configs += [ssm_lora_config(rng8, i) for i in range(args.ssm_lora)]
    # ... and the same fine-tuned with LoRA, likewise
    rng7 = random.Random(seed * 7919 + 6)
    configs += [deepseek_lora_config(rng7, i) for i in range(args.deepseek_lora)]
    # vision-language models, likewise
    rng5 = random.Random(seed * 7919 + 4)
    configs += [vision_config(rng5, i) for i in range(args.vision)]
    # Whisper-style encoder-decoders, likewise
    rng6 = random.Random(seed * 7919 + 5)
    configs += [audio_config(rng6, i) for i in range(args.audio)]
    # Nemotron-H-style layer patterns, likewise
    rng9 = random.Random(seed * 7919 + 8)
    configs += [pattern_config(rng9, i) for i in range(args.pattern)]
    if not args.no_presets:
        configs += regression_configs() + preset_configs(args.presets)
    widths = [int(w) for w in args.widths.split(",")]
    hr = headroom.Headroom(args.cli, args.presets)
    r = __import__("subprocess").run([args.cli, "--list", "fields"], capture_output=True, text=True,
                                     env=hr.env)
    fields = {line.split()[0] for line in r.stdout.splitlines() if line.strip()}

    runs = [(i, c, w) for i, c in enumerate(configs) for w in widths]
    if args.only is not None:
        runs = [r for r in runs if r[0] == args.only]
    print("# headroom reference oracle: seed %d (replay: --seed %d), %d configurations x widths %s, device %s"
          % (seed, seed, len(configs), args.widths, args.device))
    print("1..%d" % len(runs))
    worst = {}
    transient = (0.0, "", 0)
    failed = 0
    t0 = time.time()
    for n, (i, cfg, w) in enumerate(runs, 1):
        cfg = dict(scale_width(cfg, w), device=args.device, ranks=args.ranks, parallel=args.parallel)
        label = "%s x%d [%d]" % (cfg["name"], w, i)
        t_run = time.time()
        try:
            chk, notes, ref, plan = compare(cfg, hr, args.device, fields, args.sampler)
        except Exception as e:  # a configuration the reference or Headroom refuses
            failed += 1
            print("not ok %d - %s: %s" % (n, label, e))
            print("  # " + describe(cfg))
            for line in traceback.format_exc().splitlines()[-6:]:
                print("  # " + line)
            continue
        for what, hv, rv, tol, ok in chk.rows:
            dev = abs(hv - rv) / rv if rv else (0.0 if hv == rv else float("inf"))
            key = (what, w)
            if dev >= worst.get(key, (-1.0,))[0]:
                worst[key] = (dev, label, hv, rv)
        ft = ref["forward_transient"] / ref["peak"] if ref["peak"] else 0.0
        if ft > transient[0]:
            transient = (ft, label, ref["forward_transient"])
        label += " %.1fs" % (time.time() - t_run)
        if chk.ok():
            print("ok %d - %s: %s%s" % (n, label, chk.line(), ("; " + "; ".join(notes)) if notes else ""))
        else:
            failed += 1
            print("not ok %d - %s: %s" % (n, label, chk.line()))
            print("  # " + describe(cfg))
            sys.stdout.flush()
            for what, hv, rv, tol, ok in chk.rows:
                if not ok:
                    print("  # %s: headroom %d, reference %d" % (what, hv, rv))
            if args.verbose:
                for ptr, (nb, tag, shape, dt) in sorted(ref["saved_detail"].items(), key=lambda x: str(x[1][1])):
                    print("  #   saved %s %s %s %d" % (tag, shape, dt, nb))
                for it in plan.items:
                    print("  #   item %s %d %s" % (it["name"], it["bytes"], it["live_in"]))
                print("  #   phases %s" % plan.phase)
                print("  #   measured %s" % {k: v for k, v in ref.items() if k != "saved_detail"})
    print("# %d of %d runs pass (%d configurations), %.0f s; seed %d"
          % (len(runs) - failed, len(runs), len(configs), time.time() - t0, seed))
    for (what, w), (dev, label, hv, rv) in sorted(worst.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        print("# largest deviation at width x%d, %-12s %6.2f%%  (%s: headroom %d, reference %d)"
              % (w, what + ":", dev * 100, label, hv, rv))
    if transient[1]:
        print("# largest forward transient beyond every planned moment: %.2f%% of the peak, %d bytes (%s)"
              % (transient[0] * 100, transient[2], transient[1]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
