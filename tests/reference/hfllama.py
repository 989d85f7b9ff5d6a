# hfllama.py: measure-stacks.py's plain loop and Trainer, op for op, on the meta device
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# transformers' LlamaForCausalLM (modeling_llama.py, transformers 5) as
# measure-stacks.py's run_loop trains it on one GPU: bf16 weights, no
# autocast, SDPA with no mask and K and V unrepeated (use_gqa_in_sdpa),
# cuDNN's attention kernel (it keeps Q, K, V, its output and the fp32
# log-sum-exp), the loss inside the model (ForCausalLMLoss: the logits
# upcast to fp32, then cross_entropy), fused AdamW (its step allocates
# nothing; its first step makes each parameter's step counter and two
# states), zero_grad(set_to_none=True), each decoder layer wrapped for
# full or torchtitan's per-op checkpointing or not; and as run_trainer
# trains it: transformers' Trainer(bf16=True), autocast over fp32 weights
# or, with PEFT's LoRA on every linear of the layers, over a bf16 base and
# fp32 adapters.  Written again here, as the modules write each op,
# because the caching allocator's reserved bytes depend on the order and
# sizes of every allocation (alloctrace.py, cachingalloc.py); the trace
# runs on the meta device, so a 1B model's step costs no memory.

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

import alloctrace


class Autocast:
    """torch.autocast("cuda", bfloat16) as it acts on this model, which the
    meta device does not run (autocast has no meta dispatch key): matmuls
    (F.linear, SDPA) take 16-bit copies of fp32 inputs, the casts of leaf
    weights that need gradients cached until the outermost autocast region
    ends (aten/src/ATen/autocast_mode.cpp, cached_cast); elementwise ops
    promote as always."""
    active = False
    cache = {}

    @classmethod
    def region(cls):
        import contextlib

        @contextlib.contextmanager
        def region():
            outer = cls.active
            cls.active = True
            try:
                yield
            finally:
                cls.active = outer
                if not outer:
                    cls.cache.clear()
        return region()

    @classmethod
    def to16(cls, t):
        if not cls.active or t.dtype == torch.bfloat16:
            return t
        if t.is_leaf and t.requires_grad:
            cast = cls.cache.get(id(t))
            if cast is None:
                cast = cls.cache[id(t)] = t.to(torch.bfloat16)
            return cast
        return t.to(torch.bfloat16)


def linear(x, w):
    return F.linear(Autocast.to16(x), Autocast.to16(w))


class _StopRecompute(Exception):
    pass


class SelectiveCheckpoint(TorchDispatchMode):
    """torch.utils.checkpoint's selective checkpointing (PyTorch 2.4+,
    create_selective_checkpoint_contexts: _CachingTorchDispatchMode in the
    forward, _CachedTorchDispatchMode in the recomputation) under the
    policy measure-stacks.py gave it, torchtitan's of December 2024: the
    outputs of mm and of the attention kernel are kept, but every second
    mm of the block, counted in the forward and in the recomputation
    alike; the recomputation takes the kept outputs back in order instead
    of running those ops again."""

    def __init__(self, storage, recompute):
        super().__init__()
        self.storage = storage
        self.recompute = recompute
        self.mm = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is torch.ops.aten.mm.default:
            self.mm += 1
            keep = self.mm % 2 == 1
        else:
            keep = CudnnAttention.running
        if not keep:
            return func(*args, **kwargs)
        kept = self.storage.setdefault(func, [])
        if self.recompute:
            return kept.pop(0)
        out = func(*args, **kwargs)
        kept.append(out)
        return out


def checkpoint(fn, *args, policy=None):
    """torch.utils.checkpoint(use_reentrant=False) as PyTorch 2.x runs it
    (torch/utils/checkpoint.py, _checkpoint_without_reentrant_generator):
    the forward keeps the inputs and nothing it would save; the first
    unpack in the backward recomputes fn in the autocast state of the
    forward, keeping what the forward would have saved and stopping once
    the last of it is made (early stop); each recomputed tensor is dropped
    from the frame once unpacked.  (PyTorch 1.13's own recomputes all of fn
    and keeps every tensor until the frame goes.)  POLICY "op": selective,
    the kept outputs SelectiveCheckpoint's."""
    import contextlib

    amp = Autocast.active
    frame = {"n": 0, "recomputed": None}
    kept = {}

    def selective(recompute):
        return SelectiveCheckpoint(kept, recompute) if policy == "op" else contextlib.nullcontext()

    def pack(t):
        i = frame["n"]
        frame["n"] += 1
        return i

    def unpack(i):
        if frame["recomputed"] is None:
            frame["recomputed"] = {}
            count = [0]

            def rpack(t):
                j = count[0]
                count[0] += 1
                frame["recomputed"][j] = t.detach()
                if count[0] == frame["n"]:
                    raise _StopRecompute()
                return j

            region = Autocast.region() if amp else contextlib.nullcontext()
            try:
                with torch.enable_grad(), region, \
                        torch.autograd.graph.saved_tensors_hooks(rpack, lambda j: None), selective(True):
                    fn(*args)
            except (_StopRecompute, RuntimeError) as e:
                # (raised inside a hook, it reaches here as a RuntimeError)
                if "_StopRecompute" not in "%s %r" % (e, e):
                    raise
        return frame["recomputed"].pop(i)

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack), selective(False):
        return fn(*args)


