# model.py: a plain-PyTorch transformer built from an oracle configuration
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The reference implementation the oracle measures: written the way the
# generic PyTorch path writes it (Hugging Face's Llama, GPT-2, BERT and
# Mixtral modules, PEFT's LoRA layers), with nothing fused, so that the
# tensors autograd saves are the ones those models save.  A configuration
# is a flat dict (see oracle.py, CONFIG_KEYS); every size is explicit.
#
# Precision:
#   fp32       fp32 weights and compute
#   bf16-true  bf16 weights and compute (model.to(bfloat16))
#   amp-bf16   fp32 weights, torch.autocast(bfloat16); the ops that CUDA's
#              autocast runs in fp32 (softmax, log_softmax, layer_norm,
#              cross_entropy) are cast to fp32 here explicitly, because the
#              CPU autocast of torch 1.13 keeps some of them in bf16.
#
# Attention:
#   eager      matmul, softmax, dropout, matmul; K and V repeated to every
#              head (Hugging Face's repeat_kv)
#   flash      FlashLike: a custom autograd function that saves q, k, v, the
#              output and the fp32 log-sum-exp, with grouped K and V
#              (FlashAttention-2's flash_attn_func, (b, s, heads, d) layout)
#   sdpa       the same function fed K and V repeated to every head (SDPA
#              before enable_gqa)

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint as torch_checkpoint

from opcheckpoint import OpCheckpoint, flash, lin

DROPOUT_P = 0.1
LORA_TARGETS = ("q", "k", "v", "o", "gate", "up", "down", "lm_head")


def compute_dtype(cfg):
    return torch.float32 if cfg["precision"] == "fp32" else torch.bfloat16


def autocast_on(cfg):
    return cfg["precision"] == "amp-bf16"


def dropout(x, train):
    """CUDA's fused dropout (at::native_dropout), which keeps a bool mask.
    F.dropout on the CPU goes through at::_dropout and keeps a float noise
    tensor of the input's type instead (is_fused_kernel_acceptable is false
    for CPU tensors)."""
    if not train:
        return x
    return torch.native_dropout(x, DROPOUT_P, True)[0]


def to_fp32_if_amp(cfg, x):
    """CUDA autocast runs softmax, log_softmax and layer_norm in fp32."""
    return x.float() if autocast_on(cfg) else x


# --------------------------------------------------------------------------
# A hook the sampler installs: FlashLike pauses it over its inner loop, as a
# fused kernel allocates nothing but its outputs.

class _KernelScope:
    kernel = None     # a context manager factory, set by measure.py


def _kernel():
    """What a fused kernel allocates inside, and frees before it returns,
    the meters do not count (FlashLike's Python loop stands for one)."""
    if _KernelScope.kernel is None:
        import contextlib
        return contextlib.nullcontext()
    return _KernelScope.kernel()


class FlashLike(torch.autograd.Function):
    """Attention that saves only q, k, v, out and the log-sum-exp.

    q: (b, s, a, d); k, v: (b, s, kh, d), kh divides a.  Returns (b, s, a, d)
    in q's dtype, so that out.reshape(b, s, a*d), the O projection's input,
    is a view of the saved output, as with flash_attn_func and with SDPA's
    flash kernel (whose output is allocated (b, s, a, d) and returned
    transposed)."""

    CHUNK = 32

    @staticmethod
    def compute(q, k, v, causal, scale):
        """The kernel: the output and the fp32 log-sum-exp."""
        b, s, a, d = q.shape
        kh, sk = k.shape[2], k.shape[1]     # sk: the encoder's length in a cross-attention
        vd = v.shape[3]                     # V's width (DeepSeek's MLA: narrower than Q's)
        g = a // kh
        with _kernel():
            out = q.new_empty(b, s, a, vd)
            lse = torch.empty(b, a, s, dtype=torch.float32, device=q.device)
            kt = k.permute(0, 2, 1, 3).float()            # (b, kh, s, d)
            vt = v.permute(0, 2, 1, 3).float()
            for i in range(0, s, FlashLike.CHUNK):
                c = min(FlashLike.CHUNK, s - i)
                qc = q[:, i:i + c].permute(0, 2, 1, 3).float()   # (b, a, c, d)
                qc = qc.reshape(b, kh, g * c, d)
                sc = torch.matmul(qc, kt.transpose(-1, -2)) * scale   # (b, kh, g*c, s)
                if causal:
                    qpos = torch.arange(i, i + c, device=q.device).repeat(g)
                    kpos = torch.arange(sk, device=q.device)
                    sc = sc.masked_fill(kpos[None, :] > qpos[:, None], float("-inf"))
                m = torch.logsumexp(sc, dim=-1, keepdim=True)
                p = torch.exp(sc - m)
                oc = torch.matmul(p, vt)                            # (b, kh, g*c, vd)
                out[:, i:i + c] = oc.reshape(b, a, c, vd).permute(0, 2, 1, 3).to(q.dtype)
                lse[:, :, i:i + c] = m.reshape(b, a, c)
                del qc, sc, m, p, oc
            del kt, vt
        return out, lse

    @staticmethod
    def forward(ctx, q, k, v, causal, scale):
        out, lse = FlashLike.compute(q, k, v, causal, scale)
        ctx.save_for_backward(q, k, v, out, lse)
        ctx.causal = causal
        ctx.scale = scale
        return out

    @staticmethod
    def backward(ctx, dout):
        q, k, v, out, lse = ctx.saved_tensors
        b, s, a, d = q.shape
        kh, sk = k.shape[2], k.shape[1]
        vd = v.shape[3]
        g = a // kh
        scale = ctx.scale
        with _kernel():
            dq = torch.empty_like(q)
            dk = torch.empty_like(k)
            dv = torch.empty_like(v)
            dk32 = torch.zeros(b, kh, sk, d, dtype=torch.float32, device=q.device)
            dv32 = torch.zeros(b, kh, sk, vd, dtype=torch.float32, device=q.device)
            kt = k.permute(0, 2, 1, 3).float()
            vt = v.permute(0, 2, 1, 3).float()
            for i in range(0, s, FlashLike.CHUNK):
                c = min(FlashLike.CHUNK, s - i)
                qc = q[:, i:i + c].permute(0, 2, 1, 3).float().reshape(b, kh, g * c, d)
                doc = dout[:, i:i + c].permute(0, 2, 1, 3).float().reshape(b, kh, g * c, vd)
                oc = out[:, i:i + c].permute(0, 2, 1, 3).float().reshape(b, kh, g * c, vd)
                m = lse[:, :, i:i + c].reshape(b, kh, g * c, 1)
                sc = torch.matmul(qc, kt.transpose(-1, -2)) * scale
                if ctx.causal:
                    qpos = torch.arange(i, i + c, device=q.device).repeat(g)
                    kpos = torch.arange(sk, device=q.device)
                    sc = sc.masked_fill(kpos[None, :] > qpos[:, None], float("-inf"))
                p = torch.exp(sc - m)
                dv32 += torch.matmul(p.transpose(-1, -2), doc)
                dp = torch.matmul(doc, vt.transpose(-1, -2))
                delta = (doc * oc).sum(-1, keepdim=True)
                ds = p * (dp - delta) * scale
                dqc = torch.matmul(ds, kt)
                dk32 += torch.matmul(ds.transpose(-1, -2), qc)
                dq[:, i:i + c] = dqc.reshape(b, a, c, d).permute(0, 2, 1, 3).to(q.dtype)
                del qc, doc, oc, m, sc, p, dp, delta, ds, dqc
            dk.copy_(dk32.permute(0, 2, 1, 3))
            dv.copy_(dv32.permute(0, 2, 1, 3))
            del dk32, dv32, kt, vt
        return dq, dk, dv, None, None


