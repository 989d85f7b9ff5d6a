#!/usr/bin/env bash
# test-cli.sh: headroom-cli as scripts and CI use it (CONTRACT.md section 3)
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Exit status 0 planned, 2 bad input with exactly one line on stderr that
# names the file and the path, 3 over capacity with --check.  Prints TAP.

set -u
cli="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# json_ok FILE: the file is one JSON document (python3, else jq).
json_ok () {
  if command -v python3 >/dev/null; then
    python3 -m json.tool "$1" >/dev/null 2>&1
  elif command -v jq >/dev/null; then
    jq -e . "$1" >/dev/null 2>&1
  else
    grep -q '^{' "$1"
  fi
}

runs="$(dirname "$0")/../data/measured-calibration.json"

# expect STATUS WHAT-STDERR-SAYS DESCRIPTION -- ARGS...
expect () {
  local status="$1" says="$2" what="$3"
  shift 4
  "$cli" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local got=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [ "$got" != "$status" ]; then
    not_ok "$what: exit status $got, expected $status ($(head -c 300 "$tmp/err"))"
  elif [ "$status" = 2 ] && [ "$lines" != 1 ]; then
    not_ok "$what: $lines lines on stderr, expected one"
  elif [ -n "$says" ] && ! grep -qF -- "$says" "$tmp/err"; then
    not_ok "$what: stderr does not say '$says': $(cat "$tmp/err")"
  else
    ok "$what"
  fi
}

# Planning.
expect 0 "" "default scenario" -- 
grep -q "Fits on 8x H100 SXM 80GB" "$tmp/out" && ok "default verdict in words" || not_ok "default verdict in words"
grep -qE '^      loss backward +38\.7 GiB   <- peak$' "$tmp/out" && ok "table: live memory per phase, peak marked" || not_ok "table: live memory per phase"
grep -q 'P·bytes / N (ZeRO-3) · whole step' "$tmp/out" && ok "table: each item says when it is alive" || not_ok "table: item phases"
expect 0 "" "json" -- --format json
grep -q '"capacity_bytes" : 85520809984' "$tmp/out" && ok "json capacity of H100 SXM (81559 MiB)" || not_ok "json capacity"
grep -q '"params" : 13015864320' "$tmp/out" && ok "json params of Llama 2 13B" || not_ok "json params"
grep -q '"loss backward" : 41539660971' "$tmp/out" && ok "json phase_bytes: the peak phase equals allocated" || not_ok "json phase_bytes"
grep -q '"allocated_bytes" : 41539660971' "$tmp/out" && ok "json allocated_bytes of the default" || not_ok "json allocated_bytes"
grep -q '"live_in" : \[' "$tmp/out" && ok "json items carry live_in" || not_ok "json live_in"
expect 0 "" "csv" -- --format csv
head -1 "$tmp/out" | grep -q '^device,ranks,stage,category,item,bytes,gib' && ok "csv header" || not_ok "csv header"
grep -q '^GPU 0-7,8,0,total,total,' "$tmp/out" && ok "csv total row" || not_ok "csv total row"
LC_ALL=de_DE.UTF-8 "$cli" --format csv 2>/dev/null | grep -q ',[0-9]*\.[0-9][0-9][0-9][0-9].$' && ok "csv uses '.' in any locale" || not_ok "csv decimal point"
for p in default qlora-llama-3.1-8b-rtx4090 lora-llama-3.1-70b-8xa100 pretrain-llama-3.1-70b-3d bert-large-finetune-t4 mixtral-8x7b-ep8; do
  expect 0 "" "preset $p" -- --preset "$p"
done
expect 0 "" "--set" -- --set training.micro_batch=8 --set parallel.zero=2
expect 0 "" "--set model.preset" -- --set model.preset=gpt2-small --set training.seq_len=1024
expect 0 "" "--list models" -- --list models
grep -q '^llama-2-13b ' "$tmp/out" && ok "list has llama-2-13b" || not_ok "list has llama-2-13b"
expect 0 "" "--list gpus" -- --list gpus
# Every bundled GPU has a dense bf16 peak: the table prints its time and cost line.
gpus=$(awk '{ print $1 }' "$tmp/out")
[ "$(echo "$gpus" | wc -w)" -ge 39 ] && ok "--list gpus lists at least 39 GPUs" || not_ok "--list gpus count: $(echo "$gpus" | wc -w)"
for g in $gpus; do
  "$cli" --preset default --set gpu.preset="$g" --set cost.tokens=1e12 >"$tmp/gpu-out" 2>"$tmp/err" </dev/null
  if [ $? = 0 ] && grep -qE '^[0-9.]+e\+[0-9]+ FLOPs \(8·N·tokens\): [0-9.]+ days on 8 GPUs at 40 % MFU, [0-9]+ GPU-hours' "$tmp/gpu-out"; then
    ok "gpu.preset=$g prints a time and cost line"
  else
    not_ok "gpu.preset=$g prints no time and cost line: $(head -c 300 "$tmp/err")"
  fi
done
expect 0 "" "--version" -- --version

# Solvers.
expect 0 "" "solve max-micro-batch json" -- --solve max-micro-batch --format json
grep -qE '^\{"solve": "max-micro-batch", "value": [0-9]+\}$' "$tmp/out" && ok "solve json shape" || not_ok "solve json shape"
expect 0 "" "solve max-seq-len" -- --solve max-seq-len
expect 0 "" "solve min-gpus" -- --solve min-gpus

# Sweeps.
expect 0 "" "--sweep micro-batch" -- --sweep micro-batch
grep -q '^Fits with the wanted headroom up to ' "$tmp/out" && ok "sweep table" || not_ok "sweep table"
expect 0 "" "--sweep micro-batch json" -- --sweep micro-batch --format json
json_ok "$tmp/out" && ok "sweep json parses" || not_ok "sweep json parses: $(head -c 200 "$tmp/out")"
grep -q '"axis" : "micro_batch"' "$tmp/out" && grep -q '"total_bytes" : [0-9]' "$tmp/out" \
  && ok "sweep json has the axis and the points" || not_ok "sweep json keys"
expect 0 "" "--sweep seq-len json" -- --sweep seq-len --format json
json_ok "$tmp/out" && grep -q '"axis" : "seq_len"' "$tmp/out" && ok "seq-len sweep json" || not_ok "seq-len sweep json"
expect 0 "" "--sweep csv" -- --sweep micro-batch --format csv
head -1 "$tmp/out" | grep -q '^micro_batch,parameters,' && ok "sweep csv header" || not_ok "sweep csv header"

# Suggestions.
expect 0 "" "--suggest" -- --suggest --set training.micro_batch=16 --set training.checkpointing=none
grep -q '^ 1\. .*fits' "$tmp/out" && ok "the first suggestion fits" || not_ok "the first suggestion fits"
# one that does not fit says how much is missing, not a negative free share
grep -qE '^ *[0-9]+\. .*: -[0-9.]+ [GT]iB per GPU, still over by [0-9.]+ [GT]iB\. Cost: ' "$tmp/out" \
  && ! grep -q -- '-[0-9]* % free' "$tmp/out" && ok "a suggestion still over says by how much" \
  || not_ok "still over: $(grep -m2 'over' "$tmp/out")"
expect 0 "" "--suggest json" -- --suggest --format json --set training.micro_batch=16
grep -q '"suggestions"' "$tmp/out" && ok "suggestions as JSON" || not_ok "suggestions as JSON"

# --check.
expect 0 "" "--check when it fits" -- --check
expect 3 "" "--check over capacity" -- --check --set training.micro_batch=256 --set training.checkpointing=none

# Import.
cat >"$tmp/config.json" <<'JSON'
{"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
 "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256, "rms_norm_eps": 1e-5,
 "hidden_act": "silu", "tie_word_embeddings": false, "_name_or_path": "meta-llama/Meta-Llama-3-8B"}
JSON
expect 0 "" "--import-hf" -- --import-hf "$tmp/config.json" --format json
grep -q '"params" : 8030261248' "$tmp/out" && ok "imported Llama 3 8B has 8,030,261,248 params" || not_ok "import params"
# Whisper: the import takes the model's lengths (1500 frames, 448 tokens)
# over the default scenario's 4096; a preset chosen over a file that says
# otherwise is refused, naming the length it takes.
expect 0 "" "--import-hf whisper" -- --import-hf "$G_TEST_SRCDIR/data/hf/whisper-large-v3.json" --format json
grep -q '"params" : 1543490560' "$tmp/out" && ok "imported Whisper large-v3 has 1,543,490,560 params" \
  || not_ok "import whisper params"
expect 2 "training.seq_len: 4096 is not the audio encoder's length" "whisper over a 4096 scenario" -- \
  --set model.preset=whisper-large-v3
expect 0 "" "whisper preset with its lengths" -- --set model.preset=whisper-large-v3 \
  --set training.seq_len=1500 --set training.target_len=448

