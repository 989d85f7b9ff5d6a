# ssm.py: state-space (Mamba, Mamba-2) and hybrid (Jamba) reference models
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The tensors of mamba_ssm's Mamba and Mamba2 modules and of transformers'
# MambaMixer, Mamba2Mixer and JambaMambaMixer (every parameter, its shape
# and type), with a naive sequential scan standing in for the fused
# kernels.  The oracle compares what this model can answer for: the
# parameter counts and the bytes of the weights, the gradients and the
# optimizer's states.  Not the activations: the naive scan keeps every
# step's state for its backward pass (b x d_inner x N per token and step),
# where the fused kernels (MambaInnerFn, MambaSplitConv1dScanCombinedFn)
# keep their in_proj's output, the scan's output and a state per 2048-token
# chunk and recompute the rest; the two lists have nothing in common to
# relate, so Headroom's figures for an SSM layer follow the kernels' own
# save_for_backward lists (src/core/hr-activations-ssm.c) and are tested
# against them (tests/test-activations.c), not here
# (docs/reference-oracle.md).

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint as torch_checkpoint

from model import MLP, Attention, Block, FlashLike, MoE, Norm


def dt_rank(cfg):
    return cfg["ssm_dt_rank"] or math.ceil(cfg["hidden"] / 16)


class RMSNorm(nn.Module):
    """A weighted RMSNorm over the last dimension (JambaRMSNorm,
    RMSNormGated's per-group norm when groups > 1)."""

    def __init__(self, width, groups=1):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(width))
        self.groups = groups

    def forward(self, x):
        dtype = x.dtype
        h = x.float().unflatten(-1, (self.groups, -1))
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
        return self.weight * h.flatten(-2).to(dtype)


class MambaMixer(nn.Module):
    """mamba_simple.Mamba: in_proj, a depthwise causal conv1d with a bias,
    x_proj, dt_proj with a bias, A_log, D, out_proj; Jamba's dt, B and C
    norms."""

    def __init__(self, cfg):
        super().__init__()
        h, N, K = cfg["hidden"], cfg["ssm_state"], cfg["ssm_conv"]
        di, R = cfg["ssm_expand"] * h, dt_rank(cfg)
        self.R, self.N = R, N
        self.in_proj = nn.Linear(h, 2 * di, bias=False)
        self.conv1d = nn.Conv1d(di, di, K, groups=di, padding=K - 1, bias=True)
        self.x_proj = nn.Linear(di, R + 2 * N, bias=False)
        self.dt_proj = nn.Linear(R, di, bias=True)
        self.A_log = nn.Parameter(torch.log(torch.arange(1, N + 1, dtype=torch.float32)).repeat(di, 1))
        self.D = nn.Parameter(torch.ones(di))
        self.out_proj = nn.Linear(di, h, bias=False)
        self.norms = (nn.ModuleList([RMSNorm(R), RMSNorm(N), RMSNorm(N)])
                      if cfg["ssm_bc_norm"] else None)

    def forward(self, x):
        s = x.shape[1]
        xi, z = self.in_proj(x).chunk(2, dim=-1)
        xi = F.silu(self.conv1d(xi.transpose(1, 2))[..., :s]).transpose(1, 2)
        dt, B, C = self.x_proj(xi).split((self.R, self.N, self.N), dim=-1)
        if self.norms is not None:
            dt, B, C = (n(t) for n, t in zip(self.norms, (dt, B, C)))
        dt = F.softplus(self.dt_proj(dt)).float()               # (b, s, di)
        A = -torch.exp(self.A_log.float())                      # (di, N)
        state = x.new_zeros(x.shape[0], A.shape[0], self.N, dtype=torch.float32)
        ys = []
        for t in range(s):
            state = (state * torch.exp(dt[:, t, :, None] * A)
                     + dt[:, t, :, None] * B[:, t, None, :].float() * xi[:, t, :, None].float())
            ys.append((state * C[:, t, None, :].float()).sum(-1))
        y = torch.stack(ys, 1) + xi.float() * self.D.float()
        return self.out_proj((y * F.silu(z.float())).to(x.dtype))


