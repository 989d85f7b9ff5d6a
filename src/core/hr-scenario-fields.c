/* hr-scenario-fields.c: the fields of each section of a scenario
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One table per section: each field's key, kind and place in the struct,
 * whether a file may leave it out, and its form row (label, help, range,
 * how its choices read, when it applies).  The JSON reader and --set
 * (src/io/hr-fields-read.c, hr-scenario-set.c), the writer
 * (hr-scenario-writer.c), the window's scenario model and the form
 * (src/gui) all go through these tables, built here from the files in
 * fields/: a new field is one line there.  The ranges are the bounds
 * hr-validate.c checks (the HR_MAX_ constants).
 */

#include "hr-scenario-applies.h"
#include "hr-scenario-fields.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* --- how choices read in the form, in the order of their names ------------ */

static const char * const kind_choices[] = { N_("Decoder (GPT, Llama)"), N_("Encoder (BERT, ViT)"),
                                              N_("Encoder-decoder (T5, BART)"), NULL };
static const char * const ssm_choices[] = { N_("None (attention only)"), N_("Mamba (selective scan)"),
                                             N_("Mamba-2 (SSD)"), NULL };
static const char * const vision_choices[] = {
  N_("None (text only)"), N_("CLIP ViT (LLaVA)"), N_("Qwen2-VL ViT"),
  N_("Tiled ViT with cross-attention (Llama 3.2 Vision)"), NULL
};
static const char * const projector_choices[] = {
  N_("None"), N_("Two-layer MLP with GELU (LLaVA)"), N_("Patch merger (Qwen2-VL)"),
  N_("One linear layer (Llama 3.2 Vision)"), NULL
};
static const char * const mlp_choices[] = { "SwiGLU", "GeGLU", "GELU", "ReLU", N_("Squared ReLU"), NULL };
static const char * const norm_choices[] = { "RMSNorm", "LayerNorm", NULL };
static const char * const bias_choices[] = { N_("None"), N_("On Q, K, V"), N_("On every linear layer"),
                                              N_("On every linear layer but K (Whisper)"), NULL };
static const char * const head_choices[] = { N_("Language model"), N_("Classifier"), NULL };
static const char * const qk_norm_choices[] = { N_("None"), N_("Per head"), N_("Whole projection"), NULL };
static const char * const attn_kind_choices[] = { N_("Standard (MHA, GQA, MQA)"),
                                                   N_("Multi-head latent (DeepSeek)"), NULL };
static const char * const method_choices[] = { N_("Full fine-tuning"), "LoRA", "QLoRA", NULL };
static const char * const dtype_choices[] = { "fp32", "bf16", "fp16", "fp8", N_("None"), NULL };
static const char * const unpacked_choices[] = { "fp32", "bf16", "fp16", "fp8", N_("The compute type"), NULL };
static const char * const optimizer_impl_choices[] = {
  N_("For-each (PyTorch default)"), N_("Fused"), N_("Per parameter"), NULL
};
static const char * const checkpointing_choices[] = { N_("None"), N_("Selective"), N_("Full"),
                                                      N_("Per op (torchtitan)"), NULL };
static const char * const offload_device_choices[] = { N_("CPU memory"), N_("NVMe drive"), NULL };
static const char * const schedule_choices[] = { "1F1B", N_("Interleaved 1F1B"), N_("Zero bubble ZB-H1"),
                                                 N_("Zero bubble ZB-H2"), "DualPipe", NULL };
static const char * const pp_buffers_choices[] = { N_("Layers only"), N_("PyTorch pipelining"),
                                                   N_("PyTorch pipelining, outputs returned"), NULL };
static const char * const fp8_recipe_choices[] = { N_("Transformer Engine"), N_("torchao Float8Linear"),
                                                   N_("Transformer Engine MXFP8 (Blackwell)"), NULL };
static const char * const fsdp_units_choices[] = { N_("Embeddings and head their own units"),
                                                   N_("Embeddings and head in the root unit"), NULL };

/* --- the rows, as the files in fields/ write them ----------------------------- */

/* A row names its kind and what the form shows; FIELD adds the key, the
 * place and the size of its member.  More designated initializers may
 * follow (.flags, .absent, .applies, .unit). */
#define SPIN(lo, hi, st, lab, hlp, ...) \
  .kind = F_UINT, .min = lo, .max = hi, .step = st, .label = lab, .help = hlp, __VA_ARGS__
