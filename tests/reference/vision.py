# vision.py: a vision-language model for the reference oracle
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# LLaVA as Hugging Face's transformers runs it (modeling_llava.py,
# LlavaModel.forward and get_image_features; modeling_clip.py,
# CLIPVisionEmbeddings, CLIPEncoderLayer, CLIPAttention, CLIPMLP), with the
# language model of model.py:
#
#   the token embeddings of input_ids, image tokens among them;
#   the vision tower over every image: a Conv2d patch embedding without a
#     bias (its input cast to the weight's type), the class token, learned
#     positions for patches + 1, pre_layrnorm, then CLIP's encoder layers
#     (LayerNorm, attention with biases and its softmax in fp32, residual,
#     LayerNorm, fc1, quick_gelu, fc2, residual), each wrapped by gradient
#     checkpointing when the language model's layers are; every layer
#     runs (output_hidden_states), the features are hidden_states[F] (F the
#     layer from 1; hidden_states[0] is pre_layrnorm's output) with the
#     class token dropped (vision_feature_select_strategy "default"), and
#     post_layernorm runs on the last layer's class token, as
#     CLIPVisionTransformer.forward pools it, for nothing;
#   the projector (LlavaMultiModalProjector: linear_1, GELU, linear_2);
#   the features cast to the embeddings' type and put in the image tokens'
#     rows (inputs_embeds.masked_scatter), then the language model;
#   the output keeps image_hidden_states (the cast features) beside the
#     logits until the loss is computed.
#
# The layers after the feature layer, and post_layernorm, build a graph no
# loss reaches: it is freed when get_image_features returns.  They run here
# under saved-tensor hooks of their own, so that what they save is not
# counted as saved (it does not wait for the backward pass), and their
# parameters get no gradient (measure.py knows them by `no_grad_in_step`);
# under autocast their weights' casts stay in autocast's cache.
#
# Qwen2-VL (modeling_qwen2_vl.py, Qwen2VisionTransformerPretrainedModel,
# PatchEmbed, VisionAttention, Qwen2VLVisionBlock, PatchMerger;
# Qwen2VLModel.forward) instead: every image's patches in one sequence,
# each patch's pixels two frames deep through a Conv3d without a bias; the
# 2-D rotary angles of each patch (cos and sin in fp32, made once for
# every block); each block LayerNorm, one fused qkv linear whose output is
# viewed as Q, K and V, the rotary on Q and K in fp32
# (apply_rotary_pos_emb_vision), attention within each image (FlashAttention-
# 2's varlen kernel over cu_seqlens, the others image by image), proj,
# LayerNorm, fc1, quick_gelu, fc2; then the PatchMerger (ln_q, the
# merge² neighbouring patches viewed as one vector, Linear, GELU, Linear)
# and the features in the image tokens' place.  Its output keeps no
# image features.
#
# Layers are tagged "v0".. (the tower), "vembed" (its embeddings) and
# "projector" for the per-part figures.

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint as torch_checkpoint

import model as reference
from opcheckpoint import flash, lin


def tower_cfg(cfg):
    """The tower's layers as model.py's modules see them: an encoder of the
    tower's width, LayerNorms, biases everywhere, no dropout, the softmax
    in fp32 (CLIP's eager_attention_forward)."""
    h, a = cfg["vision_hidden"], cfg["vision_heads"]
    return dict(cfg, kind="encoder", hidden=h, heads=a, kv_heads=a, head_dim=h // a,
                ffn=cfg["vision_ffn"], bias="all", norm="layernorm", qk_norm="none",
                dropout=False, fp32_softmax=True, position_buckets=0)