# Bad input: one line naming file, path, value and what is allowed.
echo '{"model": {"layers": 0}}' >"$tmp/zero-layers.json"
expect 2 "zero-layers.json: model.layers: 0 is out of range; allowed: 1 to" "zero layers" -- "$tmp/zero-layers.json"
echo '{"training": {"micro_batch": -4}}' >"$tmp/negative.json"
expect 2 "negative.json: training.micro_batch: -4" "negative batch" -- "$tmp/negative.json"
echo '{"model": {"hidden": 5000, "heads": 48}}' >"$tmp/heads.json"
expect 2 "model.heads: 48 does not divide model.hidden = 5000" "heads not dividing hidden" -- "$tmp/heads.json"
echo '{"parallel": {"gpus": 12, "tp": 8}}' >"$tmp/gpus.json"
expect 2 "parallel.gpus: 12 is not a multiple of tp·pp·cp = 8" "gpus not a multiple" -- "$tmp/gpus.json"
echo '{"model": {"kv_heads": 7}}' >"$tmp/kv.json"
expect 2 "model.kv_heads: 7 does not divide model.heads = 40" "kv_heads not dividing heads" -- "$tmp/kv.json"
echo '{"model": {"hidden": 768, "heads": 12}}' >"$tmp/custom.json"
expect 2 "custom.json: model.kv_heads: 40 (from the default model llama-2-13b, since model.preset is not set) is out of range; allowed: 1 to 12; set model.kv_heads" \
  "a default model's value is named as such" -- "$tmp/custom.json"
echo '{"model": {"hidden": 9007199254740993}}' >"$tmp/huge.json"
expect 2 "model.hidden" "absurd size" -- "$tmp/huge.json"
echo '{"traning": {}}' >"$tmp/typo.json"
expect 2 "typo.json: traning: unknown key" "unknown key" -- "$tmp/typo.json"
echo '{"training": {"seq_len": "4k"}}' >"$tmp/type.json"
expect 2 "training.seq_len: \"4k\" is not allowed; allowed: a whole number" "wrong type" -- "$tmp/type.json"
printf '{"model": ' >"$tmp/malformed.json"
expect 2 "malformed.json: not valid JSON" "malformed JSON" -- "$tmp/malformed.json"
printf '\x00\x01\x02' >"$tmp/binary.json"
expect 2 "binary.json" "binary file" -- "$tmp/binary.json"
expect 2 "no-such-file.json" "missing file" -- "$tmp/no-such-file.json"
expect 2 "--set training.precision: \"bf17\"" "--set bad enum" -- --set training.precision=bf17
expect 2 "--set: \"nonsense\" is not allowed" "--set without =" -- --set nonsense
expect 2 "--set training.checkpoint_every: 0 is out of range; allowed: 1 to 100000" "checkpoint_every 0" -- \
  --set training.checkpoint_every=0
expect 2 "--set training.checkpointing: \"op\" (torchtitan's per-op checkpointing) is for full training" \
  "per-op checkpointing with LoRA" -- --set training.method=lora --set training.checkpointing=op
# Encoder-decoder models: refused where the plan would not be theirs.
expect 2 "--set model.decoder_layers: 0 is out of range; allowed: 1 to 100000" "encoder-decoder without decoder layers" -- \
  --set model.preset=bart-large --set model.decoder_layers=0
expect 2 "--set model.layers: 0 is out of range; allowed: 1 to 100000" "encoder-decoder without encoder layers" -- \
  --set model.preset=bart-large --set model.layers=0
expect 2 "training.attention: flash cannot add T5's relative position bias (model.position_buckets > 0); allowed: eager" \
  "T5's bias needs eager attention" -- --set model.preset=t5-base
expect 2 "--set training.method: lora is not planned for an encoder-decoder model yet" "encoder-decoder with LoRA" -- \
  --set model.preset=bart-large --set training.method=lora
expect 2 "--set training.target_len: -1" "negative target length" -- --set model.preset=bart-large --set training.target_len=-1
expect 0 "" "T5 with eager attention" -- --set model.preset=t5-base --set training.attention=eager --format json
grep -q '"params" : 222903552' "$tmp/out" && ok "json params of T5-base" || not_ok "json params of T5-base"
expect 0 "" "BART with a target length" -- --set model.preset=bart-large --set training.target_len=128 --format json
grep -q '"params" : 406291456' "$tmp/out" && ok "json params of BART-large" || not_ok "json params of BART-large"
# State-space and hybrid models: a pattern that does not fit the layers,
# Mamba-2 heads that are not the inner width, what the plan does not cover.
expect 2 "--set model.attn_layer_period: 40 does not fit model.layers = 32; allowed: 0 to 32" \
  "Jamba's attention period beyond the layers" -- --set model.preset=jamba-mini --set model.attn_layer_period=40
expect 2 "--set model.expert_layer_offset: 2 is not below model.expert_layer_period = 2; allowed: 0 to 1" \
  "Jamba's expert offset not below its period" -- --set model.preset=jamba-mini --set model.expert_layer_offset=2
expect 2 "--set model.ssm_heads: 64 heads of 64 are not the inner width 5120; allowed: 80 (or 0)" \
  "Mamba-2 heads x head_dim not the inner width" -- --set model.preset=mamba2-2.7b --set model.ssm_heads=64
expect 2 "training.lora.targets: a Mamba or Mamba-2 model without a layer pattern has no q, k, v, o, MLP or adapted head" \
  "Mamba with LoRA on q k v o gate up down" -- --set model.preset=mamba-130m --set training.method=lora
expect 0 "" "Mamba with LoRA on in_proj" -- \
  --set model.preset=mamba-130m --set training.method=lora --set 'training.lora.targets=["in_proj"]'
expect 2 "training.lora.targets: x_proj and out_proj are adapted in Jamba's Mamba layers only" \
  "Mamba with LoRA on x_proj" -- --set model.preset=mamba-2.8b --set training.method=lora \
  --set 'training.lora.targets=["in_proj","x_proj"]'
# Jamba under LoRA on every linear its layers call as modules (AI21's
# model card adapts in_proj, x_proj, out_proj and embed_tokens): 260,831,232 adapters
# at r 16 (test-params.c by hand)
expect 0 "" "Jamba with LoRA on every linear" -- --set model.preset=jamba-mini --set training.method=lora \
  --set 'training.lora.targets=["q","k","v","o","gate","up","down","in_proj","x_proj","out_proj"]' --format json
grep -q '"trainable_params" : 260831232' "$tmp/out" && ok "json trainable of Jamba LoRA" || not_ok "json trainable of Jamba LoRA"
# Nemotron-H's layer pattern: one block per layer, each character a block
# the model describes; a pattern is refused rather than cut or stretched.
expect 0 "" "Nemotron-H 8B" -- --set model.preset=nemotron-h-8b --format json
grep -q '"params" : 8100852736' "$tmp/out" && ok "json params of Nemotron-H 8B" || not_ok "json params of Nemotron-H 8B"
expect 2 "--set model.layer_pattern: 4 blocks do not match model.layers = 52; allowed: one character per layer" \
  "a layer pattern shorter than the layers" -- --set model.preset=nemotron-h-8b --set model.layer_pattern=M-M*
expect 2 "--set model.layer_pattern: 'X' (character 3) names no block; allowed: M (the SSM mixer)" \
  "a layer pattern with a character no block has" -- --set model.layers=3 --set model.layer_pattern=M-X
expect 2 "--set model.layer_pattern: 600 characters is too long; allowed: up to 511" "a layer pattern too long" -- \
  --set model.preset=nemotron-h-8b --set "model.layer_pattern=$(printf 'M%.0s' $(seq 600))"
expect 2 "--set model.ssm: none leaves the pattern's M blocks without a mixer; allowed: mamba, mamba2" \
  "a layer pattern's M blocks without SSM layers" -- --set model.preset=nemotron-h-8b --set model.ssm=none
expect 2 "--set training.method: qlora is not planned with these SSM layers yet" "Nemotron-H under QLoRA" -- \
  --set model.preset=nemotron-h-8b --set training.method=qlora
# A latent MoE (Nemotron's moe_latent_size): its expert blocks only, full
# training without tensor parallelism (test-params has the counts).
expect 2 "--set model.moe_latent_size: 1024 describes a latent no block of model.layer_pattern has (no E)" \
  "a latent without expert blocks" -- --set model.moe_latent_size=1024
expect 2 "--set training.method: lora is not planned with a latent MoE (model.moe_latent_size) yet" \
  "a latent MoE under LoRA" -- --set model.preset=nemotron-3-nano-30b-a3b --set model.moe_latent_size=1024 \
  --set training.method=lora
expect 0 "" "Nemotron 3 Nano as a latent MoE" -- --set model.preset=nemotron-3-nano-30b-a3b \
  --set model.moe_latent_size=1024 --format json
grep -q '"params" : 13520147904' "$tmp/out" && ok "json params of a latent MoE" \
  || not_ok "json params of a latent MoE"
# PyTorch's pipelining buffers are not planned under DualPipe, which it
# does not run (hr-calc-pipeline.c).
expect 2 "--set parallel.pp_buffers: torch is PyTorch's pipelining, which does not run DualPipe" \
  "pipelining buffers under DualPipe" -- --set parallel.pp=2 --set parallel.schedule=dualpipe \
  --set training.grad_accum=4 --set parallel.pp_buffers=torch
