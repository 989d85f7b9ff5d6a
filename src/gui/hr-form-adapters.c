/* hr-form-adapters.c: the adapters' rows of the form (LoRA, DoRA, QLoRA),
 * folded into one expander
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Twelve rows set the adapters and the quantized base, and under full
 * fine-tuning none of them applies: shown greyed, they filled half of the
 * form's first screen.  So they sit in one expander under the method,
 * its subtitle saying what they hold ("Rank 16 on q, v"), made when it
 * first opens, and the first screen shows the knobs every plan turns
 * (precision, optimizer, micro-batch, sequence length) for the same cost
 * to the first frame (callgrind, tests/bench-map.c: 1,039.3 M
 * instructions against 1,039.0 M).  It opens by itself when the method
 * turns from full fine-tuning to LoRA or QLoRA, where the user looks
 * next; under full fine-tuning it is folded and greyed, like any row
 * that does not apply.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-form-private.h"
#include "hr-scenario-fields.h"

/* Rows of linked toggles: attention, MLP and head, a Mamba block's
 * linears (in_proj; x_proj and out_proj in Jamba's, hr-validate-ssm.c),
 * the token table (PEFT's lora.Embedding). */
static const struct
{
  const char *path;      /* the row's */
  const char *title;
  guint       first;     /* its toggles: targets[first] up to the next row's */
} target_rows[] = {
  { "training.lora.targets", N_("LoRA on attention"), 0 },
  { "training.lora.targets.mlp", N_("LoRA on MLP and head"), 4 },
  { "training.lora.targets.ssm", N_("LoRA on SSM layers"), 8 },
  { "training.lora.targets.embeddings", N_("LoRA on token embeddings"), 11 },
};

static const struct { const char *path; const char *label; guint bit; } targets[] = {
  { "training.lora.targets.q", "q", HR_LORA_Q },
  { "training.lora.targets.k", "k", HR_LORA_K },
  { "training.lora.targets.v", "v", HR_LORA_V },
  { "training.lora.targets.o", "o", HR_LORA_O },
  { "training.lora.targets.gate", "gate", HR_LORA_GATE },
  { "training.lora.targets.up", "up", HR_LORA_UP },
  { "training.lora.targets.down", "down", HR_LORA_DOWN },
  { "training.lora.targets.lm_head", "head", HR_LORA_LM_HEAD },
  { "training.lora.targets.in_proj", "in_proj", HR_LORA_IN_PROJ },
  { "training.lora.targets.x_proj", "x_proj", HR_LORA_X_PROJ },
  { "training.lora.targets.out_proj", "out_proj", HR_LORA_OUT_PROJ },
  { "training.lora.targets.embed_tokens", "embed_tokens", HR_LORA_EMBED },
};

static GtkWidget *
target_row (HrForm *self,
            guint   r)
{
  guint last = r + 1 < G_N_ELEMENTS (target_rows) ? target_rows[r + 1].first : G_N_ELEMENTS (targets);
  GtkWidget *row = hr_form_action_row (_(target_rows[r].title), NULL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  gtk_widget_add_css_class (box, "linked");
  gtk_widget_add_css_class (box, "lora-targets");
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  for (guint i = target_rows[r].first; i < last; i++)
    {
      GtkWidget *toggle = gtk_toggle_button_new_with_label (targets[i].label);
      /* TRANSLATORS: a toggle's name for screen readers: %s is a layer
       * (q, k, v, o, gate, up, down, head, in_proj, x_proj, out_proj,
       * embed_tokens) */
      g_autofree char *name = g_strdup_printf (_("LoRA adapter on %s"), targets[i].label);

      g_object_bind_property (self->model, hr_scenario_model_property_for_path (targets[i].path),
                              toggle, "active", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (toggle),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      gtk_box_append (GTK_BOX (box), toggle);
      g_hash_table_insert (self->controls, g_strdup (targets[i].path), toggle);
    }
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), box);
  return row;
}

/* The expander's rows, when it first opens. */
static void
build_adapters (HrForm    *self,
                GtkWidget *expander)
{
  hr_form_field_row (self, expander, "training.lora.rank");
  for (guint r = 0; r < G_N_ELEMENTS (target_rows); r++)
    {
      GtkWidget *row = target_row (self, r);

      hr_form_add_row (expander, row);
      hr_form_register_row (self, target_rows[r].path, row, NULL);
    }
  hr_form_field_row (self, expander, "training.lora.dropout");
  hr_form_field_row (self, expander, "training.lora.fused_qkv");
  hr_form_field_row (self, expander, "training.lora.dora");
  hr_form_rest_rows (self, expander, "training.lora");
  hr_form_field_row (self, expander, "training.quant");
  hr_form_field_row (self, expander, "training.quant_lm_head");
  hr_form_field_row (self, expander, "training.dequant_dtype");
  hr_form_field_row (self, expander, "training.previous_graph_alive");
  /* Each row's visibility follows the expander (hr_form_add_row); the
   * SSM row's follows the model too, after it. */
  g_signal_connect_swapped (expander, "notify::expanded", G_CALLBACK (hr_form_sync_adapters), self);
}

