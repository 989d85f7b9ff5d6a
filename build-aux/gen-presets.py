#!/usr/bin/env python3
# gen-presets.py: writes presets/models and presets/gpus from the sourced
# facts in ../shared/data/facts (models.json, gpus.json), keeping each
# number's source.  Run by hand when the facts change; the output is
# committed, so building needs no Python.
#
#   build-aux/gen-presets.py [--only models|gpus] [FACTS-DIR]
#
# GPU facts that FACTS-DIR does not hold yet (GPU_UPDATES, NEW_GPUS below)
# are merged over gpus.json here, each with its source and confidence.
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import sys

facts = os.path.join(os.path.dirname(__file__), '..', '..', 'shared', 'data', 'facts')
out = os.path.join(os.path.dirname(__file__), '..', 'presets')

# Encoders carry a 2-class sequence-classification head (the common
# fine-tuning case, e.g. HF's GLUE examples); decoders an LM head.
DROPOUT = ('gpt2', 'bert', 'roberta')   # hidden/attention dropout 0.1 in their configs


# What a preset's notes say beyond the facts' (how to plan what the
# preset leaves out), by model id.
EXTRA_NOTES = {
    'deepseek-v3': "The multi-token-prediction module (num_nextn_predict_layers 1, README_WEIGHTS.md) "
                   "is not in this preset: set model.mtp_modules 1 to train with it (682636487424 "
                   "parameters, its embedding and head shared; the checkpoint's 684489845504 stores "
                   "copies of them).",
}


def model_preset(m):
    mid = m['id']
    kind = 'encoder' if m.get('norm_placement') == 'post' or mid.startswith('vit') else 'decoder'
    mlp = m['mlp_kind'].split()[0]
    bias = m['biases']
    bias = 'all' if bias.startswith('all') else 'qkv' if bias.startswith('qkv') else 'none'
    model = {
        'name': m['name'],
        'kind': kind,
        'layers': m['layers'],
        'hidden': m['hidden'],
        'heads': m['heads'],
        'kv_heads': m['kv_heads'],
        'head_dim': m['head_dim'],
        'ffn': m['ffn'] or 0,
        'mlp': mlp,
        'vocab': m['vocab'] or 0,
        'tied_embeddings': bool(m['tied_embeddings']),
        'norm': 'layernorm' if m['norm'].startswith('layernorm') else 'rmsnorm',
        'bias': bias,
        'parallel_block': bool(m['parallel_block']),
        'learned_positions': m['max_positions'] if m['positions'].startswith('learned') else 0,
        'experts': m['experts'] or 1,
        'experts_active': m['experts_per_token'] or 1,
        'dropout': mid.startswith(DROPOUT),
        'head': 'classifier' if kind == 'encoder' else 'lm',
        'classes': 2 if kind == 'encoder' else 0,
    }
    if m['moe_expert_ffn']:
        model['expert_ffn'] = m['moe_expert_ffn']
    if 'per-head QK' in m['norm']:
        model['qk_norm'] = 'head'
    elif 'QK RMSNorm' in m['norm']:
        model['qk_norm'] = 'full'
    if 'lm_head bias' in m['biases']:
        model['lm_head_bias'] = True
    if mid.startswith('gemma-2-'):
        model['norms_per_layer'] = 4     # pre- and post-norms around attention and MLP
    if mid == 'falcon-40b':
        model['norms_per_layer'] = 2     # new_decoder_architecture: ln_attn and ln_mlp
    if kind == 'encoder' and not mid.startswith('vit'):
        model['token_types'] = 1 if mid.startswith('roberta') else 2
        model['pooler'] = True
    if mid.startswith('vit'):
        model['patch_dim'] = 3 * 14 * 14
        model['classes'] = 1000
    if m['attention'] == 'mla':
        # DeepSeek-V2/V3: the latent attention's sizes; Q/K and V have their
        # own head widths, so head_dim stays 0 (hr-validate-deepseek.c)
        mla = m['mla']
        model['head_dim'] = 0
        model['attention_kind'] = 'mla'
        if mla['q_lora_rank']:
            model['q_lora_rank'] = mla['q_lora_rank']
        for key in ('kv_lora_rank', 'qk_nope_head_dim', 'qk_rope_head_dim', 'v_head_dim'):
            model[key] = mla[key]
    if m.get('n_shared_experts'):
        model['shared_experts'] = m['n_shared_experts']
    if m.get('first_k_dense_layers'):
        model['dense_layers'] = m['first_k_dense_layers']
    notes = ' '.join(m.get('notes') or [])
    if m['attention'] == 'mla' and 'sigmoid scores' in notes:
        # DeepSeek-V3's sigmoid routing comes with its load-balancing bias
        # (e_score_correction_bias, topk_method noaux_tc); V2's softmax none
        model['router_bias'] = True
    note = '; '.join((m.get('notes') or []) + ([EXTRA_NOTES[mid]] if mid in EXTRA_NOTES else []))
    return {
        'model': model,
        'source': '; '.join(m['source_refs']),
        'notes': ('computed parameters %d (from the config fields). ' % m['computed_params']) + note,
    }


