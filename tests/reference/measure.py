# measure.py: what one training step of the reference model saves and holds
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Two instruments:
#   - saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks) see every
#     tensor autograd saves for backward; the bytes are those of the distinct
#     storages, leaving out the parameters', the buffers' and the inputs'.
#   - a meter of live tensor bytes per phase of the step (forward, backward,
#     optimizer step) and at its moments (the end of the forward pass):
#       ProfilerMeter (the CPU's default): every allocation and free of
#         c10's CPU allocator, from the profiler's memory events;
#       HeapMeter (--sampler heap): a TorchDispatchMode sampling the heap
#         after every aten op with glibc's mallinfo2() (uordblks + hblkhd),
#         autograd's graph and Python's objects included;
#       CudaMeter (--device cuda): torch.cuda.max_memory_allocated().
#
# The measured step is the second of a run: the first, made with zero
# gradients and no forward pass (warm_optimizer), leaves the optimizer's
# states, as Headroom's steady state has them.  Every figure is absolute, in
# bytes: the exact bytes of the tensors alive when the step starts
# (parameters, optimizer states, gradients kept by zero_grad(set_to_none=
# False)) plus what the meter saw the step add.

import contextlib
import ctypes
import gc
import math

import torch
from torch.utils._python_dispatch import TorchDispatchMode

import model as reference


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
        "fsmblks", "uordblks", "fordblks", "keepcost")]


_libc = None


def _heap_live():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL("libc.so.6")
        _libc.mallinfo2.restype = _MallInfo2
    m = _libc.mallinfo2()
    return m.uordblks + m.hblkhd


_DETACH = torch.ops.aten.detach.default


class Sampler(TorchDispatchMode):
    """Peak of live bytes, sampled after every op (CPU), per phase."""

    def __init__(self, device):
        super().__init__()
        self.device = device
        self.peak = 0
        self.paused = 0

    def live(self):
        if self.device == "cuda":
            return torch.cuda.memory_allocated()
        return _heap_live()

    def sample(self):
        if self.paused or self.device == "cuda":
            return
        v = _heap_live()
        if v > self.peak:
            self.peak = v

    @contextlib.contextmanager
    def pause(self):
        self.paused += 1
        try:
            yield
        finally:
            self.paused -= 1

    def start_phase(self):
        if self.device == "cuda":
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
        self.peak = self.live()

    def end_phase(self):
        if self.device == "cuda":
            torch.cuda.synchronize()
            return torch.cuda.max_memory_allocated()
        self.sample()
        return self.peak

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if func is _DETACH and not isinstance(out, torch.Tensor):
            # torch 1.13: detaching a saved wrapped number (the 2 of x * 2,
            # unpacked after saved-tensor hooks) comes back to Python as a
            # number; autograd needs a tensor.
            out = torch.tensor(out, dtype=args[0].dtype)
        if not self.paused:
            v = _heap_live()
            if v > self.peak:
                self.peak = v
        return out


def _storage(t):
    if hasattr(t, "untyped_storage"):
        s = t.untyped_storage()
        return s.data_ptr(), s.nbytes()
    s = t.storage()
    return s.data_ptr(), s.nbytes() if hasattr(s, "nbytes") else s.size() * t.element_size()


class SavedTensors:
    """Distinct storages autograd saves, tagged with the layer that saved them."""

    def __init__(self, excluded):
        self.excluded = set(excluded)
        self.seen = {}
        self.tag = None

    def pack(self, t):
        if t.layout == torch.strided and t.dim() > 0:
            ptr, nbytes = _storage(t)
            if ptr and ptr not in self.excluded and ptr not in self.seen:
                self.seen[ptr] = (nbytes, self.tag, tuple(t.shape), str(t.dtype))
        return t

    @staticmethod
    def unpack(t):
        return t

    def retag(self, t, tag):
        """Count a saved tensor with another part than the one that saved it."""
        ptr, _ = _storage(t)
        if ptr in self.seen:
            self.seen[ptr] = (self.seen[ptr][0], tag) + self.seen[ptr][2:]

    def add_output(self, t, tag="output"):
        ptr, nbytes = _storage(t)
        if ptr not in self.excluded and ptr not in self.seen:
            self.seen[ptr] = (nbytes, tag, tuple(t.shape), str(t.dtype))

    def total(self, tag=None):
        return sum(n for n, t, _, _ in self.seen.values() if tag is None or t == tag)


