/* hr-hf-import-whisper.c: Whisper configs as encoder-decoder architectures
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * transformers' WhisperConfig (configuration_whisper.py) and the model
 * WhisperForConditionalGeneration builds from it (modeling_whisper.py):
 * an encoder of encoder_layers layers over the audio stem's
 * max_source_positions frames (two Conv1d over num_mel_bins channels, a
 * frozen sinusoidal table), a decoder of decoder_layers layers with a
 * learned table of max_target_positions rows, d_model wide, LayerNorm
 * pre-norm layers and a final LayerNorm in each stack, biases on every
 * linear layer but k_proj, the output projection tied to the token
 * table.  What a config leaves out takes WhisperConfig's defaults
 * (whisper-tiny's): d_model 384, 4 + 4 layers of 6 heads, ffn 1536, gelu,
 * 80 mel bins, 1500 source and 448 target positions, vocab 51865.  Stacks
 * of different heads or widths, and activations other than gelu and relu,
 * are refused, naming the key.
 */

#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-text.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

gboolean
hr_hf_import_whisper (HrHfReader   *r,
                      HrModelArch  *out,
                      GPtrArray    *unmapped,
                      GError      **error)
{
  /* WhisperConfig's defaults for the decoder too (whisper-tiny's). */
  guint64 dec_heads = 6, dec_ffn = 1536;

  out->kind = HR_KIND_ENCODER_DECODER;
  out->hidden = 384;
  out->layers = out->decoder_layers = 4;
  out->heads = 6;
  out->ffn = 1536;
  out->vocab = 51865;
  out->audio_mel_bins = 80;
  out->audio_frames = 1500;
  out->learned_positions = 448;
  hr_hf_read_stacks (r, out, 1, &dec_heads, &dec_ffn);
  hr_hf_get_uint (r, "num_mel_bins", 1, HR_MAX_AUDIO_MEL_BINS, &out->audio_mel_bins);
  hr_hf_get_uint (r, "max_source_positions", 1, HR_MAX_SEQ_LEN, &out->audio_frames);
  hr_hf_get_uint (r, "max_target_positions", 1, HR_MAX_SEQ_LEN, &out->learned_positions);
  if (r->error != NULL)
    return TRUE;   /* (finish_model reports it) */

  if (!hr_hf_check_stacks_alike (r, out, dec_heads, dec_ffn, error)
      || !hr_hf_read_gelu_or_relu (r, "Whisper", &out->mlp, error))
    return FALSE;

  out->kv_heads = out->heads;
  out->norm = HR_NORM_LAYERNORM;
  out->bias = HR_BIAS_ALL_BUT_K;
  out->tied_embeddings = hr_hf_get_bool (r->obj, "tie_word_embeddings", TRUE);
  out->experts = out->experts_active = 1;
  out->head = HR_HEAD_LM;
  if (unmapped != NULL)
    {
      /* WhisperEncoderLayer and WhisperDecoderLayer drop the residuals
       * (dropout), the attention probabilities (attention_dropout) and
       * the MLP's inner activation (activation_dropout): not the set
       * model.dropout describes. */
      JsonNode *dropout = json_object_get_member (r->obj, "dropout");

      if (dropout != NULL && JSON_NODE_HOLDS_VALUE (dropout)
          && json_node_get_value_type (dropout) == G_TYPE_DOUBLE
          && json_node_get_double (dropout) > 0.0)
        g_ptr_array_add (unmapped, g_strdup ("dropout: Whisper's residual dropout is not "
                                             "planned (model.dropout also drops attention "
                                             "probabilities)"));
      if (hr_hf_get_bool (r->obj, "apply_spec_augment", FALSE))
        g_ptr_array_add (unmapped, g_strdup ("apply_spec_augment: SpecAugment's masks of the "
                                             "input features are not planned"));
    }
  return TRUE;
}