SHORT = {
    'h100-sxm5-80gb': ('h100-sxm-80gb', 'H100 SXM 80GB'),
}

# MI210 / MI250X: rocm-smi totals are not verified; the per-GCD size seen
# for gfx90a devices (68702699520 B = 65520 MiB) is used, as gpus.json says.
UNVERIFIED_OK = {'mi250x', 'mi210'}

# Sources that ../shared/data/facts does not hold yet (issue 15, item 5),
# cited as the facts cite theirs: repository, path, commit and what it says.
REF = {
    'aic_gb200': "ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/systems/gb200.yaml @ "
                 "095f58a51c4ca8e61b66ec108d86f223f8d559ce (NVIDIA's own planner): 'mem_capacity: "
                 "198674743296 # 189471MiB reported by nvidia-smi', 'bfloat16_tc_flops: 2500000000000000', "
                 "'fp8_tc_flops: 5000000000000000'",
    'aic_gb300': "ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/systems/gb300.yaml @ "
                 "095f58a51c4ca8e61b66ec108d86f223f8d559ce: 'mem_capacity: 298013687808 # 284208MiB "
                 "reported by nvidia-smi', 'bfloat16_tc_flops: 2500000000000000 # 2500TFLOPS', "
                 "'fp8_tc_flops: 5000000000000000 # 5PFLOPS'",
    'aic_b300': "ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/systems/b300_sxm.yaml @ "
                "095f58a51c4ca8e61b66ec108d86f223f8d559ce: 'mem_capacity: 288400343040 # 275040MiB "
                "reported by nvidia-smi', 'bfloat16_tc_flops: ... # 2250 TFLOPS (4.5 PFLOPS sparse / 2)', "
                "'fp8_tc_flops: ... # 4.5 PFLOPS (9 PFLOPS sparse / 2)'",
    'aic_rtxpro': "ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/systems/rtx_pro_6000_server.yaml @ "
                  "095f58a51c4ca8e61b66ec108d86f223f8d559ce: 'RTX PRO 6000 Blackwell Server Edition on this "
                  "node reports 2430 MHz max SM clock, 97887 MiB VRAM'; 'bfloat16_tc_flops: ... # 467.8 TFLOPS "
                  "dense, scaled to 2430 MHz', fp8 935.6 likewise",
    'aic_l4': "ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/systems/l4.yaml @ "
              "095f58a51c4ca8e61b66ec108d86f223f8d559ce: 'bfloat16_tc_flops: 121000000000000 # 121TFLOPS "
              "(dense; NVIDIA specs list 242TFLOPS with sparsity)', 'fp8_tc_flops: ... # 242TFLOPS (dense; "
              "NVIDIA specs list 485TFLOPS with sparsity)'",
    'fs_gb200': "a public code search index: 'NVIDIA GB200 ... 0MiB / 189471MiB' (1200W) in >=5 nvidia-smi "
                "logs of real GB200 nodes besides the stub fixture that gpus.json rejected (drivers 570.172.08, "
                "580.126.09; one a 3-node OpenShift cluster of GB200 trays), no repository path given",
    'fs_gb300': "a public code search index: 'NVIDIA GB300 ... 0MiB / 284208MiB' (1400W) in 3 nvidia-smi "
                "logs, no repository path given",
    'fs_b300': "a public code search index: 'NVIDIA B300 SXM6 AC ... 0MiB / 275040MiB' (1100W) in >=6 "
               "nvidia-smi logs (drivers 580.105.08; 580.178.04 on AWS P6-B300: 'GPU 0-7: NVIDIA B300 SXM6 AC, "
               "275040MiB each'), no repository path given",
    'fs_rtxpro': "a public code search index: '.../97887MiB' in >=8 logs of all three editions ('NVIDIA RTX "
                 "PRO 6000 Blackwell Max-Q Workstation Edition mem=2/97887MiB'; 'RTX PRO 6000 Blackwell "
                 "Workstation Edition, memory.total = 97 887 MiB'; 'RTX PRO6000 Blackwell Server Edition ... "
                 "driver 610.57.04, 97887MiB'), no repository path given",
    'vllm27542': "vllm-project/vllm issue #27542 (https://github.com/vllm-project/vllm/issues/27542): "
                 "'NVIDIA RTX PRO 6000 Blac...' 94490MiB / 97887MiB, driver 580.105.08",
    'fs_mi355x': "a public code search index: rocm-smi --showmeminfo vram --csv 'card0,309220868096,...' "
                 "(VRAM Total Memory (B)) in >=5 independent MI355X logs, and torch total_memory="
                 "309220868096 for 'AMD Instinct MI355X'; no repository path given",
    'vllm41136': "vllm-project/vllm PR #41136 (https://github.com/vllm-project/vllm/pull/41136): "
                 "'8x MI355X, 288 GiB HBM3e each, gfx950'",
    'vllm41963': "vllm-project/vllm issue #41963 (https://github.com/vllm-project/vllm/issues/41963): "
                 "'AMD MI325X x 8 (255.98 GiB HBM each)'",
    'rocm4750': "ROCm/legacy-rocm-build issue #4750 (https://github.com/ROCm/legacy-rocm-build/issues/4750): "
                "MI300X 'VRAM Total Memory (B): 206141652992' = 192 GiB - 16 MiB",
    'fs_gaudi3': "a public code search index: hl-smi CSV 'index, name, ..., memory.total [MiB]' with "
                 "'HL-325L, ..., 1.24.1-b336d5e, ..., 131072 MiB' for 8 devices; Gaudi 3 fixtures of hl-smi "
                 "parsers carry the same 131072; no repository path given",
    'titan': "pytorch/torchtitan torchtitan/tools/utils.py get_peak_flops() @ "
             "b5bcd76c66d0acb1a08b176d9639425bc55e0b2a (BF16 dense; comments cite nvidia.com/amd.com spec pages)",
    'ao_roof': "pytorch/ao torchao/testing/training/roofline_utils.py gpu_name_to_specs @ "
               "36027d82d1ad9949597ea16002ff4940374b1b94 (comments cite NVIDIA/AMD datasheets)",
    'stas': "stas00/ml-engineering compute/accelerator/README.md (TFLOPS and memory tables) @ "
            "744d01e18b79512572f64a6bbd8b5f4a725203a7 (notes cite nvidia.com / amd.com spec pages)",
    'stas_fp8': "stas00/ml-engineering compute/accelerator/README.md, 'TFLOPS comparison table' (w/o "
                "sparsity) @ 007447327a0cb851796ebf896f975566f8d97f38: fp8 column",
    'nanochat': "karpathy/nanochat nanochat/common.py get_peak_flops() @ 92d63d4e8bb4df75c3b71618f31ddde2378b2bcd "
                "(hardcoded BF16 dense peaks)",
    'llmc': "karpathy/llm.c llmc/mfu.h gpu_db @ f1e2ace651495b74ae22d45d1723443fd00ecd3a (per-architecture "
            "tensor rates 'from the nvidia whitepapers', scaled by each card's tensor cores and boost clock; "
            "BF_16_32 = bf16 with fp32 accumulate)",
    'llma': "cli99/llm-analysis llm_analysis/gpu_configs/*.json @ d841e40aec8c84b9e76ba9cfbce67418adb172bd "
            "(third-party spec table; contains errors e.g. v100-sxm-16gb mem=32, a10 'mem 28')",
    'viewer': "hahnyuan/LLM-Viewer hardwares/hardware_params.py @ 472f71f1a1807e80b573252e9185fd5e8d795e95 "
              "(third-party; comments cite NVIDIA whitepapers)",
    'modula1': "modula-systems/modula PR #1 (https://github.com/modula-systems/modula/pull/1): GPU_16BIT_FLOPS "
               "'\"v100-sxm\": 125e12', '\"6000A\": 364.25e12', '\"3090\": 71 * 10**12'",
    'acml': "kentjliu/acml-project1 README.md @ 822a849eed70e672415d3e7c8a0871f39f1f704f: 'T4 ... Peak FP16 "
            "65', citing the T4 datasheet (t4-tensor-core-datasheet-951643.pdf)",
    'flashmla75': "deepseek-ai/FlashMLA issue #75 (https://github.com/deepseek-ai/FlashMLA/issues/75): 'An NVIDIA "
                  "H800 SXM5 GPU has a peak memory bandwidth of 3.35 TB/s and peak FLOPs of 990 TFlops'; "
                  "maintainer: '1979 TFLOPS for sparse mma, 989 TFLOPS for dense mma'",
    'astro': "astroC86/gpu-datasheet README.md @ 01ede5fe58f95262a77ec9214a53f8b6e6b1eabf: 'H800 | 80 GB | "
             "3.35 TB/s | 1979 TFLOPS (BF16 / FP16) | 3958 TFLOPS (FP8 / INT8)' (sparse figures), citing the "
             "NVIDIA H800 datasheet",
    'ds_rtx6000ada': "atineoSE/coding-model-seeks-gpu pipeline/pipeline/sources/rtx6000ada_specs.md @ "
                     "ff052946489e8bb55dce164802bdb7c01251fde6 (NVIDIA RTX 6000 Ada datasheet table): 'Tensor "
                     "performance 1457.0 TFLOPS', footnote 'Effective FP8 TFLOPS using the new sparsity "
                     "feature'; 568 Tensor Cores",
    'ds_rtxpro': "atineoSE/coding-model-seeks-gpu pipeline/pipeline/sources/rtxpro6000_specs.md @ "
                 "ff052946489e8bb55dce164802bdb7c01251fde6 (NVIDIA RTX PRO 6000 Blackwell Workstation Edition "
                 "datasheet table): '4000 AI TOPS', footnote 'Effective FP4 TOPS with sparsity'; '96 GB GDDR7 "
                 "with ECC'",
    'hmc_rtxpro': "https://hmc-tech.com/gpu/nvidia-rtx-pro-6000-blackwell-vs-amd-radeon-pro-duo-polaris (pages "
                  "corpus, third-party spec page): RTX PRO 6000 Blackwell 2617MHz, 'BF16 ... 503.8 TFLOPS Tensor, "
                  "1.01 PFLOPS Tensor Sparse', 'FP8 ... 1.01 PFLOPS Tensor (FP32 Accumulate)'",
    'ds_gb200': "atineoSE/coding-model-seeks-gpu pipeline/pipeline/sources/gb200_specs.md @ "
                "e527ad937f71557ee8169ad342ad54a2509133d9 (NVIDIA Blackwell datasheet table, "
                "nvdam.widen.net/s/wwnsxrhm2w): GB200 NVL72 per GPU 'FP16/BF16 Tensor Core 5 PFLOPS', 'FP8/FP6 "
                "Tensor Core 10 PFLOPS', '186 GB HBM3E | 8 TB/s', note 'All other Tensor Core specs are sparse; "
                "dense is one-half of the sparse value'",
    'cosmos114': "NVIDIA/cosmos-framework PR #114 (https://github.com/NVIDIA/cosmos-framework/pull/114): "
                 "get_device_name() 'NVIDIA B300 SXM6 AC'; '2.25e15 (HGX B300 dense BF16 per the NVIDIA "
                 "datasheet: 36 PFLOPS sparse / 2 / 8 GPUs)'",
    'rocm_specs': "ROCm/ROCm docs/reference/gpu-arch-specs.rst @ e396b4898f459db094bfd60b876f419f77eb9f09 (AMD "
                  "official docs: VRAM GiB per accelerator)",
    'vultr': "https://docs.vultr.com/inference-cookbook/rocm/getting-started/hardware-requirements (MI325X 256 GB "
             "HBM3E, 6.0 TB/s, FP16 1,307 TFLOPS; 'Specifications from AMD MI325X product page')",
    'baseten': "https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/ (pages corpus): 'the A10 "
               "prioritizes tensor compute, while the A10G has a higher CUDA core performance'",
}