# --------------------------------------------------------------------------
# The optimizers.  AdamW follows PyTorch 2.x (torch/optim/adamw.py), whose
# foreach and single-tensor paths the 1.13 of Debian 12 predates in one
# respect: 1.13's foreach step keeps two state-sized temporaries
# (exp_avg_sq_sqrt, then denom = exp_avg_sq_sqrt + eps) where 2.x adds eps
# in place.  "fused" stands for torch's fused kernels (CUDA, fused=True),
# which compute in registers: here, in place through a scratch buffer of
# 64 Ki elements.

class AdamW:
    CHUNK = 1 << 16     # the fused step's scratch: 256 KiB in fp32

    def __init__(self, params, impl, lr=1e-4, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01):
        self.params = [p for p in params if p.requires_grad]
        self.impl = impl
        self.lr, self.betas, self.eps, self.wd = lr, betas, eps, weight_decay
        self.state = {}
        self.steps = 0
        self.scratch = {}

    def states(self):
        for st in self.state.values():
            yield st["exp_avg"]
            yield st["exp_avg_sq"]

    def zero_grad(self, set_to_none):
        for p in self.params:
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                p.grad.detach_()
                p.grad.zero_()

    @torch.no_grad()
    def step(self):
        params = [p for p in self.params if p.grad is not None]
        for p in params:
            if p not in self.state:
                self.state[p] = {
                    "exp_avg": torch.zeros_like(p, memory_format=torch.preserve_format),
                    "exp_avg_sq": torch.zeros_like(p, memory_format=torch.preserve_format),
                }
        self.steps += 1
        b1, b2 = self.betas
        bc1 = 1 - b1 ** self.steps
        bc2 = 1 - b2 ** self.steps
        step_size = self.lr / bc1
        bc2_sqrt = math.sqrt(bc2)
        grads = [p.grad for p in params]
        m = [self.state[p]["exp_avg"] for p in params]
        v = [self.state[p]["exp_avg_sq"] for p in params]
        if self.impl == "foreach":
            # torch/optim/adamw.py _multi_tensor_adamw (2.x, not capturable)
            torch._foreach_mul_(params, 1 - self.lr * self.wd)
            torch._foreach_lerp_(m, grads, 1 - b1) if hasattr(torch, "_foreach_lerp_") else (
                torch._foreach_mul_(m, b1), torch._foreach_add_(m, grads, alpha=1 - b1))
            torch._foreach_mul_(v, b2)
            torch._foreach_addcmul_(v, grads, grads, 1 - b2)
            denom = torch._foreach_sqrt(v)
            torch._foreach_div_(denom, bc2_sqrt)
            torch._foreach_add_(denom, self.eps)
            torch._foreach_addcdiv_(params, m, denom, -step_size)
            del denom
        elif self.impl == "loop":
            # _single_tensor_adamw (2.x, not capturable)
            for p, g, ea, eas in zip(params, grads, m, v):
                p.mul_(1 - self.lr * self.wd)
                ea.lerp_(g, 1 - b1)
                eas.mul_(b2).addcmul_(g, g, value=1 - b2)
                denom = (eas.sqrt() / bc2_sqrt).add_(self.eps)
                p.addcdiv_(ea, denom, value=-step_size)
                del denom
        else:
            # in place, through one scratch buffer of CHUNK elements
            # (the scratch persists from the first step on, as a fused
            # kernel's registers would: the step allocates nothing)
            chunk = min(self.CHUNK, max(p.numel() for p in params))
            scratch = self.scratch
            for p, g, ea, eas in zip(params, grads, m, v):
                p.mul_(1 - self.lr * self.wd)
                ea.lerp_(g, 1 - b1)
                eas.mul_(b2).addcmul_(g, g, value=1 - b2)
                buf = scratch.get(p.dtype)
                if buf is None:
                    buf = scratch[p.dtype] = torch.empty(chunk, dtype=p.dtype, device=p.device)
                pf, mf, vf = p.view(-1), ea.view(-1), eas.view(-1)
                for i in range(0, pf.numel(), chunk):
                    n = min(chunk, pf.numel() - i)
                    den = buf[:n]
                    torch.sqrt(vf[i:i + n], out=den)
                    den.div_(bc2_sqrt).add_(self.eps)
                    pf[i:i + n].addcdiv_(mf[i:i + n], den, value=-step_size)


