# cachingalloc.py: PyTorch's CUDA caching allocator, replayed
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What torch.cuda.max_memory_reserved() reports is decided by the caching
# allocator's policy, not by the tensors alone: it keeps every segment it
# got from cudaMalloc, and a later request larger than every free block
# makes a new segment even when the free bytes would hold it.  This module
# replays a trace of allocations and frees (alloctrace.py) through that
# policy, as c10/cuda/CUDACachingAllocator.cpp (PyTorch 2.x, its defaults:
# no max_split_size, no garbage-collection threshold, no expandable
# segments, one stream) writes it:
#
#   - round_size: a request is rounded up to a multiple of 512 bytes
#     (kMinBlockSize), 512 at least;
#   - get_pool: rounded sizes up to 1 MiB (kSmallSize) come from the small
#     pool, larger ones from the large pool; the pools share no segment;
#   - get_free_block: the smallest free block of the pool that holds the
#     request, the lowest address among equal sizes (BlockComparator:
#     stream, size, address);
#   - get_allocation_size: a new segment is 2 MiB (kSmallBuffer) for the
#     small pool, 20 MiB (kLargeBuffer) for requests under 10 MiB
#     (kMinLargeAlloc), else the request rounded up to 2 MiB (kRoundLarge);
#   - should_split: the rest of a block is split off and stays free when it
#     is at least 512 bytes (small pool) or more than 1 MiB (large pool);
#     otherwise the whole block is handed out, and counted allocated;
#   - free_block: a freed block merges with its free neighbours in the same
#     segment (try_merge_blocks);
#   - segments are never given back (no empty_cache, no out-of-memory
#     retry: the runs replayed here fit).
#
# Statistics as the allocator keeps them: allocated bytes are the sizes of
# the blocks handed out (after rounding, and whole when not split),
# reserved bytes the sizes of the segments.

import bisect

K_MIN_BLOCK = 512
K_SMALL_SIZE = 1 << 20
K_SMALL_BUFFER = 2 << 20
K_LARGE_BUFFER = 20 << 20
K_MIN_LARGE_ALLOC = 10 << 20
K_ROUND_LARGE = 2 << 20


class Block:
    __slots__ = ("size", "addr", "prev", "next", "free", "small")

    def __init__(self, size, addr, small):
        self.size = size
        self.addr = addr
        self.small = small
        self.prev = None
        self.next = None
        self.free = True


def round_size(n):
    if n < K_MIN_BLOCK:
        return K_MIN_BLOCK
    return K_MIN_BLOCK * ((n + K_MIN_BLOCK - 1) // K_MIN_BLOCK)


def allocation_size(size):
    if size <= K_SMALL_SIZE:
        return K_SMALL_BUFFER
    if size < K_MIN_LARGE_ALLOC:
        return K_LARGE_BUFFER
    return K_ROUND_LARGE * ((size + K_ROUND_LARGE - 1) // K_ROUND_LARGE)


class CachingAllocator:
    def __init__(self):
        # free blocks per pool, sorted by (size, address)
        self.pools = {True: [], False: []}
        self.next_addr = 0
        self.reserved = 0
        self.allocated = 0
        self.peak_reserved = 0
        self.peak_allocated = 0
        self.segments = 0

    def reset_peaks(self):
        self.peak_reserved = self.reserved
        self.peak_allocated = self.allocated

    def _insert(self, block):
        bisect.insort(self.pools[block.small], (block.size, block.addr, block))

    def _remove(self, block):
        pool = self.pools[block.small]
        i = bisect.bisect_left(pool, (block.size, block.addr))
        assert pool[i][2] is block
        del pool[i]

    def malloc(self, nbytes):
        size = round_size(nbytes)
        small = size <= K_SMALL_SIZE
        pool = self.pools[small]
        i = bisect.bisect_left(pool, (size, -1))
        if i < len(pool):
            block = pool.pop(i)[2]
        else:
            seg = allocation_size(size)
            block = Block(seg, self.next_addr, small)
            self.next_addr += seg
            self.reserved += seg
            self.segments += 1
        rest = block.size - size
        if (small and rest >= K_MIN_BLOCK) or (not small and rest > K_SMALL_SIZE):
            tail = Block(rest, block.addr + size, small)
            tail.prev = block
            tail.next = block.next
            if block.next is not None:
                block.next.prev = tail
            block.next = tail
            block.size = size
            self._insert(tail)
        block.free = False
        self.allocated += block.size
        self.peak_allocated = max(self.peak_allocated, self.allocated)
        self.peak_reserved = max(self.peak_reserved, self.reserved)
        return block

    def free(self, block):
        assert not block.free
        self.allocated -= block.size
        block.free = True
        for nb in (block.prev, block.next):
            if nb is not None and nb.free:
                self._remove(nb)
                if nb is block.prev:
                    block.addr = nb.addr
                    block.prev = nb.prev
                    if nb.prev is not None:
                        nb.prev.next = block
                else:
                    block.next = nb.next
                    if nb.next is not None:
                        nb.next.prev = block
                block.size += nb.size
        self._insert(block)