# CUDA compute capability (major.minor), which says what a GPU's tensor
# cores run (Transformer Engine's MXFP8 wants 10.x), from NVIDIA's own
# tables; GPUs they do not name (T4, A10G, A800, H800, the RTX 3090 and
# 3090 Ti), AMD's and Intel's get none.
CC_REF = {
    'nv_cc': "NVIDIA 'CUDA GPU Compute Capability' (https://developer.nvidia.com/cuda-gpus, docs corpus): "
             "'12.0 | ... RTX PRO 6000 Blackwell ... GeForce RTX 5090', '10.3 | NVIDIA GB300 NVIDIA B300', "
             "'10.0 | NVIDIA GB200 NVIDIA B200', '9.0 | NVIDIA GH200 NVIDIA H200 NVIDIA H100', "
             "'8.9 | NVIDIA L4 NVIDIA L40 NVIDIA L40S | NVIDIA RTX 6000 Ada ... GeForce RTX 4090 GeForce RTX 4080', "
             "'8.6 | NVIDIA A40 NVIDIA A10 ... | NVIDIA RTX A6000'",
    'nv_mig': "NVIDIA MIG User Guide, 'Supported GPUs' (https://docs.nvidia.com/datacenter/tesla/mig-user-guide/"
              "610/supported-gpus.html, docs corpus): 'A100-SXM4 | ... | 8.0', 'A100-PCIE | ... | 8.0', "
              "'H20 | Hopper | GH100 | 9.0'",
    'nv_legacy': "NVIDIA 'Legacy CUDA GPU Compute Capability' (https://developer.nvidia.com/cuda-legacy-gpus, "
                 "docs corpus): '7.0 | NVIDIA V100'",
}
COMPUTE_CAPABILITY = {
    'rtx-pro-6000-blackwell': (12.0, 'nv_cc'), 'rtx-5090': (12.0, 'nv_cc'),
    'gb300': (10.3, 'nv_cc'), 'b300': (10.3, 'nv_cc'),
    'gb200': (10.0, 'nv_cc'), 'b200': (10.0, 'nv_cc'),
    'gh200-96gb': (9.0, 'nv_cc'), 'h200-sxm-141gb': (9.0, 'nv_cc'), 'h100-pcie-80gb': (9.0, 'nv_cc'),
    'h100-sxm5-80gb': (9.0, 'nv_cc'), 'h100-nvl-94gb': (9.0, 'nv_cc'), 'h20': (9.0, 'nv_mig'),
    'l4': (8.9, 'nv_cc'), 'l40': (8.9, 'nv_cc'), 'l40s': (8.9, 'nv_cc'), 'rtx-6000-ada': (8.9, 'nv_cc'),
    'rtx-4090': (8.9, 'nv_cc'), 'rtx-4080': (8.9, 'nv_cc'),
    'a40': (8.6, 'nv_cc'), 'a10': (8.6, 'nv_cc'), 'rtx-a6000': (8.6, 'nv_cc'),
    'a100-pcie-40gb': (8.0, 'nv_mig'), 'a100-sxm4-40gb': (8.0, 'nv_mig'),
    'a100-pcie-80gb': (8.0, 'nv_mig'), 'a100-sxm4-80gb': (8.0, 'nv_mig'),
    'v100-sxm2-16gb': (7.0, 'nv_legacy'), 'v100-pcie-16gb': (7.0, 'nv_legacy'),
    'v100-sxm2-32gb': (7.0, 'nv_legacy'), 'v100-pcie-32gb': (7.0, 'nv_legacy'),
}