def sdpa_cuda(q, k, v, causal, scale):
    """The --device cuda path: PyTorch's own SDPA kernels (flash where they
    apply), in the (b, s, heads, d) layout the module uses."""
    qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
    kwargs = {}
    if k.shape[2] != q.shape[2]:
        kwargs["enable_gqa"] = True
    out = F.scaled_dot_product_attention(qt, kt, vt, is_causal=causal, scale=scale, **kwargs)
    return out.transpose(1, 2)


def sdpa_supports_gqa():
    import inspect
    try:
        return "enable_gqa" in inspect.signature(F.scaled_dot_product_attention).parameters
    except (AttributeError, ValueError, TypeError):
        return False


# --------------------------------------------------------------------------

class LoRALinear(nn.Module):
    """PEFT's lora.Linear: base(x) + B(A(dropout(x))) * alpha / r, base frozen."""

    def __init__(self, base, rank, dropout):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        if self.base.bias is not None:
            self.base.bias.requires_grad_(False)
        self.lora_A = nn.Linear(base.in_features, rank, bias=False)
        self.lora_B = nn.Linear(rank, base.out_features, bias=False)
        nn.init.normal_(self.lora_B.weight, std=0.02)
        self.lora_A.weight.is_adapter = True
        self.lora_B.weight.is_adapter = True
        self.p = dropout
        self.scaling = 2.0

    def forward(self, x):
        xd = torch.native_dropout(x, self.p, True)[0] if self.p > 0 and self.training else x
        return self.base(x) + self.lora_B(self.lora_A(xd)) * self.scaling


class LoRAEmbedding(nn.Module):
    """PEFT's lora.Embedding (peft/tuners/lora/layer.py, Embedding.forward):
    base(x) + (F.embedding(x, A.T) @ B.T) * alpha / r, base frozen, no
    dropout; A is r x V, B h x r."""

    def __init__(self, base, rank):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        self.lora_embedding_A = nn.Parameter(torch.zeros(rank, base.num_embeddings))
        self.lora_embedding_B = nn.Parameter(torch.randn(base.embedding_dim, rank) * 0.02)
        self.lora_embedding_A.is_adapter = True
        self.lora_embedding_B.is_adapter = True
        self.scaling = 2.0

    @property
    def weight(self):
        return self.base.weight

    def forward(self, x):
        after_a = F.embedding(x, self.lora_embedding_A.T)
        return self.base(x) + (after_a @ self.lora_embedding_B.T) * self.scaling


