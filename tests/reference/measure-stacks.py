#!/usr/bin/env python3
# measure-stacks.py: the peaks of real training steps on one CUDA GPU
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The reference oracle (oracle.py) checks Headroom against a small model of
# its own.  This script measures what two real stacks hold on a real GPU,
# for the calibration file (data/measured-calibration.json, "origin":
# "measured-here"):
#
#   loop-*      a plain PyTorch loop over Hugging Face's LlamaForCausalLM in
#               bf16 (no autocast, fused AdamW on the bf16 weights), with
#               each decoder layer wrapped as torchtitan wraps its blocks:
#               no checkpointing, full checkpointing, or per-op selective
#               checkpointing with torchtitan's policy (every compute op's
#               output kept but every second mm), each eager or with every
#               layer torch.compile'd (the loss eager, as torchtitan's
#               compile of the blocks leaves it);
#   trainer-*   transformers' Trainer (bf16=True: fp32 weights under
#               autocast, the Trainer's default optimizer), full or with
#               PEFT's LoRA on every linear, with and without
#               gradient_checkpointing.
#
# The model is Llama 3.2 1B's architecture (its config.json's sizes),
# randomly initialised: memory does not depend on the values.  Each run is
# a child process of its own, so that every peak starts from a clean
# allocator.  The steady-state peak is that of steps 2 and 3 (step 1
# creates the optimizer's states); step 1's is printed too.
#
# usage: measure-stacks.py [--runs a,b,...] [--out results.jsonl]

import argparse
import json
import os
import subprocess
import sys
import time

LLAMA_32_1B = dict(
    hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
    num_attention_heads=32, num_key_value_heads=8, head_dim=64,
    vocab_size=128256, tie_word_embeddings=True, rope_theta=500000.0,
    max_position_embeddings=131072, rms_norm_eps=1e-5,
)

RUNS = {
    "loop-none": dict(kind="loop", ac="none", compile=False),
    "loop-full": dict(kind="loop", ac="full", compile=False),
    "loop-op": dict(kind="loop", ac="op", compile=False),
    "loop-none-compile": dict(kind="loop", ac="none", compile=True),
    "loop-op-compile": dict(kind="loop", ac="op", compile=True),
    "loop-full-compile": dict(kind="loop", ac="full", compile=True),
    "trainer-full": dict(kind="trainer", method="full", gc=False),
    "trainer-full-gc": dict(kind="trainer", method="full", gc=True),
    "trainer-lora": dict(kind="trainer", method="lora", gc=False),
    "trainer-lora-gc": dict(kind="trainer", method="lora", gc=True),
    "fsdp2-op": dict(kind="fsdp2", ac="op", compile=False),
    "fsdp2-full": dict(kind="fsdp2", ac="full", compile=False),
    "saved-eager": dict(kind="saved", compile=False),
    "saved-compile": dict(kind="saved", compile=True),
}
DEFAULT_RUNS = [n for n, s in RUNS.items() if s["kind"] not in ("saved", "fsdp2")]
# a run named NAME+es runs NAME with PyTorch's expandable segments
# (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, which torchtitan's
# run_train.sh sets), to see what the allocator's cache adds without them

LOOP_BATCH, LOOP_SEQ = 4, 4096
TRAINER_BATCH, TRAINER_SEQ = 4, 2048
STEPS = 3


def gib(n):
    return round(n / 2**30, 4)