# Changes to gpus.json entries and new entries, in its own schema.  A key
# given here replaces the facts' key; source_refs and confidence merge per
# field.  fp8_dense_tflops is the preset's fp8_tflops; its sources are
# fp8_refs, or the bf16 ones where the same tables give both.
GPU_UPDATES = {
    'h100-sxm5-80gb': {'fp8_dense_tflops': 1979, 'fp8_refs': ['ao_roof', 'stas_fp8']},
    'h100-pcie-80gb': {'fp8_dense_tflops': 1513, 'fp8_refs': ['stas_fp8']},
    'h200-sxm-141gb': {'fp8_dense_tflops': 1979, 'fp8_refs': ['stas_fp8']},
    'l40s': {'fp8_dense_tflops': 733, 'fp8_refs': ['stas_fp8']},
    'b200': {'fp8_dense_tflops': 4500, 'fp8_refs': ['ao_roof', 'stas_fp8']},
    'mi300x': {'fp8_dense_tflops': 2614, 'fp8_refs': ['ao_roof']},
    'rtx-5090': {'fp8_dense_tflops': 419, 'fp8_refs': ['ao_roof']},
    'v100-sxm2-16gb': {
        'bf16_dense_tflops': 125, 'refs': ['llmc', 'llma', 'modula1'], 'conf': 'medium',
        'notes': ["No BF16 on Volta (compute capability 7.0): bf16_tflops holds the dense FP16 tensor peak "
                  "(125, SXM2 at 1530 MHz), what fp16 mixed precision runs at; bf16 itself runs far slower.",
                  "nvidia-smi total changed between driver generations: 16160 MiB (older) vs 16384 MiB "
                  "(driver 570). Plan with the lower value or with torch's total_memory."],
    },
    'v100-sxm2-32gb': {
        'bf16_dense_tflops': 125, 'refs': ['llmc', 'llma'], 'conf': 'medium',
        'notes': ["32510MiB seen for 'Tesla V100-SXM2...' 32GB rows in >=5 independent logs (code index), "
                  "including PaddlePaddle docs '8 NVIDIA Tesla V100 32G (32510MiB)'.",
                  "No BF16 on Volta: bf16_tflops holds the dense FP16 tensor peak (125, SXM2), what fp16 mixed "
                  "precision runs at."],
    },
    'v100-pcie-16gb': {
        'bf16_dense_tflops': 112, 'refs': ['llma', 'viewer'], 'conf': 'medium',
        'notes': ["16160MiB seen for 'Tesla V100-PCIE...' rows in >=3 independent logs (code index).",
                  "No BF16 on Volta: bf16_tflops holds the dense FP16 tensor peak of the PCIe board (112; "
                  "SXM2 is 125), what fp16 mixed precision runs at."],
    },
    'v100-pcie-32gb': {
        'bf16_dense_tflops': 112, 'refs': ['llma', 'viewer'], 'conf': 'medium',
        'notes': ["akash PR #90 device is 10de:1df0 'Tesla PG500-216', described as V100 PCIe 32GB; the common "
                  "PCIe SKU is 10de:1db6 - treat as representative, not identical.",
                  "No BF16 on Volta: bf16_tflops holds the dense FP16 tensor peak of the PCIe board (112), "
                  "what fp16 mixed precision runs at. llm.c lists 'Tesla V100-PCIE-32GB' at the SXM2 clock "
                  "(125) - not used."],
    },
    't4': {
        'bf16_dense_tflops': 65, 'refs': ['acml'], 'conf': 'medium',
        'notes': ["15360 = 16384*15/16, i.e. ECC enabled (GDDR6 ECC reserves 1/16). Older drivers are widely "
                  "reported at 15109MiB - not verified here.",
                  "No BF16 on Turing (compute capability 7.5): bf16_tflops holds the T4 datasheet's mixed "
                  "precision (FP16/FP32) tensor peak, 65 TFLOPS (T4 has no sparsity), at its 70 W boost clock; "
                  "sustained clocks are often lower."],
    },
    'a10g': {
        'bf16_dense_tflops': 70, 'refs': ['llma', 'baseten'], 'conf': 'low',
        'notes': ["A10G is an AWS-only variant with no public NVIDIA datasheet. llm-analysis a10g-pcie-24gb.json "
                  "gives peak_fp16_TFLOPS 70; the A10 datasheet's 125 does not carry over (Baseten: the A10 "
                  "has more tensor compute than the A10G). Low confidence.",
                  "600 GB/s per llm-analysis. huggingface.js has no separate A10G entry; capacity 24GB from "
                  "Modal docs page."],
    },
    'l4': {
        'bf16_dense_tflops': 121, 'fp8_dense_tflops': 242, 'refs': ['aic_l4', 'nanochat'], 'conf': 'high',
        'notes': ["NVIDIA's datasheet lists BF16 242 and FP8 485 TFLOPS with sparsity; dense is half. "
                  "300 GB/s."],
    },
    'h800': {
        'bf16_dense_tflops': 989, 'fp8_dense_tflops': 1979, 'refs': ['flashmla75', 'astro'], 'conf': 'medium',
        'notes': ["H800 SXM5 keeps the H100 SXM tensor rates and 3.35 TB/s HBM3 with reduced NVLink "
                  "(FlashMLA deep-dive doc: 990 TFLOPS, 3.35 TB/s). nanochat maps 'h800' to 756e12, the PCIe "
                  "figure - not this board (8x HGX in DCGM #183)."],
    },
    'rtx-3090': {
        'bf16_dense_tflops': 71, 'refs': ['nanochat', 'modula1', 'llmc'], 'conf': 'medium',
        'notes': ["Older drivers are widely reported at 24268MiB for the 3090 - not verified here.",
                  "71 = dense BF16 (always fp32 accumulate), which GeForce Ampere runs at half the FP16-"
                  "accumulate rate (142); llm.c's scaling gives 80 x 328/336 x 1695/1860 = 71.2."],
    },
    'rtx-3090-ti': {
        'bf16_dense_tflops': 80, 'refs': ['llmc'], 'conf': 'medium',
        'notes': ["24564MiB in 10 independent logs (code index).",
                  "80 = llm.c's AMPERE_CONSUMER base rate (BF_16_32 80, FP_16_16 160) at 336 tensor cores and "
                  "1860 MHz, which is exactly its 'NVIDIA GeForce RTX 3090 Ti' entry; dense, fp32 accumulate "
                  "(GeForce half rate)."],
    },
    'rtx-4080': {
        'bf16_dense_tflops': 97.5, 'refs': ['llmc'], 'conf': 'medium',
        'notes': ["16376MiB in 7 logs (code index). gpu_poor lists 716 GB/s (datasheet is 716.8).",
                  "97.5 = dense BF16 with fp32 accumulate (GeForce Ada half rate; the 4090's is 165.2); llm.c: "
                  "'4080: 304TCs, 2505 GHz; 97.5TFlops = 165.2/512*304 /2520 * 2505', matching the spec sheet."],
    },
    'rtx-6000-ada': {
        'bf16_dense_tflops': 364.2, 'fp8_dense_tflops': 728.5, 'refs': ['ds_rtx6000ada', 'modula1'],
        'conf': 'medium',
        'notes': ["49140MiB (ECC off) in 7 logs.",
                  "Datasheet: 1457.0 TFLOPS FP8 with sparsity -> 728.5 dense FP8 -> 364.2 dense BF16 (open-"
                  "instruct's 728.5 was this dense FP8 figure). Professional boards run fp32 accumulate at full "
                  "rate (RTX A6000: 154.8, vs 71 on the RTX 3090); llm.c's 182 assumes GeForce rates - not used."],
    },
    'gb200': {
        'display_name': 'NVIDIA GB200 (per Blackwell GPU, 186GB)',
        'memory_mib': 189471, 'mem_refs': ['aic_gb200', 'fs_gb200'], 'mem_conf': 'high',
        'memory_mib_alternates': [],
        'bf16_dense_tflops': 2500, 'fp8_dense_tflops': 5000,
        'refs': ['ds_gb200', 'aic_gb200', 'titan', 'stas'], 'conf': 'high',
        'notes': ["Per GPU: a GB200 superchip is one Grace CPU and 2 of these GPUs; NVL72 racks hold 72. "
                  "nvidia-smi names it 'NVIDIA GB200'. 189471 MiB = 185.03 GiB, NVIDIA's '186 GB HBM3E'. "
                  "gpus.json rejected this figure when it had only a stub NVML fixture; NVIDIA's aiconfigurator "
                  "and real GB200 logs report it.",
                  "Dense = half the datasheet's sparse 5/10 PFLOPS; pytorch/ao copies the B200 figure (2.25e15) "
                  "for GB200 - not used. 8 TB/s. MIG: 1g.24gb = 20.00 GiB (NVIDIA/gpu-operator PR #1303)."],
    },
}