class Norm(nn.Module):
    """Hugging Face's LlamaRMSNorm, or LayerNorm through F.layer_norm."""

    def __init__(self, cfg, width):
        super().__init__()
        self.cfg = cfg
        self.rms = cfg["norm"] == "rmsnorm"
        self.weight = nn.Parameter(torch.ones(width))
        self.bias = None if self.rms else nn.Parameter(torch.zeros(width))
        self.eps = 1e-5

    def forward(self, x):
        if self.rms:
            dtype = x.dtype
            h = x.to(torch.float32)
            # mean(-1) as sum / n: torch 1.13's MeanBackward1 saves its
            # whole input (its codegen did not know self.sym_numel()), 2.x
            # saves only the sizes, as SumBackward1 does in both
            var = h.pow(2).sum(-1, keepdim=True) * (1.0 / h.shape[-1])
            h = h * torch.rsqrt(var + self.eps)
            return self.weight * h.to(dtype)
        return F.layer_norm(to_fp32_if_amp(self.cfg, x), (x.shape[-1],), self.weight, self.bias, self.eps)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class Attention(nn.Module):
    def __init__(self, cfg, causal):
        super().__init__()
        self.cfg = cfg
        h, a, kh, d = cfg["hidden"], cfg["heads"], cfg["kv_heads"], cfg["head_dim"]
        self.a, self.kh, self.d = a, kh, d
        self.causal = causal
        # (all-but-k: Whisper's, every linear with a bias but k_proj)
        qkv_bias = cfg["bias"] in ("qkv", "all", "all-but-k")
        self.q = nn.Linear(h, a * d, bias=qkv_bias)
        self.k = nn.Linear(h, kh * d, bias=qkv_bias and cfg["bias"] != "all-but-k")
        self.v = nn.Linear(h, kh * d, bias=qkv_bias)
        self.o = nn.Linear(a * d, h, bias=cfg["bias"] in ("all", "all-but-k"))
        self.qk_norm = cfg["qk_norm"]
        if self.qk_norm == "head":
            self.q_norm = Norm(dict(cfg, norm="rmsnorm"), d)
            self.k_norm = Norm(dict(cfg, norm="rmsnorm"), d)
        elif self.qk_norm == "full":
            self.q_norm = Norm(dict(cfg, norm="rmsnorm"), a * d)
            self.k_norm = Norm(dict(cfg, norm="rmsnorm"), kh * d)
        self.attn_drop = cfg["dropout"]
        # T5Attention upcasts its scores for the softmax itself and casts
        # the probabilities back: softmax(scores.float()).type_as(scores)
        # CLIP's eager_attention_forward (modeling_clip.py) does the same in
        # every precision: softmax(..., dtype=torch.float32).to(query.dtype)
        self.fp32_softmax = (cfg["kind"] == "encoder-decoder" and cfg.get("position_buckets", 0) > 0
                             or cfg.get("fp32_softmax", False))

    def forward(self, x, rope, kv=None, bias=None):
        """kv: the encoder's output, which K and V read in a cross-attention
        (T5LayerCrossAttention, BART's encoder_attn); bias: T5's relative
        position bias, added to the eager scores (T5Attention.forward)."""
        cfg = self.cfg
        b, s, _ = x.shape
        src = x if kv is None else kv
        sk = src.shape[1]
        a, kh, d = self.a, self.kh, self.d
        q = lin(self.q, x)
        k = lin(self.k, src)
        v = lin(self.v, src)
        if self.qk_norm == "full":
            q = self.q_norm(q)
            k = self.k_norm(k)
        q = q.view(b, s, a, d)
        k = k.view(b, sk, kh, d)
        v = v.view(b, sk, kh, d)
        if self.qk_norm == "head":
            q = self.q_norm(q)
            k = self.k_norm(k)
        if rope is not None:
            cos, sin = rope
            q = q * cos + rotate_half(q) * sin
            k = k * cos + rotate_half(k) * sin
        mode = cfg["attention"]
        scale = 1.0 / math.sqrt(d)
        if mode != "flash" or cfg.get("device") == "cuda" and not sdpa_supports_gqa():
            if kh != a:
                # repeat_kv: expand + reshape, a copy per head
                g = a // kh
                k = k[:, :, :, None, :].expand(b, sk, kh, g, d).reshape(b, sk, a, d)
                v = v[:, :, :, None, :].expand(b, sk, kh, g, d).reshape(b, sk, a, d)
        if mode == "eager":
            qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
            scores = torch.matmul(qt, kt.transpose(-1, -2)) / math.sqrt(d)
            if bias is not None:
                scores = scores + bias                # add keeps nothing
            if self.causal:
                scores = scores.masked_fill(self.causal_mask[:s, :s], float("-inf"))
            if self.fp32_softmax:
                probs = F.softmax(scores.float(), dim=-1).type_as(scores)
            else:
                probs = F.softmax(to_fp32_if_amp(cfg, scores), dim=-1)
            if self.attn_drop:
                probs = dropout(probs, self.training)
            ctx = torch.matmul(probs, vt)           # autocast casts probs back
            ctx = ctx.transpose(1, 2).reshape(b, s, a * d)
        else:
            if cfg.get("device") == "cuda":
                out = sdpa_cuda(q, k, v, self.causal, scale)
            else:
                if autocast_on(cfg):
                    # CUDA's autocast casts SDPA's inputs to 16 bits (it is
                    # on the lower-precision list); fp32 Q and K come from
                    # Q/K norms, whose fp32 weights promote their output
                    q, k, v = (t.to(torch.bfloat16) for t in (q, k, v))
                out = flash(FlashLike, q, k, v, self.causal, scale)
            ctx = out.reshape(b, s, a * d)
        return lin(self.o, ctx)