#define REAL(lo, hi, st, dig, lab, hlp, ...) \
  .kind = F_DOUBLE, .min = lo, .max = hi, .step = st, .digits = dig, .label = lab, .help = hlp, \
  __VA_ARGS__
#define SWITCH(lab, hlp, ...) .kind = F_BOOL, .label = lab, .help = hlp, __VA_ARGS__
#define CHOICE(table, ch, lab, hlp, ...) \
  .kind = F_ENUM, .names = &table, .choices = ch, .label = lab, .help = hlp, __VA_ARGS__
#define TEXT(lab, ...)  .kind = F_NAME, .label = lab, __VA_ARGS__
#define OPTIONAL(v)     .flags = HR_FIELD_OPTIONAL, .absent = (v)

#if defined (FIELD) || defined (MEMBER) || defined (IGNORED) || defined (SECTION)
#error "FIELD, MEMBER, IGNORED and SECTION name the lines of fields/*.def"
#endif
#define FIELD(type, member, row) \
  { .key = #member, .offset = G_STRUCT_OFFSET (SECTION, member), \
    .size = sizeof (((SECTION *) 0)->member), row },
#define MEMBER(type, member)
#define IGNORED(k)      { .key = k, .kind = F_SKIP },

/* --- the tables ---------------------------------------------------------------- */

#define SECTION HrModelArch
const Field hr_model_fields[] = {
#include "fields/model.def"
};
#undef SECTION

#define SECTION HrTraining
const Field hr_training_fields[] = {
#include "fields/training.def"
};
#undef SECTION

#define SECTION HrLora
const Field hr_lora_fields[] = {
#include "fields/lora.def"
};
#undef SECTION

/* A file names only the dtypes it overrides (dtypes_set). */
#define SECTION HrDtypes
const Field hr_dtype_fields[] = {
#include "fields/dtypes.def"
};
#undef SECTION

#define SECTION HrParallel
const Field hr_parallel_fields[] = {
#include "fields/parallel.def"
};
#undef SECTION

#define SECTION HrGpu
const Field hr_gpu_fields[] = {
#include "fields/gpu.def"
};
#undef SECTION

#define SECTION HrCost
const Field hr_cost_fields[] = {
#include "fields/cost.def"
};
#undef SECTION

#define SECTION HrOverhead
const Field hr_overhead_fields[] = {
#include "fields/overhead.def"
};
#undef SECTION

const guint hr_model_fields_count = G_N_ELEMENTS (hr_model_fields);
const guint hr_training_fields_count = G_N_ELEMENTS (hr_training_fields);
const guint hr_lora_fields_count = G_N_ELEMENTS (hr_lora_fields);
const guint hr_dtype_fields_count = G_N_ELEMENTS (hr_dtype_fields);
const guint hr_parallel_fields_count = G_N_ELEMENTS (hr_parallel_fields);
const guint hr_gpu_fields_count = G_N_ELEMENTS (hr_gpu_fields);
const guint hr_cost_fields_count = G_N_ELEMENTS (hr_cost_fields);
const guint hr_overhead_fields_count = G_N_ELEMENTS (hr_overhead_fields);

#define SECTION_OFFSET(member) G_STRUCT_OFFSET (HrScenario, member)

/* In the order a file lists them; a sub-section after its parent. */
const HrFieldSection hr_field_sections[] = {
  { "model", hr_model_fields, &hr_model_fields_count, SECTION_OFFSET (model) },
  { "training", hr_training_fields, &hr_training_fields_count, SECTION_OFFSET (training) },
  { "training.lora", hr_lora_fields, &hr_lora_fields_count,
    SECTION_OFFSET (training) + G_STRUCT_OFFSET (HrTraining, lora) },
  { "training.dtypes", hr_dtype_fields, &hr_dtype_fields_count,
    SECTION_OFFSET (training) + G_STRUCT_OFFSET (HrTraining, dtypes) },
  { "parallel", hr_parallel_fields, &hr_parallel_fields_count, SECTION_OFFSET (parallel) },
  { "gpu", hr_gpu_fields, &hr_gpu_fields_count, SECTION_OFFSET (gpu) },
  { "overhead", hr_overhead_fields, &hr_overhead_fields_count, SECTION_OFFSET (overhead) },
  { "cost", hr_cost_fields, &hr_cost_fields_count, SECTION_OFFSET (cost) },
};

const guint hr_field_sections_count = G_N_ELEMENTS (hr_field_sections);