NEW_GPUS = [
    {
        'id': 'gb300', 'display_name': 'NVIDIA GB300 (per Blackwell Ultra GPU, 288GB)',
        'memory_mib': 284208, 'mem_refs': ['aic_gb300', 'fs_gb300'], 'mem_conf': 'high',
        'bf16_dense_tflops': 2500, 'fp8_dense_tflops': 5000, 'refs': ['aic_gb300', 'titan', 'stas'],
        'conf': 'high',
        'notes': ["Per GPU of a GB300 superchip (NVL72); nvidia-smi names it 'NVIDIA GB300'. 284208 MiB = "
                  "277.55 GiB of the marketed 288 GB HBM3e. Same dense BF16/FP8 as GB200 (stas00 note 24: "
                  "faster FP4 and more memory); FP4 15 PFLOPS dense. 8 TB/s, 1400 W."],
    },
    {
        'id': 'b300', 'display_name': 'NVIDIA B300 (HGX, 288GB)',
        'memory_mib': 275040, 'mem_refs': ['aic_b300', 'fs_b300'], 'mem_conf': 'high',
        'bf16_dense_tflops': 2250, 'fp8_dense_tflops': 4500,
        'refs': ['aic_b300', 'cosmos114', 'ao_roof', 'titan', 'stas'], 'conf': 'high',
        'notes': ["nvidia-smi names it 'NVIDIA B300 SXM6 AC' (compute capability 10.3). 275040 MiB = 268.59 GiB "
                  "of the marketed 288 GB HBM3e. Same dense BF16/FP8 as B200; FP4 "
                  "14 PFLOPS dense. ~7.75-8 TB/s, 1100 W."],
    },
    {
        'id': 'rtx-pro-6000-blackwell', 'display_name': 'NVIDIA RTX PRO 6000 Blackwell 96GB',
        'memory_mib': 97887, 'mem_refs': ['aic_rtxpro', 'vllm27542', 'fs_rtxpro'], 'mem_conf': 'high',
        'bf16_dense_tflops': 503.8, 'fp8_dense_tflops': 1007.6, 'refs': ['hmc_rtxpro', 'ds_rtxpro', 'aic_rtxpro'],
        'conf': 'medium',
        'notes': ["Workstation (600 W), Max-Q (300 W) and Server Edition all report 97887 MiB (96 GB GDDR7 with "
                  "ECC on; 1792 GB/s).",
                  "503.8 = dense BF16 at the Workstation Edition's 2617 MHz boost (datasheet: 4000 AI TOPS = "
                  "sparse FP4, i.e. ~500 dense BF16; pro boards run fp32 accumulate at full rate, unlike the RTX "
                  "5090's 209.5). Server Edition nodes report a 2430 MHz max SM clock: 467.8 (aiconfigurator "
                  "scales to it); the 300 W Max-Q is lower still. Dense FP8 1007.6 (FP4 2015)."],
    },
    {
        'id': 'mi325x', 'display_name': 'AMD Instinct MI325X 256GB',
        'memory_mib': 262128, 'mem_refs': ['rocm_specs', 'vllm41963', 'rocm4750', 'fs_mi355x'], 'mem_conf': 'low',
        'bf16_dense_tflops': 1307.4, 'fp8_dense_tflops': 2614.9, 'refs': ['vultr', 'stas', 'titan'],
        'conf': 'medium',
        'notes': ["memory_mib is derived, not read from a rocm-smi log: ROCm docs give 256 GiB VRAM, and rocm-smi "
                  "reports 16 MiB less than the GiB total on the neighbours (MI300X 192 GiB -> 206141652992 B = "
                  "196592 MiB; MI355X 288 GiB -> 309220868096 B = 294896 MiB), so 256 GiB -> 274861129728 B = "
                  "262128 MiB. torch's 'total capacity of 255.98 GiB' on MI325X (vLLM #41963) agrees "
                  "(262128 MiB = 255.98 GiB). Low confidence.",
                  "Same compute as MI300X (stas00 note 18): dense BF16 1307.4, FP8 2614.9 (AMD's with-sparsity "
                  "figures are twice these); torchtitan rounds to 1300. 6.0 TB/s HBM3E."],
    },
    {
        'id': 'mi355x', 'display_name': 'AMD Instinct MI355X 288GB',
        'memory_mib': 294896, 'mem_refs': ['fs_mi355x', 'vllm41136'], 'mem_conf': 'medium',
        'bf16_dense_tflops': 2500, 'fp8_dense_tflops': 5000, 'refs': ['stas', 'titan', 'nanochat'],
        'conf': 'high',
        'notes': ["rocm-smi reports bytes: 309220868096 B = 294896 MiB = 288 GiB - 16 MiB (MI350X reports the "
                  "same).",
                  "AMD's dense figures (stas00 note 22): BF16 2.5 PFLOPS (2516.6 by the clock formula), "
                  "OCP-FP8 5.0 PFLOPS; the 10.1 PFLOPS FP8 figure is with sparsity. 8 TB/s HBM3E, 1400 W."],
    },
    {
        'id': 'gaudi3', 'display_name': 'Intel Gaudi 3 128GB (HL-325L OAM)',
        'memory_mib': 131072, 'mem_refs': ['fs_gaudi3'], 'mem_conf': 'medium',
        'bf16_dense_tflops': 1835, 'fp8_dense_tflops': 1835, 'refs': ['stas'], 'conf': 'medium',
        'notes': ["hl-smi shows memory.total 131072 MiB = the full 128 GiB HBM2e (3.7 TB/s); what the Gaudi "
                  "software stack leaves to a PyTorch process is less and is not captured here.",
                  "1835 TFLOPS BF16 and FP8 (MME, dense) is Intel's Gaudi 3 white-paper figure at 1750 MHz; "
                  "stas00 (note 19) measures shipping parts at a 1600 MHz MME clock, i.e. 1677 - set "
                  "gpu.bf16_tflops=1677 for that."],
    },
]