class MLAttention(nn.Module):
    """DeepSeek's multi-head latent attention as Hugging Face writes it
    (modeling_deepseek_v3.py, DeepseekV3Attention.forward): Q through a
    q_lora latent and its RMSNorm (or directly), K and V from one kv_lora
    latent and its RMSNorm, the rope part of Q per head and one rope key
    for every head, joined by torch.cat; V a view of kv_b's output.  flash:
    V padded to Q's width (F.pad), the output sliced back (Hugging Face's
    flash_attention_2 path); sdpa: the kernel takes V as it is (PyTorch's
    memory-efficient kernel, which the flash one leaves to it when V is
    narrower); eager: matmul, softmax, matmul."""

    def __init__(self, cfg, causal):
        super().__init__()
        self.cfg = cfg
        h, a = cfg["hidden"], cfg["heads"]
        self.a = a
        self.nope, self.rope, self.vd = cfg["qk_nope_head_dim"], cfg["qk_rope_head_dim"], cfg["v_head_dim"]
        self.qk = self.nope + self.rope
        self.ql, self.kvl = cfg["q_lora_rank"], cfg["kv_lora_rank"]
        self.causal = causal
        rms = dict(cfg, norm="rmsnorm")
        if self.ql:
            self.q_a = nn.Linear(h, self.ql, bias=False)
            self.q_a_norm = Norm(rms, self.ql)
            self.q_b = nn.Linear(self.ql, a * self.qk, bias=False)
        else:
            self.q = nn.Linear(h, a * self.qk, bias=False)
        self.kv_a = nn.Linear(h, self.kvl + self.rope, bias=False)
        self.kv_norm = Norm(rms, self.kvl)
        self.kv_b = nn.Linear(self.kvl, a * (self.nope + self.vd), bias=False)
        self.o = nn.Linear(a * self.vd, h, bias=False)
        self.attn_drop = cfg["dropout"]

    def forward(self, x, rope):
        cfg = self.cfg
        b, s, _ = x.shape
        a, nope, rd, vd, qk = self.a, self.nope, self.rope, self.vd, self.qk
        if self.ql:
            q = lin(self.q_b, self.q_a_norm(lin(self.q_a, x)))
        else:
            q = lin(self.q, x)
        q = q.view(b, s, a, qk)
        q_pass, q_rot = torch.split(q, [nope, rd], dim=-1)
        ckv = lin(self.kv_a, x)
        k_pass, k_rot = torch.split(ckv, [self.kvl, rd], dim=-1)
        kv = lin(self.kv_b, self.kv_norm(k_pass)).view(b, s, a, nope + vd)
        k_pass, v = torch.split(kv, [nope, vd], dim=-1)
        k_rot = k_rot.view(b, s, 1, rd)
        cos, sin = rope
        q_rot = q_rot * cos + rotate_half(q_rot) * sin
        k_rot = k_rot * cos + rotate_half(k_rot) * sin
        q = torch.cat((q_pass, q_rot.to(q_pass.dtype)), dim=-1)
        k = torch.cat((k_pass, k_rot.to(k_pass.dtype).expand(b, s, a, rd)), dim=-1)
        scale = 1.0 / math.sqrt(qk)
        mode = cfg["attention"]
        if mode == "eager":
            qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
            scores = torch.matmul(qt, kt.transpose(-1, -2)) * scale
            if self.causal:
                scores = scores.masked_fill(self.causal_mask[:s, :s], float("-inf"))
            probs = F.softmax(to_fp32_if_amp(cfg, scores), dim=-1)
            if self.attn_drop:
                probs = dropout(probs, self.training)
            ctx = torch.matmul(probs, vt)
            ctx = ctx.transpose(1, 2).reshape(b, s, a * vd)
        else:
            if autocast_on(cfg):
                q, k, v = (t.to(torch.bfloat16) for t in (q, k, v))
            if mode == "flash" and qk != vd:
                # (Hugging Face pads only where the widths differ)
                out = flash(FlashLike, q, k, F.pad(v, [0, qk - vd]), self.causal, scale)
                ctx = out[..., :vd].reshape(b, s, a * vd)
            else:
                out = flash(FlashLike, q, k, v, self.causal, scale)
                ctx = out.reshape(b, s, a * vd)
        return lin(self.o, ctx)


class MLP(nn.Module):
    def __init__(self, cfg, width):
        super().__init__()
        h = cfg["hidden"]
        self.kind = cfg["mlp"]
        self.gated = self.kind in ("swiglu", "geglu")
        bias = cfg["bias"] in ("all", "all-but-k")
        if self.gated:
            self.gate = nn.Linear(h, width, bias=bias)
        self.up = nn.Linear(h, width, bias=bias)
        self.down = nn.Linear(width, h, bias=bias)

    def act(self, x):
        if self.kind == "swiglu":
            return F.silu(x)
        if self.kind == "relu":
            return F.relu(x)
        if self.kind == "relu2":
            # transformers' ReLUSquaredActivation (Nemotron-H's relu2)
            return torch.square(F.relu(x))
        return F.gelu(x)

    def forward(self, x):
        if self.gated:
            return lin(self.down, self.act(lin(self.gate, x)) * lin(self.up, x))
        return lin(self.down, self.act(lin(self.up, x)))