class SGD:
    def __init__(self, params, impl, momentum):
        self.params = [p for p in params if p.requires_grad]
        self.opt = torch.optim.SGD(self.params, lr=1e-3, momentum=momentum,
                                   foreach=impl == "foreach")

    def states(self):
        for st in self.opt.state.values():
            if st.get("momentum_buffer") is not None:
                yield st["momentum_buffer"]

    def zero_grad(self, set_to_none):
        self.opt.zero_grad(set_to_none=set_to_none)

    def step(self):
        self.opt.step()


def make_optimizer(cfg, model, device):
    params = list(model.parameters())
    impl = cfg["optimizer_impl"]
    if cfg["optimizer"] == "adamw":
        if device == "cuda":
            return TorchAdamW(params, impl)
        return AdamW(params, impl)
    return SGD(params, impl if impl != "fused" else "loop",
               0.9 if cfg["optimizer"] == "sgd-momentum" else 0.0)


class TorchAdamW:
    """torch.optim.AdamW on a GPU, fused where the installed torch has it."""

    def __init__(self, params, impl):
        import inspect
        self.params = [p for p in params if p.requires_grad]
        kwargs = {"foreach": impl == "foreach"}
        if impl == "fused" and "fused" in inspect.signature(torch.optim.AdamW).parameters:
            kwargs = {"fused": True}
        self.opt = torch.optim.AdamW(self.params, lr=1e-4, weight_decay=0.01, **kwargs)

    def states(self):
        for st in self.opt.state.values():
            yield st["exp_avg"]
            yield st["exp_avg_sq"]

    def zero_grad(self, set_to_none):
        self.opt.zero_grad(set_to_none=set_to_none)

    def step(self):
        self.opt.step()


# --------------------------------------------------------------------------

def _nbytes(t):
    return t.numel() * t.element_size()


def _autocast(cfg, device):
    if reference.autocast_on(cfg):
        return torch.autocast(device_type=device, dtype=torch.bfloat16)
    return contextlib.nullcontext()


def make_batch(cfg, device, gen):
    if cfg.get("vision", "none") == "mllama":
        import mllama
        return mllama.make_batch(cfg, device, gen)
    if cfg.get("vision", "none") != "none":
        import vision
        return vision.make_batch(cfg, device, gen)
    b, s = cfg["micro_batch"], cfg["seq_len"]
    tokens = torch.randint(0, cfg["vocab"], (b, s), generator=gen).to(device)
    types = (torch.randint(0, cfg["token_types"], (b, s), generator=gen).to(device)
             if cfg["token_types"] else None)
    if cfg["kind"] == "encoder-decoder":
        if cfg.get("audio_mel_bins", 0):
            # Whisper's log-mel features, fp32 as its feature extractor
            # gives them: 2 frames for each of the encoder's positions
            # (WhisperEncoder does not cast them: with bf16 weights the
            # collator gives them in bf16)
            tokens = torch.randn(b, cfg["audio_mel_bins"], 2 * cfg["audio_frames"],
                                 generator=gen).to(device, reference.compute_dtype(cfg)
                                                   if cfg["precision"] == "bf16-true" else torch.float32)
        # the decoder's input tokens take the place of the token types
        st = cfg["target_len"] or s
        types = torch.randint(0, cfg["vocab"], (b, st), generator=gen).to(device)
        targets = torch.randint(0, cfg["vocab"], (b, st), generator=gen).to(device)
    elif cfg["head"] == "lm":
        targets = torch.randint(0, cfg["vocab"], (b, s), generator=gen).to(device)
    else:
        targets = torch.randint(0, cfg["classes"], (b,), generator=gen).to(device)
    return tokens, types, targets


