# opcheckpoint.py: torchtitan's per-op selective checkpointing, for torch 1.13
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# torchtitan's SelectiveAC (torchtitan/distributed/activation_checkpoint.py)
# wraps each block in a checkpoint whose policy
# (torch.utils.checkpoint.create_selective_checkpoint_contexts, PyTorch
# 2.4+) keeps the outputs of the compute-intensive ops (mm, addmm, bmm, the
# SDPA kernels) but recomputes every second mm of the block, counted in
# forward order; everything else is recomputed in the backward pass, where
# the kept outputs are handed back instead of being computed again.  Debian
# 12's torch 1.13 has no such policy; this file does the same by hand for
# the reference model (model.py), whose linears and attention call lin()
# and flash():
#
# - OpCheckpoint.forward runs the block without a graph, keeping the layer's
#   input and the outputs lin() and flash() choose (save_for_backward, so
#   that the saved-tensor hooks count them like any saved tensor);
# - OpCheckpoint.backward runs the block again with a graph, in which the
#   kept outputs come back through CachedLinear and FlashLikeCached: they
#   save what the real ops save (a linear its input and weight, attention q,
#   k, v, the output and the log-sum-exp) and compute the same gradients,
#   and nothing is computed twice.
#
# Only what torchtitan trains is covered: full training (the weights need
# gradients), no autocast (torchtitan computes in the weights' type through
# FSDP's mixed precision), flash-like attention, dense MLPs.

import torch
import torch.nn as nn
import torch.nn.functional as F


class _State:
    """The block being run under the policy: None outside one."""
    current = None

    def __init__(self, mode, kept=None):
        self.mode = mode            # "forward" (keep) or "recompute" (hand back)
        self.kept = list(kept or [])
        self.next = 0
        self.mm = 0


def _take(st):
    t = st.kept[st.next]
    st.next += 1
    return t


class CachedLinear(torch.autograd.Function):
    """A linear whose output is already known: saves and differentiates as
    mm / addmm do (derivatives.yaml: self for mat2's gradient, mat2 for
    self's)."""

    @staticmethod
    def forward(ctx, x, weight, bias, out):
        ctx.save_for_backward(x, weight)
        ctx.has_bias = bias is not None
        return out

    @staticmethod
    def backward(ctx, g):
        x, weight = ctx.saved_tensors
        g2 = g.reshape(-1, g.shape[-1])
        gx = (g2 @ weight).reshape(*g.shape[:-1], weight.shape[1])
        gw = g2.t() @ x.reshape(-1, x.shape[-1])
        gb = g2.sum(0) if ctx.has_bias else None
        return gx, gw, gb, None


def lin(module, x):
    """module(x), under the policy where a block runs under one: an addmm
    (a linear with a bias) is always kept, an mm every second time."""
    st = _State.current
    if st is None or not isinstance(module, nn.Linear):
        return module(x)
    if module.bias is None:
        st.mm += 1
        if st.mm % 2 == 0:
            return module(x)        # recomputed
    if st.mode == "forward":
        out = F.linear(x, module.weight, module.bias)
        st.kept.append(out)
        return out
    return CachedLinear.apply(x, module.weight, module.bias, _take(st))


def flash(flash_like, q, k, v, causal, scale):
    """FlashLike.apply(q, k, v, causal, scale) under the policy: the SDPA
    kernels are kept with their log-sum-exp."""
    st = _State.current
    if st is None:
        return flash_like.apply(q, k, v, causal, scale)
    if st.mode == "forward":
        out, lse = flash_like.compute(q, k, v, causal, scale)
        st.kept += [out, lse]
        return out
    out, lse = _take(st), _take(st)
    return FlashLikeCached.apply(q, k, v, causal, scale, out, lse)


class FlashLikeCached(torch.autograd.Function):
    """FlashLike with its output and log-sum-exp handed in."""

    @staticmethod
    def forward(ctx, q, k, v, causal, scale, out, lse):
        ctx.save_for_backward(q, k, v, out, lse)
        ctx.causal = causal
        ctx.scale = scale
        return out

    @staticmethod
    def backward(ctx, dout):
        from model import FlashLike
        return FlashLike.backward(ctx, dout) + (None, None)


class OpCheckpoint(torch.autograd.Function):
    """One block under the per-op policy (reentrant, as
    torch.utils.checkpoint's default in 1.13: the weights' gradients
    accumulate into their .grad during the recomputed backward)."""

    @staticmethod
    def forward(ctx, block, x, rope):
        ctx.block = block
        ctx.rope = rope
        ctx.rng = torch.get_rng_state()
        st = _State("forward")
        _State.current = st
        try:
            with torch.no_grad():
                y = block(x, rope)
        finally:
            _State.current = None
        ctx.save_for_backward(x, *st.kept)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, *kept = ctx.saved_tensors
        xr = x.detach().requires_grad_(True)
        st = _State("recompute", kept)
        del kept
        _State.current = st
        with torch.random.fork_rng(devices=[]):
            torch.set_rng_state(ctx.rng)
            try:
                with torch.enable_grad():
                    y = ctx.block(xr, ctx.rope)
            finally:
                _State.current = None
        del st
        torch.autograd.backward(y, dy)
        return None, xr.grad, None