LLAMA_32_1B = dict(hidden=2048, ffn=8192, layers=16, heads=32, kv_heads=8, head_dim=64,
                   vocab=128256, eps=1e-5, rope_theta=500000.0, tied=True)
# Llama 3.1 8B's config.json sizes: its own output layer (tie_word_embeddings false)
LLAMA_31_8B = dict(hidden=4096, ffn=14336, layers=32, heads=32, kv_heads=8, head_dim=128,
                   vocab=128256, eps=1e-5, rope_theta=500000.0, tied=False)
# cuBLAS's workspace on Hopper (ATen/cuda/CublasHandlePool.cpp: 32 MiB from
# compute capability 9), taken from the allocator at the first matmul of
# each thread: the forward's and autograd's backward thread
CUBLAS_WORKSPACE = 32 << 20


class CudnnAttention(torch.autograd.Function):
    """SDPA's cuDNN kernel: its output, laid out as Q is, and the fp32
    log-sum-exp; the gradients of Q, K and V in the backward.  RUNNING
    while its forward makes them: one op, aten's
    _scaled_dot_product_cudnn_attention, to a checkpointing policy."""

    running = False

    @staticmethod
    def forward(ctx, q, k, v):
        CudnnAttention.running = True
        try:
            out = torch.empty_like(q)
            b, a, s, _ = q.shape
            lse = torch.empty((b, a, s), dtype=torch.float32, device=q.device)
        finally:
            CudnnAttention.running = False
        ctx.save_for_backward(q, k, v, out, lse)
        return out

    @staticmethod
    def backward(ctx, grad):
        q, k, v, out, lse = ctx.saved_tensors
        return torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)


TARGETS = ("q", "k", "v", "o", "gate", "up", "down")