def sdpa_ops(model, vocab):
    """The aten attention kernels one small forward dispatches to."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = set()

    class Spy(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = str(func)
            if "attention" in name or "scaled_dot" in name:
                seen.add(name)
            return func(*args, **(kwargs or {}))

    ids = torch.randint(0, vocab, (1, 128), device="cuda")
    with torch.no_grad(), Spy():
        model(input_ids=ids)
    return sorted(seen)


def torchtitan_op_policy():
    """torchtitan's per-op selective checkpointing as its benchmark of
    December 2024 ran it (torchtitan/parallelisms/parallelize_llama.py,
    _apply_ac_to_transformer_block): the outputs of mm, the SDPA kernels,
    reduce_scatter and max are kept, except every second mm, counted per
    block in forward order."""
    from collections import defaultdict

    import torch
    from torch.utils.checkpoint import CheckpointPolicy, create_selective_checkpoint_contexts

    save = {
        torch.ops.aten.mm.default,
        torch.ops.aten._scaled_dot_product_efficient_attention.default,
        torch.ops.aten._scaled_dot_product_flash_attention.default,
        torch.ops._c10d_functional.reduce_scatter_tensor.default,
        torch.ops.aten.max.default,
    }
    for extra in ("_scaled_dot_product_cudnn_attention",):
        op = getattr(torch.ops.aten, extra, None)
        if op is not None:
            save.add(op.default)

    def context_fn():
        meta = defaultdict(int)

        def policy(ctx, func, *args, **kwargs):
            mode = "recompute" if ctx.is_recompute else "forward"
            key = mode + "_mm_count"
            if func == torch.ops.aten.mm.default:
                meta[key] += 1
            keep = func in save and not (func == torch.ops.aten.mm.default and meta[key] % 2 == 0)
            return CheckpointPolicy.MUST_SAVE if keep else CheckpointPolicy.PREFER_RECOMPUTE

        return create_selective_checkpoint_contexts(policy)

    return context_fn


def run_loop(spec):
    import torch
    from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import checkpoint_wrapper
    from transformers import LlamaConfig, LlamaForCausalLM

    fsdp = spec["kind"] == "fsdp2"
    config = LlamaConfig(**LLAMA_32_1B, use_cache=False)
    config._attn_implementation = "sdpa"
    torch.manual_seed(0)
    # FSDP2 keeps fp32 weights sharded and gathers them in bf16
    # (MixedPrecisionPolicy as torchtitan sets it); the plain loop trains
    # the bf16 weights themselves
    torch.set_default_dtype(torch.float32 if fsdp else torch.bfloat16)
    with torch.device("cuda"):
        model = LlamaForCausalLM(config)
    torch.set_default_dtype(torch.float32)
    model.train()
    attention = [] if fsdp else sdpa_ops(model, config.vocab_size)

    layers = model.model.layers
    for i in range(len(layers)):
        block = layers[i]
        if spec["ac"] == "full":
            block = checkpoint_wrapper(block, preserve_rng_state=False)
        elif spec["ac"] == "op":
            block = checkpoint_wrapper(block, context_fn=torchtitan_op_policy(),
                                       preserve_rng_state=False)
        if spec["compile"]:
            block = torch.compile(block)
        layers[i] = block

    if fsdp:
        # one rank: fully_shard per block, then the root with the
        # embeddings, final norm and tied head, as torchtitan's apply_fsdp
        # does, but every block resharded after forward (torchtitan's
        # default keeps the last one gathered)
        import torch.distributed as dist
        from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

        dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29511", rank=0, world_size=1)
        mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        for i in range(len(layers)):
            fully_shard(layers[i], mp_policy=mp, reshard_after_forward=True)
        fully_shard(model, mp_policy=mp, reshard_after_forward=True)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-5, foreach=True)
    else:
        opt = torch.optim.AdamW(model.parameters(), lr=1e-5, fused=True)
    ids = torch.randint(0, config.vocab_size, (LOOP_BATCH, LOOP_SEQ), device="cuda")
    steps = []
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    for step in range(STEPS):
        t0 = time.time()
        start = torch.cuda.memory_allocated()
        loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        del loss
        torch.cuda.synchronize()
        steps.append(dict(start_gib=gib(start), peak_gib=gib(torch.cuda.max_memory_allocated()),
                          reserved_gib=gib(torch.cuda.max_memory_reserved()),
                          seconds=round(time.time() - t0, 2)))
        torch.cuda.reset_peak_memory_stats()
    return dict(attention_ops=attention, micro_batch=LOOP_BATCH, seq_len=LOOP_SEQ,
                dtypes=sorted({str(p.dtype) for p in model.parameters()}),
                params=sum(p.numel() for p in model.parameters()), steps=steps)


def run_trainer(spec):
    import torch
    import transformers
    from transformers import (LlamaConfig, LlamaForCausalLM, Trainer, TrainerCallback,
                              TrainingArguments)

    config = LlamaConfig(**LLAMA_32_1B)
    config._attn_implementation = "sdpa"
    torch.manual_seed(0)
    lora = spec["method"] == "lora"
    # LoRA loads the base in bf16, as PEFT's examples do; full training
    # keeps the Trainer's fp32 weights under bf16 autocast.
    torch.set_default_dtype(torch.bfloat16 if lora else torch.float32)
    with torch.device("cuda"):
        model = LlamaForCausalLM(config)
    torch.set_default_dtype(torch.float32)
    extra = {}
    if lora:
        import peft
        from peft import LoraConfig, get_peft_model
        model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, lora_dropout=0.05,
                                                 target_modules="all-linear",
                                                 task_type="CAUSAL_LM"))
        extra["peft"] = peft.__version__
        extra["trainable"] = sum(p.numel() for p in model.parameters() if p.requires_grad)
        extra["adapter_dtypes"] = sorted({str(p.dtype) for p in model.parameters()
                                          if p.requires_grad})

    class Data(torch.utils.data.Dataset):
        def __len__(self):
            return 1000

        def __getitem__(self, i):
            g = torch.Generator().manual_seed(i)
            ids = torch.randint(0, config.vocab_size, (TRAINER_SEQ,), generator=g)
            return {"input_ids": ids, "labels": ids.clone()}

    steps = []

    class Peaks(TrainerCallback):
        def on_step_begin(self, args, state, control, **kw):
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            self.t0 = time.time()
            self.start = torch.cuda.memory_allocated()

        def on_step_end(self, args, state, control, **kw):
            torch.cuda.synchronize()
            steps.append(dict(start_gib=gib(self.start),
                              peak_gib=gib(torch.cuda.max_memory_allocated()),
                              reserved_gib=gib(torch.cuda.max_memory_reserved()),
                              seconds=round(time.time() - self.t0, 2)))

    kwargs = dict(output_dir="/tmp/hr-trainer", per_device_train_batch_size=TRAINER_BATCH,
                  max_steps=STEPS, bf16=True, learning_rate=1e-5, report_to="none",
                  save_strategy="no", logging_strategy="no", dataloader_num_workers=0,
                  remove_unused_columns=False, disable_tqdm=True,
                  gradient_checkpointing=spec["gc"])
    if spec["gc"]:
        kwargs["gradient_checkpointing_kwargs"] = {"use_reentrant": False}
    args = TrainingArguments(**kwargs)
    trainer = Trainer(model=model, args=args, train_dataset=Data(), callbacks=[Peaks()])
    attention = sdpa_ops(trainer.model, config.vocab_size)
    trainer.train()
    return dict(attention_ops=attention, micro_batch=TRAINER_BATCH, seq_len=TRAINER_SEQ,
                transformers=transformers.__version__, optim=str(args.optim),
                use_cache=bool(getattr(config, "use_cache", None)), steps=steps,
                dtypes=sorted({str(p.dtype) for p in trainer.model.parameters()}), **extra)


def run_saved(spec):
    """What one decoder layer keeps for the backward pass, eager or
    compiled: the growth of allocated memory over each layer's forward
    (what it saves but its input, and its output), and the tensors
    autograd's saved-tensor hooks see (their distinct storages)."""
    from collections import defaultdict

    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(**dict(LLAMA_32_1B, num_hidden_layers=2), use_cache=False)
    config._attn_implementation = "sdpa"
    torch.set_default_dtype(torch.bfloat16)
    with torch.device("cuda"):
        model = LlamaForCausalLM(config)
    torch.set_default_dtype(torch.float32)
    model.train()
    layers = model.model.layers
    if spec["compile"]:
        for i in range(len(layers)):
            layers[i] = torch.compile(layers[i])
    ids = torch.randint(0, config.vocab_size, (1, 4096), device="cuda")
    model(input_ids=ids, labels=ids).loss.backward()      # compiles
    model.zero_grad(set_to_none=True)

    current, growth, before, hooked = [None], {}, {}, [False]
    saved = defaultdict(dict)
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}

    def pre(i):
        def hook(m, args):
            torch.cuda.synchronize()
            before[i] = torch.cuda.memory_allocated()
            current[0] = "layer%d" % i
        return hook

    def post(i):
        def hook(m, args, out):
            torch.cuda.synchronize()
            if not hooked[0]:
                growth["layer%d" % i] = torch.cuda.memory_allocated() - before[i]
            current[0] = None
        return hook

    for i in range(len(layers)):
        layers[i].register_forward_pre_hook(pre(i))
        layers[i].register_forward_hook(post(i))

    def pack(t):
        if current[0] is not None and t.device.type == "cuda":
            st = t.untyped_storage()
            if st.data_ptr() not in params:
                saved[current[0]].setdefault(st.data_ptr(),
                                             (st.nbytes(), list(t.shape), str(t.dtype)))
        return t

    loss = model(input_ids=ids, labels=ids).loss
    loss.backward()
    hooked[0] = True
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = model(input_ids=ids, labels=ids).loss
    loss.backward()
    return dict(tokens=4096, growth=growth,
                saved={k: dict(bytes=sum(b for b, _, _ in v.values()),
                               tensors=sorted(v.values(), reverse=True))
                       for k, v in saved.items()})