/* The expander of the adapters' rows, under the method's row in group. */
void
hr_form_add_adapters (HrForm    *self,
                      GtkWidget *group)
{
  self->adapters = hr_form_new_expander (self, group, "training.lora", _("Adapters"), NULL,
                                         build_adapters);
  /* Its rows outside training.lora (QLoRA's base), found by path all the
   * same before it opens. */
  hr_form_expander_holds (self, self->adapters, "training.quant");
  hr_form_expander_holds (self, self->adapters, "training.dequant_dtype");
  hr_form_expander_holds (self, self->adapters, "training.previous_graph_alive");
  self->adapters_method = hr_scenario_model_get_scenario (self->model)->training.method;
}

/* "q, k, v, o", or "all linear layers" for PEFT's "all-linear". */
static char *
targets_text (guint mask)
{
  GString *text;

  if (mask == HR_LORA_ALL_LINEAR)
    return g_strdup (_("all linear layers"));
  if (mask == 0)
    return g_strdup (_("no layer"));   /* refused, and said at the rows */
  text = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    if (mask & targets[i].bit)
      {
        if (text->len > 0)
          /* TRANSLATORS: between two of the layers a LoRA adapter is on */
          g_string_append (text, C_("list of layers", ", "));
        g_string_append (text, targets[i].label);
      }
  return g_string_free (text, FALSE);
}

/* What the collapsed expander says it holds. */
static char *
adapters_summary (const HrScenario *sc)
{
  g_autofree char *on = NULL;
  g_autofree char *lora = NULL;

  if (sc->training.method == HR_METHOD_FULL)
    return g_strdup (_("None: full fine-tuning trains every weight"));
  on = targets_text (sc->training.lora.targets);
  if (sc->training.lora.dora)
    /* TRANSLATORS: %u is the adapters' rank, %s the layers they are on
     * ("q, k, v, o") */
    lora = g_strdup_printf (_("DoRA, rank %u on %s"), (guint) sc->training.lora.rank, on);
  else
    /* TRANSLATORS: %u is the adapters' rank, %s the layers they are on
     * ("q, k, v, o") */
    lora = g_strdup_printf (_("Rank %u on %s"), (guint) sc->training.lora.rank, on);
  if (sc->training.method != HR_METHOD_QLORA)
    return g_steal_pointer (&lora);
  /* TRANSLATORS: %s is the adapters ("Rank 16 on q, v"), %s the format of
   * the frozen base (nf4-dq, nf4, fp4, int8) */
  return g_strdup_printf (_("%s; base in %s"), lora,
                          hr_enum_name (&hr_quant_names, sc->training.quant));
}

/* Whether row r of target toggles applies: the SSM layers' to a model
 * with Mamba blocks, the token embeddings' to one with a token table. */
static gboolean
target_row_applies (const HrScenario *sc,
                    guint             r)
{
  if (g_str_equal (target_rows[r].path, "training.lora.targets.ssm"))
    return sc->model.ssm != HR_SSM_NONE;
  if (g_str_equal (target_rows[r].path, "training.lora.targets.embeddings"))
    return sc->model.vocab > 0;
  return TRUE;
}

/* The expander follows the scenario: its subtitle, opening when LoRA is
 * chosen, which rows of targets apply, the SSM row only where the model
 * has Mamba blocks. */
void
hr_form_sync_adapters (HrForm *self)
{
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);
  g_autofree char *summary = adapters_summary (sc);
  HrMethod method = sc->training.method;
  GtkWidget *ssm_targets;
  gboolean lora = hr_field_find ("training.lora.rank", NULL)->applies (sc);
  gboolean chosen = self->adapters_method == HR_METHOD_FULL && lora;

  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self->adapters), summary);
  gtk_widget_set_sensitive (self->adapters, lora);
  /* (noted before opening: opening builds the rows, which sync again) */
  self->adapters_method = method;
  /* Open where the user looks next; folded, with its greyed rows, when
   * none applies (back to full fine-tuning: an undo, another file). */
  if (chosen || !lora)
    adw_expander_row_set_expanded (ADW_EXPANDER_ROW (self->adapters), lora);

  for (guint r = 0; r < G_N_ELEMENTS (target_rows); r++)
    {
      GtkWidget *row = g_hash_table_lookup (self->rows, target_rows[r].path);

      if (row != NULL)
        gtk_widget_set_sensitive (row, lora && target_row_applies (sc, r));
    }

  /* A model without Mamba blocks has no SSM linears to adapt: the row is
   * not shown, unless a file set one of them (refused, and the row is
   * where the user clears it). */
  ssm_targets = g_hash_table_lookup (self->rows, "training.lora.targets.ssm");
  if (ssm_targets != NULL)
    gtk_widget_set_visible (ssm_targets,
                            adw_expander_row_get_expanded (ADW_EXPANDER_ROW (self->adapters))
                            && (sc->model.ssm != HR_SSM_NONE
                                || (sc->training.lora.targets & HR_LORA_SSM) != 0));
}
