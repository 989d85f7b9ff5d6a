/* hr-hf-import-seq2seq.c: T5 and BART configs, and what Whisper's shares
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The encoder-decoder families of a config.json: T5's keys (d_kv, d_ff,
 * num_layers, relative_attention_num_buckets) and BART's (encoder_layers,
 * encoder_ffn_dim, ...), which WhisperConfig names the same way, so the
 * reading of the two stacks is one function for BART and Whisper
 * (hr-hf-import-whisper.c).
 */

#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-text.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* The two stacks' sizes as BartConfig and WhisperConfig name them, over
 * the family's defaults already in out: d_model, encoder_layers and
 * decoder_layers (from min_layers), encoder_attention_heads,
 * encoder_ffn_dim and vocab_size; the decoder's heads and width into
 * dec_heads and dec_ffn, left as they are when absent.  A bad value is
 * r->error, reported by the caller. */
void
hr_hf_read_stacks (HrHfReader  *r,
                   HrModelArch *out,
                   guint64      min_layers,
                   guint64     *dec_heads,
                   guint64     *dec_ffn)
{
  hr_hf_get_uint (r, "d_model", 1, HR_MAX_HIDDEN, &out->hidden);
  hr_hf_get_uint (r, "encoder_layers", min_layers, HR_MAX_LAYERS, &out->layers);
  hr_hf_get_uint (r, "decoder_layers", min_layers, HR_MAX_LAYERS, &out->decoder_layers);
  hr_hf_get_uint (r, "encoder_attention_heads", 1, HR_MAX_HEADS, &out->heads);
  hr_hf_get_uint (r, "decoder_attention_heads", 1, HR_MAX_HEADS, dec_heads);
  hr_hf_get_uint (r, "encoder_ffn_dim", 1, HR_MAX_FFN, &out->ffn);
  hr_hf_get_uint (r, "decoder_ffn_dim", 1, HR_MAX_FFN, dec_ffn);
  hr_hf_get_uint (r, "vocab_size", 1, HR_MAX_VOCAB, &out->vocab);
}

/* One heads count and one width for both stacks, as model.heads and
 * model.ffn describe them; other stacks are refused, naming both. */
gboolean
hr_hf_check_stacks_alike (HrHfReader         *r,
                          const HrModelArch  *out,
                          guint64             dec_heads,
                          guint64             dec_ffn,
                          GError            **error)
{
  if (dec_heads == out->heads && dec_ffn == out->ffn)
    return TRUE;
  g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: decoder_attention_heads %"
               PRIu64 " and decoder_ffn_dim %" PRIu64 " differ from "
               "the encoder's; allowed: stacks of the same heads (%" PRIu64
               ") and width (%" PRIu64 ")"), r->origin, dec_heads, dec_ffn,
               out->heads, out->ffn);
  return FALSE;
}

/* activation_function of BART's and Whisper's MLPs: gelu (absent: their
 * configs' default) or relu; another is refused, naming the family. */
gboolean
hr_hf_read_gelu_or_relu (HrHfReader  *r,
                         const char  *family,
                         HrMlp       *mlp,
                         GError     **error)
{
  const char *act = hr_hf_get_string (r->obj, "activation_function");
  g_autofree char *shown = NULL;

  if (act == NULL || strcmp (act, "gelu") == 0)
    *mlp = HR_MLP_GELU;
  else if (strcmp (act, "relu") == 0)
    *mlp = HR_MLP_RELU;
  else
    {
      shown = hr_text_for_message (act, 40);
      /* TRANSLATORS: the last %s is a model family: BART, Whisper */
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: activation_function: \"%s\" is "
                   "not supported for %s; allowed: gelu, relu"), r->origin, shown, family);
      return FALSE;
    }
  return TRUE;
}

/* T5 (and mT5, T5 v1.1's layout) and BART, as transformers' T5Config and
 * BartConfig name them and default them (configuration_t5.py,
 * configuration_bart.py).  What these models can be and the plan does not
 * cover stays refused, naming the key: unequal stacks' widths or heads,
 * BART with pre-norm layers (normalize_before, mBART's layout) or final
 * norms, a T5 activation other than relu, gelu and their gated forms. */
