# headroom.py: an oracle configuration as a Headroom scenario, and its plan
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The scenario names every field the configuration decides (nothing is
# left to a preset or a default), on one GPU without ZeRO, with every
# overhead (CUDA context, NCCL, fragmentation, headroom) at 0: the plan's
# allocated bytes are then the tensors alone, as the reference measures.

import json
import os
import subprocess
import tempfile

PHASES = ("forward", "loss backward", "backward (first layers)",
          "backward (last layers)", "optimizer step")


def pattern_for(cfg, layers):
    """A layer pattern for LAYERS layers: the configuration's, cut, or
    grown by blocks of its last one's kind (the oracle's one more layer is
    a copy of the last, whose tensors it measures)."""
    pattern = cfg.get("layer_pattern", "")
    if not pattern or layers is None:
        return pattern
    return pattern[:layers] + pattern[-1] * max(0, layers - len(pattern))


def scenario(cfg, layers=None, checkpointing=None):
    sc = _scenario(cfg, layers, checkpointing)
    if cfg.get("ranks", 1) > 1:
        import distributed
        sc["parallel"].update(distributed.scenario_parallel(cfg))
    return sc


def _scenario(cfg, layers=None, checkpointing=None):
    lora = cfg["method"] == "lora"
    ck = checkpointing or cfg["checkpointing"]
    training = {
        "method": cfg["method"],
        "lora": {"rank": cfg["lora_rank"], "targets": list(cfg["lora_targets"]),
                 "dropout": cfg["lora_dropout"], "fused_qkv": False},
        "precision": cfg["precision"],
        "optimizer": cfg["optimizer"],
        "optimizer_impl": cfg["optimizer_impl"],
        "micro_batch": cfg["micro_batch"],
        "seq_len": cfg["seq_len"],
        "target_len": cfg.get("target_len", 0),
        "grad_accum": cfg["grad_accum"],
        "checkpointing": ck,
        "attention": cfg["attention"],
        "loss": cfg["loss"],
        "loss_chunk_tokens": cfg["loss_chunk"],
        "logits_fp32": cfg["logits_fp32"],
        "zero_grad_to_none": cfg["zero_grad_to_none"],
        "optimizer_in_backward": False,
        "activation_offloading": False,
        "previous_graph_alive": False,
    }
    if not lora:
        training["lora"] = {"rank": 16, "targets": "all-linear", "dropout": 0}
    vision = {}
    if cfg.get("vision", "none") != "none":
        # a vision-language model (vision.py): its tower and projector, the
        # images of each sample (seq_len counts their tokens)
        training["images_per_sample"] = cfg["images_per_sample"]
        training["freeze_vision"] = cfg["freeze_vision"]
        vision = {key: cfg[key] for key in (
            "vision", "vision_layers", "vision_hidden", "vision_heads", "vision_ffn",
            "vision_patch", "vision_image", "vision_channels", "vision_feature_layer",
            "projector", "projector_merge")}
        if cfg["vision"] == "mllama":
            # Llama 3.2 Vision (mllama.py): its tiles, global layers and
            # the gated cross-attention layers of the language model
            vision.update({key: cfg[key] for key in (
                "vision_tiles", "vision_global_layers", "vision_aspect_ratios",
                "vision_intermediate_layers", "cross_attn_layer_period", "cross_attn_layer_offset")})
            vision.pop("vision_feature_layer")
            vision.pop("projector_merge")
    sc = {
        "headroom": 1,
        "name": "oracle",
        "model": {
            "name": "oracle model",
            "kind": cfg["kind"],
            "layers": layers if layers is not None else cfg["layers"],
            "hidden": cfg["hidden"],
            "heads": cfg["heads"],
            "kv_heads": cfg["kv_heads"],
            "head_dim": 0 if cfg.get("attention_kind") == "mla" else cfg["head_dim"],
            "ffn": cfg["ffn"],
            "mlp": cfg["mlp"],
            "vocab": cfg["vocab"],
            "tied_embeddings": cfg["tied_embeddings"],
            "norm": cfg["norm"],
            "bias": cfg["bias"],
            "parallel_block": cfg["parallel_block"],
            "learned_positions": cfg["learned_positions"],
            "experts": cfg["experts"],
            "experts_active": cfg["experts_active"],
            "dropout": cfg["dropout"],
            "head": cfg["head"],
            "classes": cfg["classes"],
            "expert_ffn": cfg["expert_ffn"],
            "norms_per_layer": cfg["norms_per_layer"],
            "qk_norm": cfg["qk_norm"],
            "lm_head_bias": cfg["lm_head_bias"],
            "token_types": cfg["token_types"],
            "pooler": cfg["pooler"],
            "patch_dim": 0,
            "decoder_layers": cfg.get("decoder_layers", 0),
            "position_buckets": cfg.get("position_buckets", 0),
            "post_norm": cfg.get("post_norm", False),
            "ssm": cfg.get("ssm", "none"),
            "ssm_state": cfg.get("ssm_state", 0),
            "ssm_conv": cfg.get("ssm_conv", 0),
            "ssm_expand": cfg.get("ssm_expand", 0),
            "ssm_dt_rank": cfg.get("ssm_dt_rank", 0),
            "ssm_head_dim": cfg.get("ssm_head_dim", 0),
            "ssm_groups": cfg.get("ssm_groups", 0),
            "ssm_bc_norm": cfg.get("ssm_bc_norm", False),
            "attn_layer_period": cfg.get("attn_layer_period", 0),
            "attn_layer_offset": cfg.get("attn_layer_offset", 0),
            "expert_layer_period": cfg.get("expert_layer_period", 0),
            "expert_layer_offset": cfg.get("expert_layer_offset", 0),
            "layer_pattern": pattern_for(cfg, layers),
            "moe_latent_size": cfg.get("moe_latent_size", 0) if "E" in pattern_for(cfg, layers) else 0,
            "layer_mixers": cfg.get("layer_mixers", ""),
            "shared_blocks": cfg.get("shared_blocks", 0),
            "shared_adapter_rank": cfg.get("shared_adapter_rank", 0),
            "shared_attention_adapters": cfg.get("shared_attention_adapters", False),
            "attention_kind": cfg.get("attention_kind", "standard"),
            "q_lora_rank": cfg.get("q_lora_rank", 0),
            "kv_lora_rank": cfg.get("kv_lora_rank", 0),
            "qk_nope_head_dim": cfg.get("qk_nope_head_dim", 0),
            "qk_rope_head_dim": cfg.get("qk_rope_head_dim", 0),
            "v_head_dim": cfg.get("v_head_dim", 0),
            "shared_experts": cfg.get("shared_experts", 0),
            "dense_layers": cfg.get("dense_layers", 0),
            "mtp_modules": cfg.get("mtp_modules", 0),
            "mtp_pattern": cfg.get("mtp_pattern", ""),
        },
        "training": training,
        "parallel": {
            "gpus": 1, "gpus_per_node": 1, "tp": 1, "pp": 1, "vpp": 1, "cp": 1,
            "ep": 1, "sp": False, "zero": 0, "shard_group": 0,
            "offload_optimizer": False, "offload_params": False, "no_sync": False,
        },
        "gpu": {"name": "oracle GPU", "memory_mib": 1048576},
        "overhead": {"cuda_context_mib": 0, "comm_buffer_mib": 0,
                     "fragmentation": 0, "headroom": 0},
    }
    sc["model"].update(vision)
    if cfg.get("audio_mel_bins", 0):
        # Whisper's audio encoder: its frames are the encoder's sequence
        sc["model"]["audio_mel_bins"] = cfg["audio_mel_bins"]
        sc["model"]["audio_frames"] = cfg["audio_frames"]
    return sc


class Headroom:
    def __init__(self, cli, presets):
        self.cli = cli
        self.env = dict(os.environ, HEADROOM_PRESETS_DIR=presets, LC_ALL="C.UTF-8")
        self.dir = tempfile.mkdtemp(prefix="headroom-oracle-")
        self.n = 0

    def plan(self, sc):
        self.n += 1
        path = os.path.join(self.dir, "s%d.json" % (self.n % 4))
        with open(path, "w") as f:
            json.dump(sc, f)
        r = subprocess.run([self.cli, path, "--format", "json"], env=self.env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("headroom-cli: %s" % (r.stderr.strip() or r.stdout.strip()))
        return Plan(json.loads(r.stdout))


class Plan:
    def __init__(self, data):
        self.data = data
        dev = data["devices"][0]
        self.dev = dev
        self.params = data["model"]["params"]
        self.trainable = data["model"]["trainable_params"]
        # cuBLAS's workspaces, which the plan counts in every phase: the
        # reference has none on the CPU, and its CUDA meter makes them
        # before it measures (measure.py _warm_cuda)
        workspaces = sum(i["bytes"] for i in dev["items"] if i["name"] == "BLAS workspaces")
        self.items = [i for i in dev["items"] if i["name"] != "BLAS workspaces"]
        self.phase = {k: v - workspaces for k, v in dev["phase_bytes"].items()}
        self.allocated = dev["allocated_bytes"] - workspaces

    # The parts a model state is split into (src/core/hr-calc-parts.c):
    # "expert gradients" is a part of "gradients".
    PARTS = ("", "expert ", "shared-expert ", "encoder ", "decoder ", "shared-block ")

    def item(self, name):
        """Bytes of the listed item(s) called name before their type, their
        parts included, or None."""
        names = {part + name for part in self.PARTS}
        found = [i["bytes"] for i in self.items if i["name"].split(" (")[0] in names]
        return sum(found) if found else None

    def weights(self):
        return sum(i["bytes"] for i in self.items
                   if i["category"] == "parameters" and len(i["live_in"]) == len(PHASES)
                   and i["counted_in"] == "allocated")

    def model_states_in_forward(self):
        """Items alive both in the forward pass and at the optimizer step:
        weights, optimizer states and gradients kept between steps.  They
        are alive in every phase, so the plan always lists them."""
        return sum(i["bytes"] for i in self.items
                   if "forward" in i["live_in"] and "optimizer step" in i["live_in"]
                   and i["counted_in"] == "allocated")

    def forward_extra(self):
        """What the forward pass leaves alive beyond the model states: the
        saved activations, the logits and the loss's tensors."""
        return self.phase["forward"] - self.model_states_in_forward()

    def backward(self):
        return max(self.phase[p] for p in PHASES[1:4])