class ProfilerMeter:
    """Live tensor bytes on the CPU, from the profiler's memory events.

    With profile_memory, c10's CPU allocator reports every allocation and
    free of a tensor's storage made while profiling (ProfiledCPUMemory-
    Reporter): their running sum is the bytes of the tensors allocated
    since begin() and still alive, what torch.cuda.memory_allocated()
    counts on a GPU.  mallinfo2() would count, besides, the host memory of
    autograd's graph and of Python's objects (about 100 KiB per layer),
    which on a GPU are not device memory.  Phases, moments and fused
    kernels are record_function ranges on the same clock."""

    def __init__(self):
        self.n = 0
        self.results = None
        self.on = False

    def _config(self):
        # torch.autograd.profiler.profile's own calls, without the parsing
        # of every event into FunctionEvents when it stops (a tenth of a
        # second per step)
        from torch.autograd import ProfilerConfig, ProfilerState
        from torch._C._profiler import _ExperimentalConfig
        return ProfilerConfig(ProfilerState.KINETO, False, True, False, False, False,
                              _ExperimentalConfig())

    def begin(self):
        from torch.autograd import ProfilerActivity, _enable_profiler, _prepare_profiler
        _prepare_profiler(self._config(), {ProfilerActivity.CPU})
        _enable_profiler(self._config(), {ProfilerActivity.CPU})
        self.on = True

    def stop(self):
        from torch.autograd import _disable_profiler
        if self.on:
            self.on = False
            self.results = _disable_profiler()

    def _range(self, name):
        from torch.profiler import record_function
        self.n += 1
        return record_function("oracle:%s:%d" % (name, self.n))

    def phase(self, name):
        return self._range("phase:" + name)

    def kernel(self):
        return self._range("kernel")

    def mark(self, name):
        with self._range("mark:" + name):
            pass

    def finish(self):
        import bisect
        self.stop()
        events = list(self.results.events())
        mem = sorted((e.start_us(), i, e.nbytes()) for i, e in enumerate(events)
                     if e.name() == "[memory]")
        times, values, cur = [], [], 0
        for t, _, nb in mem:
            cur += nb
            times.append(t)
            values.append(cur)
        ranges = []
        for e in events:
            name = e.name()
            if name.startswith("oracle:"):
                ranges.append((name.split(":")[1:-1], e.start_us(), e.start_us() + e.duration_us()))
        kernels = [(a, b) for what, a, b in ranges if what[0] == "kernel"]

        def at(t):
            i = bisect.bisect_right(times, t)
            return values[i - 1] if i else 0

        def in_kernel(t):
            return any(a < t < b for a, b in kernels)

        peaks, marks = {}, {}
        for what, a, b in ranges:
            if what[0] == "phase":
                lo, hi = bisect.bisect_left(times, a), bisect.bisect_right(times, b)
                pk = max([at(a)] + [values[i] for i in range(lo, hi) if not in_kernel(times[i])]
                         + [at(kb) for ka, kb in kernels if a <= kb <= b])
                peaks[what[1]] = max(peaks.get(what[1], 0), pk)
            elif what[0] == "mark":
                marks.setdefault(what[1], []).append(at(a))
        return peaks, marks


class HeapMeter:
    """The heap after every aten op (Sampler, mallinfo2): tensors and, with
    them, the host memory of autograd's graph and of Python's objects."""

    def __init__(self):
        self.sampler = Sampler("cpu")
        self.peaks, self.marks = {}, {}
        self.base = 0

    def begin(self):
        self.base = _heap_live()

    @contextlib.contextmanager
    def phase(self, name):
        self.sampler.start_phase()
        with self.sampler:
            yield
        pk = self.sampler.end_phase() - self.base
        self.peaks[name] = max(self.peaks.get(name, 0), pk)

    def kernel(self):
        return self.sampler.pause()

    def mark(self, name):
        self.marks.setdefault(name, []).append(_heap_live() - self.base)

    def finish(self):
        return self.peaks, self.marks