# A pattern's prediction modules are mtp_pattern's blocks (Nemotron 3 Super
# names "*E"; with one module its checkpoint's 123,611,012,096 weights).
expect 0 "" "Nemotron 3 Super with its MTP module" -- --set model.preset=nemotron-3-super-120b-a12b \
  --set model.mtp_modules=1 --set parallel.gpus=64 --format json
grep -q '"params" : 123611012096' "$tmp/out" && ok "json params with a pattern's MTP module" \
  || not_ok "json params with a pattern's MTP module"
expect 2 "--set model.mtp_pattern: \"\" leaves model.mtp_modules' blocks unsaid" \
  "MTP modules of a pattern without their blocks" -- --set model.preset=nemotron-3-super-120b-a12b \
  --set model.mtp_modules=1 --set model.mtp_pattern=
expect 2 "--set model.mtp_pattern: 'S' (character 2) names no block" \
  "a shared block in a prediction module" -- --set model.preset=nemotron-3-super-120b-a12b \
  --set model.mtp_pattern=*S
expect 2 "--set model.mtp_pattern: \"*E\" needs model.layer_pattern" \
  "prediction module blocks without a pattern" -- --set model.mtp_pattern=*E
# Granite 4.0-H's experts are 3-D parameters PEFT does not wrap: LoRA on
# the MLP is refused, on the attention and the Mamba in_proj planned.
expect 2 "training.lora.targets: gate, up and down are not planned on Granite 4.0-H's experts" \
  "LoRA on Granite 4.0-H's experts" -- --set model.preset=granite-4.0-h-tiny --set training.method=lora
expect 0 "" "LoRA on Granite 4.0-H's attention and mixers" -- --set model.preset=granite-4.0-h-tiny \
  --set training.method=lora --set 'training.lora.targets=["q","k","v","o","in_proj"]'
# Zamba2's shared blocks: counted once for all their uses; what the plan
# does not cover (FSDP's units, QLoRA's 4-bit shared modules, other
# blocks beside S) is refused with the field and what is allowed.
expect 0 "" "Zamba2 2.7B under ZeRO-1" -- --set model.preset=zamba2-2.7b --set parallel.deepspeed=false \
  --set parallel.zero=1 --format json
grep -q '"params" : 2662214560' "$tmp/out" && ok "json params of Zamba2 2.7B" || not_ok "json params of Zamba2 2.7B"
# the breakdown names the shared blocks' part of the weights: 2 x 170,401,280 x 2 bytes
grep -A1 '"name" : "shared-block weights (bf16)"' "$tmp/out" | grep -q '"bytes" : 681605120' \
  && ok "json shared-block weights of Zamba2 2.7B" || not_ok "json shared-block weights of Zamba2 2.7B"
expect 2 "parallel.zero: 3 is not planned with shared blocks under FSDP" "Zamba2 under FSDP" -- \
  --set model.preset=zamba2-2.7b --set parallel.deepspeed=false
expect 0 "" "Zamba2 under DeepSpeed ZeRO-3" -- \
  --set model.preset=zamba2-2.7b --set parallel.deepspeed=true --set parallel.zero=3
grep -q "shared blocks, gathered (reused within max_reuse_distance)" "$tmp/out" \
  && ok "table: Zamba2's shared blocks stay gathered under ZeRO-3" \
  || not_ok "table: Zamba2's shared blocks stay gathered under ZeRO-3"
expect 2 "--set training.method: qlora is not planned with shared blocks yet" "Zamba2 under QLoRA" -- \
  --set model.preset=zamba2-2.7b --set parallel.zero=1 --set training.method=qlora
expect 2 "--set training.lora.targets: gate without up: a shared block's gate and up are one linear" \
  "Zamba2's gate_up_proj adapted in half" -- --set model.preset=zamba2-2.7b --set parallel.zero=1 \
  --set training.method=lora --set 'training.lora.targets=["q","gate"]'
# LoRA: the shared blocks' adapters once (test-params has the arithmetic:
# r 16 on every linear and in_proj, 2,375,680 + 11,238,912)
expect 0 "" "Zamba2 2.7B under LoRA" -- --set model.preset=zamba2-2.7b --set parallel.zero=1 \
  --set training.method=lora --set training.lora.rank=16 \
  --set 'training.lora.targets=["q","k","v","o","gate","up","down","in_proj"]' --format json
grep -q '"trainable_params" : 13614592' "$tmp/out" && ok "json trainable of Zamba2 2.7B under LoRA" \
  || not_ok "json trainable of Zamba2 2.7B under LoRA"
expect 2 "--set model.layer_pattern: the S at block 2 is not followed by an M" "a shared block at the end" -- \
  --set model.preset=zamba2-2.7b --set parallel.zero=1 --set model.layers=2 --set model.layer_pattern=MS
expect 2 "--set model.layer_pattern: - (block 2) is not planned beside shared blocks (S)" \
  "an MLP block beside shared blocks" -- --set model.preset=zamba2-2.7b --set parallel.zero=1 \
  --set model.layers=4 --set model.layer_pattern=M-SM
expect 2 "--set model.shared_blocks: 0 leaves the pattern's S blocks without a shared block" \
  "S blocks without shared blocks" -- --set model.preset=zamba2-2.7b --set parallel.zero=1 --set model.shared_blocks=0
expect 2 "--set model.shared_blocks: 2 describes shared blocks no block of model.layer_pattern is (no S)" \
  "shared blocks without S blocks" -- --set model.preset=nemotron-h-8b --set model.shared_blocks=2
# an adapter on the token table (PEFT's lora.Embedding): r·(V + h) more
# trainable weights, 16·(128256 + 3072) on Llama 3.2 3B; refused on two
# tensor-parallel ranks and beside a vision tower
expect 0 "" "LoRA on the token table" -- --set model.preset=llama-3.2-3b --set training.method=lora \
  --set training.lora.rank=16 --set 'training.lora.targets=["q","v","embed_tokens"]' --format json
grep -q '"trainable_params" : 6688768' "$tmp/out" && ok "json trainable with embed_tokens" || not_ok "json trainable with embed_tokens"
expect 2 "--set training.lora.targets: embed_tokens is planned for a token table on one rank" \
  "embed_tokens on two tensor-parallel ranks" -- --set model.preset=llama-3.2-3b --set training.method=lora \
  --set 'training.lora.targets=["q","embed_tokens"]' --set parallel.tp=2
# QLoRA on Jamba as transformers' documentation quantizes it: the mixers
# stay bf16, 4-bit linears 48,084,549,632 x NF4's 0.5625 bytes (test-params)
expect 0 "" "Jamba with QLoRA" -- --set model.preset=jamba-mini --set training.method=qlora \
  --set training.quant=nf4 --set parallel.gpus=1 --set parallel.zero=0 --format csv
grep -q '^GPU 0,1,0,parameters,"frozen base, quantized linears",27047559168,' "$tmp/out" \
  && ok "csv 4-bit linears of Jamba QLoRA" || not_ok "csv 4-bit linears of Jamba QLoRA"
expect 2 "--set training.method: qlora is not planned with these SSM layers yet" "Mamba with QLoRA" -- \
  --set model.preset=mamba-130m --set training.method=qlora
expect 2 "--set parallel.tp: 2 is not planned with LoRA on SSM layers" "Mamba-2 LoRA on two ranks" -- \
  --set model.preset=mamba2-2.7b --set training.method=lora --set 'training.lora.targets=["in_proj"]' \
  --set parallel.tp=2
expect 2 "--set training.lora.targets: in_proj, x_proj and out_proj are a Mamba block's" "in_proj on a transformer" -- \
  --set model.preset=llama-3.1-8b --set training.method=lora --set 'training.lora.targets=["q","in_proj"]'
expect 2 "--set parallel.tp: 2 is not planned with Mamba layers (mamba_ssm's and transformers' Mamba blocks have no tensor parallelism); allowed with model.ssm = mamba: 1" \
  "Jamba with tensor parallelism" -- --set model.preset=jamba-mini --set parallel.tp=2
expect 2 "model.ssm_groups: 1 is not divisible by parallel.tp = 2" "Mamba-2 2.7B's one group on two ranks" -- \
  --set model.preset=mamba2-2.7b --set parallel.tp=2 --set parallel.sp=true
expect 0 "" "Mamba-2 with 8 groups on 4 tensor-parallel ranks" -- --set model.preset=mamba2-2.7b \
  --set model.ssm_groups=8 --set parallel.tp=4 --set parallel.sp=true
expect 0 "" "Jamba on four stages" -- --set model.preset=jamba-mini --set parallel.pp=4 --set parallel.gpus=8
expect 0 "" "Mamba 2.8B" -- --set model.preset=mamba-2.8b --format json
grep -q '"params" : 2768345600' "$tmp/out" && ok "json params of Mamba 2.8B" || not_ok "json params of Mamba 2.8B"
expect 0 "" "Jamba Mini" -- --set model.preset=jamba-mini --set parallel.ep=8 --format json
grep -q '"params" : 51570323328' "$tmp/out" && grep -q '"active_params" : 12110311296' "$tmp/out" \
  && ok "json params of Jamba Mini" || not_ok "json params of Jamba Mini"