def apply_updates(gpus):
    """gpus.json with GPU_UPDATES merged in and NEW_GPUS appended."""
    def merge(g, u):
        g = dict(g)
        g['source_refs'] = dict(g.get('source_refs') or {})
        g['confidence'] = dict(g.get('confidence') or {})
        g.setdefault('memory_mib_alternates', [])
        for key, value in u.items():
            if key == 'refs':
                g['source_refs']['bf16_dense_tflops'] = [REF[r] for r in value]
            elif key == 'fp8_refs':
                g['source_refs']['fp8_dense_tflops'] = [REF[r] for r in value]
            elif key == 'conf':
                g['confidence']['bf16_dense_tflops'] = value
            elif key == 'mem_refs':
                g['source_refs']['memory_mib'] = [REF[r] for r in value]
            elif key == 'mem_conf':
                g['confidence']['memory_mib'] = value
            else:
                g[key] = value
        return g

    known = {g['id']: g for g in gpus}
    assert set(GPU_UPDATES) <= set(known), set(GPU_UPDATES) - set(known)
    out = [merge(g, GPU_UPDATES.get(g['id'], {})) for g in gpus]
    for n in NEW_GPUS:
        if n['id'] in known:    # an entry gpus.json has without memory_mib (mi325x)
            out[gpus.index(known[n['id']])] = merge(known[n['id']], n)
        else:
            out.append(merge({}, n))
    return out


