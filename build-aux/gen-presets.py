#!/usr/bin/env python3
# gen-presets.py: writes presets/models and presets/gpus from the sourced
# facts in ../shared/data/facts (models.json, gpus.json), keeping each
# number's source.  Run by hand when the facts change; the output is
# committed, so building needs no Python.
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import sys

facts = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), '..', '..', 'shared', 'data', 'facts')
out = os.path.join(os.path.dirname(__file__), '..', 'presets')

# Encoders carry a 2-class sequence-classification head (the common
# fine-tuning case, e.g. HF's GLUE examples); decoders an LM head.
DROPOUT = ('gpt2', 'bert', 'roberta')   # hidden/attention dropout 0.1 in their configs


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
    note = '; '.join(m.get('notes') or [])
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
    for prefix in ('NVIDIA GeForce ', 'NVIDIA ', 'AMD Instinct ', 'Tesla '):
        if name.startswith(prefix):
            name = name[len(prefix):]
            break
    gid = g['id']
    if gid in SHORT:
        gid, name = SHORT[gid]
    conf = g['confidence']['memory_mib']
    preset = {
        'name': name,
        'memory_mib': int(mib),
        'source': source + ' [confidence: %s]' % conf,
        'notes': ' '.join(notes),
    }
    # Dense bf16 peak, for time and cost estimates, where the facts give one.
    if g.get('bf16_dense_tflops') and g['confidence'].get('bf16_dense_tflops') in ('high', 'medium'):
        preset['bf16_tflops'] = g['bf16_dense_tflops']
        preset['source'] += '; bf16_tflops: ' + '; '.join(g['source_refs'].get('bf16_dense_tflops', []))
    return gid, preset


def write(path, obj):
    with open(path, 'w') as f:
        json.dump(obj, f, indent=2, ensure_ascii=False)
        f.write('\n')


models = json.load(open(os.path.join(facts, 'models.json')))
for m in models:
    if m['attention'] == 'mla':
        continue   # multi-head latent attention has no place in the scenario format
    write(os.path.join(out, 'models', m['id'] + '.json'), model_preset(m))

gpus = json.load(open(os.path.join(facts, 'gpus.json')))
for g in gpus:
    p = gpu_preset(g)
    if p:
        write(os.path.join(out, 'gpus', p[0] + '.json'), p[1])