# DeepSeek: latent attention, shared experts, dense first layers, MTP.
expect 0 "" "DeepSeek-V3" -- --set model.preset=deepseek-v3 --format json
grep -q '"params" : 671026419200' "$tmp/out" && ok "json params of DeepSeek-V3" || not_ok "json params of DeepSeek-V3"
expect 0 "" "DeepSeek-V3 with its MTP module" -- --set model.preset=deepseek-v3 --set model.mtp_modules=1 --format json
grep -q '"params" : 682636487424' "$tmp/out" && ok "json params of DeepSeek-V3 + MTP" || not_ok "json params of DeepSeek-V3 + MTP"
expect 0 "" "DeepSeek-V2-Lite" -- --set model.preset=deepseek-v2-lite --format json
grep -q '"params" : 15706484224' "$tmp/out" && ok "json params of DeepSeek-V2-Lite" || not_ok "json params of DeepSeek-V2-Lite"
expect 2 "--set model.kv_lora_rank: 0 is out of range; allowed: 1 to 1048576" "MLA without its latent" -- \
  --set model.preset=deepseek-v3 --set model.kv_lora_rank=0
expect 2 "--set model.qk_rope_head_dim: 63 is odd" "odd rope dimension" -- \
  --set model.preset=deepseek-v3 --set model.qk_rope_head_dim=63
expect 2 "--set model.kv_heads: 8 is not model.heads = 128" "MLA with grouped K/V" -- \
  --set model.preset=deepseek-v3 --set model.kv_heads=8
expect 2 "--set model.dense_layers: 61 is out of range; allowed: 0 to 60" "every layer dense" -- \
  --set model.preset=deepseek-v3 --set model.dense_layers=61
expect 2 "--set model.shared_experts: belongs to a mixture of experts" "shared experts without experts" -- \
  --set model.shared_experts=1
expect 2 "model.attention_kind: \"standard\" has no latent ranks" "latent ranks without MLA" -- \
  --set model.kv_lora_rank=512
expect 0 "" "MLA with LoRA" -- \
  --set model.preset=deepseek-v2-lite --set training.method=lora
expect 2 "--set model.mtp_modules: 1 is not planned with LoRA or QLoRA" "LoRA with multi-token prediction" -- \
  --set model.preset=deepseek-v3 --set model.mtp_modules=1 --set training.method=lora
expect 2 "--set parallel.tp: 2 is not planned with LoRA on latent attention" "LoRA on latent attention, tp 2" -- \
  --set model.preset=deepseek-v2-lite --set parallel.tp=2 --set training.method=lora
expect 2 "--set training.lora.dora: is not planned yet with DeepSeek's layers" "DoRA on DeepSeek" -- \
  --set model.preset=deepseek-v2-lite --set training.lora.dora=true --set training.method=qlora
expect 2 "--set training.lora.fused_qkv: latent attention has no fused QKV linear" "fused QKV on MLA" -- \
  --set model.preset=deepseek-v2-lite --set training.lora.fused_qkv=true --set training.method=lora
expect 0 "" "GaLore on DeepSeek" -- \
  --set model.preset=deepseek-v2-lite --set training.optimizer=galore-adamw
expect 2 "--set training.optimizer: galore-adamw is planned for full training of a decoder, encoder or encoder-decoder without SSM layers" \
  "GaLore with multi-token prediction" -- --set model.preset=deepseek-v3 --set model.mtp_modules=1 \
  --set training.optimizer=galore-adamw
expect 2 "--set model.attention_kind: \"mla\" is planned for decoder models" "MLA in an encoder" -- \
  --set model.preset=bert-base-uncased --set model.attention_kind=mla --set model.kv_lora_rank=64 \
  --set model.qk_nope_head_dim=32 --set model.qk_rope_head_dim=32 --set model.v_head_dim=64 --set model.head_dim=0
expect 2 "--format: \"xml\"" "bad format" -- --format xml
expect 2 "--solve: \"max-gpus\"" "bad solve" -- --solve max-gpus
expect 2 "--list: \"cats\"" "bad list" -- --list cats
# A word-valued flag is checked whatever else the command does.
expect 2 '--format: "xml" is not allowed; allowed: table, json or csv' "bad format with --validate" -- --validate "$runs" --format xml
expect 2 '--format: "xml" is not allowed' "bad format with --list" -- --list models --format xml
expect 2 '--format: "xml" is not allowed' "bad format with --version" -- --version --format xml
expect 2 '--format: "xml" is not allowed' "bad format with --sweep" -- --sweep micro-batch --format xml
expect 2 '--units: "furlongs" is not allowed; allowed: gib or gb' "bad units with --list" -- --list gpus --units furlongs
expect 2 '--units: "furlongs" is not allowed' "bad units with --validate" -- --validate "$runs" --units furlongs
expect 2 '--sweep: "layers" is not allowed; allowed: micro-batch or seq-len' "bad sweep axis with --list" -- --list models --sweep layers
expect 2 '--solve: "max-gpus" is not allowed; allowed: max-micro-batch' "bad solve with --validate" -- --validate "$runs" --solve max-gpus
expect 2 '--list: "cats" is not allowed' "bad list with --version" -- --version --list cats
expect 2 "--preset: \"nope\"" "unknown preset" -- --preset nope
expect 2 "training" "overflowing plan refused" -- --set training.micro_batch=1000000 --set training.seq_len=100000000
python_deep=$(printf '%0.s[' $(seq 1 5000))
echo "{\"model\": $python_deep" >"$tmp/deep.json"
expect 2 "deep.json: the JSON nests deeper" "deep nesting" -- "$tmp/deep.json"
expect 2 "--import-hf" "import of a non-config" -- --import-hf "$tmp/zero-layers.json"
user_gpus="$tmp/user-data/headroom/presets/gpus"
mkdir -p "$user_gpus"
echo '{"name": "Absurd", "memory_mib": 99999999999999}' >"$user_gpus/absurd.json"
XDG_DATA_HOME="$tmp/user-data" expect 2 "$user_gpus/absurd.json: memory_mib: 99999999999999 is out of range; allowed: 1 to 16777216" \
  "an absurd user GPU preset is the preset's error" -- --set gpu.preset=absurd

# Control characters in names never reach the terminal raw: the table
# shows them as escapes, and a name stays on its line.
esc=$(printf '\033')
printf '%s' '{"name": "evil\u001b[31mred\nsecond line", "model": {"preset": "llama-2-7b",
 "name": "m\u001b]0;title\u0007x"}, "gpu": {"preset": "h100-sxm-80gb", "name": "G\u001bPU\rX"}}' >"$tmp/control.json"
expect 0 "" "names with control characters" -- "$tmp/control.json"
! grep -q "$esc" "$tmp/out" && ! grep -q "$(printf '\r')" "$tmp/out" && ! grep -q "$(printf '\a')" "$tmp/out" \
  && ok "table: no raw control character" || not_ok "table: raw control characters: $(cat -v "$tmp/out" | head -3)"
head -1 "$tmp/out" | grep -qxF 'evil\u001B[31mred\nsecond line' && ok "table: the name as escapes, on one line" \
  || not_ok "table: name line: $(head -1 "$tmp/out" | cat -v)"
grep -qF 'Model     m\u001B]0;title\u0007x: ' "$tmp/out" && grep -qF 'GPU       8x G\u001BPU\rX, ' "$tmp/out" \
  && ok "table: model and GPU names as escapes" || not_ok "table: model and GPU names: $(cat -v "$tmp/out" | head -6)"
grep -qF 'Fits on 8x G\u001BPU\rX with' "$tmp/out" && ok "table: the verdict names the GPU as escapes" || not_ok "table: verdict"
expect 0 "" "json of names with control characters" -- "$tmp/control.json" --format json
json_ok "$tmp/out" && ! grep -q "$esc" "$tmp/out" && ok "json escapes control characters" || not_ok "json control characters"
expect 0 "" "--solve with a GPU name with control characters" -- "$tmp/control.json" --solve max-micro-batch
! grep -q "$esc" "$tmp/out" && ok "solve: no raw control character" || not_ok "solve: raw control characters"
mkdir -p "$tmp/xdg-names/headroom/presets/gpus"
printf '%s' '{"name": "Rogue\u001b[2J GPU", "memory_mib": 1024, "source": "test"}' \
  >"$tmp/xdg-names/headroom/presets/gpus/rogue.json"
XDG_DATA_HOME="$tmp/xdg-names" "$cli" --list gpus >"$tmp/out" 2>"$tmp/err" </dev/null
grep -q '^rogue ' "$tmp/out" && ! grep -q "$esc" "$tmp/out" && grep -qF 'Rogue\u001B[2J GPU' "$tmp/out" \
  && ok "--list: a preset name as escapes" || not_ok "--list: $(cat -v "$tmp/out" | grep -i rogue)"