def gpu_preset(g):
    mib = g['memory_mib']
    notes = list(g.get('notes') or [])
    source = '; '.join(g['source_refs'].get('memory_mib', []))
    if mib is None:
        if g['id'] not in UNVERIFIED_OK or not g['memory_mib_alternates']:
            return None
        alt = g['memory_mib_alternates'][0]
        mib = alt['memory_mib']
        source = '; '.join(g['source_refs'].get('memory_mib_alternates', [])) + \
            ' (' + alt['condition'] + '; confidence: unverified)'
    name = g['display_name']
    for prefix in ('NVIDIA GeForce ', 'NVIDIA ', 'AMD Instinct ', 'Intel ', 'Tesla '):
        if name.startswith(prefix):
            name = name[len(prefix):]
            break
    gid = g['id']
    if gid in SHORT:
        gid, name = SHORT[gid]
    conf = g['confidence']['memory_mib']
    # Dense bf16 peak, for time and cost estimates, with its confidence.
    tflops = g.get('bf16_dense_tflops')
    tconf = g['confidence'].get('bf16_dense_tflops')
    if tflops and tconf not in ('unverified', 'n/a', None):
        source += ' [confidence: %s]; bf16_tflops: ' % conf + \
            '; '.join(g['source_refs'].get('bf16_dense_tflops', [])) + ' [confidence: %s]' % tconf
    else:
        tflops = None
        source += ' [confidence: %s]' % conf
    # The dense fp8 peak, for the time estimate of fp8 training, from its
    # own sources or, where the same tables give both, bf16_tflops's.
    fp8 = g.get('fp8_dense_tflops')
    if fp8:
        fp8_refs = g['source_refs'].get('fp8_dense_tflops')
        source += '; fp8_tflops: ' + ('; '.join(fp8_refs) if fp8_refs else 'as bf16_tflops')
    cc = COMPUTE_CAPABILITY.get(g['id'])
    if cc:
        source += '; compute_capability: ' + CC_REF[cc[1]]
    preset = {
        'name': name,
        'memory_mib': int(mib),
        'source': source,
        'notes': ' '.join(notes),
    }
    if tflops:
        preset['bf16_tflops'] = tflops
    if fp8:
        preset['fp8_tflops'] = fp8
    if cc:
        preset['compute_capability'] = cc[0]
    return gid, preset


def fmt(x):
    return ('%g' % x) if isinstance(x, float) else str(x)


def write(path, obj):
    with open(path, 'w') as f:
        json.dump(obj, f, indent=2, ensure_ascii=False)
        f.write('\n')


only = None
if '--only' in sys.argv:
    only = sys.argv[sys.argv.index('--only') + 1]   # 'models' or 'gpus'
    del sys.argv[sys.argv.index('--only'):sys.argv.index('--only') + 2]
facts = sys.argv[1] if len(sys.argv) > 1 else facts

if only in (None, 'models'):
    models = json.load(open(os.path.join(facts, 'models.json')))
    for m in models:
        write(os.path.join(out, 'models', m['id'] + '.json'), model_preset(m))

if only in (None, 'gpus'):
    gpus = apply_updates(json.load(open(os.path.join(facts, 'gpus.json'))))
    for g in gpus:
        p = gpu_preset(g)
        if p:
            write(os.path.join(out, 'gpus', p[0] + '.json'), p[1])
