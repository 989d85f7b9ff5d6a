/* hr-activations-mllama.c: what Llama 3.2 Vision's own parts save
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Llama 3.2 Vision as Hugging Face writes it (transformers/models/mllama/
 * modeling_mllama.py), per micro-batch of b sequences of s text tokens and
 * b·images_per_sample images, each cut into vision_tiles tiles
 * (MllamaImageProcessor pads every image to max_image_tiles: the tower
 * runs over all of them).  Validation (hr-validate-vision.c) leaves full
 * training or LoRA, SDPA (Hugging Face's default attention for it),
 * weights in the compute type (no autocast), no fp8, no compile or per-op
 * policy, one GPU per model replica (t = p = c = 1).
 *
 * The cross-attention layer's attention (MllamaTextCrossSdpaAttention
 * .forward): q_proj over the normed text, view, q_norm; k_proj and v_proj
 * over cross_attention_states, the projector's output (N = b·images·tiles·
 * (patches + 1) rows of H: the same tensor for every cross-attention
 * layer), repeat_kv to every head (an expand + reshape: a copy of a·N·d),
 * k_norm over the repeated K; then, the cross-attention mask being a
 * tensor, .contiguous() and F.scaled_dot_product_attention with
 * attn_mask, which runs the memory-efficient kernel: it saves its query,
 * key, value, the mask, its output and one fp32 log-sum-exp per row and
 * head; o_proj.  MllamaTextRMSNorm upcasts its input (to(float32)) and
 * multiplies its weight by the normalised copy: q_norm and k_norm keep the
 * fp32 copy, and the normalised one when their weights train, as the
 * layers' norms do (hr_activations_norm_bytes).  The gates
 * (MllamaCrossAttentionDecoderLayer.forward: residual +
 * cross_attn_attn_gate.tanh() * hidden_states, the MLP's output times
 * full_text_row_masked_out_mask, then cross_attn_mlp_gate.tanh() * it):
 * each product keeps the tensor the gate multiplies when the gate trains;
 * the row mask, a tensor that needs no gradient, is kept by the mask
 * product (one for all layers, hr-calc-mllama.c).
 */

#include "hr-activations-private.h"

#include <glib/gi18n-lib.h>

void
hr_layer_add_cross_attention (const LayerShape   *L,
                              HrLayerActivations *out,
                              double             *attn_work)
{
  const HrTraining *tr = L->tr;
  gboolean full = tr->method == HR_METHOD_FULL;
  /* K needs a gradient when k_proj trains or has an adapter */
  gboolean k_grad = full || (L->lt & HR_LORA_K) != 0;
  double T = L->T, N = L->kv_T;
  double h = L->h, d = L->d, a = L->a, ab = L->ab;
  double norm_copy = full ? ab : 0.0;

  /* q_proj keeps the normed text for its weight's gradient, or its
   * adapter does (without dropout: PEFT's lora_A(dropout(x)) then reads x
   * itself). */
  if (hr_layer_needs_input (tr, HR_LORA_Q))
    hr_activations_add (out, N_("attention input (norm output)"), "b·s·h·bytes·copies / c",
                        T * h * ab);
  hr_activations_add (out, N_("Q/K norm inputs (fp32)"), "b·(s + s_img)·a·d·(4 + bytes)",
                      (T + (k_grad ? N : 0.0)) * a * d * (4.0 + norm_copy));
  hr_activations_add (out, N_("cross-attention Q, K, V (K, V repeated per head)"),
                      "b·(s + 2·s_img)·a·d·bytes", (T + 2.0 * N) * a * d * ab);
  hr_activations_add (out, N_("attention output + log-sum-exp"), "b·s·a·(d·bytes + 4) / (t·c)",
                      T * a * (d * ab + 4.0));
  if (full)
    hr_activations_add (out, N_("gated outputs (for the gates' gradients)"), "2·b·s·h·bytes",
                        2.0 * T * h * ab);

  /* Its backward: the kernel makes the gradients of Q, K and V (K and V
   * of every head) while its output's exists; then k_norm's backward runs
   * through its fp32 upcast, four a·N·d fp32 tensors at once as a norm's
   * (hr-activations-backward.c, hr_activations_add_backward_work), beside V's gradient. */
  *attn_work = MAX (2.0 * T * a * d * ab + 2.0 * N * a * d * ab,
                    k_grad ? 4.0 * N * a * d * 4.0 + N * a * d * ab : 0.0);
}