class MoE(nn.Module):
    """Mixtral's sparse MoE block (Hugging Face MixtralSparseMoeBlock): an
    fp32 softmax over the router logits, top-k, renormalised weights, and
    each expert run on the tokens routed to it."""

    def __init__(self, cfg, nemotron=False):
        super().__init__()
        self.cfg = cfg
        self.E = cfg["experts"]
        self.k = cfg["experts_active"]
        self.router = nn.Linear(cfg["hidden"], self.E, bias=False)
        # Nemotron-H's NemotronHMoE (a pattern's E block) routes as
        # DeepSeek-V3 (NemotronHTopkRouter is DeepseekV3TopkRouter, its
        # e_score_correction_bias a buffer) and sums in fp32
        # (NemotronHExperts)
        self.nemotron = nemotron
        if nemotron:
            self.register_buffer("score_bias", torch.zeros(self.E))
        # Nemotron's latent MoE (NemotronHMoE with moe_latent_size):
        # fc1_latent_proj takes the tokens to L before the experts, which
        # read and write L, and fc2_latent_proj takes their sum back
        self.L = cfg.get("moe_latent_size", 0)
        bias = cfg["bias"] in ("all", "all-but-k")
        self.fc1_latent = nn.Linear(cfg["hidden"], self.L, bias=bias) if self.L else None
        self.fc2_latent = nn.Linear(self.L, cfg["hidden"], bias=bias) if self.L else None
        expert_cfg = dict(cfg, hidden=self.L) if self.L else cfg
        self.experts = nn.ModuleList(MLP(expert_cfg, cfg["expert_ffn"] or cfg["ffn"]) for _ in range(self.E))
        # DeepSeek (DeepseekV3MoE): one shared MLP of n_shared x the expert
        # width over every token, and a gate that upcasts its input
        # (DeepseekV3TopkRouter: F.linear(hidden_states.type(float32), ...))
        self.n_shared = cfg.get("shared_experts", 0)
        self.shared = MLP(cfg, self.n_shared * (cfg["expert_ffn"] or cfg["ffn"])) if self.n_shared else None

    def forward(self, x):
        b, s, h = x.shape
        residual = x
        x = x.reshape(-1, h)
        if self.shared is not None or self.nemotron:
            logits = F.linear(x.float(), self.router.weight.float()) if not autocast_on(self.cfg) \
                else self.router(x)
        else:
            logits = self.router(x)
        if self.nemotron:
            w, idx = self.route_sigmoid(logits)
        else:
            w = F.softmax(logits, dim=1, dtype=torch.float)
            w, idx = torch.topk(w, self.k, dim=-1)
            w = w / w.sum(dim=-1, keepdim=True)
            w = w.to(x.dtype)
        xe = lin(self.fc1_latent, x) if self.L else x
        width = xe.shape[-1]
        out = torch.zeros((b * s, width), dtype=w.dtype if self.nemotron else xe.dtype, device=x.device)
        mask = F.one_hot(idx, num_classes=self.E).permute(2, 1, 0)
        for e in range(self.E):
            slot, tok = torch.where(mask[e])
            if tok.numel() == 0:
                continue
            y = self.experts[e](xe[None, tok].reshape(-1, width)) * w[tok, slot, None]
            out.index_add_(0, tok, y.to(out.dtype))
        out = out.to(xe.dtype)
        if self.L:
            out = lin(self.fc2_latent, out)
        out = out.reshape(b, s, h)
        if self.shared is not None:
            out = out + self.shared(residual)
        return out


    def route_sigmoid(self, logits):
        """DeepseekV3MoE.route_tokens_to_experts with one group (Nemotron
        3's n_group and topk_group 1): sigmoid scores, the bias added for
        the choice, the group top-k and its mask, top-k, the chosen scores
        gathered, renormalised and scaled (routed_scaling_factor)."""
        scores = logits.sigmoid()
        choice = scores + self.score_bias
        group_scores = choice.view(-1, 1, self.E).topk(min(2, self.E), dim=-1)[0].sum(dim=-1)
        group_idx = torch.topk(group_scores, k=1, dim=-1, sorted=False)[1]
        group_mask = torch.zeros_like(group_scores)
        group_mask.scatter_(1, group_idx, 1)
        score_mask = group_mask.unsqueeze(-1).expand(-1, 1, self.E).reshape(-1, self.E)
        masked = choice.masked_fill(~score_mask.bool(), 0.0)
        idx = torch.topk(masked, k=self.k, dim=-1, sorted=False)[1]
        w = scores.gather(1, idx)
        w /= w.sum(dim=-1, keepdim=True) + 1e-20
        return w * 2.5, idx


class Block(nn.Module):
    def __init__(self, cfg, index):
        super().__init__()
        self.cfg = cfg
        self.index = index
        self.encoder = cfg["kind"] == "encoder"
        self.parallel = cfg["parallel_block"]
        self.norm1 = Norm(cfg, cfg["hidden"])
        n_norms = cfg["norms_per_layer"] or (1 if self.parallel else 2)
        self.norm2 = Norm(cfg, cfg["hidden"]) if n_norms >= 2 else None
        # Gemma 2's sandwich: norms after the attention and after the MLP too
        self.post_norms = (Norm(cfg, cfg["hidden"]), Norm(cfg, cfg["hidden"])) if n_norms == 4 else None
        if self.post_norms:
            self.post_attn_norm, self.post_mlp_norm = self.post_norms
        self.attn = (MLAttention(cfg, causal=True) if cfg.get("attention_kind") == "mla"
                     else Attention(cfg, causal=not self.encoder))
        # DeepSeek's first_k_dense_replace: the first layers' MLP is dense
        moe = cfg["experts"] > 1 and index >= cfg.get("dense_layers", 0)
        self.mlp = MoE(cfg) if moe else MLP(cfg, cfg["ffn"])
        self.dropout = cfg["dropout"]

    def drop(self, x):
        return dropout(x, self.training) if self.dropout else x

    def forward(self, x, rope):
        if self.encoder:
            # BERT: post-norm
            x = self.norm1(x + self.drop(self.attn(x, rope)))
            return self.norm2(x + self.drop(self.mlp(x)))
        if self.parallel:
            xn = self.norm1(x)
            xm = self.norm2(x) if self.norm2 is not None else xn
            return x + self.drop(self.attn(xn, rope)) + self.drop(self.mlp(xm))
        if self.post_norms:
            x = x + self.drop(self.post_attn_norm(self.attn(self.norm1(x), rope)))
            return x + self.drop(self.post_mlp_norm(self.mlp(self.norm2(x))))
        x = x + self.drop(self.attn(self.norm1(x), rope))
        return x + self.drop(self.mlp(self.norm2(x)))


class MTPModule(nn.Module):
    """A multi-token-prediction module (DeepSeek-V3 §2.2, Figure 3; as
    Megatron-Core builds it, multi_token_prediction.py,
    MultiTokenPredictionLayer): the previous depth's hidden state and the
    embeddings of the tokens k ahead, each normed (hnorm, enorm), joined
    and projected back to h (eh_proj), one more layer (an MoE one: its
    index is past the dense first layers), its own final norm, then the
    shared embedding's head and a loss of its own."""

    def __init__(self, cfg, k):
        super().__init__()
        h = cfg["hidden"]
        self.enorm = Norm(cfg, h)
        self.hnorm = Norm(cfg, h)
        self.eh_proj = nn.Linear(2 * h, h, bias=False)
        self.block = Block(cfg, cfg["layers"] + k)
        self.norm = Norm(cfg, h)