# A broken user framework profile is left out and named, with its file
# and the value at fault, wherever its id is asked for.
user_fw="$tmp/user-fw/headroom/presets/frameworks"
mkdir -p "$user_fw"
echo '{"name": "Bad path", "values": [{"set": "?parallel.pp=4", "source": "s"}]}' >"$user_fw/badpath.json"
echo '{"name": "Bad value", "values": [{"set": "training.loss=bogus", "source": "s"}]}' >"$user_fw/badvalue.json"
echo '{"name": "Bad preset", "values": [{"set": "model.preset=nope", "source": "s"}]}' >"$user_fw/badpreset.json"
echo '{"name": "Bad key", "valuse": [], "values": []}' >"$user_fw/badkey.json"
XDG_DATA_HOME="$tmp/user-fw" "$cli" --list frameworks >"$tmp/out" 2>"$tmp/err" </dev/null
! grep -q '^badpath ' "$tmp/out" && grep -qF "$user_fw/badpath.json: values[0]: \"?parallel.pp\" is not a path" "$tmp/err" \
  && grep -qF "$user_fw/badvalue.json: values[0]: training.loss: \"bogus\" is not allowed" "$tmp/err" \
  && grep -qF "$user_fw/badpreset.json: values[0]: model.preset: \"nope\" is not a known models preset" "$tmp/err" \
  && grep -qF "$user_fw/badkey.json: valuse: unknown key; allowed: name, summary, versions, values, limits, notes" "$tmp/err" \
  && ok "--list frameworks names the broken profiles" || not_ok "broken profiles: $(cat "$tmp/err")"
XDG_DATA_HOME="$tmp/user-fw" expect 2 "--framework: \"badvalue\": $user_fw/badvalue.json: values[0]: training.loss" \
  "--framework of a broken profile says what is wrong" -- --framework badvalue
XDG_DATA_HOME="$tmp/user-fw" expect 2 "training.framework: \"badpath\": the profile cannot be used: $user_fw/badpath.json" \
  "training.framework of a broken profile says what is wrong" -- --set training.framework=badpath
expect 2 '--set: "?x" is not a path' "--set's own malformed path" -- --set '?x=1'

# Frameworks: their values, before --set, which still wins.
expect 0 "" "--list frameworks" -- --list frameworks
grep -q '^litgpt ' "$tmp/out" && grep -q '^hf-trainer ' "$tmp/out" && ok "both frameworks listed" || not_ok "frameworks listed"
expect 0 "" "--framework litgpt" -- --framework litgpt --set parallel.deepspeed=false --set model.preset=llama-3-8b --set training.checkpointing=none --set training.micro_batch=1
grep -q 'Q, K, V (K, V repeated per head)' "$tmp/out" && ! grep -q 'loss gradients' "$tmp/out" \
  && ok "litgpt: K, V repeated for SDPA, chunked loss" || not_ok "litgpt values"
expect 0 "" "--framework then --set" -- --framework litgpt --set parallel.deepspeed=false --set training.loss=standard --format json
# The standard loss's gradients make its backward phase the larger.
awk -F' : ' '/"forward" :/ { f = $2 + 0 } /"loss backward" :/ { l = $2 + 0 } END { exit !(l > f) }' "$tmp/out" \
  && ok "--set wins over the framework" || not_ok "--set over framework"
# A value the framework's code cannot run with is refused, naming the
# field, the framework and what it allows; where the field does not apply
# (no sharding, so no DeepSpeed engine) nothing is refused.
expect 2 'presets/scenarios/default.json: parallel.deepspeed: true does not apply to torchtitan (training.framework): it shards with FSDP2'"'"'s fully_shard, never with DeepSpeed'"'"'s engine; allowed: false' \
  "a value the framework cannot run" -- --framework torchtitan
expect 0 "" "torchtitan without DeepSpeed" -- --framework torchtitan --set parallel.deepspeed=false
expect 0 "" "torchtitan, no sharding" -- --framework torchtitan --set parallel.zero=0
expect 2 'training.checkpointing: op does not apply to Hugging Face Trainer + PEFT (training.framework): gradient_checkpointing_enable checkpoints every decoder layer whole; the Trainer has no selective or per-op mode; allowed: none or full' \
  "the Trainer has no per-op checkpointing" -- --framework hf-trainer --set training.checkpointing=op
expect 2 'parallel.fsdp: 1 does not apply to torchtune' "torchtune's FSDP is FSDP2" -- --framework torchtune --set parallel.deepspeed=false --set parallel.fsdp=1
printf '{"model": {"preset": "llama-3-8b"}, "training": {"framework": "deepspeed"}, "parallel": {"deepspeed": false}}' >"$tmp/fw-ds.json"
expect 2 'fw-ds.json: parallel.deepspeed: false does not apply to DeepSpeed' "a file against its framework" -- "$tmp/fw-ds.json"
# A profile that is not JSON is named too; a user's broken copy of a
# bundled profile is named and skipped, and the bundled one plans.
echo '{not json' >"$user_fw/unparsed.json"
echo '{"name": "Mine", "versions": "v", "values": [{"set": "training.loss=bogus", "source": "s"}]}' >"$user_fw/torchtune.json"
XDG_DATA_HOME="$tmp/user-fw" "$cli" --list frameworks >"$tmp/out" 2>"$tmp/err" </dev/null
grep -qF "$user_fw/unparsed.json: not valid JSON" "$tmp/err" && grep -q '^torchtune ' "$tmp/out" \
  && grep -qF "$user_fw/torchtune.json: values[0]: training.loss: \"bogus\" is not allowed" "$tmp/err" \
  && ok "--list frameworks names a profile that is not JSON, and a skipped copy" || not_ok "unparsed or skipped profile: $(cat "$tmp/err")"
XDG_DATA_HOME="$tmp/user-fw" "$cli" --framework torchtune --set parallel.deepspeed=false >"$tmp/out" 2>"$tmp/err" </dev/null \
  && grep -qF "(skipped: " "$tmp/err" && grep -q '^Fits\|^Does not fit' "$tmp/out" \
  && ok "a broken user profile is skipped for the bundled one, and named" || not_ok "user override: $(cat "$tmp/err")"
rm -f "$user_fw/unparsed.json" "$user_fw/torchtune.json"
# Suggestions keep within the framework's limits: the Trainer has no
# selective recomputation, so none is offered under it.
expect 0 "" "suggestions without a framework" -- --suggest --set parallel.deepspeed=false --set training.attention=eager --set training.checkpointing=none --set training.micro_batch=16
grep -q 'Selective recomputation of attention' "$tmp/out" && ok "selective recomputation suggested" || not_ok "no selective suggestion: $(head -4 "$tmp/out")"
expect 0 "" "suggestions under the Trainer" -- --suggest --framework hf-trainer --set parallel.deepspeed=false --set training.attention=eager --set training.checkpointing=none --set training.micro_batch=16
! grep -q 'Selective recomputation' "$tmp/out" && grep -q 'Full activation checkpointing' "$tmp/out" \
  && ok "no suggestion the framework cannot run" || not_ok "a suggestion outside the framework: $(grep -i selective "$tmp/out")"
# A profile's limit is checked as its values are.
echo '{"name": "Bad limit", "values": [], "limits": [{"field": "parallel.tp", "allowed": ["x"], "why": "w", "source": "s"}]}' >"$user_fw/badlimit.json"
echo '{"name": "Self", "values": [{"set": "parallel.fsdp=1", "source": "s"}], "limits": [{"field": "parallel.fsdp", "allowed": [2], "why": "w", "source": "s"}]}' >"$user_fw/selflimit.json"
echo '{"name": "No field", "values": [], "limits": [{"field": "parallel.nope", "allowed": [1], "why": "w", "source": "s"}]}' >"$user_fw/nofield.json"
XDG_DATA_HOME="$tmp/user-fw" "$cli" --list frameworks >"$tmp/out" 2>"$tmp/err" </dev/null
grep -qF "$user_fw/badlimit.json: limits[0]: parallel.tp: \"x\" is not allowed" "$tmp/err" \
  && grep -qF "$user_fw/selflimit.json: limits[0]: \"parallel.fsdp=1\" sets a value its limit does not allow" "$tmp/err" \
  && grep -qF "$user_fw/nofield.json: limits[0]: field: \"parallel.nope\" is not allowed; allowed: a scenario field" "$tmp/err" \
  && ok "--list frameworks names profiles with bad limits" || not_ok "bad limits: $(cat "$tmp/err")"
expect 2 "--framework: \"keras\" is not allowed; allowed: accelerate-fsdp, deepspeed, hf-trainer, hf-trainer-4.45, hf-trainer-4.53, litgpt" "unknown framework" -- --framework keras

# The error bar: from the measured runs of the plan's kind, or saying
# there are none and naming the nearest kind (never a borrowed figure).
expect 0 "" "error bar: default" --
grep -qE '^Error bar: median ±[0-9.]+ %, worst ±[0-9.]+ %, on 2 measured runs like this \(DeepSpeed, full fine-tuning, ZeRO/FSDP sharded\)' "$tmp/out" \
  && ok "error bar: DeepSpeed's two ZeRO-3 runs" || not_ok "error bar: default: $(tail -1 "$tmp/out")"
expect 0 "" "error bar: FSDP" -- --framework accelerate-fsdp --set parallel.deepspeed=false
grep -qE '^Error bar: no measured run like this \(nearest: torchtitan, full fine-tuning, ZeRO/FSDP sharded: median [0-9.]+ %, worst [0-9.]+ %, 5 runs\)' "$tmp/out" \
  && ok "error bar: no run of its kind, the nearest kind named" || not_ok "error bar: FSDP: $(tail -1 "$tmp/out")"
