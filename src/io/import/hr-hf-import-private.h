/* hr-hf-import-private.h: what the config.json importer's files share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-scenario.h"

G_BEGIN_DECLS

/* What is read from one config.json: the first bad value wins. */
typedef struct
{
  JsonObject *obj;
  const char *origin;
  GError     *error;
} HrHfReader;

/* A whole number from min to max, TRUE when present (null is absent);
 * a bad value is r->error, naming the key (hr-hf-reader.c). */
gboolean    hr_hf_get_uint        (HrHfReader   *r,
                                   const char   *key,
                                   guint64       min,
                                   guint64       max,
                                   guint64      *out);
gboolean    hr_hf_get_uint_any    (HrHfReader   *r,
                                   const char * const *keys,
                                   guint64       min,
                                   guint64       max,
                                   guint64      *out);
const char *hr_hf_get_string      (JsonObject   *obj,
                                   const char   *key);
gboolean    hr_hf_get_bool        (JsonObject   *obj,
                                   const char   *key,
                                   gboolean      fallback);
/* The structure the state-space, hybrid and Nemotron-H importers start
 * from before their class's sizes: a decoder with a language-model head,
 * RMSNorm, MLP, no bias and no experts. */
void        hr_hf_init_rms_decoder (HrModelArch *out,
                                    HrMlp        mlp);
/* FALSE, with the error "ORIGIN: KEY: VALUE is not supported for
 * ARCHITECTURE; allowed: ALLOWED", for a value the description cannot
 * hold; ARCHITECTURE as the message says it ("Llama 3.2 Vision"). */
gboolean    hr_hf_refuse          (const char   *origin,
                                   const char   *key,
                                   const char   *value,
                                   const char   *architecture,
                                   const char   *allowed,
                                   GError      **error);

/* Encoder-decoder models (hr-hf-import-seq2seq.c): T5 and BART; the two
 * stacks' keys BART and Whisper share, and their activation. */
gboolean    hr_hf_import_seq2seq  (HrHfReader   *r,
                                   const char   *type,
                                   HrModelArch  *out,
                                   GPtrArray    *unmapped,
                                   GError      **error);
void        hr_hf_read_stacks     (HrHfReader   *r,
                                   HrModelArch  *out,
                                   guint64       min_layers,
                                   guint64      *dec_heads,
                                   guint64      *dec_ffn);
gboolean    hr_hf_check_stacks_alike (HrHfReader        *r,
                                      const HrModelArch *out,
                                      guint64            dec_heads,
                                      guint64            dec_ffn,
                                      GError           **error);
gboolean    hr_hf_read_gelu_or_relu (HrHfReader   *r,
                                     const char   *family,
                                     HrMlp        *mlp,
                                     GError      **error);

/* DeepSeek-V2 and V3 (hr-hf-import-deepseek.c): latent attention, shared
 * experts, dense first layers and MTP modules over what the transformer
 * keys gave. */
gboolean    hr_hf_import_deepseek (HrHfReader   *r,
                                   const char   *type,
                                   HrModelArch  *out,
                                   GError      **error);

/* State-space models (hr-hf-import-ssm.c): mamba and mamba2 as the whole
 * model; jamba's SSM layers and layer pattern over what the transformer
 * keys gave. */
gboolean    hr_hf_import_mamba    (HrHfReader   *r,
                                   const char   *type,
                                   HrModelArch  *out,
                                   GPtrArray    *unmapped,
                                   GError      **error);
gboolean    hr_hf_import_jamba    (HrHfReader   *r,
                                   HrModelArch  *out,
                                   GPtrArray    *unmapped,
                                   GError      **error);

/* Nemotron-H (hr-hf-import-nemotron.c): its layer pattern of Mamba-2,
 * attention and MLP blocks, the whole model. */
gboolean    hr_hf_import_nemotron_h (HrHfReader   *r,
                                     HrModelArch  *out,
                                     GPtrArray    *unmapped,
                                     GError      **error);

/* Bamba (hr-hf-import-bamba.c): Mamba-2 and attention layers, each with
 * its MLP, the attention at attn_layer_indices; the whole model. */
gboolean    hr_hf_import_bamba    (HrHfReader   *r,
                                   HrModelArch  *out,
                                   GPtrArray    *unmapped,
                                   GError      **error);
/* The keys Bamba's and Granite 4.0-H's configs share (hr-hf-import-
 * bamba.c): tie_word_embeddings, hidden_act (silu alone), vocab_size,
 * hidden_size, num_hidden_layers, num_attention_heads,
 * num_key_value_heads (absent: OUT's, or with 0 there the heads) and
 * head_dim (absent: hidden / heads), over OUT's defaults; ARCHITECTURE
 * names the model in a refusal. */
gboolean    hr_hf_read_hybrid_shape (HrHfReader  *r,
                                     HrModelArch *out,
                                     const char  *architecture,
                                     GError     **error);
/* Bamba's Mamba-2 mixer from its mamba_* keys (hr-hf-import-bamba.c),
 * which Granite 4.0-H's layers share; ARCHITECTURE names the model in a
 * refusal. */
gboolean    hr_hf_read_bamba_mixer (HrHfReader  *r,
                                    HrModelArch *out,
                                    const char  *architecture,
                                    GError     **error);
/* Granite 4.0-H (hr-hf-import-granite.c): Bamba's layers with experts
 * and a shared MLP, or the shared MLP alone, in every layer. */
gboolean    hr_hf_import_granite_hybrid (HrHfReader   *r,
                                         HrModelArch  *out,
                                         GPtrArray    *unmapped,
                                         GError      **error);
/* hr-hf-import-zamba2.c: Zamba2's Mamba-2 and hybrid layers, its shared
 * transformer blocks (model.shared_blocks). */
gboolean    hr_hf_import_zamba2   (HrHfReader   *r,
                                   HrModelArch  *out,
                                   GPtrArray    *unmapped,
                                   GError      **error);

/* Vision-language models (hr-hf-import-vision.c): llava and qwen2_vl,
 * their text_config through hr_hf_import_node, their vision_config as the
 * tower and projector. */
gboolean    hr_hf_import_vlm      (HrHfReader   *r,
                                   const char   *type,
                                   HrModelArch  *out,
                                   GPtrArray    *unmapped,
                                   GError      **error);

/* ... and their nested text_config and vision_config, each NULL where
 * absent; FALSE, with the error, where either is not an object. */
gboolean    hr_hf_nested_configs  (HrHfReader   *r,
                                   JsonObject  **text,
                                   JsonObject  **vision,
                                   GError      **error);

/* Llama 3.2 Vision (hr-hf-import-mllama.c): its text_config as a Llama
 * with cross-attention layers, its tiled tower and linear projector. */
gboolean    hr_hf_import_mllama   (HrHfReader   *r,
                                   HrModelArch  *out,
                                   GPtrArray    *unmapped,
                                   GError      **error);

/* Whisper (hr-hf-import-whisper.c): the audio encoder and its decoder. */
gboolean    hr_hf_import_whisper  (HrHfReader   *r,
                                   HrModelArch  *out,
                                   GPtrArray    *unmapped,
                                   GError      **error);

G_END_DECLS
