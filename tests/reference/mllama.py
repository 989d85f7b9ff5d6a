# mllama.py: Llama 3.2 Vision for the reference oracle
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# MllamaForConditionalGeneration as Hugging Face's transformers runs it
# (modeling_mllama.py):
#
#   the vision tower (MllamaVisionModel.forward): every image's tiles
#     through a bias-free Conv2d patch embedding (the pixels cast to the
#     weight's type), the gated pre-tile embedding, the class token, the
#     gated position and tile embeddings, layernorm_pre, each tile padded
#     to a multiple of 8 tokens, the tiles of an image one sequence of the
#     local layers (LayerNorm, attention without biases through SDPA with
#     the tiles' additive mask, LayerNorm, fc1, exact GELU, fc2), the
#     intermediate layers' outputs kept, layernorm_post, the gated
#     post-tile embedding, the gated global layers (each branch times its
#     gate's tanh), the padding cut off, the intermediate outputs stacked
#     and joined to the last (h_v x (1 + intermediate layers));
#     frozen with training.freeze_vision, when it keeps nothing;
#   multi_modal_projector, one linear with a bias, its output the
#     cross-attention states every cross-attention layer's keys and values
#     read;
#   the cross-attention mask (_prepare_cross_attention_mask: b x 1 x s x N,
#     additive, in the model's type) and full_text_row_masked_out_mask
#     (b x 1 x s x 1);
#   the text model: model.py's self-attention layers, and at the layers
#     cross_attn_layer_period divides (from cross_attn_layer_offset) a
#     MllamaCrossAttentionDecoderLayer: input_layernorm, the cross
#     attention (q_proj, view, q_norm over the head dimension; k_proj and
#     v_proj over the states, repeated to every head, k_norm over the
#     repeated K; the three made contiguous, as on CUDA with a mask, and
#     SDPA with attn_mask, the memory-efficient kernel, which
#     keeps its query, key, value, the mask, its output and one fp32
#     log-sum-exp per row and head: MemEffLike), o_proj, the residual plus
#     cross_attn_attn_gate.tanh() times it; post_attention_layernorm, the
#     MLP, its output times the row mask, the residual plus
#     cross_attn_mlp_gate.tanh() times that;
#   the token table of vocab + 8 rows (MllamaTextModel.embed_tokens).
#
# Layers are tagged as model.py's, the tower "vision", the projector
# "projector".

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint as torch_checkpoint

import model as reference
from opcheckpoint import lin


def cross_layer(cfg, i):
    return cfg["cross_attn_layer_period"] > 0 and i % cfg["cross_attn_layer_period"] == cfg["cross_attn_layer_offset"]