def child(name):
    import torch
    spec = RUNS[name.split("+")[0]]
    free0, total = torch.cuda.mem_get_info()
    t0 = time.time()
    run = dict(loop=run_loop, fsdp2=run_loop, trainer=run_trainer, saved=run_saved)[spec["kind"]]
    result = run(spec)
    free1, total = torch.cuda.mem_get_info()
    result.update(
        run=name, spec=spec, torch=torch.__version__, gpu=torch.cuda.get_device_name(0),
        total_gib=gib(total),
        # what nvidia-smi would show at the end, less the allocator's cache
        context_gib=gib(total - free1 - torch.cuda.memory_reserved()),
        used_at_start_gib=gib(total - free0),
        seconds=round(time.time() - t0, 1))
    print("RESULT " + json.dumps(result), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", default=",".join(DEFAULT_RUNS))
    ap.add_argument("--out", default="stacks.jsonl")
    ap.add_argument("--timeout", type=int, default=150)
    ap.add_argument("--child")
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return 0
    for name in args.runs.split(","):
        t0 = time.time()
        try:
            env = dict(os.environ)
            if name.endswith("+es"):
                env["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
            p = subprocess.run([sys.executable, "-u", __file__, "--child", name],
                               capture_output=True, text=True, timeout=args.timeout, env=env)
            lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
            if lines:
                rec = json.loads(lines[-1][7:])
            else:
                rec = dict(run=name, error=(p.stderr or p.stdout)[-3000:])
        except subprocess.TimeoutExpired:
            rec = dict(run=name, error="timed out after %d s" % args.timeout)
        with open(args.out, "a") as f:
            f.write(json.dumps(rec) + "\n")
        if "error" in rec:
            summary = rec["error"][-400:]
        elif "steps" in rec:
            summary = " ".join("%.2f/%.2f" % (s["peak_gib"], s["reserved_gib"]) for s in rec["steps"])
        else:
            summary = json.dumps(rec.get("growth"))
        print("%-20s %5.0f s  %s" % (name, time.time() - t0, summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