class Llama:
    """LORA, where given, is (rank, alpha, dropout): PEFT's LoraConfig on
    every linear of the layers over a frozen base (target_modules
    "all-linear" leaves the head out), its adapters fp32."""

    def __init__(self, cfg, trace, device="meta", dtype=torch.bfloat16, lora=None):
        self.cfg = cfg
        self.lora = lora
        h, f, V = cfg["hidden"], cfg["ffn"], cfg["vocab"]
        a, kh, d = cfg["heads"], cfg["kv_heads"], cfg["head_dim"]

        def param(*shape, dt=dtype, grad=lora is None):
            p = torch.empty(*shape, device=device, dtype=dt, requires_grad=grad)
            trace.track(p)
            return p

        # LlamaForCausalLM.__init__'s order: the model's embeddings, its
        # layers, its norm and rotary table, then lm_head, whose own weight
        # is dropped when the head is tied to the embeddings (post_init)
        self.embed = param(V, h)
        self.layers = []
        for _ in range(cfg["layers"]):
            self.layers.append(dict(q=param(a * d, h), k=param(kh * d, h), v=param(kh * d, h),
                                    o=param(h, a * d), gate=param(f, h), up=param(f, h),
                                    down=param(h, f), ln1=param(h), ln2=param(h)))
        self.norm = param(h)
        with trace:
            self.inv_freq = 1.0 / (cfg["rope_theta"] ** (
                torch.arange(0, d, 2, dtype=torch.int64, device=device).float() / d))
        # lm_head: tied, its own weight made and dropped; untied, kept
        self.head = param(V, h)
        if cfg["tied"]:
            self.head = self.embed
        self.params = ([self.embed] + [p for L in self.layers for p in L.values()] + [self.norm]
                       + ([] if cfg["tied"] else [self.head]))
        if lora is not None:
            # get_peft_model: lora_A (r x in) and lora_B (out x r) of each
            # target, module by module, made on the base layer's device
            r = lora[0]
            for L in self.layers:
                for t in TARGETS:
                    out_f, in_f = L[t].shape
                    L[t + "_A"] = param(r, in_f, dt=torch.float32, grad=True)
                    L[t + "_B"] = param(out_f, r, dt=torch.float32, grad=True)
            self.params = [p for L in self.layers for t in TARGETS
                           for p in (L[t + "_A"], L[t + "_B"])]

    @staticmethod
    def rms_norm(x, w, eps):
        # LlamaRMSNorm.forward
        # (variance = x.pow(2).mean(-1, keepdim=True): PyTorch 1.13's mean
        # keeps its input for the backward, 2.x only its sizes; a sum over
        # the dimension divided by its length keeps what 2.x keeps)
        dtype = x.dtype
        x = x.to(torch.float32)
        # (the divisor a 0-dim tensor: a Python number would be a wrapped
        # number, which 1.13's non-reentrant checkpoint cannot pack under a
        # dispatch mode)
        variance = x.pow(2).sum(-1, keepdim=True) * torch.full((), 1.0 / x.shape[-1], device=x.device)
        x = x * torch.rsqrt(variance + eps)
        return w * x.to(dtype)

    @staticmethod
    def rotate_half(x):
        x1 = x[..., : x.shape[-1] // 2]
        x2 = x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def rope(self, x, position_ids):
        # LlamaRotaryEmbedding.forward, under no_grad
        with torch.no_grad():
            inv = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
            pos = position_ids[:, None, :].float()
            freqs = (inv.float() @ pos.float()).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos = emb.cos() * 1.0
            sin = emb.sin() * 1.0
            return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)

    def proj(self, L, t, x):
        """One of the layer's linears; with LoRA, PEFT's lora.Linear.forward:
        the frozen base, then the input cast to the adapters' fp32
        (_cast_input_dtype), dropout (CUDA's fused native_dropout, which
        keeps a bool mask), lora_A, lora_B, scaled and added."""
        result = linear(x, L[t])
        if self.lora is None:
            return result
        r, alpha, p = self.lora
        xa = x if x.dtype == torch.float32 else x.to(torch.float32)
        if p > 0:
            xa = torch.native_dropout(xa, p, True)[0]
        # (the scaling a 0-dim tensor, as the norms' divisor: a Python
        # number is a wrapped number, which a dispatch mode cannot detach)
        scaling = torch.full((), alpha / r, device=x.device)
        result = result + linear(linear(xa, L[t + "_A"]), L[t + "_B"]) * scaling
        return result.to(result.dtype)

    def layer(self, L, x, cos, sin):
        cfg = self.cfg
        b, s, h = x.shape
        d = cfg["head_dim"]
        residual = x
        x = self.rms_norm(x, L["ln1"], cfg["eps"])
        # LlamaAttention.forward
        q = self.proj(L, "q", x).view(b, s, -1, d).transpose(1, 2)
        k = self.proj(L, "k", x).view(b, s, -1, d).transpose(1, 2)
        v = self.proj(L, "v", x).view(b, s, -1, d).transpose(1, 2)
        c, sn = cos.unsqueeze(1), sin.unsqueeze(1)
        q = (q * c) + (self.rotate_half(q) * sn)
        k = (k * c) + (self.rotate_half(k) * sn)
        # (autocast casts SDPA's fp32 inputs to 16 bits: under the Trainer
        # the rotary tables are fp32, and Q and K with them)
        out = CudnnAttention.apply(Autocast.to16(q), Autocast.to16(k), Autocast.to16(v))
        # sdpa_attention_forward, then LlamaAttention
        out = out.transpose(1, 2).contiguous()
        out = out.reshape(b, s, -1).contiguous()
        x = self.proj(L, "o", out)
        x = residual + x
        residual = x
        x = self.rms_norm(x, L["ln2"], cfg["eps"])
        # LlamaMLP.forward
        x = self.proj(L, "down", F.silu(self.proj(L, "gate", x)) * self.proj(L, "up", x))
        return residual + x

    def forward(self, ids, labels, checkpointing):
        cfg = self.cfg
        x = F.embedding(ids, self.embed)
        position_ids = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
        cos, sin = self.rope(x, position_ids)
        for L in self.layers:
            if checkpointing in ("full", "op"):
                x = checkpoint(self.layer, L, x, cos, sin, policy=checkpointing)
            else:
                x = self.layer(L, x, cos, sin)
        x = self.rms_norm(x, self.norm, cfg["eps"])
        logits = linear(x, self.head)
        if labels is None:
            return logits, None
        # ForCausalLMLoss
        lg = logits.float()
        labels = F.pad(labels, (0, 1), value=-100)
        shift = labels[..., 1:].contiguous()
        lg = lg.view(-1, cfg["vocab"])
        shift = shift.view(-1)
        loss = F.cross_entropy(lg, shift, ignore_index=-100, reduction="mean")
        return logits, loss


class FusedAdamW:
    """torch.optim.AdamW(fused=True): the first step makes each parameter's
    step counter (an fp32 scalar on the device) and its two states, in the
    parameters' order; the fused kernel allocates nothing."""

    def __init__(self, params):
        self.params = params
        self.state = {}

    def step(self):
        for p in self.params:
            if p.grad is None or id(p) in self.state:
                continue
            self.state[id(p)] = (torch.zeros((), dtype=torch.float32, device=p.device),
                                 torch.zeros_like(p, memory_format=torch.preserve_format),
                                 torch.zeros_like(p, memory_format=torch.preserve_format))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