expect 0 "" "error bar: LitGPT LoRA" -- --framework litgpt --set training.method=lora --set parallel.gpus=1 --set parallel.zero=0
grep -qE '^Error bar: median ±[0-9.]+ %, worst ±[0-9.]+ %, on 8 measured runs like this \(LitGPT, LoRA, single GPU\)' "$tmp/out" \
  && ok "error bar: runs like this, counted" || not_ok "error bar: LitGPT LoRA: $(tail -1 "$tmp/out")"
expect 0 "" "error bar: json" -- --format json
tr -d ' \n' < "$tmp/out" | grep -qE '"error_bar":\{"kind":\{"framework":"deepspeed","method":"full","layout":"sharded"\},"like_this":true,"nearest":null,"runs":2,"median":[0-9.e-]+,"worst":[0-9.e-]+\}' \
  && ok "error bar: json" || not_ok "error bar: json"
expect 0 "" "error bar: csv has none" -- --format csv
grep -q 'rror' "$tmp/out" && not_ok "error bar: csv" || ok "error bar: csv has none"

# Validation of measured runs.
expect 0 "" "--validate" -- --validate "$(dirname "$0")/../data/measured-calibration.json"
grep -q 'median absolute error' "$tmp/out" && ok "--validate summary" || not_ok "--validate summary"
expect 0 "" "--validate json" -- --validate "$runs" --format json
json_ok "$tmp/out" && ok "--validate json parses" || not_ok "--validate json parses: $(head -c 200 "$tmp/out")"
grep -q '"median_abs_error" : 0\.' "$tmp/out" && grep -q '"measured_bytes" : [0-9]' "$tmp/out" \
  && ok "--validate json has runs and the median" || not_ok "--validate json keys"
expect 0 "" "--validate csv" -- --validate "$runs" --format csv
head -1 "$tmp/out" | grep -q '^id,metric,predicted_gib,measured_gib,error' && ok "--validate csv header" || not_ok "--validate csv header"
cat >"$tmp/runs.json" <<'JSON'
[{"id": "mine", "framework": "keras", "arch": {"layers": 32, "hidden": 4096, "heads": 32,
  "kv_heads": 32, "ffn": 11008, "vocab": 32000}, "task": "full", "precision": "bf16-true",
  "optimizer": "adamw", "micro_batch": 1, "seq_len": 512, "parallelism": {"gpus": 1},
  "gpu": "A100 80GB", "measured_gib": 60, "metric": "max_memory_allocated"}]
JSON
expect 0 'mine: framework "keras" is not one Headroom knows; allowed: accelerate-fsdp, deepspeed, hf-trainer, hf-trainer-4.45, hf-trainer-4.53, litgpt' \
  "--validate names an unknown framework" -- --validate "$tmp/runs.json"
# A run whose settings its framework cannot run is named and skipped, as a
# scenario file is refused.
cat >"$tmp/runs.json" <<'JSON'
[{"id": "titan-ds", "framework": "torchtitan", "arch": {"layers": 32, "hidden": 4096, "heads": 32,
  "kv_heads": 8, "ffn": 14336, "vocab": 128256}, "task": "full", "precision": "bf16-mixed",
  "optimizer": "adamw", "micro_batch": 1, "seq_len": 8192, "parallelism": {"gpus": 8, "zero_stage": 3},
  "gpu": "H100 SXM 80GB", "measured_gib": 60, "metric": "max_memory_reserved",
  "scenario": {"model": {"preset": "llama-3.1-8b"}, "parallel": {"deepspeed": true}}}]
JSON
expect 0 'titan-ds: parallel.deepspeed: true does not apply to torchtitan (training.framework)' \
  "--validate names a run its framework cannot run" -- --validate "$tmp/runs.json"
# Llama 3 8B's sizes are Llama 3 8B, not Bamba 9B (a hybrid with the same
# layers, widths and vocabulary, listed first): a preset with a layer
# pattern, SSM heads or experts matches only an arch that names them.
sed 's/"scenario": {"model": {"preset": "llama-3.1-8b"}, "parallel": {"deepspeed": true}}/"measured_gib": 60/; s/"measured_gib": 60, "metric"/"metric"/' "$tmp/runs.json" >"$tmp/runs-arch.json"
"$cli" --validate "$tmp/runs-arch.json" >"$tmp/out" 2>&1
grep -q '^titan-ds .*predicted' "$tmp/out" && ! grep -q 'SSM layers' "$tmp/out" \
  && ok "--validate: a plain transformer's sizes match the plain preset" || not_ok "arch match: $(cat "$tmp/out")"
# Measured numbers no run has: never "inf GiB, -nan %", never a double
# converted to an integer it does not fit.
run_entry='"arch": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 32, "ffn": 11008,
  "vocab": 32000}, "task": "full", "precision": "bf16-true", "optimizer": "adamw",
  "seq_len": 512, "parallelism": {"gpus": 1}, "gpu": "A100 80GB"'
cat >"$tmp/absurd.json" <<JSON
[{"id": "infinite", $run_entry, "micro_batch": 1, "measured_gib": 1e309},
 {"id": "huge-batch", $run_entry, "micro_batch": 3e23, "measured_gib": 60},
 {"id": "negative", $run_entry, "micro_batch": 1, "measured_gib": -3}]
JSON
"$cli" --validate "$tmp/absurd.json" >"$tmp/out" 2>"$tmp/err" </dev/null
! grep -qiE 'inf|nan' "$tmp/out" && ok "--validate never prints inf or nan" \
  || not_ok "--validate printed: $(head -c 300 "$tmp/out")"
grep -qF 'absurd.json' "$tmp/err" && grep -qF 'huge-batch: micro_batch: 3e+23 is not allowed; allowed: a whole number from 1 to 1048576' "$tmp/err" \
  && grep -qF 'absurd.json: negative: measured_gib: -3 is not allowed; allowed: a number above 0, up to 16384 (GiB)' "$tmp/err" \
  && ok "--validate names the file, entry, field and range of an absurd number" \
  || not_ok "--validate absurd numbers: $(cat "$tmp/err")"
"$cli" --validate "$tmp/absurd.json" --format json >"$tmp/out" 2>/dev/null </dev/null
json_ok "$tmp/out" && ok "--validate json of absurd numbers parses" || not_ok "--validate json of absurd numbers: $(head -c 300 "$tmp/out")"
cat >"$tmp/control-runs.json" <<JSON
[{"id": "run\u001b[31m,one\nline", $run_entry, "micro_batch": 1, "measured_gib": 60},
 {"id": "bad\u001b[2J", "measured_gib": -1}]
JSON
expect 0 "" "--validate ids with control characters" -- --validate "$tmp/control-runs.json"
! grep -q "$esc" "$tmp/out" "$tmp/err" && grep -qF 'run\u001B[31m,one\nline ' "$tmp/out" \
  && grep -qF 'bad\u001B[2J: measured_gib' "$tmp/err" \
  && ok "--validate: ids as escapes on stdout and stderr" || not_ok "--validate ids: $(cat -v "$tmp/out" "$tmp/err")"
expect 0 "" "--validate csv of an id with a comma" -- --validate "$tmp/control-runs.json" --format csv
[ "$(sed -n 2p "$tmp/out" | head -c 1)" = '"' ] && [ "$(wc -l <"$tmp/out")" = 3 ] \
  && ok "--validate csv quotes the id" || not_ok "--validate csv: $(cat -v "$tmp/out")"

# Writing never replaces what it should not: an input, a device, a FIFO,
# a symbolic link (its target is written), a file's mode.
"$cli" --format json --preset default >/dev/null 2>&1
cp "$(dirname "$0")/../presets/scenarios/default.json" "$tmp/s.json"
expect 2 "--png: $tmp/s.json is the scenario file" "--png over the scenario file" -- "$tmp/s.json" --png "$tmp/s.json"
ln -s s.json "$tmp/s-link.json"
expect 2 "is the scenario file" "--report over the scenario file through a link" -- "$tmp/s.json" --report "$tmp/s-link.json"
cmp -s "$tmp/s.json" "$(dirname "$0")/../presets/scenarios/default.json" && ok "the scenario file is unchanged" || not_ok "the scenario file was changed"
expect 2 "a device, not a regular file" "--png to a device" -- --png /dev/null
[ -c /dev/null ] && ok "/dev/null is still a device" || not_ok "/dev/null was replaced"
mkfifo "$tmp/fifo.png"
expect 2 "a named pipe, not a regular file" "--png to a FIFO" -- --png "$tmp/fifo.png"
[ -p "$tmp/fifo.png" ] && ok "the FIFO is still a FIFO" || not_ok "the FIFO was replaced"
: > "$tmp/chart.png"; chmod 600 "$tmp/chart.png"; ln -s chart.png "$tmp/chart-link.png"
expect 0 "" "--png through a symbolic link" -- --png "$tmp/chart-link.png"
[ -L "$tmp/chart-link.png" ] && [ -s "$tmp/chart.png" ] && ok "the link stays a link, its target has the PNG" || not_ok "the link was replaced"
[ "$(stat -c %a "$tmp/chart.png")" = 600 ] && ok "the PNG kept mode 600" || not_ok "the PNG's mode changed to $(stat -c %a "$tmp/chart.png")"
expect 2 "--report: the same file as --png" "--png and --report to one file" -- --png "$tmp/one.png" --report "$tmp/one.png"
# --chart timeline: --png draws the memory over one step instead of the bars.
expect 0 "" "--png --chart timeline" -- --png "$tmp/timeline.png" --chart timeline
expect 0 "" "--png --chart per-gpu" -- --png "$tmp/per-gpu.png" --chart per-gpu
expect 0 "" "--png alone" -- --png "$tmp/bars.png"
[ "$(head -c 8 "$tmp/timeline.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] \
  && ok "the timeline is a PNG" || not_ok "the timeline is not a PNG"