def patches(cfg):
    return (cfg["vision_image"] // cfg["vision_patch"]) ** 2


def merge(cfg):
    return cfg["projector_merge"] or 1


def image_tokens(cfg):
    """The language model's tokens per image (CLIP: the patches, the class
    token dropped; Qwen2-VL: merge² patches each)."""
    return patches(cfg) // merge(cfg) ** 2


def layers_run(cfg):
    """The tower layers the loss reaches: those up to the feature layer."""
    return cfg["vision_feature_layer"] or cfg["vision_layers"]


class CLIPLayer(nn.Module):
    """CLIPEncoderLayer: pre-norm attention and MLP (fc1, quick_gelu, fc2)."""

    def __init__(self, vcfg):
        super().__init__()
        h, f = vcfg["hidden"], vcfg["ffn"]
        self.layer_norm1 = reference.Norm(vcfg, h)
        self.attn = reference.Attention(vcfg, causal=False)
        self.layer_norm2 = reference.Norm(vcfg, h)
        self.fc1 = nn.Linear(h, f)
        self.fc2 = nn.Linear(f, h)

    def forward(self, x, rope=None):
        x = x + self.attn(self.layer_norm1(x), rope)
        y = lin(self.fc1, self.layer_norm2(x))
        # QuickGELUActivation.forward: input * torch.sigmoid(1.702 * input)
        y = y * torch.sigmoid(1.702 * y)
        return x + lin(self.fc2, y)


class CLIPTower(nn.Module):
    """CLIPVisionTransformer: embeddings, pre_layrnorm, layers, post_layernorm."""

    def __init__(self, cfg):
        super().__init__()
        vc = tower_cfg(cfg)
        h, p = vc["hidden"], cfg["vision_patch"]
        n = patches(cfg) + 1
        self.class_embedding = nn.Parameter(torch.randn(h))
        self.patch_embedding = nn.Conv2d(cfg["vision_channels"], h, kernel_size=p, stride=p, bias=False)
        self.position_embedding = nn.Embedding(n, h)
        self.register_buffer("position_ids", torch.arange(n)[None], persistent=False)
        self.pre_layrnorm = reference.Norm(vc, h)
        self.layers = nn.ModuleList(CLIPLayer(vc) for _ in range(cfg["vision_layers"]))
        self.post_layernorm = reference.Norm(vc, h)

    def embed(self, pixels):
        """CLIPVisionEmbeddings.forward, then pre_layrnorm."""
        w = self.patch_embedding.weight
        x = self.patch_embedding(pixels.to(dtype=w.dtype))     # (n, h, side, side)
        x = x.flatten(2).transpose(1, 2)
        cls = self.class_embedding.expand(x.shape[0], 1, -1)
        x = torch.cat([cls, x], dim=1)
        x = x + self.position_embedding(self.position_ids)
        return self.pre_layrnorm(x)


class Projector(nn.Module):
    """LlavaMultiModalProjector: linear_1, GELU, linear_2, with biases."""

    def __init__(self, cfg):
        super().__init__()
        self.linear_1 = nn.Linear(cfg["vision_hidden"], cfg["hidden"])
        self.linear_2 = nn.Linear(cfg["hidden"], cfg["hidden"])

    def forward(self, x):
        return lin(self.linear_2, F.gelu(lin(self.linear_1, x)))


def _rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


class QwenBlock(nn.Module):
    """Qwen2VLVisionBlock: norm1, VisionAttention (fused qkv, the rotary
    in fp32, attention within each image, proj), norm2, VisionMlp (fc1,
    quick_gelu, fc2)."""

    def __init__(self, vcfg, cfg):
        super().__init__()
        h, f = vcfg["hidden"], vcfg["ffn"]
        self.cfg = cfg
        self.a, self.d = vcfg["heads"], vcfg["head_dim"]
        self.P = patches(cfg)
        self.norm1 = reference.Norm(vcfg, h)
        self.norm2 = reference.Norm(vcfg, h)
        self.qkv = nn.Linear(h, 3 * h)
        self.proj = nn.Linear(h, h)
        self.fc1 = nn.Linear(h, f)
        self.fc2 = nn.Linear(f, h)

    def attention(self, x, cos, sin):
        cfg = self.cfg
        S = x.shape[0]
        a, d, P = self.a, self.d, self.P
        q, k, v = lin(self.qkv, x).reshape(S, 3, a, d).permute(1, 0, 2, 3).unbind(0)
        # apply_rotary_pos_emb_vision
        dt = q.dtype
        q, k = q.float(), k.float()
        c, s_ = cos.unsqueeze(-2).float(), sin.unsqueeze(-2).float()
        q = ((q * c) + (_rotate_half(q) * s_)).to(dt)
        k = ((k * c) + (_rotate_half(k) * s_)).to(dt)
        scale = d ** -0.5
        if cfg["attention"] == "eager":
            # eager_attention_forward, image by image (torch.split of the
            # (1, heads, S, d) views), the softmax in fp32
            qt, kt, vt = (t.transpose(0, 1).unsqueeze(0) for t in (q, k, v))
            outs = []
            for qi, ki, vi in zip(qt.split(P, dim=2), kt.split(P, dim=2), vt.split(P, dim=2)):
                w = torch.matmul(qi, ki.transpose(2, 3)) * scale
                w = F.softmax(w, dim=-1, dtype=torch.float32).to(qi.dtype)
                outs.append(torch.matmul(w, vi).transpose(1, 2).contiguous())
            out = torch.cat(outs, dim=1).reshape(S, -1)
        else:
            # one kernel over every image (FlashAttention-2's varlen over
            # cu_seqlens; SDPA's kernels image by image alike): Q, K and V
            # as they are, V a view of qkv's output
            n = S // P
            q4, k4, v4 = (t.reshape(n, P, a, d) for t in (q, k, v))
            if reference.autocast_on(cfg):
                q4, k4, v4 = (t.to(torch.bfloat16) for t in (q4, k4, v4))
            out = flash(reference.FlashLike, q4, k4, v4, False, scale).reshape(S, a * d)
        return lin(self.proj, out)

    def forward(self, x, cos, sin):
        x = x + self.attention(self.norm1(x), cos, sin)
        y = lin(self.fc1, self.norm2(x))
        y = y * torch.sigmoid(1.702 * y)
        return x + lin(self.fc2, y)


class QwenTower(nn.Module):
    """Qwen2VisionTransformerPretrainedModel without its merger: PatchEmbed
    (Conv3d over 2 frames, no bias), the rotary angles, the blocks."""

    def __init__(self, cfg):
        super().__init__()
        vc = tower_cfg(cfg)
        h, p = vc["hidden"], cfg["vision_patch"]
        self.C, self.p = cfg["vision_channels"], p
        self.proj = nn.Conv3d(self.C, h, kernel_size=(2, p, p), stride=(2, p, p), bias=False)
        d = vc["head_dim"]
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, d // 2, 2).float() / (d // 2))),
                             persistent=False)
        self.side = cfg["vision_image"] // p
        self.m = merge(cfg)
        self.layers = nn.ModuleList(QwenBlock(vc, cfg) for _ in range(cfg["vision_layers"]))

    def embed(self, pixels):
        """PatchEmbed.forward: (S, C·2·p·p) -> (S, h)."""
        w = self.proj.weight
        x = pixels.view(-1, self.C, 2, self.p, self.p)
        return self.proj(x.to(dtype=w.dtype)).view(-1, w.shape[0])

    def rotary(self, n):
        """rot_pos_emb: each patch's row and column, in the merger's order,
        through VisionRotaryEmbedding; cos and sin of the angles twice."""
        side, m = self.side, self.m
        dev = self.inv_freq.device      # the model's (--device cuda)
        hpos = torch.arange(side, device=dev).unsqueeze(1).expand(-1, side)
        wpos = torch.arange(side, device=dev).unsqueeze(0).expand(side, -1)
        hpos = hpos.reshape(side // m, m, side // m, m).permute(0, 2, 1, 3).flatten()
        wpos = wpos.reshape(side // m, m, side // m, m).permute(0, 2, 1, 3).flatten()
        pos = torch.stack([hpos, wpos], dim=-1).repeat(n, 1)
        freqs = torch.outer(torch.arange(side, dtype=torch.float32, device=dev), self.inv_freq)
        emb = freqs[pos].flatten(1)
        emb = torch.cat((emb, emb), dim=-1)
        return emb.cos(), emb.sin()


class PatchMerger(nn.Module):
    """PatchMerger: ln_q, merge² patches viewed as one vector, Linear, GELU,
    Linear to the language model's width."""

    def __init__(self, cfg):
        super().__init__()
        vc = tower_cfg(cfg)
        hv = cfg["vision_hidden"]
        self.w = hv * merge(cfg) ** 2
        self.ln_q = reference.Norm(vc, hv)
        self.mlp0 = nn.Linear(self.w, self.w)
        self.mlp2 = nn.Linear(self.w, cfg["hidden"])

    def forward(self, x):
        return lin(self.mlp2, F.gelu(lin(self.mlp0, self.ln_q(x).view(-1, self.w))))


def _pack_unsaved(t):
    # a saved output packed as itself would hold its own grad_fn: a
    # reference cycle through autograd's C++ objects, which keeps the whole
    # graph (and its weight casts) alive after get_image_features returns;
    # the detached tensor shares the storage without the cycle
    return t.detach()


def _identity(t):
    return t


class VLModel(reference.Model):
    """LlavaForConditionalGeneration: the language model of model.py, with
    a vision tower and projector whose output replaces the image tokens'
    embeddings.  forward(tokens, pixels)."""

    def __init__(self, cfg):
        super().__init__(cfg)
        self.qwen = cfg["vision"] == "qwen2-vl"
        self.tower = QwenTower(cfg) if self.qwen else CLIPTower(cfg)
        self.projector = PatchMerger(cfg) if self.qwen else Projector(cfg)
        self.image_token = cfg["vocab"] - 1
        self.extra_outputs = []
        self.embed_tensors = []
        # the graph of the layers after the feature layer and of
        # post_layernorm reaches no loss: no gradient for them
        for layer in self.tower.layers[layers_run(cfg):]:
            for p in layer.parameters():
                p.no_grad_in_step = True
        if not self.qwen:
            for p in self.tower.post_layernorm.parameters():
                p.no_grad_in_step = True
        if cfg["freeze_vision"]:
            for p in self.tower.parameters():
                p.requires_grad_(False)

    def _hook(self, tag):
        if self.layer_hook is not None:
            self.layer_hook(tag)

    def tower_trains(self):
        return any(p.requires_grad for p in self.tower.parameters())

    def qwen_features(self, pixels):
        """Qwen2VisionTransformerPretrainedModel.forward: the patch
        embedding, the rotary angles, every block (checkpointed with the
        language model's layers), the merger."""
        cfg = self.cfg
        tower = self.tower
        ck = cfg["checkpointing"] == "full" and self.tower_trains()
        self._hook("vembed")
        x = tower.embed(pixels)
        cos, sin = tower.rotary(x.shape[0] // patches(cfg))
        # made with the embeddings, saved by the first block for all
        # (measure.py counts them with the embeddings)
        self.embed_tensors = [cos, sin]
        for i, layer in enumerate(tower.layers):
            self._hook("v%d" % i)
            x = torch_checkpoint.checkpoint(layer, x, cos, sin) if ck else layer(x, cos, sin)
        self._hook("projector")
        return self.projector(x)

    def image_features(self, pixels):
        """get_image_features: the tower, the feature layer's output without
        the class token, the projector."""
        cfg = self.cfg
        if self.qwen:
            return self.qwen_features(pixels)
        tower = self.tower
        F_ = layers_run(cfg)
        ck = cfg["checkpointing"] == "full" and self.tower_trains()
        self._hook("vembed")
        x = tower.embed(pixels)
        feature = None
        for i, layer in enumerate(tower.layers):
            if i < F_:
                self._hook("v%d" % i)
                # GradientCheckpointingLayer: the tower's layers are
                # checkpointed with the language model's
                x = torch_checkpoint.checkpoint(layer, x) if ck else layer(x)
                if i == F_ - 1:
                    feature = x
            else:
                # run, and freed with the tower's outputs: not saved
                with torch.autograd.graph.saved_tensors_hooks(_pack_unsaved, _identity):
                    x = torch_checkpoint.checkpoint(layer, x) if ck else layer(x)
        with torch.autograd.graph.saved_tensors_hooks(_pack_unsaved, _identity):
            tower.post_layernorm(x[:, 0])
        del x
        self._hook("projector")
        return self.projector(feature[:, 1:])

    def forward(self, tokens, pixels):
        def scatter(x):
            feats = self.image_features(pixels)
            self._hook("embed")
            # LlavaModel.forward: the mask of the image tokens, expanded to
            # the embeddings' shape; the features cast to their type
            mask = (tokens == self.image_token).unsqueeze(-1).expand_as(x)
            feats = feats.to(x.dtype)
            if not self.qwen:
                self.extra_outputs = [feats]      # image_hidden_states
            return x.masked_scatter(mask, feats)

        return super().forward(tokens, None, embed_hook=scatter)


def linear_cast_bytes(module):
    """The bytes autocast's cache holds for a module's casts: every
    trainable weight and bias of its linears, in bf16 (autocast caches the
    16-bit casts of leaf tensors that require a gradient)."""
    n = 0
    for m in module.modules():
        if isinstance(m, nn.Linear):
            n += sum(p.numel() for p in m.parameters(recurse=False) if p.requires_grad)
    return 2 * n


def make_batch(cfg, device, gen):
    """input_ids with images_per_sample runs of image tokens (the processor
    puts each image's tokens where its <image> was: here after the first
    token), pixel values for each image, fp32 as the image processor gives
    them, and labels."""
    b, s, V = cfg["micro_batch"], cfg["seq_len"], cfg["vocab"]
    n_img = cfg["images_per_sample"]
    tokens = torch.randint(0, V - 1, (b, s), generator=gen)
    tokens[:, 1:1 + n_img * image_tokens(cfg)] = V - 1
    side = cfg["vision_image"]
    if cfg["vision"] == "qwen2-vl":
        # Qwen2VLImageProcessor's flattened patches, each image repeated
        # over temporal_patch_size 2 frames
        p = cfg["vision_patch"]
        pixels = torch.randn(b * n_img * patches(cfg), cfg["vision_channels"] * 2 * p * p, generator=gen)
    else:
        pixels = torch.randn(b * n_img, cfg["vision_channels"], side, side, generator=gen)
    targets = torch.randint(0, V, (b, s), generator=gen)
    return tokens.to(device), pixels.to(device), targets.to(device)