_cuda_warm = False


def _warm_cuda():
    """cuBLAS takes its workspace from PyTorch's allocator at a handle's
    first matrix product (32 MiB on Hopper), and cuBLASLt its own at the
    first product with a bias (1 MiB), one of each for the main thread and
    one for autograd's backward thread: make them all before any step is
    measured, so that the first configurations' phases do not count them
    (the oracle's first run on an H200: 30 to 98 % over)."""
    global _cuda_warm
    if _cuda_warm:
        return
    for dt in (torch.float32, torch.bfloat16, torch.float16):
        x = torch.randn(64, 64, device="cuda", dtype=dt, requires_grad=True)
        w = torch.randn(64, 64, device="cuda", dtype=dt)
        b = torch.randn(64, device="cuda", dtype=dt)
        y = torch.nn.functional.linear(x, w, b)
        # the same products again on autograd's thread, inside the backward
        y.register_hook(lambda g, w=w, b=b: (torch.nn.functional.linear(g, w, b), g)[1])
        y.sum().backward()
    torch.cuda.synchronize()
    _cuda_warm = True


class CudaMeter:
    """torch.cuda.max_memory_allocated() per phase."""

    def __init__(self):
        _warm_cuda()
        self.peaks, self.marks = {}, {}
        self.base = 0

    def begin(self):
        torch.cuda.synchronize()
        self.base = torch.cuda.memory_allocated()

    @contextlib.contextmanager
    def phase(self, name):
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        yield
        torch.cuda.synchronize()
        pk = torch.cuda.max_memory_allocated() - self.base
        self.peaks[name] = max(self.peaks.get(name, 0), pk)

    def kernel(self):
        return contextlib.nullcontext()

    def mark(self, name):
        torch.cuda.synchronize()
        self.marks.setdefault(name, []).append(torch.cuda.memory_allocated() - self.base)

    def finish(self):
        return self.peaks, self.marks


def warm_optimizer(opt, params, set_to_none):
    """The first step's side effects without its compute: the optimizer's
    states exist (as after any first step), the gradients are None or
    zeros as zero_grad leaves them."""
    for p in params:
        # (a parameter whose output no loss reaches, vision.py's layers
        # after the feature layer, gets no gradient in any step: the
        # optimizer makes no state for it)
        if p.requires_grad and not getattr(p, "no_grad_in_step", False):
            p.grad = torch.zeros_like(p)
    opt.step()
    opt.zero_grad(set_to_none)


