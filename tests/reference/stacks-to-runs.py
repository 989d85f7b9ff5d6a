#!/usr/bin/env python3
# stacks-to-runs.py: measure-stacks.py's results as measured runs
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Turns the JSON lines measure-stacks.py writes into entries of the
# measured-run format (data/measured-calibration.json; docs/outputs.md),
# one per run, for the metric asked: max_memory_reserved (what the app's
# error bar compares its total with) or max_memory_allocated (the tensor
# bytes alone: tests/data/measured-stacks-allocated.json).  The figures are
# those of the run's last step, the steady state.
#
# usage: stacks-to-runs.py reserved|allocated DATE RESULTS.jsonl... > runs.json

import json
import sys

ARCH = {
    "params": 1235814400, "layers": 16, "hidden": 2048, "heads": 32, "kv_heads": 8,
    "head_dim": 64, "ffn": 8192, "vocab": 128256, "tied_embeddings": True,
    "notes": "Llama 3.2 1B's config.json sizes, randomly initialised "
             "(transformers LlamaForCausalLM, attn_implementation sdpa)",
}

# What each kind of run did that the entry's words cannot say.
LOOP_SCENARIO = {
    "model": {"preset": "llama-3.2-1b"},
    "training": {"attention": "flash", "loss": "standard", "logits_fp32": True,
                 "logits_fp32_in_model": False, "compile_loss": False},
}
LOOP_SOURCE = (
    "measure-stacks.py run_loop: HF LlamaForCausalLM built in bf16 on the GPU, "
    "loss = model(input_ids, labels).loss (ForCausalLMLoss upcasts the logits to fp32 "
    "inside the loss; the output and its bf16 logits dropped before backward), "
    "torch.optim.AdamW(fused=True) on the bf16 weights, zero_grad(set_to_none=True); "
    "no attention mask, so transformers' sdpa_attention_forward passes K and V "
    "unrepeated with enable_gqa (use_gqa_in_sdpa) and SDPA ran its cuDNN kernel, which "
    "saves Q, K, V, the output and the log-sum-exp (attention flash); "
    "each decoder layer wrapped by checkpoint_wrapper (full), or with torchtitan's op "
    "policy (op), and torch.compile'd (compile: the layers, the loss eager)")
FSDP2_SOURCE = (
    "measure-stacks.py run_loop (fsdp2-*): the same loop over fp32 weights under FSDP2 on "
    "one rank (fully_shard of each decoder layer, then of the root, which holds the tied "
    "embedding and head and the final norm: fsdp_units root; MixedPrecisionPolicy "
    "param_dtype bf16, reduce_dtype fp32; reshard_after_forward=True for every block and "
    "the root, where torchtitan's default keeps the last block gathered), "
    "torch.optim.AdamW(foreach=True)")
TRAINER_SOURCE = (
    "measure-stacks.py run_trainer: transformers Trainer(bf16=True, "
    "per_device_train_batch_size 4, default optim adamw_torch_fused), sequences of 2048 "
    "random tokens without an attention mask; gradient_checkpointing_kwargs "
    "use_reentrant False; LoRA: PEFT LoraConfig(r=16, lora_alpha=32, lora_dropout=0.05, "
    "target_modules='all-linear') on a base built in bf16 (PEFT keeps the adapters in fp32)")


def entry(r, metric, date):
    spec, last = r["spec"], r["steps"][-1]
    name = r["run"]
    loop = spec["kind"] in ("loop", "fsdp2")
    fsdp = spec["kind"] == "fsdp2"
    value = last["reserved_gib"] if metric == "reserved" else last["peak_gib"]
    e = {
        "id": "measured-h200-%s%s" % (name, "" if metric == "reserved" else "-allocated"),
        "origin": "measured-here",
        "source": "Headroom tests/reference/measure-stacks.py run %s on one NVIDIA H200 (143771 MiB, "
                  "driver 580.159.04), %s; torch %s, transformers %s%s; the last of three steps"
                  % (name, date, r["torch"], r.get("transformers", "5.17.0"),
                     ", peft " + r["peft"] if "peft" in r else ""),
        "model": "meta-llama/Llama-3.2-1B (architecture only)",
        "arch": ARCH,
        "task": spec.get("method", "full"),
        "precision": "bf16-mixed with an fp32 master (FSDP2 MixedPrecisionPolicy: fp32 "
                     "shards gathered in bf16, gradients reduced to fp32)" if fsdp
                     else "bf16-true (weights, gradients and AdamW states in bf16)" if loop
                     else "amp bf16 (Trainer bf16=True: torch.autocast over %s weights)"
                     % ("bf16 base and fp32 adapter" if spec.get("method") == "lora" else "fp32"),
        "optimizer": "torch.optim.AdamW foreach=True" if fsdp else "torch.optim.AdamW fused=True",
        "micro_batch": r["micro_batch"],
        "seq_len": r["seq_len"],
        "grad_checkpointing": spec.get("ac", "full" if spec.get("gc") else "none") != "none",
        "parallelism": {"gpus": 1, "zero_stage": 3 if fsdp else 0, "fsdp": fsdp, "tp": 1,
                        "pp": 1, "sp": False, "offload": None},
        "gpu": "NVIDIA H200 141GB",
        "metric": "max_memory_reserved" if metric == "reserved" else "max_memory_allocated",
        "metric_detail": "torch.cuda.max_memory_%s() over the step, after reset_peak_memory_stats()"
                         % ("reserved" if metric == "reserved" else "allocated"),
        "reported_value": value,
        "reported_unit": "GiB",
        "measured_gib": value,
        "reliability": "high: measured by this project, every setting in the script",
    }
    if loop:
        sc = json.loads(json.dumps(LOOP_SCENARIO))
        sc["training"]["checkpointing"] = spec["ac"]
        sc["training"]["compile"] = spec["compile"]
        sc["parallel"] = {"zero": 0}
        if fsdp:
            sc["training"]["dtypes"] = {"grads": "fp32"}
            sc["parallel"] = {"zero": 3, "fsdp": 2, "fsdp_units": "root"}
        e["scenario"] = sc
        e["scenario_source"] = LOOP_SOURCE + (". " + FSDP2_SOURCE if fsdp else "")
    else:
        e["framework"] = "hf-trainer"
        sc = {"model": {"preset": "llama-3.2-1b"}, "parallel": {"zero": 0}}
        if spec["method"] == "lora":
            e["lora"] = {"rank": 16, "alpha": 32, "dropout": 0.05, "targets": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]}
            sc["training"] = {"dtypes": {"weights": "bf16"}}
        e["scenario"] = sc
        e["scenario_source"] = TRAINER_SOURCE
    return e


def main():
    metric, date = sys.argv[1], sys.argv[2]
    runs = [json.loads(line) for path in sys.argv[3:] for line in open(path)]
    out = [entry(r, metric, date) for r in runs if "steps" in r and "+" not in r["run"]]
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