def start(model, trace):
    """What measure-stacks.py does before its steps: cuBLAS's workspace at
    the first matmul of the forward's thread, and sdpa_ops's probe (one
    forward of 1 x 128 tokens under no_grad).  Returns the workspaces'
    list, which backward adds the backward thread's to."""
    cfg = model.cfg
    with trace:
        workspace = [torch.empty(CUBLAS_WORKSPACE, dtype=torch.uint8, device="meta")]
        with torch.no_grad():
            probe = torch.randint(0, cfg["vocab"], (1, 128), device="meta")
            model.forward(probe, None, "none")
            del probe
    return workspace


def backward(loss, first, workspace):
    """loss.backward(); in the first step autograd's thread takes its own
    cuBLAS workspace at its first matmul."""
    if not first:
        loss.backward()
        return
    hook = loss.grad_fn.register_hook(
        lambda *a: workspace.append(torch.empty(CUBLAS_WORKSPACE, dtype=torch.uint8, device="meta")))
    loss.backward()
    hook.remove()


def loop_trace(cfg=LLAMA_32_1B, batch=4, seq=4096, checkpointing="none", steps=3):
    """measure-stacks.py run_loop's events: the model made, sdpa_ops's
    probe (one forward of 1 x 128 tokens under no_grad), the batch, then
    `steps` steps, each after a mark "step N"."""
    trace = alloctrace.Trace()
    model = Llama(cfg, trace)
    opt = FusedAdamW(model.params)
    workspace = start(model, trace)
    with trace:
        ids = torch.randint(0, cfg["vocab"], (batch, seq), device="meta")
    for n in range(steps):
        trace.mark("step %d" % (n + 1))
        with trace:
            loss = model.forward(ids, ids, checkpointing)[1]
            backward(loss, n == 0, workspace)
            opt.step()
            opt.zero_grad()
            del loss
    trace.mark("end")
    return trace.events


def clip_grad_norm(params):
    """torch.nn.utils.clip_grad_norm_ (foreach, the Trainer's max_grad_norm
    1.0): a norm per gradient, stacked, their norm, the coefficient; the
    gradients scaled in place."""
    grads = [p.grad for p in params if p.grad is not None]
    norms = [torch.linalg.vector_norm(g, 2.0) for g in grads]
    total = torch.linalg.vector_norm(torch.stack(norms), 2.0)
    coef = torch.clamp(1.0 / (total + 1e-6), max=1.0)
    for g in grads:
        g.mul_(coef)


def trainer_trace(cfg=LLAMA_32_1B, batch=4, seq=2048, checkpointing="none", steps=3, lora=None):
    """measure-stacks.py run_trainer's events for full training:
    transformers' Trainer(bf16=True) over fp32 weights, each step under
    autocast up to the loss (compute_loss_context_manager), the inputs
    moved to the GPU and dropped before the backward (training_step),
    the gradients clipped, fused AdamW (adamw_torch_fused), zero_grad."""
    trace = alloctrace.Trace()
    # (full training keeps the Trainer's fp32 weights; LoRA loads the base
    # in bf16, as PEFT's examples do)
    model = Llama(cfg, trace, dtype=torch.float32 if lora is None else torch.bfloat16, lora=lora)
    opt = FusedAdamW(model.params)
    workspace = start(model, trace)
    for n in range(steps):
        trace.mark("step %d" % (n + 1))
        with trace:
            ids = torch.randint(0, cfg["vocab"], (batch, seq), device="meta")
            labels = ids.clone()
            with Autocast.region():
                loss = model.forward(ids, labels, checkpointing)[1]
            del ids, labels
            backward(loss, n == 0, workspace)
            loss = loss.detach()
            clip_grad_norm(model.params)
            opt.step()
            opt.zero_grad()
            del loss
    trace.mark("end")
    return trace.events


if __name__ == "__main__":
    import sys

    import cachingalloc

    ck = sys.argv[1] if len(sys.argv) > 1 else "none"
    kind = sys.argv[2] if len(sys.argv) > 2 else "loop"
    if kind == "lora":
        events = trainer_trace(checkpointing=ck, lora=(16, 32, 0.05))
    else:
        events = (trainer_trace if kind == "trainer" else loop_trace)(checkpointing=ck)
    peaks = alloctrace.replay(events, cachingalloc.CachingAllocator())
    for k, (al, rs) in peaks.items():
        print("%-8s allocated %8.3f GiB  reserved %8.3f GiB" % (k, al / 2**30, rs / 2**30))
