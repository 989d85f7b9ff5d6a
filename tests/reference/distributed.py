# distributed.py: one rank of N, in one process, on one GPU (--device cuda)
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# UNTESTED: written for a GPU this project's CI does not have.  With a
# fake process group (torch.testing._internal.distributed.fake_pg, every
# collective a no-op) one process holds exactly what rank 0 of N holds:
# FSDP2 shards each layer's parameters, gradients and optimizer states
# over the N ranks and gathers a layer's parameters around its forward
# and backward; tensor parallelism splits the attention's and the MLP's
# matrices by N (column-wise in, row-wise out, Megatron's layout).  The
# numbers are those of torch.cuda.max_memory_allocated() on rank 0; the
# all-gathered buffers are real allocations even though no data moves.


def init_fake_group(ranks):
    import torch.distributed as dist
    from torch.testing._internal.distributed.fake_pg import FakeStore

    if not dist.is_initialized():
        dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=ranks)


def _fully_shard():
    try:
        from torch.distributed.fsdp import fully_shard      # torch >= 2.6
    except ImportError:
        from torch.distributed._composable.fsdp import fully_shard  # torch 2.4, 2.5
    return fully_shard


def shard(model, cfg):
    """Applies cfg["parallel"] ("fsdp" or "tp") over cfg["ranks"] ranks."""
    from torch.distributed.device_mesh import init_device_mesh

    ranks = cfg["ranks"]
    init_fake_group(ranks)
    mesh = init_device_mesh("cuda", (ranks,))
    if cfg["parallel"] == "fsdp":
        fully_shard = _fully_shard()
        for layer in model.layers:
            fully_shard(layer, mesh=mesh)
        fully_shard(model, mesh=mesh)
        return model
    from torch.distributed.tensor.parallel import (ColwiseParallel, RowwiseParallel,
                                                   parallelize_module)
    plan = {}
    for i, layer in enumerate(model.layers):
        for name in ("q", "k", "v"):
            plan["layers.%d.attn.%s" % (i, name)] = ColwiseParallel()
        plan["layers.%d.attn.o" % i] = RowwiseParallel()
        for name in ("gate", "up"):
            if hasattr(layer.mlp, name):
                plan["layers.%d.mlp.%s" % (i, name)] = ColwiseParallel()
        plan["layers.%d.mlp.down" % i] = RowwiseParallel()
        # the heads each rank computes
        layer.attn.a //= ranks
        layer.attn.kh = max(layer.attn.kh // ranks, 1)
    parallelize_module(model, mesh, plan)
    return model


def scenario_parallel(cfg):
    """Headroom's parallel section for the same layout."""
    ranks = cfg["ranks"]
    if cfg["parallel"] == "fsdp":
        return {"gpus": ranks, "gpus_per_node": min(ranks, 8), "zero": 3}
    return {"gpus": ranks, "gpus_per_node": min(ranks, 8), "tp": ranks, "zero": 0}