def tile_tokens(cfg):
    """A tile's patches and its class token."""
    return (cfg["vision_image"] // cfg["vision_patch"]) ** 2 + 1


def cross_tokens(cfg):
    """The states' rows per sample: every tile of every image."""
    return cfg["images_per_sample"] * cfg["vision_tiles"] * tile_tokens(cfg)


def feature_width(cfg):
    return cfg["vision_hidden"] * (1 + cfg["vision_intermediate_layers"])


class MemEffLike(torch.autograd.Function):
    """SDPA's memory-efficient kernel with an additive mask: saves q, k, v,
    the mask, the output and the fp32 log-sum-exp.  q (b, a, s, d), k and
    v (b, a, n, d), mask (b, 1, s, n); the output (b, a, s, d), allocated
    (b, s, a, d) and returned transposed as the kernel's is (its BMHK
    layout), so that the transpose back and o_proj's reshape are views."""

    @staticmethod
    def compute(q, k, v, mask, scale):
        b, a, s, d = q.shape
        with reference._kernel():
            sc = torch.matmul(q.float(), k.float().transpose(-1, -2)) * scale + mask.float()
            lse = torch.logsumexp(sc, dim=-1)
            o = torch.matmul(torch.exp(sc - lse[..., None]), v.float())
            out = q.new_empty(b, s, a, d)
            out.copy_(o.transpose(1, 2))
            del sc, o
        return out.transpose(1, 2), lse

    @staticmethod
    def forward(ctx, q, k, v, mask, scale):
        out, lse = MemEffLike.compute(q, k, v, mask, scale)
        ctx.save_for_backward(q, k, v, mask, out, lse)
        ctx.scale = scale
        return out

    @staticmethod
    def backward(ctx, dout):
        q, k, v, mask, out, lse = ctx.saved_tensors
        scale = ctx.scale
        with reference._kernel():
            qf, kf, vf, dof = q.float(), k.float(), v.float(), dout.float()
            p = torch.exp(torch.matmul(qf, kf.transpose(-1, -2)) * scale + mask.float() - lse[..., None])
            dv = torch.matmul(p.transpose(-1, -2), dof)
            dp = torch.matmul(dof, vf.transpose(-1, -2))
            delta = (dof * out.float()).sum(-1, keepdim=True)
            ds = p * (dp - delta) * scale
            dq = torch.matmul(ds, kf).to(q.dtype)
            dk = torch.matmul(ds.transpose(-1, -2), qf).to(k.dtype)
            dv = dv.to(v.dtype)
            del qf, kf, vf, dof, p, dp, delta, ds
        return dq, dk, dv, None, None


class CrossAttention(nn.Module):
    """MllamaTextCrossSdpaAttention: its q, k, v, o (apply_lora wraps them
    by these names) and the two head-dimension norms."""

    def __init__(self, cfg):
        super().__init__()
        h, a, kh, d = cfg["hidden"], cfg["heads"], cfg["kv_heads"], cfg["head_dim"]
        self.a, self.kh, self.d = a, kh, d
        self.q = nn.Linear(h, a * d, bias=False)
        self.k = nn.Linear(h, kh * d, bias=False)
        self.v = nn.Linear(h, kh * d, bias=False)
        self.o = nn.Linear(a * d, h, bias=False)
        self.q_norm = reference.Norm(cfg, d)
        self.k_norm = reference.Norm(cfg, d)

    def forward(self, x, states, mask):
        b, s, _ = x.shape
        n = states.shape[1]
        q = self.q_norm(lin(self.q, x).view(b, s, self.a, self.d).transpose(1, 2))
        k = lin(self.k, states).view(b, n, self.kh, self.d).transpose(1, 2)
        v = lin(self.v, states).view(b, n, self.kh, self.d).transpose(1, 2)
        # repeat_kv: expand and reshape, a copy of every head's K and V
        g = self.a // self.kh
        k = k[:, :, None].expand(b, self.kh, g, n, self.d).reshape(b, self.a, n, self.d)
        v = v[:, :, None].expand(b, self.kh, g, n, self.d).reshape(b, self.a, n, self.d)
        k = self.k_norm(k)
        # (on CUDA, with a mask, the inputs made contiguous first)
        out = MemEffLike.apply(q.contiguous(), k.contiguous(), v.contiguous(), mask, self.d ** -0.5)
        return lin(self.o, out.transpose(1, 2).reshape(b, s, self.a * self.d))


class CrossLayer(nn.Module):
    """MllamaCrossAttentionDecoderLayer; its states and masks are the
    model's (HOLDER.cross), set for each forward pass."""

    def __init__(self, cfg, holder):
        super().__init__()
        h = cfg["hidden"]
        self.__dict__["holder"] = holder
        self.norm1 = reference.Norm(cfg, h)
        self.attn = CrossAttention(cfg)
        self.attn_gate = nn.Parameter(torch.full((1,), 0.5))
        self.norm2 = reference.Norm(cfg, h)
        self.mlp = reference.MLP(cfg, cfg["ffn"])
        self.mlp_gate = nn.Parameter(torch.full((1,), 0.5))

    def forward(self, x, rope=None, states=None, mask=None, rows=None):
        if states is None:
            states, mask, rows = self.holder.cross
        x = x + self.attn_gate.tanh() * self.attn(self.norm1(x), states, mask)
        y = rows[:, 0] * self.mlp(self.norm2(x))
        return x + self.mlp_gate.tanh() * y


class TowerLayer(nn.Module):
    """MllamaVisionEncoderLayer: LayerNorm, attention (q, k, v, o without
    biases, SDPA with the tiles' mask: MemEffLike), LayerNorm, fc1, exact
    GELU, fc2, each residual branch times its gate's tanh in the global
    layers (is_gated)."""

    def __init__(self, cfg, gated):
        super().__init__()
        h, f = cfg["vision_hidden"], cfg["vision_ffn"]
        self.a = cfg["vision_heads"]
        self.d = h // self.a
        lcfg = dict(cfg, norm="layernorm")
        self.norm1 = reference.Norm(lcfg, h)
        self.q = nn.Linear(h, h, bias=False)
        self.k = nn.Linear(h, h, bias=False)
        self.v = nn.Linear(h, h, bias=False)
        self.o = nn.Linear(h, h, bias=False)
        self.norm2 = reference.Norm(lcfg, h)
        self.fc1 = nn.Linear(h, f)
        self.fc2 = nn.Linear(f, h)
        self.gate_attn = nn.Parameter(torch.full((1,), 0.5)) if gated else None
        self.gate_ffn = nn.Parameter(torch.full((1,), 0.5)) if gated else None

    def forward(self, x, mask):
        n, t, h = x.shape
        y = self.norm1(x)
        q, k, v = (lin(p, y).view(n, t, self.a, self.d).transpose(1, 2).contiguous()
                   for p in (self.q, self.k, self.v))
        y = lin(self.o, MemEffLike.apply(q, k, v, mask, self.d ** -0.5).transpose(1, 2).reshape(n, t, h))
        x = x + (self.gate_attn.tanh() * y if self.gate_attn is not None else y)
        y = lin(self.fc2, F.gelu(lin(self.fc1, self.norm2(x))))
        return x + (self.gate_ffn.tanh() * y if self.gate_ffn is not None else y)


class Tower(nn.Module):
    """MllamaVisionModel (the file's comment): features(pixels, aspect
    ratio ids) -> (b·images, tiles·(patches + 1), h_v·(1 + intermediate
    layers)), every tile's patches and class token, the padding cut off."""

    def __init__(self, cfg):
        super().__init__()
        h, p, C = cfg["vision_hidden"], cfg["vision_patch"], cfg["vision_channels"]
        T, tiles, rows = tile_tokens(cfg), cfg["vision_tiles"], cfg["vision_aspect_ratios"] + 1
        self.cfg, self.h, self.T, self.tiles = cfg, h, T, tiles
        lcfg = dict(cfg, norm="layernorm")
        self.patch_embedding = nn.Conv2d(C, h, kernel_size=p, stride=p, bias=False)
        self.class_embedding = nn.Parameter(torch.randn(h))
        # gated_positional_embedding
        self.pos_gate = nn.Parameter(torch.full((1,), 0.5))
        self.pos_embedding = nn.Parameter(torch.randn(T, h) * 0.02)
        self.tile_embedding = nn.Embedding(rows, tiles * T * h)
        # pre_ and post_tile_positional_embedding
        self.pre_tile = nn.Embedding(rows, tiles * h)
        self.pre_gate = nn.Parameter(torch.full((1,), 0.5))
        self.post_tile = nn.Embedding(rows, tiles * h)
        self.post_gate = nn.Parameter(torch.full((1,), 0.5))
        self.layernorm_pre = reference.Norm(lcfg, h)
        self.layernorm_post = reference.Norm(lcfg, h)
        self.local = nn.ModuleList(TowerLayer(cfg, False) for _ in range(cfg["vision_layers"]))
        self.globl = nn.ModuleList(TowerLayer(cfg, True) for _ in range(cfg["vision_global_layers"]))
        # intermediate_layers_indices: the last ones of the local stack
        n = cfg["vision_intermediate_layers"]
        self.intermediate = list(range(cfg["vision_layers"] - n, cfg["vision_layers"]))

    def forward(self, pixels, ar_ids):
        n_img, tiles, h, T = pixels.shape[0], self.tiles, self.h, self.T
        w = self.patch_embedding.weight
        x = self.patch_embedding(pixels.reshape(n_img * tiles, *pixels.shape[2:]).to(w.dtype))
        x = x.flatten(2).transpose(1, 2).reshape(n_img, tiles, T - 1, h)
        x = x + self.pre_tile(ar_ids).reshape(n_img, tiles, 1, h) * self.pre_gate.tanh()
        x = x.reshape(n_img * tiles, T - 1, h)
        x = torch.cat([self.class_embedding.to(x.dtype).expand(n_img * tiles, 1, h), x], dim=1)
        x = x.reshape(n_img, tiles, T, h)
        x = x + ((1 - self.pos_gate.tanh()) * self.pos_embedding).view(1, 1, T, h)
        x = x + self.pos_gate.tanh() * self.tile_embedding(ar_ids).reshape(n_img, tiles, T, h)
        x = self.layernorm_pre(x)
        pad = (8 - T % 8) % 8
        x = F.pad(x, (0, 0, 0, pad))
        Tp = T + pad
        # _prepare_aspect_ratio_attention_mask: every tile valid, the
        # padding masked, additive, in the model's type
        valid = torch.ones(n_img, tiles, Tp, dtype=x.dtype, device=x.device)
        valid[:, :, T:] = 0
        valid = valid.reshape(n_img, tiles * Tp, 1)
        mask = (1 - valid @ valid.transpose(1, 2)) * torch.finfo(x.dtype).min
        mask = mask[:, None]
        del valid
        x = x.reshape(n_img, tiles * Tp, h)
        hidden = []
        for layer in self.local:
            x = layer(x, mask)
            hidden.append(x)
        x = self.layernorm_post(x)
        x = x.reshape(n_img, tiles, Tp, h)
        x = x + self.post_tile(ar_ids).reshape(n_img, tiles, 1, h) * self.post_gate.tanh()
        x = x.reshape(n_img, tiles * Tp, h)
        for layer in self.globl:
            x = layer(x, mask)
        x = x.reshape(n_img, tiles, Tp, h)[:, :, :T]
        inter = torch.stack([hidden[i] for i in self.intermediate], dim=-1)
        inter = inter.reshape(n_img, tiles, Tp, -1)[:, :, :T]
        del hidden
        return torch.cat([x, inter], dim=-1).reshape(n_img, tiles * T, -1)


class MllamaModel(reference.Model):
    """forward(tokens, features): features (b, N, h_v·(1 + intermediate
    layers)), the frozen tower's output."""

    def __init__(self, cfg):
        super().__init__(cfg)
        h, V = cfg["hidden"], cfg["vocab"]
        self.embed = nn.Embedding(V + 8, h)
        for i in range(cfg["layers"]):
            if cross_layer(cfg, i):
                self.layers[i] = CrossLayer(cfg, self)
        self.tower = Tower(cfg)
        if cfg["freeze_vision"]:
            for p in self.tower.parameters():
                p.requires_grad_(False)
        self.projector = nn.Linear(feature_width(cfg), h, bias=True)
        self.cross = None
        self.extra_outputs = []
        self.embed_tensors = []

    def _layer(self, i, layer, x, rope):
        """model.py's, but a cross-attention layer checkpointed with the
        states and masks as its inputs, as MllamaTextModel.forward hands
        them to _gradient_checkpointing_func."""
        every = self.cfg["checkpoint_every"]
        if (not isinstance(layer, CrossLayer) or self.cfg["checkpointing"] != "full"
                or (i + 1) % every != 0):
            return super()._layer(i, layer, x, rope)
        if self.layer_hook is not None:
            self.layer_hook(i)
        states, mask, rows = self.cross
        return torch_checkpoint.checkpoint(layer, x, rope, states, mask, rows)

    def tower_trains(self):
        return any(p.requires_grad for p in self.tower.parameters())

    def forward(self, tokens, pixels):
        b, s = tokens.shape
        if self.layer_hook is not None:
            self.layer_hook("vision")
        # every image of one aspect ratio, its id 1 (the processor's first)
        ar_ids = torch.ones(pixels.shape[0], dtype=torch.long, device=pixels.device)
        features = self.tower(pixels, ar_ids)
        if self.layer_hook is not None:
            self.layer_hook("projector")
        states = lin(self.projector, features.reshape(b, -1, features.shape[-1]))
        n = states.shape[1]
        # _prepare_cross_attention_mask: every text token sees every tile
        # (the processor's mask for an image before the text), inverted to
        # an additive mask in the model's type, and the rows that see an
        # image
        dtype = self.embed.weight.dtype
        mask = torch.zeros(b, 1, s, n, dtype=dtype, device=tokens.device)
        rows = torch.ones(b, 1, s, 1, dtype=dtype, device=tokens.device)
        self.cross = (states, mask, rows)
        try:
            return super().forward(tokens, None)
        finally:
            self.cross = None


def make_batch(cfg, device, gen):
    """input_ids (no image token: the states reach the text through the
    cross-attention layers), every image's tiles' pixels, fp32 as the
    image processor gives them, and labels."""
    b, s, V = cfg["micro_batch"], cfg["seq_len"], cfg["vocab"]
    tokens = torch.randint(0, V, (b, s), generator=gen)
    side = cfg["vision_image"]
    pixels = torch.randn(b * cfg["images_per_sample"], cfg["vision_tiles"], cfg["vision_channels"],
                         side, side, generator=gen)
    targets = torch.randint(0, V, (b, s), generator=gen)
    return tokens.to(device), pixels.to(device), targets.to(device)