cmp -s "$tmp/per-gpu.png" "$tmp/bars.png" && ok "--chart per-gpu is the default chart" || not_ok "--chart per-gpu differs from --png alone"
! cmp -s "$tmp/timeline.png" "$tmp/bars.png" && ok "--chart timeline draws another chart" || not_ok "--chart timeline drew the bars"
expect 2 '--chart: "pie" is not allowed; allowed: per-gpu or timeline' "--chart pie" -- --png "$tmp/x.png" --chart pie
expect 2 "--chart: there is no --png" "--chart without --png" -- --chart timeline
expect 2 "--chart: with --sweep" "--chart with --sweep" -- --sweep micro-batch --png "$tmp/x.png" --chart timeline

# NVMe offload survives --import-deepspeed, which goes through a saved scenario.
cat > "$tmp/ds-nvme.json" <<'DS'
{"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "nvme", "nvme_path": "/nvme"},
 "offload_param": {"device": "nvme", "nvme_path": "/nvme"}}, "bf16": {"enabled": true}}
DS
cat > "$tmp/ds-cpu.json" <<'DS'
{"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
 "offload_param": {"device": "cpu"}}, "bf16": {"enabled": true}}
DS
"$cli" --import-deepspeed "$tmp/ds-nvme.json" --format json >"$tmp/nvme.out" 2>/dev/null
"$cli" --import-deepspeed "$tmp/ds-cpu.json" --format json >"$tmp/cpu.out" 2>/dev/null
host_nvme=$(grep -o '"host_bytes_per_node" : [0-9]*' "$tmp/nvme.out" | grep -o '[0-9]*$')
host_cpu=$(grep -o '"host_bytes_per_node" : [0-9]*' "$tmp/cpu.out" | grep -o '[0-9]*$')
if [ -n "$host_nvme" ] && [ -n "$host_cpu" ] && [ "$host_nvme" -lt "$host_cpu" ]; then
  ok "--import-deepspeed: NVMe offload needs less host RAM than CPU offload ($host_nvme < $host_cpu)"
else
  not_ok "--import-deepspeed: NVMe offload planned as CPU offload ($host_nvme vs $host_cpu)"
fi

# --import tells the format by its keys and plans as the flag of that
# format does (the same JSON plan); a document of no format it knows is
# refused with the formats it does.
"$cli" --import "$tmp/ds-nvme.json" --format json >"$tmp/any.out" 2>/dev/null
cmp -s "$tmp/any.out" "$tmp/nvme.out" && ok "--import of a DeepSpeed config plans as --import-deepspeed" \
  || not_ok "--import of a DeepSpeed config differs from --import-deepspeed"
"$cli" --import "$tmp/config.json" --format json >"$tmp/any.out" 2>/dev/null
"$cli" --import-hf "$tmp/config.json" --format json >"$tmp/hf.out" 2>/dev/null
cmp -s "$tmp/any.out" "$tmp/hf.out" && ok "--import of a config.json plans as --import-hf" \
  || not_ok "--import of a config.json differs from --import-hf"
echo '{"train_batch_size_x": 1}' >"$tmp/neither.json"
expect 2 "--import: $tmp/neither.json: not a config Headroom can import; allowed: a DeepSpeed config or a Hugging Face config.json" \
  "--import of neither format" -- --import "$tmp/neither.json"

# --set is applied once, after the imports, and wins over them: Llama 3 8B
# cut to 16 layers loses 16 x 218,112,000 parameters (Q, O 4096^2 each, K, V
# 4096 x 1024 each, the MLP 3 x 4096 x 14336, two norms of 4096); the
# DeepSpeed config's stage 3 gives way to --set's 2, and the generated name
# follows the plan.
expect 0 "" "--set over --import-hf" -- --import-hf "$tmp/config.json" --set model.layers=16 \
  --format json
grep -q '"params" : 4540469248' "$tmp/out" && ok "--set model.layers=16 over the import: 4,540,469,248 params" \
  || not_ok "--set over --import-hf params"
expect 0 "" "--set over --import-deepspeed" -- --import-deepspeed "$tmp/ds-cpu.json" \
  --set parallel.zero=2 --set parallel.offload_params=false
head -n 1 "$tmp/out" | grep -q ', ZeRO-2, ' && ok "--set parallel.zero=2 over the DeepSpeed config, named so" \
  || not_ok "--set over --import-deepspeed: $(head -n 1 "$tmp/out")"