gboolean
hr_hf_import_seq2seq (HrHfReader   *r,
                      const char   *type,
                      HrModelArch  *out,
                      GPtrArray    *unmapped,
                      GError      **error)
{
  JsonObject *obj = r->obj;
  guint64 v;

  out->kind = HR_KIND_ENCODER_DECODER;
  if (strcmp (type, "bart") == 0)
    {
      guint64 dec_heads = 0, dec_ffn = 0;

      /* BartConfig's defaults: d_model 1024, 12 + 12 layers of 16 heads,
       * 4096 wide, gelu, 1024 positions, vocab 50265. */
      out->hidden = 1024;
      out->layers = out->decoder_layers = 12;
      out->heads = 16;
      out->ffn = 4096;
      out->vocab = 50265;
      out->learned_positions = 1024;
      hr_hf_read_stacks (r, out, 0, &dec_heads, &dec_ffn);
      /* Absent, the decoder's are the encoder's. */
      if (dec_heads == 0)
        dec_heads = out->heads;
      if (dec_ffn == 0)
        dec_ffn = out->ffn;
      hr_hf_get_uint (r, "max_position_embeddings", 1, HR_MAX_SEQ_LEN - 2, &out->learned_positions);
      if (r->error != NULL)
        return TRUE;
      /* BartLearnedPositionalEmbedding keeps 2 rows more (its offset). */
      out->learned_positions += 2;
      out->kv_heads = out->heads;
      out->norm = HR_NORM_LAYERNORM;
      out->bias = HR_BIAS_ALL;
      out->post_norm = TRUE;
      out->tied_embeddings = hr_hf_get_bool (obj, "tie_word_embeddings", TRUE);
      if (!hr_hf_check_stacks_alike (r, out, dec_heads, dec_ffn, error))
        return FALSE;
      if (hr_hf_get_bool (obj, "normalize_before", FALSE) || hr_hf_get_bool (obj, "add_final_layer_norm", FALSE))
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: %s: true describes mBART's "
                       "pre-norm layers, which are not supported yet; allowed: BART's post-norm "
                       "(normalize_before and add_final_layer_norm false)"), r->origin,
                       hr_hf_get_bool (obj, "normalize_before", FALSE) ? "normalize_before"
                                                                 : "add_final_layer_norm");
          return FALSE;
        }
      if (!hr_hf_read_gelu_or_relu (r, "BART", &out->mlp, error))
        return FALSE;
      if (unmapped != NULL)
        g_ptr_array_add (unmapped, g_strdup ("dropout: BART's residual dropout is not planned "
                                             "(model.dropout also drops attention "
                                             "probabilities)"));
    }
  else
    {
      const char *proj = hr_hf_get_string (obj, "feed_forward_proj");

      /* T5Config's defaults: d_model 512, d_kv 64, d_ff 2048, 6 layers of
       * 8 heads, num_decoder_layers = num_layers, 32 buckets, relu, vocab
       * 32128, tied embeddings. */
      out->hidden = 512;
      out->head_dim = 64;
      out->ffn = 2048;
      out->layers = 6;
      out->heads = 8;
      out->vocab = 32128;
      out->position_buckets = 32;
      hr_hf_get_uint (r, "d_model", 1, HR_MAX_HIDDEN, &out->hidden);
      hr_hf_get_uint (r, "d_kv", 1, HR_MAX_HIDDEN, &out->head_dim);
      hr_hf_get_uint (r, "d_ff", 1, HR_MAX_FFN, &out->ffn);
      hr_hf_get_uint (r, "num_layers", 0, HR_MAX_LAYERS, &out->layers);
      out->decoder_layers = out->layers;
      hr_hf_get_uint (r, "num_decoder_layers", 0, HR_MAX_LAYERS, &out->decoder_layers);
      hr_hf_get_uint (r, "num_heads", 1, HR_MAX_HEADS, &out->heads);
      hr_hf_get_uint (r, "vocab_size", 1, HR_MAX_VOCAB, &out->vocab);
      hr_hf_get_uint (r, "relative_attention_num_buckets", 0, HR_MAX_POSITION_BUCKETS,
                &out->position_buckets);
      if (r->error != NULL)
        return TRUE;
      out->kv_heads = out->heads;
      if (out->heads > 0 && out->head_dim == out->hidden / out->heads)
        out->head_dim = 0;
      out->norm = HR_NORM_RMSNORM;   /* T5LayerNorm: a scale, no mean, no bias */
      out->bias = HR_BIAS_NONE;
      out->tied_embeddings = hr_hf_get_bool (obj, "tie_word_embeddings", TRUE);
      /* T5Config: "gated-" + an activation, or the activation alone. */
      if (proj == NULL || strcmp (proj, "relu") == 0)
        out->mlp = HR_MLP_RELU;
      else if (strcmp (proj, "gated-gelu") == 0)
        out->mlp = HR_MLP_GEGLU;
      else if (strcmp (proj, "gated-silu") == 0)
        out->mlp = HR_MLP_SWIGLU;
      else if (strcmp (proj, "gelu") == 0)
        out->mlp = HR_MLP_GELU;
      else
        {
          g_autofree char *shown = hr_text_for_message (proj, 40);

          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: feed_forward_proj: \"%s\" is "
                       "not supported; allowed: relu, gelu, gated-gelu, gated-silu"), r->origin, shown);
          return FALSE;
        }
      if (unmapped != NULL && json_object_has_member (obj, "dropout_rate"))
        g_ptr_array_add (unmapped, g_strdup ("dropout_rate: T5's dropout (inside the MLP too) "
                                             "is not planned"));
    }
  if (hr_hf_get_uint (r, "num_key_value_heads", 1, HR_MAX_HEADS, &v) && v != out->heads)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: num_key_value_heads: %" PRIu64
                   " is not supported for model_type \"%s\"; allowed: %" PRIu64),
                   r->origin, v, type, out->heads);
      return FALSE;
    }
  out->experts = out->experts_active = 1;
  out->head = HR_HEAD_LM;
  return TRUE;
}