def measure(cfg, device="cpu", sampler="allocator"):
    """The figures of one training step of cfg (grad_accum micro-batches and
    the optimizer step), the optimizer's states made before it."""
    torch.manual_seed(cfg["seed"])
    gen = torch.Generator().manual_seed(cfg["seed"])
    if device == "cpu":
        # One thread: the backward runs on this thread, in one order.
        # (oneDNN keeps primitives and scratch per matmul shape in memory
        # of its own, which the allocator's events do not see; the heap
        # sampler does: without oneDNN then, slower in bf16.)
        torch.set_num_threads(1)
        torch.backends.mkldnn.enabled = sampler != "heap"
    batch = make_batch(cfg, device, gen)
    model = reference.build(cfg, device)
    if cfg.get("ranks", 1) > 1:
        import distributed            # --device cuda only (untested)
        model = distributed.shard(model, cfg)
    opt = make_optimizer(cfg, model, device)
    params = {p.data_ptr(): p for p in model.parameters()}
    buffers = list(model.buffers())
    counts = {
        # the model's own parameters; adapters count among the trainable ones
        "params": sum(p.numel() for p in params.values() if not getattr(p, "is_adapter", False)),
        "trainable": sum(p.numel() for p in params.values() if p.requires_grad),
        "weight_bytes": sum(_nbytes(p) for p in params.values()),
    }
    warm_optimizer(opt, params.values(), cfg["zero_grad_to_none"])
    grads_kept = sum(_nbytes(p.grad) for p in params.values() if p.grad is not None)
    state_bytes = sum(_nbytes(t) for t in opt.states())
    # what is alive when the step starts, exactly; the meters measure what
    # the step adds to it
    exact = counts["weight_bytes"] + state_bytes + grads_kept
    if device == "cuda":
        meter = CudaMeter()
    elif sampler == "heap":
        meter = HeapMeter()
    else:
        meter = ProfilerMeter()
    reference._KernelScope.kernel = meter.kernel
    tokens, types, targets = batch
    excluded = set(params) | {b.data_ptr() for b in buffers}
    excluded |= {t.data_ptr() for t in (tokens, types, targets) if t is not None}
    began = False
    # The allocator's meter counts every free while the step runs: a cycle
    # of an earlier configuration's tensors that Python's collector breaks
    # then would be taken off this step's figures (preset
    # llama-3.2-11b-vision lora x1 measured 47 % under its plan once a
    # preset more was run before it, and at its plan alone).  So the
    # garbage goes first, and the collector waits until the step is done.
    gc.collect()
    gc.disable()
    try:
        meter.begin()
        began = True
        for mb in range(cfg["grad_accum"]):
            saved = SavedTensors(excluded)
            model.layer_hook = lambda tag: setattr(saved, "tag", tag)
            with meter.phase("forward"):
                with torch.autograd.graph.saved_tensors_hooks(saved.pack, saved.unpack):
                    with _autocast(cfg, device):
                        logits = model(tokens, types)
                        loss = reference.loss_fn(cfg, logits, targets,
                                                 lambda: meter.mark("loss")) / cfg["grad_accum"]
                        # the end of the forward pass: the loss computed,
                        # as the Trainer does it, inside autocast
                        meter.mark("forward_end")
                    # Leaving autocast drops its cache of weight casts: what
                    # that frees is the casts no graph keeps, those of
                    # checkpointed layers (autocast caches the casts of
                    # trainable leaf weights, no_grad or not).
                    meter.mark("after_autocast")
            for t in getattr(model, "embed_tensors", []):
                saved.retag(t, "vembed")
            model.embed_tensors = []
            outs = (logits if isinstance(logits, list)
                    else [logits[0]] + list(logits[1]) if isinstance(logits, tuple) else [logits])
            for out_t in outs:
                saved.add_output(out_t)
            del outs
            # what the model's output holds besides (LLaVA's
            # image_hidden_states), dropped with it
            for out_t in getattr(model, "extra_outputs", []):
                saved.add_output(out_t, "image features")
            model.extra_outputs = []
            del out_t
            # The loop of Hugging Face's Trainer: compute_loss returns the
            # loss alone, so the model's output is dropped before backward.
            del logits
            with meter.phase("backward"):
                loss.backward()
                del loss
        with meter.phase("step"):
            opt.step()
        began = False
        peaks, marks = meter.finish()
    finally:
        gc.enable()
        if began and isinstance(meter, ProfilerMeter):
            meter.stop()
        reference._KernelScope.kernel = None
        model.layer_hook = None
    grad_bytes = sum(_nbytes(p.grad) for p in params.values() if p.grad is not None)
    opt.zero_grad(cfg["zero_grad_to_none"])
    cast_cache = max(0, marks["forward_end"][-1] - marks["after_autocast"][-1])
    # The loss's fp32 copy of 16-bit logits, alive at its own moment and
    # gone at the forward pass's end: what the loss mark held beyond the
    # end (the loss scalars made between them are a few bytes).  Headroom
    # plans it in its forward phase, so "model saved" counts it too.
    loss_copy = (max(0, marks["loss"][-1] - marks["forward_end"][-1])
                 if marks.get("loss") else 0)
    layer_tag = cfg["layers"] - 1
    ck = [i for i in range(cfg["layers"])
          if cfg["checkpointing"] == "full" and (i + 1) % cfg["checkpoint_every"] == 0]
    cast_share = cast_cache // len(ck) if ck else 0
    seq2seq = {}
    if cfg["kind"] == "encoder-decoder":
        # every layer of both stacks is checkpointed or none: the cache of
        # weight casts splits by the layers' linear weights, a decoder
        # layer's cross-attention adding four h x a·d matrices
        h, ad, f = cfg["hidden"], cfg["heads"] * cfg["head_dim"], cfg["ffn"]
        enc_w = 4 * h * ad + (3 if cfg["mlp"] in ("swiglu", "geglu") else 2) * h * f
        dec_w = enc_w + 4 * h * ad
        Le, Ld = cfg["layers"], cfg["decoder_layers"]
        total_w = Le * enc_w + Ld * dec_w
        cast_share = cast_cache * enc_w // total_w if ck else 0
        seq2seq["saved_decoder_layer"] = (saved.total("dec%d" % (Ld - 1))
                                          + (cast_cache * dec_w // total_w if ck else 0))
    vis = {}
    if cfg.get("vision", "none") not in ("none", "mllama"):
        # autocast's cache holds the casts of the tower's layers too (those
        # after the feature layer among them): a layer's share is its own
        # linears' casts, counted (vision.linear_cast_bytes)
        # (only under autocast: without it the two marks can differ by
        # what the allocator frees between them, which is no cache)
        import vision
        inner = model.module if hasattr(model, "module") else model
        amp = reference.autocast_on(cfg)
        lm_last = inner.layers[cfg["layers"] - 1]
        cast_share = vision.linear_cast_bytes(lm_last) if layer_tag in ck and amp else 0
        F_ = vision.layers_run(cfg)
        v_ck = cfg["checkpointing"] == "full" and inner.tower_trains()
        vis["saved_vision_layer"] = (saved.total("v%d" % (F_ - 1))
                                     + (vision.linear_cast_bytes(inner.tower.layers[F_ - 1])
                                        if v_ck and amp else 0))
        # the embeddings', with autocast's cache of the layers after the
        # feature layer (no graph keeps them); the projector's, with the
        # features the model's output holds (image_hidden_states)
        unused = inner.tower.layers[F_:]
        vis["saved_vision_embed"] = (saved.total("vembed")
                                     + (sum(vision.linear_cast_bytes(u) for u in unused)
                                        if amp and inner.tower_trains() else 0))
        vis["saved_projector"] = saved.total("projector") + saved.total("image features")
        if (amp and not inner.qwen and not inner.tower_trains()
                and inner.projector.linear_1.weight.requires_grad):
            # behind a frozen tower linear_1's input needs no gradient: its
            # weight's cast is in autocast's cache, not in the graph
            vis["saved_projector"] += 2 * inner.projector.linear_1.weight.numel()
    out = dict(counts)
    out.update(seq2seq)
    out.update(vis)
    out.update({
        "state_bytes": state_bytes,
        "grad_bytes": grad_bytes,
        "saved_total": saved.total() + cast_cache + loss_copy,
        "saved_layer": saved.total(layer_tag) + (cast_share if layer_tag in ck else 0),
        "saved_detail": saved.seen,
        "saved_detail_total": saved.total,
        "cast_cache": cast_cache,
        # the end of the forward pass, or the loss's own moment before it
        # (its fp32 copy of the logits beside the log-probabilities),
        # whichever held more: Headroom's forward phase
        "forward_end": exact + max(marks["forward_end"] + marks.get("loss", [])),
        "forward_peak": exact + peaks["forward"],
        "backward_peak": exact + peaks["backward"],
        "step_peak": exact + peaks["step"],
    })
    # The peak of the moments Headroom plans (the forward pass at its end);
    # what the forward pass holds for a moment beyond all of them is
    # reported apart (docs/reference-oracle.md).
    out["peak"] = max(out["forward_end"], out["backward_peak"], out["step_peak"])
    out["forward_transient"] = max(0, out["forward_peak"] - out["peak"])
    return out