# --list fields prints the field table; docs/scenario-format.md documents
# every field it lists, under its section's heading.
docs="$(dirname "$0")/../docs/scenario-format.md"
"$cli" --list fields >"$tmp/fields" 2>"$tmp/err"
nfields=$(wc -l <"$tmp/fields")
[ "$nfields" -ge 78 ] && ok "--list fields: $nfields fields" || not_ok "--list fields printed $nfields lines"
grep -qE '^training\.micro_batch +1 to 1048576 +4 +Micro-batch$' "$tmp/fields" && ok "--list fields: path, range, default, label" || not_ok "--list fields: training.micro_batch line"
undocumented=""
while read -r path _; do
  section=${path%%.*}
  key=${path##*.}
  awk -v heading="## $section" -v key="\`$key\`" '
    $0 == heading { inside = 1; next }
    /^## / { inside = 0 }
    inside && index($0, key) { found = 1 }
    END { exit found ? 0 : 1 }' "$docs" || undocumented="$undocumented $path"
done <"$tmp/fields"
[ -z "$undocumented" ] && ok "docs/scenario-format.md documents every field" || not_ok "not in docs/scenario-format.md:$undocumented"

# docs/cli.md's table of the bundled profiles lists every value each sets.
cli_docs="$(dirname "$0")/../docs/cli.md"
unlisted=""
for profile in "$(dirname "$0")"/../presets/frameworks/*.json; do
  id=$(basename "$profile" .json)
  row=$(grep -F "| \`$id\` |" "$cli_docs")
  [ -n "$row" ] || { unlisted="$unlisted $id"; continue; }
  for set in $(grep -o '"set": *"[^"]*"' "$profile" | sed 's/"set": *"\(.*\)"/\1/'); do
    case "$row" in
      *"\`$set\`"*) ;;
      *) unlisted="$unlisted $id:$set" ;;
    esac
  done
done
[ -z "$unlisted" ] && ok "docs/cli.md lists every profile's values" || not_ok "not in docs/cli.md's profile table:$unlisted"

# A name the plan gave itself follows --set; a name the user chose stays.
"$cli" --set model.preset=llama-2-70b >"$tmp/out" 2>/dev/null
grep -qx "Llama 2 70B, ZeRO-3, 8x H100" "$tmp/out" && ok "the default's name follows --set model.preset" || not_ok "the default's name did not follow --set: $(head -1 "$tmp/out")"
sed 's/"name": "Llama 2 13B, ZeRO-3, 8x H100"/"name": "My run"/' "$(dirname "$0")/../presets/scenarios/default.json" >"$tmp/named.json"
"$cli" "$tmp/named.json" --set model.preset=llama-2-70b >"$tmp/out" 2>/dev/null
grep -qx "My run" "$tmp/out" && ok "a chosen name stays through --set" || not_ok "a chosen name changed: $(head -1 "$tmp/out")"

# training.framework in a file fills what the file leaves out; its own
# values win (contract 1.1); --framework is the same as setting it.
cat >"$tmp/fw.json" <<'FW'
{"model": {"preset": "llama-3-8b"}, "training": {"framework": "litgpt", "attention": "flash",
 "checkpointing": "none", "micro_batch": 1}}
FW
"$cli" "$tmp/fw.json" >"$tmp/out" 2>&1
! grep -q 'K, V repeated per head' "$tmp/out" && ! grep -qE 'loss gradients \((fp32|bf16)\)' "$tmp/out" \
  && ok "training.framework: the file's attention wins, the profile's chunked loss fills" \
  || not_ok "training.framework fill: $(grep -c 'repeated' "$tmp/out")"
expect 2 'training.framework: "keras" is not allowed; allowed: accelerate-fsdp, deepspeed, hf-trainer, hf-trainer-4.45, hf-trainer-4.53, litgpt' "an unknown training.framework" -- --set training.framework=keras

# training.compile_loss: with compile, false keeps the eager loss (each
# layer compiled, as torchtitan's training.compile did from 2024-12 to
# 2025-04); a value that is not a boolean is refused, naming the field.
expect 2 'training.compile_loss: "maybe" is not allowed; allowed: true or false' \
  "training.compile_loss=maybe" -- --set training.compile_loss=maybe
printf '{"headroom": 1, "training": {"compile": true, "compile_loss": 0}}' >"$tmp/compile-loss.json"
expect 2 'training.compile_loss: 0 is not allowed; allowed: true or false' \
  "training.compile_loss 0 in a file" -- "$tmp/compile-loss.json"
# torchtitan's December 2024 benchmark run, whose peak is the loss's backward.
cat >"$tmp/titan.json" <<'TITAN'
{"headroom": 1, "model": {"preset": "llama-3.1-8b"},
 "training": {"framework": "torchtitan", "micro_batch": 2, "seq_len": 8192, "attention": "flash",
  "dtypes": {"grads": "fp32"}, "compile": true},
 "parallel": {"gpus": 8, "zero": 3, "fsdp_units": "root"}}
TITAN
"$cli" "$tmp/titan.json" --set training.compile_loss=false >"$tmp/out" 2>&1 </dev/null
"$cli" "$tmp/titan.json" >"$tmp/out2" 2>&1 </dev/null
grep -q 'log-probabilities (saved by the loss)' "$tmp/out" && ! grep -q 'kept by the compiled loss' "$tmp/out" \
  && grep -q 'kept by the compiled loss' "$tmp/out2" && ! grep -q 'log-probabilities (saved by the loss)' "$tmp/out2" \
  && ok "training.compile_loss=false: the eager loss beside compiled layers" \
  || not_ok "training.compile_loss: $(grep -c 'compiled loss' "$tmp/out") $(grep -c 'compiled loss' "$tmp/out2")"

# The error bar read from the build's summary of the measured runs
# (measured-errors.tsv) is the one planning every run gives; a summary
# this build did not write (a broken line, another header) is not read,
# and the runs are planned instead.
calibration="$(dirname "$0")/../data/measured-calibration.json"
same=0
for preset in default bert-large-finetune-t4 lora-llama-3.1-70b-8xa100 mixtral-8x7b-ep8 \
              pretrain-llama-3.1-70b-3d qlora-llama-3.1-8b-rtx4090; do
  a=$("$cli" --preset "$preset" 2>/dev/null | grep '^Error bar')
  b=$(HEADROOM_CALIBRATION="$calibration" "$cli" --preset "$preset" 2>/dev/null | grep '^Error bar')
  [ -n "$a" ] && [ "$a" = "$b" ] && same=$((same + 1))
done
[ "$same" = 6 ] && ok "error bars from the build's summary equal the planned ones (6 scenarios)" \
  || not_ok "error bars from the summary differ ($same of 6 the same)"
printf '# headroom measured errors 1\tid\nrun-1\tlora\tlitgpt\tLitGPT\tsingle-gpu\tmany\t1\t0.5\n' >"$tmp/errors.tsv"
printf '{"runs": []}\n' >"$tmp/errors.json"
a=$("$cli" 2>/dev/null | grep '^Error bar')
b=$(HEADROOM_ERRORS="$tmp/errors.tsv" "$cli" 2>/dev/null | grep '^Error bar')
c=$(HEADROOM_ERRORS="$tmp/errors.json" "$cli" 2>/dev/null | grep '^Error bar')
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$c" ] && ok "a summary this build did not write is planned around" \
  || not_ok "a broken summary changed the error bar: '$b' / '$c' vs '$a'"

# Translated: the table, --help and the verdict follow a Russian locale,
# with this build's catalogues (HEADROOM_LOCALEDIR); JSON and CSV stay
# English, keys and words.  The locale: an installed ru_RU.UTF-8, else one
# built with localedef, else LANGUAGE=ru (which glibc reads unless the
# locale is C).
ru_env="LC_ALL=ru_RU.UTF-8"
if ! locale -a 2>/dev/null | grep -qi '^ru_RU\.utf-\?8$'; then
  if localedef -i ru_RU -f UTF-8 "$tmp/ru_RU.UTF-8" >/dev/null 2>&1; then
    ru_env="LOCPATH=$tmp LC_ALL=ru_RU.UTF-8"
  else
    ru_env="LANGUAGE=ru LC_ALL=C.UTF-8"
  fi
fi
cyrillic () { grep -qP '[\x{0400}-\x{04FF}]' "$1"; }
ru () { env $ru_env "$cli" "$@" >"$tmp/ru-out" 2>&1 </dev/null; }
[ -f "${HEADROOM_LOCALEDIR:-/nonexistent}/ru/LC_MESSAGES/headroom.mo" ] \
  && ok "the build's Russian catalogue is in HEADROOM_LOCALEDIR" || not_ok "no ru catalogue in '${HEADROOM_LOCALEDIR:-}'"
ru && grep -q '^Помещается на 8x H100 SXM 80GB с запасом 36.8 GiB (46 %) на каждом GPU\.$' "$tmp/ru-out" \
  && ok "ru: the verdict in Russian ($ru_env)" || not_ok "ru: the verdict: $(tail -2 "$tmp/ru-out")"
grep -q '^Модель    Llama 2 13B: ' "$tmp/ru-out" && grep -qE '^      обратный проход функции потерь +38\.7 GiB   <- пик$' "$tmp/ru-out" \
  && ok "ru: the table's headings and phases" || not_ok "ru: the table: $(head -4 "$tmp/ru-out")"
# The sizes stay in one column though Russian names run longer than the
# English column of 56 characters ("собранные веса (повторное
# использование + предвыборка) (bf16)").
python3 - "$tmp/ru-out" <<'PY' && ok "ru: the table's sizes in one column" || not_ok "ru: sizes out of line"
import re, sys
ends = set()
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"^( {2}| {6})\S.*? ([0-9][0-9.,]* [KMGT]?i?B)(   |$)", line.rstrip("\n"))
    if m:
        ends.add(m.end(2))
sys.exit(0 if len(ends) == 1 and max(ends) > 66 else 1)
PY
# The largest part named after a dash, so the sentence agrees with any
# item, plural ("выходы") or not ("больше всего занимает выходы" did not).
ru --set training.micro_batch=32 --set training.checkpointing=none
grep -q '; крупнейшая часть — выходы gate, up и активации, ' "$tmp/ru-out" \
  && ok "ru: the largest part of a plan over capacity" || not_ok "ru: over capacity: $(grep -i 'помещается' "$tmp/ru-out")"
ru --help && grep -q 'Спланировать встроенный или пользовательский сценарий' "$tmp/ru-out" \
  && grep -q -- '--chart=CHART' "$tmp/ru-out" && ok "ru: --help" || not_ok "ru: --help: $(head -3 "$tmp/ru-out")"
ru --suggest --set training.micro_batch=32 && grep -q 'на GPU, помещается' "$tmp/ru-out" \
  && ok "ru: the suggestions" || not_ok "ru: the suggestions: $(head -2 "$tmp/ru-out")"
ru --format json && json_ok "$tmp/ru-out" && grep -q '"capacity_bytes" : 85520809984' "$tmp/ru-out" \
  && grep -q '"peak_phase" : "loss backward"' "$tmp/ru-out" && ! cyrillic "$tmp/ru-out" \
  && ok "ru: JSON keys and words stay English" || not_ok "ru: the JSON is translated"
ru --format csv && head -1 "$tmp/ru-out" | grep -q '^device,ranks,stage,category,item,bytes,gib' \
  && ! cyrillic "$tmp/ru-out" && ok "ru: CSV stays English" || not_ok "ru: the CSV is translated"
ru --suggest --format json --set training.micro_batch=32 && grep -q '"title" : "Micro-batch 32' "$tmp/ru-out" \
  && ! cyrillic "$tmp/ru-out" && ok "ru: the suggestions' JSON stays English" || not_ok "ru: suggestions JSON translated"
ru --set model.heads=48; grep -qx 'headroom-cli: --set model.heads: 48 не делит model.hidden = 5120; допустимо: делитель 5120' "$tmp/ru-out" \
  && ok "ru: a validation message, its field path in English" || not_ok "ru: the message: $(cat "$tmp/ru-out")"
ru --set parallel.stage_layers=[20,10] --set parallel.pp=2; grep -q 'стадии содержат 30 слоёв' "$tmp/ru-out" \
  && ok "ru: a message with PRIu64 arguments" || not_ok "ru: PRIu64: $(cat "$tmp/ru-out")"
# The PNGs headroom-cli writes are the same whatever the locale writes
# numbers as (the window's charts use the locale's format; CI's files do
# not change with the machine's).
case "$ru_env" in
  *LC_ALL=ru_RU.UTF-8*)
    numeric_env=$(printf '%s' "$ru_env" | sed 's/LC_ALL=/LC_NUMERIC=/')
    "$cli" --png "$tmp/c.png" >/dev/null 2>&1 </dev/null
    env -u LC_ALL LANG=C.UTF-8 $numeric_env "$cli" --png "$tmp/ru-numeric.png" >/dev/null 2>&1 </dev/null
    cmp -s "$tmp/c.png" "$tmp/ru-numeric.png" && ok "--png: the same bytes with Russian numbers ($numeric_env)" \
      || not_ok "--png: the PNG changes with LC_NUMERIC"
    ;;
  *) ok "# SKIP --png with Russian numbers: no ru_RU.UTF-8 locale" ;;
esac
"$cli" >"$tmp/out" 2>&1 </dev/null; ! cyrillic "$tmp/out" && ok "C.UTF-8: the table stays English" || not_ok "C.UTF-8: translated"

echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