class Mamba2Mixer(nn.Module):
    """mamba2.Mamba2: in_proj to z, x, B, C and dt, a causal conv1d over x,
    B and C, dt_bias, A_log and D per head, the gated RMSNorm, out_proj."""

    def __init__(self, cfg):
        super().__init__()
        h, N, K = cfg["hidden"], cfg["ssm_state"], cfg["ssm_conv"]
        di = cfg["ssm_expand"] * h
        P = cfg["ssm_head_dim"]
        H, G = di // P, cfg["ssm_groups"]
        self.di, self.N, self.H, self.G, self.P = di, N, H, G, P
        conv = di + 2 * G * N
        self.in_proj = nn.Linear(h, 2 * di + 2 * G * N + H, bias=False)
        self.conv1d = nn.Conv1d(conv, conv, K, groups=conv, padding=K - 1, bias=True)
        self.dt_bias = nn.Parameter(torch.zeros(H))
        self.A_log = nn.Parameter(torch.log(torch.arange(1, H + 1, dtype=torch.float32)))
        self.D = nn.Parameter(torch.ones(H))
        self.norm = RMSNorm(di, G)
        self.out_proj = nn.Linear(di, h, bias=False)

    def forward(self, x):
        b, s, _ = x.shape
        di, N, H, G, P = self.di, self.N, self.H, self.G, self.P
        z, xbc, dt = self.in_proj(x).split((di, di + 2 * G * N, H), dim=-1)
        xbc = F.silu(self.conv1d(xbc.transpose(1, 2))[..., :s]).transpose(1, 2)
        xs, B, C = xbc.split((di, G * N, G * N), dim=-1)
        xs = xs.float().unflatten(-1, (H, P))
        B = B.float().unflatten(-1, (G, N)).repeat_interleave(H // G, dim=2)
        C = C.float().unflatten(-1, (G, N)).repeat_interleave(H // G, dim=2)
        dt = F.softplus(dt.float() + self.dt_bias.float())       # (b, s, H)
        A = -torch.exp(self.A_log.float())
        state = x.new_zeros(b, H, P, N, dtype=torch.float32)
        ys = []
        for t in range(s):
            state = (state * torch.exp(dt[:, t] * A)[..., None, None]
                     + dt[:, t, :, None, None] * xs[:, t, :, :, None] * B[:, t, :, None, :])
            ys.append((state * C[:, t, :, None, :]).sum(-1))
        y = torch.stack(ys, 1) + xs * self.D.float()[:, None]
        y = self.norm((y.flatten(-2) * F.silu(z.float())).to(x.dtype))
        return self.out_proj(y)


def attends(cfg, i):
    if cfg.get("layer_mixers"):
        return cfg["layer_mixers"][i] == "*"
    p = cfg["attn_layer_period"]
    return p > 0 and i % p == cfg["attn_layer_offset"]


def has_experts(cfg, i):
    p = cfg["expert_layer_period"]
    return cfg["experts"] > 1 and (p == 0 or i % p == cfg["expert_layer_offset"])


class SSMBlock(nn.Module):
    """A norm and the mixer; with an MLP or experts, a second norm and
    them (mamba_ssm's Block; JambaMambaDecoderLayer)."""

    def __init__(self, cfg, index):
        super().__init__()
        self.norm1 = Norm(cfg, cfg["hidden"])
        self.mixer = Mamba2Mixer(cfg) if cfg["ssm"] == "mamba2" else MambaMixer(cfg)
        experts = has_experts(cfg, index)
        self.mlp = (MoE(cfg) if experts else MLP(cfg, cfg["ffn"]) if cfg["ffn"] else None)
        self.norm2 = Norm(cfg, cfg["hidden"]) if self.mlp is not None else None

    def forward(self, x, rope):
        x = x + self.mixer(self.norm1(x))
        if self.mlp is not None:
            x = x + self.mlp(self.norm2(x))
        return x


class PatternBlock(nn.Module):
    """Nemotron-H's NemotronHBlock (modeling_nemotron_h.py): one norm and
    one module, the residual added: the SSM mixer (M), attention (*), the
    MLP (-) or the experts (E).  Its attributes are what apply_lora looks
    for: mixer in an SSM block, attn (None elsewhere) and mlp."""

    def __init__(self, cfg, char, mask):
        super().__init__()
        self.char = char
        self.norm = Norm(cfg, cfg["hidden"])
        self.attn = self.mlp = None
        if char == "M":
            self.mixer = Mamba2Mixer(cfg) if cfg["ssm"] == "mamba2" else MambaMixer(cfg)
        elif char == "*":
            self.attn = Attention(cfg, causal=True)
            self.attn.register_buffer("causal_mask", mask, persistent=False)
        elif char == "-":
            self.mlp = MLP(cfg, cfg["ffn"])
        else:
            self.mlp = MoE(cfg, nemotron=True)

    def forward(self, x, rope, extra=None):
        # (a Zamba2 hybrid layer's shared block output joins its Mamba
        # layer's input, not the residual: Zamba2MambaDecoderLayer)
        y = self.norm(x if extra is None else x + extra)
        if self.char == "M":
            return x + self.mixer(y)
        if self.char == "*":
            return x + self.attn(y, rope)
        return x + self.mlp(y)


class SharedBlock(nn.Module):
    """Zamba2's Zamba2AttentionDecoderLayer (modeling_zamba2.py): the
    hidden state joined to the embeddings (2h), a norm, attention from 2h
    (Q, K, V) back to h (O), no residual, a norm and the MLP, whose fused
    gate_up the use's adapter adds to.  Only parameters, gradients and
    states are compared for SSM models (the file's comment)."""

    def __init__(self, cfg):
        super().__init__()
        h, a, kh, d, f = cfg["hidden"], cfg["heads"], cfg["kv_heads"], cfg["head_dim"], cfg["ffn"]
        self.a, self.kh, self.d, self.f = a, kh, d, f
        self.norm_in = Norm(cfg, 2 * h)
        self.q = nn.Linear(2 * h, a * d, bias=False)
        self.k = nn.Linear(2 * h, kh * d, bias=False)
        self.v = nn.Linear(2 * h, kh * d, bias=False)
        self.o = nn.Linear(a * d, h, bias=False)
        self.norm_ff = Norm(cfg, h)
        self.gate_up = nn.Linear(h, 2 * f, bias=False)
        self.down = nn.Linear(f, h, bias=False)

    def forward(self, x, emb, use):
        b, s, _ = x.shape
        y = self.norm_in(torch.cat((x, emb), dim=-1))
        q, k, v = self.q(y), self.k(y), self.v(y)
        if use.qkv_adapters is not None:
            q, k, v = (t + ad(y) for t, ad in zip((q, k, v), use.qkv_adapters))
        # flash-like attention (model.py's FlashLike: q, k, v, the output
        # and its log-sum-exp saved), as the oracle plans it (attention flash)
        q = q.unflatten(-1, (self.a, self.d))
        k = k.unflatten(-1, (self.kh, self.d))
        v = v.unflatten(-1, (self.kh, self.d))
        att = FlashLike.apply(q, k, v, True, self.d ** -0.5)
        y = self.norm_ff(self.o(att.reshape(b, s, self.a * self.d)))
        gu = self.gate_up(y)
        if use.mlp_adapter is not None:
            gu = gu + use.mlp_adapter(y)
        g, u = gu.chunk(2, dim=-1)
        return use.linear(self.down(F.gelu(g) * u))


def adapter(width_in, r, width_out):
    return nn.Sequential(nn.Linear(width_in, r, bias=False), nn.Linear(r, width_out, bias=False))


class SharedUse(nn.Module):
    """A pattern's S block: one use of a shared block, with its own
    hidden x hidden linear and adapters (Zamba2HybridLayer.linear; the
    block's adapter lists' entry for this use).  The shared block is held,
    not registered, so that its parameters are the model's once."""

    def __init__(self, cfg, block):
        super().__init__()
        h, r = cfg["hidden"], cfg["shared_adapter_rank"]
        self.__dict__["block"] = block
        self.linear = nn.Linear(h, h, bias=False)
        self.mlp_adapter = adapter(h, r, 2 * cfg["ffn"]) if r else None
        self.qkv_adapters = None
        if r and cfg["shared_attention_adapters"]:
            widths = (block.a * block.d, block.kh * block.d, block.kh * block.d)
            self.qkv_adapters = nn.ModuleList(adapter(2 * h, r, w) for w in widths)

    def forward(self, x, emb):
        return self.block(x, emb, self)


class PatternMTP(nn.Module):
    """A layer pattern's multi-token-prediction module (Megatron-Core's
    MultiTokenPredictionLayer with Nemotron 3's
    mtp_hybrid_override_pattern; model.py's MTPModule with blocks of the
    pattern's kinds in place of one layer)."""

    def __init__(self, cfg, mask):
        super().__init__()
        h = cfg["hidden"]
        self.enorm = Norm(cfg, h)
        self.hnorm = Norm(cfg, h)
        self.eh_proj = nn.Linear(2 * h, h, bias=False)
        self.blocks = nn.ModuleList(PatternBlock(cfg, c, mask) for c in cfg["mtp_pattern"])
        self.norm = Norm(cfg, h)


class SSMModel(nn.Module):
    """The token table, the layers of the pattern, the final norm and the
    LM head (tied: MambaLMHeadModel; untied: Jamba)."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        h, V, s = cfg["hidden"], cfg["vocab"], cfg["seq_len"]
        self.embed = nn.Embedding(V, h)
        layers = []
        mask = torch.ones(s, s, dtype=torch.bool).triu(1)
        pattern = cfg.get("layer_pattern", "")
        self.shared = nn.ModuleList(SharedBlock(cfg) for _ in range(cfg.get("shared_blocks", 0)))
        uses = 0
        for i in range(cfg["layers"]):
            if pattern and pattern[i] == "S":
                # Zamba2Model: cycle(blocks), the next for each hybrid layer
                layers.append(SharedUse(cfg, self.shared[uses % len(self.shared)]))
                uses += 1
            elif pattern:
                layers.append(PatternBlock(cfg, pattern[i], mask))
            elif attends(cfg, i):
                dense = dict(cfg) if has_experts(cfg, i) else dict(cfg, experts=1, experts_active=1)
                blk = Block(dense, i)
                blk.attn.register_buffer("causal_mask", mask, persistent=False)
                layers.append(blk)
            else:
                layers.append(SSMBlock(cfg, i))
        self.layers = nn.ModuleList(layers)
        self.mtp = nn.ModuleList(PatternMTP(cfg, mask) for _ in range(cfg.get("mtp_modules", 0))
                                 ) if pattern else nn.ModuleList()
        self.final_norm = Norm(cfg, h)
        self.head = nn.Linear(h, V, bias=False)
        if cfg["tied_embeddings"]:
            self.head.weight = self.embed.weight
        self.layer_hook = None

    def set_rope_dtype(self, dtype):
        pass

    def forward(self, tokens, token_types=None):
        if self.layer_hook is not None:
            self.layer_hook("embed")
        x = self.embed(tokens)
        if self.cfg["input_requires_grad"] and not x.requires_grad:
            # PEFT's enable_input_require_grads under reentrant checkpoints
            # (model.py, Model.forward)
            x.requires_grad_(True)
        # Zamba2's shared blocks read a copy of the embeddings
        # (original_hidden_states = torch.clone(inputs_embeds))
        emb = torch.clone(x) if len(self.shared) else None
        extra = None
        for i, layer in enumerate(self.layers):
            if self.layer_hook is not None:
                self.layer_hook(i)
            # every layer (hr-validate-ssm.c: checkpoint_every 1), as
            # Hugging Face's GradientCheckpointingLayer wraps each block
            full = self.cfg["checkpointing"] == "full"
            if isinstance(layer, SharedUse):
                extra = torch_checkpoint.checkpoint(layer, x, emb) if full else layer(x, emb)
                continue
            args = (x, None) if extra is None else (x, None, extra)
            x = torch_checkpoint.checkpoint(layer, *args) if full else layer(*args)
            extra = None
        mtp_logits = []
        h_prev = x
        full = self.cfg["checkpointing"] == "full"
        for k, m in enumerate(self.mtp):
            # (model.py, Model.forward: the tokens k + 1 ahead)
            if self.layer_hook is not None:
                self.layer_hook("mtp")
            e = m.enorm(self.embed(tokens.roll(-(k + 1), dims=1)))
            y = m.eh_proj(torch.cat([m.hnorm(h_prev), e], dim=-1))
            for j, block in enumerate(m.blocks):
                if self.layer_hook is not None:
                    self.layer_hook(len(self.layers) + k * len(m.blocks) + j)
                y = torch_checkpoint.checkpoint(block, y, None) if full else block(y, None)
            h_prev = y
            if self.layer_hook is not None:
                self.layer_hook("head")
            mtp_logits.append(self.head(m.norm(h_prev)))
        if self.layer_hook is not None:
            self.layer_hook("head")
        logits = self.head(self.final_norm(x))
        return (logits, mtp_logits) if mtp_logits else logits
