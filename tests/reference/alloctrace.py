# alloctrace.py: the allocations and frees of a training step, on no memory
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A step of a full-size model runs on PyTorch's meta device (shapes and
# dtypes, no data), under a TorchDispatchMode that sees every aten op: each
# new storage an op returns is an allocation of its bytes, and a storage
# whose last reference went (a weak reference to it expired, polled before
# and after every op) is a free.  The order is the order a CUDA run makes
# them in, op by op, which is what the caching allocator sees
# (cachingalloc.py); what a kernel allocates and frees inside itself, and
# the allocator's own rounding, are not in the trace.

import torch
from torch.multiprocessing.reductions import StorageWeakRef
from torch.utils._pytree import tree_flatten
from torch.utils._python_dispatch import TorchDispatchMode


class Trace(TorchDispatchMode):
    """Events ("alloc", id, nbytes) and ("free", id, nbytes), and marks
    ("mark", name, 0), in order."""

    def __init__(self):
        super().__init__()
        self.events = []
        self.live = {}          # storage key -> (weak ref, id, nbytes)
        self.next_id = 0
        self.made_by = {}       # id -> the op that made it
        self.op = None

    def _poll(self):
        gone = [k for k, (ref, _, _) in self.live.items() if ref.expired()]
        for k in gone:
            _, i, n = self.live.pop(k)
            self.events.append(("free", i, n))

    def track(self, t):
        """Counts a tensor made outside the mode (a parameter, the batch)
        as allocated now."""
        st = t.storage()
        ref = StorageWeakRef(st)
        if ref.cdata in self.live:
            return
        self.live[ref.cdata] = (ref, self.next_id, st.nbytes())
        self.events.append(("alloc", self.next_id, st.nbytes()))
        self.made_by[self.next_id] = self.op
        self.next_id += 1

    def mark(self, name):
        self._poll()
        self.events.append(("mark", name, 0))

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self._poll()
        out = func(*args, **(kwargs or {}))
        self.op = str(func)
        flat, _ = tree_flatten(out)
        for t in flat:
            if isinstance(t, torch.Tensor):
                self.track(t)
        self.op = None
        return out

    def __exit__(self, *exc):
        self._poll()
        return super().__exit__(*exc)


def replay(events, allocator):
    """The events through an allocator; the peaks between marks, as
    {mark: (peak allocated, peak reserved)} of what follows each mark."""
    blocks = {}
    peaks = {}
    current = None
    for kind, key, n in events:
        if kind == "alloc":
            blocks[key] = allocator.malloc(n)
        elif kind == "free":
            b = blocks.pop(key, None)
            if b is not None:
                allocator.free(b)
        else:
            if current is not None:
                peaks[current] = (allocator.peak_allocated, allocator.peak_reserved)
            current = key
            allocator.reset_peaks()
    if current is not None:
        peaks[current] = (allocator.peak_allocated, allocator.peak_reserved)
    return peaks