class Model(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        h, V, s = cfg["hidden"], cfg["vocab"], cfg["seq_len"]
        self.decoder = cfg["kind"] == "decoder"
        self.embed = nn.Embedding(V, h)
        self.pos = nn.Embedding(cfg["learned_positions"], h) if cfg["learned_positions"] else None
        self.token_type = nn.Embedding(cfg["token_types"], h) if cfg["token_types"] else None
        self.embed_norm = Norm(cfg, h) if not self.decoder else None
        self.layers = nn.ModuleList(Block(cfg, i) for i in range(cfg["layers"]))
        self.final_norm = Norm(cfg, h) if self.decoder else None
        self.lm = cfg["head"] == "lm"
        self.mtp = nn.ModuleList(MTPModule(cfg, k) for k in range(cfg.get("mtp_modules", 0)))
        if self.lm:
            if cfg["tied_embeddings"]:
                self.head = nn.Linear(h, V, bias=cfg["lm_head_bias"])
                self.head.weight = self.embed.weight
            else:
                self.head = nn.Linear(h, V, bias=cfg["lm_head_bias"])
        else:
            self.pooler = nn.Linear(h, h) if cfg["pooler"] else None
            self.head = nn.Linear(h, cfg["classes"])
        self.register_buffer("position_ids", torch.arange(s), persistent=False)
        mask = torch.ones(s, s, dtype=torch.bool).triu(1)
        for layer in list(self.layers) + [m.block for m in self.mtp]:
            layer.attn.register_buffer("causal_mask", mask, persistent=False)
        self.rope = None
        if self.decoder and not cfg["learned_positions"]:
            d = cfg["qk_rope_head_dim"] if cfg.get("attention_kind") == "mla" else cfg["head_dim"]
            inv = 1.0 / (10000 ** (torch.arange(0, d, 2).float() / d))
            f = torch.outer(torch.arange(s).float(), inv)
            emb = torch.cat((f, f), dim=-1)[None, :, None, :]     # (1, s, 1, d)
            self.register_buffer("rope_cos", emb.cos(), persistent=False)
            self.register_buffer("rope_sin", emb.sin(), persistent=False)
            self.rope = True
        self.layer_hook = None     # measure.py: called with the layer index

    def set_rope_dtype(self, dtype):
        if self.rope:
            self.rope_cos = self.rope_cos.to(dtype)
            self.rope_sin = self.rope_sin.to(dtype)

    def _layer(self, i, layer, x, rope):
        if self.layer_hook is not None:
            self.layer_hook(i)
        # every N-th layer counted from 1, as torchtitan's
        # _apply_ac_to_transformer_block (`_count % ac_freq == 0`)
        every = self.cfg["checkpoint_every"]
        if self.cfg["checkpointing"] == "full" and (i + 1) % every == 0:
            return torch_checkpoint.checkpoint(layer, x, rope)
        if self.cfg["checkpointing"] == "op":
            # torchtitan's per-op selective checkpointing (opcheckpoint.py)
            return OpCheckpoint.apply(layer, x, rope)
        return layer(x, rope)

    def forward(self, tokens, token_types=None, embed_hook=None):
        """embed_hook: called with the token embeddings before anything
        else reads them (vision.py puts the image features in place of the
        image tokens there, as LlavaModel.forward does)."""
        cfg = self.cfg
        b, s = tokens.shape
        if self.layer_hook is not None:
            self.layer_hook("embed")
        x = self.embed(tokens)
        if cfg["input_requires_grad"] and not x.requires_grad:
            # Hugging Face's enable_input_require_grads (a forward hook on the
            # token embedding), which PEFT turns on with gradient
            # checkpointing: without it reentrant checkpoints of frozen
            # layers pass no gradient to the adapters.
            x.requires_grad_(True)
        if embed_hook is not None:
            x = embed_hook(x)
        if self.pos is not None:
            x = x + self.pos(self.position_ids[:s])
        if self.token_type is not None:
            x = x + self.token_type(token_types)
        if self.embed_norm is not None:
            x = self.embed_norm(x)
        if cfg["dropout"]:
            x = dropout(x, self.training)
        rope = (self.rope_cos[:, :s], self.rope_sin[:, :s]) if self.rope else None
        for i, layer in enumerate(self.layers):
            x = self._layer(i, layer, x, rope)
        mtp_logits = []
        h_prev = x
        for k, m in enumerate(self.mtp):
            # depth k + 1: the tokens k + 1 ahead (the last positions wrap
            # round; the loss's targets do likewise)
            if self.layer_hook is not None:
                self.layer_hook("mtp")
            e = m.enorm(self.embed(tokens.roll(-(k + 1), dims=1)))
            joined = torch.cat([m.hnorm(h_prev), e], dim=-1)
            h_prev = self._layer(cfg["layers"] + k, m.block, m.eh_proj(joined), rope)
            if self.layer_hook is not None:
                self.layer_hook("head")
            mtp_logits.append(self.head(m.norm(h_prev)))
        if self.layer_hook is not None:
            self.layer_hook("head")
        if self.final_norm is not None:
            x = self.final_norm(x)
        if not self.lm:
            x = x[:, -1] if self.decoder else x[:, 0]
            if self.pooler is not None:
                x = torch.tanh(self.pooler(x))
            return self.head(x)
        if cfg["loss"] == "chunked":
            # LitGPT's lm_head_chunk_size: the head applied chunk by chunk,
            # one logits tensor per chunk
            return [self.head(c) for c in x.split(cfg["loss_chunk"], dim=1)]
        if self.mtp:
            return (self.head(x), mtp_logits)
        return self.head(x)


class Seq2SeqBlock(nn.Module):
    """T5Block / BartEncoderLayer, BartDecoderLayer: self-attention, in the
    decoder a cross-attention over the encoder's output, the MLP; each
    sub-layer with its norm, before it (T5) or after its residual sum
    (BART, post_norm)."""

    def __init__(self, cfg, decoder):
        super().__init__()
        self.cfg = cfg
        self.post = cfg["post_norm"]
        h = cfg["hidden"]
        self.norm1 = Norm(cfg, h)
        self.attn = Attention(cfg, causal=decoder)
        self.cross = Attention(cfg, causal=False) if decoder else None
        self.norm_c = Norm(cfg, h) if decoder else None
        self.norm2 = Norm(cfg, h)
        self.mlp = MLP(cfg, cfg["ffn"])
        self.dropout = cfg["dropout"]

    def drop(self, x):
        return dropout(x, self.training) if self.dropout else x

    def forward(self, x, enc, bias):
        if self.post:
            x = self.norm1(x + self.drop(self.attn(x, None, bias=bias)))
            if self.cross is not None:
                x = self.norm_c(x + self.drop(self.cross(x, None, kv=enc)))
            return self.norm2(x + self.drop(self.mlp(x)))
        x = x + self.drop(self.attn(self.norm1(x), None, bias=bias))
        if self.cross is not None:
            x = x + self.drop(self.cross(self.norm_c(x), None, kv=enc))
        return x + self.drop(self.mlp(self.norm2(x)))


class Seq2SeqModel(nn.Module):
    """T5ForConditionalGeneration / BartForConditionalGeneration: one token
    table for both stacks (and, tied, the head); per stack a learned
    position table, T5's relative bias table (buckets x heads, one bucket
    index per query and key position, computed at each forward as
    T5Attention.compute_bias does, and added to every layer's eager scores)
    and a final norm (T5) or an embedding norm (BART).  Layers are tagged
    0.. (encoder) and "dec0".. (decoder) for the per-layer figures."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        h, V, a = cfg["hidden"], cfg["vocab"], cfg["heads"]
        self.lm = True
        self.embed = nn.Embedding(V, h)
        P, B = cfg["learned_positions"], cfg["position_buckets"]
        self.enc_pos = nn.Embedding(P, h) if P else None
        self.dec_pos = nn.Embedding(P, h) if P else None
        # Whisper (modeling_whisper.py, WhisperEncoder): the encoder reads
        # log-mel frames through conv1 (mel -> h, kernel 3) and conv2 (h ->
        # h, kernel 3, stride 2), a GELU after each, and adds a sinusoidal
        # table of audio_frames rows that does not train (embed_positions,
        # requires_grad_(False)); learned_positions is the decoder's table
        self.audio = cfg.get("audio_mel_bins", 0) > 0
        if self.audio:
            mel, Fr = cfg["audio_mel_bins"], cfg["audio_frames"]
            self.conv1 = nn.Conv1d(mel, h, kernel_size=3, padding=1)
            self.conv2 = nn.Conv1d(h, h, kernel_size=3, stride=2, padding=1)
            self.enc_pos = nn.Embedding(Fr, h)
            self.enc_pos.weight.requires_grad_(False)
        self.enc_bias = nn.Embedding(B, a) if B else None
        self.dec_bias = nn.Embedding(B, a) if B else None
        post = cfg["post_norm"]
        self.enc_embed_norm = Norm(cfg, h) if post else None
        self.dec_embed_norm = Norm(cfg, h) if post else None
        self.layers = nn.ModuleList(Seq2SeqBlock(cfg, False) for _ in range(cfg["layers"]))
        self.dec_layers = nn.ModuleList(Seq2SeqBlock(cfg, True) for _ in range(cfg["decoder_layers"]))
        self.enc_norm = Norm(cfg, h) if not post else None
        self.dec_norm = Norm(cfg, h) if not post else None
        self.head = nn.Linear(h, V, bias=False)
        if cfg["tied_embeddings"]:
            self.head.weight = self.embed.weight
        st = cfg["target_len"] or cfg["seq_len"]
        for n, layers in ((cfg["seq_len"], self.layers), (st, self.dec_layers)):
            mask = torch.ones(n, n, dtype=torch.bool).triu(1)
            for layer in layers:
                for attn in (layer.attn, layer.cross):
                    if attn is not None:
                        attn.register_buffer("causal_mask", mask, persistent=False)
        self.layer_hook = None

    def set_rope_dtype(self, dtype):
        pass

    def _hook(self, tag):
        if self.layer_hook is not None:
            self.layer_hook(tag)

    def _bias(self, table, n, bidirectional):
        """(1, heads, n, n), from a fresh int64 index per position pair."""
        if table is None:
            return None
        pos = torch.arange(n, device=table.weight.device)
        rel = pos[None, :] - pos[:, None]
        B = table.num_embeddings
        if not bidirectional:
            rel = torch.clamp(rel, max=0)
        buckets = torch.clamp(rel + B // 2, 0, B - 1)
        return table(buckets).permute(2, 0, 1)[None]

    def _stack(self, x, pos, embed_norm, bias, layers, enc, tags):
        cfg = self.cfg
        if pos is not None:
            x = x + pos(torch.arange(x.shape[1], device=x.device))
        if embed_norm is not None:
            x = embed_norm(x)
        if cfg["dropout"]:
            x = dropout(x, self.training)
        for tag, layer in zip(tags, layers):
            self._hook(tag)
            if cfg["checkpointing"] == "full":
                x = torch_checkpoint.checkpoint(layer, x, enc, bias)
            else:
                x = layer(x, enc, bias)
        return x

    def forward(self, tokens, dec_tokens):
        cfg = self.cfg
        self._hook("embed")
        if self.audio:
            # WhisperEncoder.forward: the features as they come (no cast),
            # gelu(conv1), gelu(conv2), permute; the stack adds the table
            self._hook("stem")
            x = F.gelu(self.conv1(tokens))
            x = F.gelu(self.conv2(x)).permute(0, 2, 1)
            self._hook("embed")
        else:
            x = self.embed(tokens)
        bias = self._bias(self.enc_bias, x.shape[1], True)
        x = self._stack(x, self.enc_pos, self.enc_embed_norm, bias, self.layers, None,
                        range(len(self.layers)))
        self._hook("enc_out")
        enc = self.enc_norm(x) if self.enc_norm is not None else x
        self._hook("dec_embed")
        y = self.embed(dec_tokens)
        bias = self._bias(self.dec_bias, dec_tokens.shape[1], False)
        y = self._stack(y, self.dec_pos, self.dec_embed_norm, bias, self.dec_layers, enc,
                        ["dec%d" % i for i in range(len(self.dec_layers))])
        self._hook("head")
        if self.dec_norm is not None:
            y = self.dec_norm(y)
        return self.head(y)


def loss_fn(cfg, logits, targets, mark=None):
    """Cross-entropy as Hugging Face's and LitGPT's loops compute it.
    MARK, where given, is called at the loss's own moment: its fp32 copy
    of 16-bit logits and the log-probabilities beside the logits."""
    if cfg["head"] != "lm":
        return F.cross_entropy(to_fp32_if_amp(cfg, logits), targets)
    V = cfg["vocab"]
    if isinstance(logits, tuple):
        # the main loss and each prediction module's on the targets k + 1
        # further on, weighted (DeepSeek-V3 §2.2: lambda / D)
        # (the last loss's moment is the one marked: its fp32 copy beside
        # every set of logits and log-probabilities)
        main, extra = logits
        loss = loss_fn(cfg, main, targets)
        for k, lk in enumerate(extra):
            last = k + 1 == len(extra)
            loss = loss + 0.3 / len(extra) * loss_fn(cfg, lk, targets.roll(-(k + 1), dims=1),
                                                     mark if last else None)
        return loss
    fp32 = cfg["logits_fp32"] or autocast_on(cfg)   # autocast: cross_entropy is an fp32 op
    if cfg["loss"] == "chunked":
        chunks = targets.split(cfg["loss_chunk"], dim=1)
        losses = [F.cross_entropy((c.float() if fp32 else c).reshape(-1, V), t.reshape(-1), reduction="none")
                  for c, t in zip(logits, chunks)]
        return torch.cat(losses).sum() / targets.numel()
    x = logits.float() if fp32 else logits
    loss = F.cross_entropy(x.reshape(-1, V), targets.reshape(-1))
    if mark is not None:
        mark()
    return loss


def apply_lora(model, cfg):
    targets = set(cfg["lora_targets"])
    for p in model.parameters():
        p.requires_grad_(False)
    rank, drop = cfg["lora_rank"], cfg["lora_dropout"]

    def wrap(parent, name):
        setattr(parent, name, LoRALinear(getattr(parent, name), rank, drop))

    # DeepSeek's latent attention: q the query projections, k the latent's
    # down projection (kv_a_proj_with_mqa), v its up projection (kv_b_proj)
    mla = {"q": ("q", "q_a", "q_b"), "k": ("kv_a",), "v": ("kv_b",), "o": ("o",)}
    wrapped = set()
    for layer in model.layers:
        # a Zamba2 shared block (ssm.py's SharedUse): PEFT wraps its
        # linears once, however many layers use it (named_modules yields a
        # module once); gate and up are one linear there, gate_up_proj
        block = getattr(layer, "block", None)
        if block is not None:
            if id(block) not in wrapped:
                wrapped.add(id(block))
                for t in ("q", "k", "v", "o", "down"):
                    if t in targets:
                        wrap(block, t)
                if targets & {"gate", "up"}:
                    wrap(block, "gate_up")
            continue
        # a Mamba block (ssm.py): in_proj, and Jamba's x_proj and out_proj,
        # the linears its mixer calls as modules (hr-validate-ssm.c)
        if hasattr(layer, "mixer"):
            for name in ("in_proj", "x_proj", "out_proj"):
                if name in targets:
                    wrap(layer.mixer, name)
        else:
            for t in ("q", "k", "v", "o"):
                if t in targets:
                    for name in (mla[t] if isinstance(layer.attn, MLAttention) else (t,)):
                        if hasattr(layer.attn, name):
                            wrap(layer.attn, name)
        # every MLP: the routed experts, DeepSeek's shared experts and its
        # dense first layers' MLP, a hybrid's SSM layers' MLP or experts
        if layer.mlp is None:
            mlps = []
        elif isinstance(layer.mlp, MoE):
            mlps = list(layer.mlp.experts) + ([layer.mlp.shared] if layer.mlp.shared is not None else [])
        else:
            mlps = [layer.mlp]
        for mlp in mlps:
            for t in ("gate", "up", "down"):
                if t in targets and hasattr(mlp, t):
                    wrap(mlp, t)
    if "lm_head" in targets and model.lm:
        wrap(model, "head")
    if "embed_tokens" in targets:
        model.embed = LoRAEmbedding(model.embed, rank)


def build(cfg, device="cpu"):
    if cfg.get("ssm", "none") != "none" or cfg.get("layer_pattern"):
        import ssm               # state-space and hybrid models (ssm.py)
        model = ssm.SSMModel(cfg)
    elif cfg.get("vision", "none") == "mllama":
        import mllama            # Llama 3.2 Vision's language side (mllama.py)
        model = mllama.MllamaModel(cfg)
    elif cfg.get("vision", "none") != "none":
        import vision            # vision-language models (vision.py)
        model = vision.VLModel(cfg)
    else:
        model = Seq2SeqModel(cfg) if cfg["kind"] == "encoder-decoder" else Model(cfg)
    if cfg["method"] == "lora":
        apply_lora(model, cfg)
    if cfg["precision"] == "bf16-true":
        model = model.to(torch.bfloat16)
        model.set_rope_dtype(torch.bfloat16)
    elif cfg["precision"] == "amp-bf16":
        model.set_rope_dtype(torch.bfloat16)
    model = model.to(device)
    model.train()
    return model
