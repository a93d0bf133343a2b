/* GStreamer
 * Copyright (C) 2026 gst-cuda-video developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
/* gcv-plugins-cache-gen: writes the plugin's entry of a hotdoc plugin cache
 * (docs/gst_plugins_cache.json), in the layout of GStreamer's own caches:
 * what gst-hotdoc-plugins-scanner reports, as gst-plugins-doc-cache-generator.py
 * writes it (4-space indentation, sorted keys, UTF-8 left as is), the
 * scanner's quirks included: properties listed under the type that installs
 * them (a base class marked as plugin API gets its own "other-types" entry,
 * GstBaseTransform's are not listed), '%' doubled in escaped texts, guint
 * printed as signed.  It differs in that the file ends with a newline, the
 * cache is written afresh (the upstream script merges into the old one)
 * and "long-name" is always written (newer scanners leave it to the merge).
 *
 *   gcv-plugins-cache-gen [--output FILE] [--check REFERENCE] [--url URL]
 *       [--release X.Y] [--registry FILE] [--update-command CMD] [--force] PLUGIN_FILE
 *
 * Only PLUGIN_FILE is loaded: no other plugin directory is scanned
 * (GST_PLUGIN_PATH and GST_PLUGIN_SYSTEM_PATH are emptied) and the registry
 * is a private file (--registry, else one beside PLUGIN_FILE), so neither
 * the user's registry nor the plugins installed on the system matter.
 *
 * With --check the generated cache is compared with REFERENCE: exit 0 when
 * equal, 1 with the first differing lines when not, 77 (skipped) in a build
 * without gstreamer-cuda-1.0, whose cuda* pad templates differ from the full
 * build the committed cache describes, and with another GStreamer release
 * than --release, the one the committed cache was made with (the cache's
 * fields differ between releases; writing refuses then, unless --force). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gst/gst.h>

#define EXIT_SKIP 77

/* ---------------------------------------------------------------------------
 * A minimal JSON tree (objects, arrays, strings, booleans), written the way
 * Python's json.dump (indent=4, sort_keys=True, ensure_ascii=False) does.
 * ------------------------------------------------------------------------- */

typedef enum
{
  NODE_OBJECT,
  NODE_ARRAY,
  NODE_STRING,
  NODE_BOOL,
} NodeKind;

typedef struct _Node Node;
struct _Node
{
  NodeKind kind;
  gchar *str;                   /* NODE_STRING */
  gboolean b;                   /* NODE_BOOL */
  GPtrArray *keys;              /* NODE_OBJECT: gchar * */
  GPtrArray *items;             /* NODE_OBJECT: values; NODE_ARRAY: items */
};

static void
node_free (gpointer data)
{
  Node *n = data;

  if (n == NULL)
    return;
  g_free (n->str);
  if (n->keys)
    g_ptr_array_unref (n->keys);
  if (n->items)
    g_ptr_array_unref (n->items);
  g_free (n);
}

static Node *
node_new (NodeKind kind)
{
  Node *n = g_new0 (Node, 1);

  n->kind = kind;
  if (kind == NODE_OBJECT)
    n->keys = g_ptr_array_new_with_free_func (g_free);
  if (kind == NODE_OBJECT || kind == NODE_ARRAY)
    n->items = g_ptr_array_new_with_free_func (node_free);
  return n;
}

static Node *
obj_new (void)
{
  return node_new (NODE_OBJECT);
}

static Node *
arr_new (void)
{
  return node_new (NODE_ARRAY);
}

static Node *
str_new (const gchar * s)
{
  Node *n = node_new (NODE_STRING);

  n->str = g_strdup (s ? s : "");
  return n;
}

static Node *
str_take (gchar * s)
{
  Node *n = str_new (s);

  g_free (s);
  return n;
}

static Node *
bool_new (gboolean b)
{
  Node *n = node_new (NODE_BOOL);

  n->b = ! !b;
  return n;
}

/* takes @value; a key set twice keeps the last value, as a dict does */
static Node *
obj_set (Node * obj, const gchar * key, Node * value)
{
  guint i;

  for (i = 0; i < obj->keys->len; i++) {
    if (strcmp (g_ptr_array_index (obj->keys, i), key) == 0) {
      node_free (obj->items->pdata[i]);
      obj->items->pdata[i] = value;
      return value;
    }
  }
  g_ptr_array_add (obj->keys, g_strdup (key));
  g_ptr_array_add (obj->items, value);
  return value;
}

static Node *
arr_add (Node * arr, Node * item)
{
  g_ptr_array_add (arr->items, item);
  return item;
}

static void
write_string (GString * out, const gchar * s)
{
  gchar *valid = g_utf8_make_valid (s, -1);
  const guchar *p;

  g_string_append_c (out, '"');
  for (p = (const guchar *) valid; *p; p++) {
    switch (*p) {
      case '"':
        g_string_append (out, "\\\"");
        break;
      case '\\':
        g_string_append (out, "\\\\");
        break;
      case '\b':
        g_string_append (out, "\\b");
        break;
      case '\f':
        g_string_append (out, "\\f");
        break;
      case '\n':
        g_string_append (out, "\\n");
        break;
      case '\r':
        g_string_append (out, "\\r");
        break;
      case '\t':
        g_string_append (out, "\\t");
        break;
      default:
        if (*p < 0x20)
          g_string_append_printf (out, "\\u%04x", (guint) * p);
        else
          g_string_append_c (out, (gchar) * p);
        break;
    }
  }
  g_string_append_c (out, '"');
  g_free (valid);
}

static gint
compare_keys (gconstpointer a, gconstpointer b, gpointer user_data)
{
  GPtrArray *keys = user_data;

  /* byte order of UTF-8 is code point order, as Python sorts str */
  return strcmp (g_ptr_array_index (keys, *(const guint *) a),
      g_ptr_array_index (keys, *(const guint *) b));
}

static void
write_indent (GString * out, guint level)
{
  g_string_append_c (out, '\n');
  g_string_append_printf (out, "%*s", (gint) (4 * level), "");
}

static void
write_node (GString * out, const Node * n, guint level)
{
  guint i;

  switch (n->kind) {
    case NODE_STRING:
      write_string (out, n->str);
      break;
    case NODE_BOOL:
      g_string_append (out, n->b ? "true" : "false");
      break;
    case NODE_ARRAY:
      if (n->items->len == 0) {
        g_string_append (out, "[]");
        break;
      }
      g_string_append_c (out, '[');
      for (i = 0; i < n->items->len; i++) {
        if (i)
          g_string_append_c (out, ',');
        write_indent (out, level + 1);
        write_node (out, g_ptr_array_index (n->items, i), level + 1);
      }
      write_indent (out, level);
      g_string_append_c (out, ']');
      break;
    case NODE_OBJECT:{
      guint *order;

      if (n->keys->len == 0) {
        g_string_append (out, "{}");
        break;
      }
      order = g_new (guint, n->keys->len);
      for (i = 0; i < n->keys->len; i++)
        order[i] = i;
      g_qsort_with_data (order, n->keys->len, sizeof (guint), compare_keys, n->keys);
      g_string_append_c (out, '{');
      for (i = 0; i < n->keys->len; i++) {
        if (i)
          g_string_append_c (out, ',');
        write_indent (out, level + 1);
        write_string (out, g_ptr_array_index (n->keys, order[i]));
        g_string_append (out, ": ");
        write_node (out, g_ptr_array_index (n->items, order[i]), level + 1);
      }
      g_free (order);
      write_indent (out, level);
      g_string_append_c (out, '}');
      break;
    }
  }
}

/* ---------------------------------------------------------------------------
 * The plugin, as gst-hotdoc-plugins-scanner describes it
 * ------------------------------------------------------------------------- */

/* A text as the scanner reports it: its escaping doubles every '%' (pad
 * template names like "src_%%u" in GStreamer's caches) and writes NULL as
 * "NULL".  Only the fields the scanner escapes go through here. */
static gchar *
doc_text (const gchar * s)
{
  GString *out;

  if (s == NULL)
    return g_strdup ("NULL");
  out = g_string_new (NULL);
  for (; *s; s++) {
    if (*s == '%')
      g_string_append_c (out, '%');
    g_string_append_c (out, *s);
  }
  return g_string_free (out, FALSE);
}

static Node *
doc_text_node (const gchar * s)
{
  return str_take (doc_text (s));
}

typedef struct
{
  Node *other_types;            /* the plugin's "other-types" */
  GHashTable *seen;             /* type names already in other_types */
} Scan;

static void describe_object (Scan * scan, Node * node, GObject * object, GType type,
    GType inst_type);

static void
add_enum_type (Scan * scan, GType type, GstPluginAPIFlags api_flags)
{
  GEnumClass *klass = g_type_class_ref (type);
  Node *node = obj_set (scan->other_types, g_type_name (type), obj_new ());
  guint i;

  obj_set (node, "kind", str_new ("enum"));
  if (api_flags & GST_PLUGIN_API_FLAG_IGNORE_ENUM_MEMBERS) {
    obj_set (node, "ignore-enum-members", bool_new (TRUE));
  } else {
    Node *values = obj_set (node, "values", arr_new ());

    for (i = 0; i < klass->n_values; i++) {
      Node *v = arr_add (values, obj_new ());

      obj_set (v, "desc", doc_text_node (klass->values[i].value_name));
      obj_set (v, "name", doc_text_node (klass->values[i].value_nick));
      obj_set (v, "value", str_take (g_strdup_printf ("%d", klass->values[i].value)));
    }
  }
  g_type_class_unref (klass);
}

static void
add_flags_type (Scan * scan, GType type)
{
  GFlagsClass *klass = g_type_class_ref (type);
  Node *node = obj_set (scan->other_types, g_type_name (type), obj_new ());
  Node *values = obj_set (node, "values", arr_new ());
  guint i;

  obj_set (node, "kind", str_new ("flags"));
  for (i = 0; i < klass->n_values; i++) {
    Node *v = arr_add (values, obj_new ());

    obj_set (v, "desc", doc_text_node (klass->values[i].value_name));
    obj_set (v, "name", doc_text_node (klass->values[i].value_nick));
    obj_set (v, "value", str_take (g_strdup_printf ("0x%08x", klass->values[i].value)));
  }
  g_type_class_unref (klass);
}

/* An object type (a base class or interface marked as plugin API) with
 * what it adds: properties read from an instance of @inst_type (their
 * defaults where it cannot be instantiated). */
static void
add_object_type (Scan * scan, GType type, GType inst_type)
{
  Node *node = obj_set (scan->other_types, g_type_name (type), obj_new ());
  GObject *object = NULL;

  obj_set (node, "kind", str_new (G_TYPE_IS_INTERFACE (type) ? "interface" : "object"));
  if (G_TYPE_IS_INSTANTIATABLE (inst_type) && !G_TYPE_IS_ABSTRACT (inst_type)) {
    object = g_object_new (inst_type, NULL);
    if (g_type_is_a (inst_type, G_TYPE_INITIALLY_UNOWNED))
      g_object_ref_sink (object);
  }
  describe_object (scan, node, object, type, inst_type);
  if (object)
    g_object_unref (object);
}

/* puts @type into other-types when it is plugin API and not there yet */
static void
note_type (Scan * scan, GType type, GType inst_type)
{
  GstPluginAPIFlags api_flags = 0;
  const gchar *name = g_type_name (type);

  if (name == NULL || g_hash_table_contains (scan->seen, name)
      || !gst_type_is_plugin_api (type, &api_flags))
    return;
  g_hash_table_add (scan->seen, (gpointer) name);
  if (G_TYPE_IS_ENUM (type))
    add_enum_type (scan, type, api_flags);
  else if (G_TYPE_IS_FLAGS (type))
    add_flags_type (scan, type);
  else if (g_type_is_a (type, G_TYPE_OBJECT) || G_TYPE_IS_INTERFACE (type))
    add_object_type (scan, type, inst_type);
}

static gchar *
flags_text (GType type, guint flags)
{
  GFlagsClass *klass = g_type_class_ref (type);
  GString *s = g_string_new (NULL);
  guint left = flags, i;

  for (i = 0; i < klass->n_values; i++) {
    if (klass->values[i].value == flags) {
      g_string_assign (s, klass->values[i].value_nick);
      g_type_class_unref (klass);
      return g_string_free (s, FALSE);
    }
  }
  /* highest values first, as the scanner does */
  for (i = klass->n_values; i > 0 && left != 0; i--) {
    guint v = klass->values[i - 1].value;

    if (v != 0 && (left & v) == v) {
      if (s->len)
        g_string_append_c (s, '+');
      g_string_append (s, klass->values[i - 1].value_nick);
      left -= v;
    }
  }
  if (s->len == 0)
    g_string_assign (s, "(none)");
  g_type_class_unref (klass);
  return g_string_free (s, FALSE);
}

static gchar *
enum_text (GType type, gint value)
{
  GEnumClass *klass = g_type_class_ref (type);
  GEnumValue *v = g_enum_get_value (klass, value);
  gchar *nick = v ? doc_text (v->value_nick) : g_strdup ("");
  gchar *s = g_strdup_printf ("%s (%d)", nick, value);

  g_free (nick);
  g_type_class_unref (klass);
  return s;
}

#define SET_RANGE(fmt, def, min, max) G_STMT_START {                          \
    obj_set (p, "default", str_take (g_strdup_printf (fmt, def)));            \
    obj_set (p, "min", str_take (g_strdup_printf (fmt, min)));                \
    obj_set (p, "max", str_take (g_strdup_printf (fmt, max)));                \
  } G_STMT_END

/* "default", and "min" / "max" for numbers, formatted as the scanner does
 * (which prints guint with %d and an int64 default with %llu) */
static void
describe_value (Node * p, GParamSpec * spec, const GValue * value)
{
  GType vtype = G_VALUE_TYPE (value);

  switch (vtype) {
    case G_TYPE_STRING:
      obj_set (p, "default", doc_text_node (g_value_get_string (value)));
      return;
    case G_TYPE_BOOLEAN:
      obj_set (p, "default", str_new (g_value_get_boolean (value) ? "true" : "false"));
      return;
    case G_TYPE_ULONG:{
      GParamSpecULong *s = G_PARAM_SPEC_ULONG (spec);
      obj_set (p, "default", str_take (g_strdup_printf ("%lu", g_value_get_ulong (value))));
      obj_set (p, "min", str_take (g_strdup_printf ("%lu", s->minimum)));
      obj_set (p, "max", str_take (g_strdup_printf ("%lu", s->maximum)));
      return;
    }
    case G_TYPE_LONG:{
      GParamSpecLong *s = G_PARAM_SPEC_LONG (spec);
      SET_RANGE ("%ld", g_value_get_long (value), s->minimum, s->maximum);
      return;
    }
    case G_TYPE_UINT:{
      GParamSpecUInt *s = G_PARAM_SPEC_UINT (spec);
      SET_RANGE ("%d", (gint) g_value_get_uint (value), (gint) s->minimum, (gint) s->maximum);
      return;
    }
    case G_TYPE_INT:{
      GParamSpecInt *s = G_PARAM_SPEC_INT (spec);
      SET_RANGE ("%d", g_value_get_int (value), s->minimum, s->maximum);
      return;
    }
    case G_TYPE_UINT64:{
      GParamSpecUInt64 *s = G_PARAM_SPEC_UINT64 (spec);
      SET_RANGE ("%" G_GUINT64_FORMAT, g_value_get_uint64 (value), s->minimum, s->maximum);
      return;
    }
    case G_TYPE_INT64:{
      GParamSpecInt64 *s = G_PARAM_SPEC_INT64 (spec);
      obj_set (p, "default", str_take (g_strdup_printf ("%" G_GUINT64_FORMAT,
                  (guint64) g_value_get_int64 (value))));
      obj_set (p, "min", str_take (g_strdup_printf ("%" G_GINT64_FORMAT, s->minimum)));
      obj_set (p, "max", str_take (g_strdup_printf ("%" G_GINT64_FORMAT, s->maximum)));
      return;
    }
    case G_TYPE_FLOAT:{
      GParamSpecFloat *s = G_PARAM_SPEC_FLOAT (spec);
      SET_RANGE ("%g", (gdouble) g_value_get_float (value), (gdouble) s->minimum,
          (gdouble) s->maximum);
      return;
    }
    case G_TYPE_DOUBLE:{
      GParamSpecDouble *s = G_PARAM_SPEC_DOUBLE (spec);
      SET_RANGE ("%g", g_value_get_double (value), s->minimum, s->maximum);
      return;
    }
    default:
      break;
  }

  if (spec->value_type == GST_TYPE_CAPS) {
    const GstCaps *caps = gst_value_get_caps (value);

    if (caps) {
      gchar *str = gst_caps_to_string (caps);

      obj_set (p, "default", doc_text_node (str));
      g_free (str);
    }
  } else if (G_IS_PARAM_SPEC_BOXED (spec)) {
    if (spec->value_type == GST_TYPE_STRUCTURE) {
      const GstStructure *s = gst_value_get_structure (value);

      if (s) {
        gchar *str = gst_structure_to_string (s);

        obj_set (p, "default", doc_text_node (str));
        g_free (str);
      }
    }
  } else if (GST_IS_PARAM_SPEC_FRACTION (spec)) {
    GstParamSpecFraction *f = GST_PARAM_SPEC_FRACTION (spec);

    obj_set (p, "default", str_take (g_strdup_printf ("%d/%d",
                gst_value_get_fraction_numerator (value),
                gst_value_get_fraction_denominator (value))));
    obj_set (p, "min", str_take (g_strdup_printf ("%d/%d", f->min_num, f->min_den)));
    obj_set (p, "max", str_take (g_strdup_printf ("%d/%d", f->max_num, f->max_den)));
  } else if (G_IS_PARAM_SPEC_ENUM (spec)) {
    obj_set (p, "default", str_take (enum_text (spec->value_type, g_value_get_enum (value))));
  } else if (G_IS_PARAM_SPEC_FLAGS (spec)) {
    obj_set (p, "default", str_take (flags_text (spec->value_type, g_value_get_flags (value))));
  }
}

/* the properties @type itself installs (not those of its parents), with
 * the values an instance of @inst_type has (@object, if any) */
static void
describe_properties (Scan * scan, Node * node, GObject * object, GType type, GType inst_type)
{
  GParamSpec **specs;
  guint i, n_specs;
  Node *props = NULL;
  GObjectClass *klass;

  if (!G_TYPE_IS_CLASSED (inst_type) || !g_type_is_a (inst_type, G_TYPE_OBJECT))
    return;
  klass = g_type_class_ref (inst_type);
  specs = g_object_class_list_properties (klass, &n_specs);
  g_type_class_unref (klass);
  for (i = 0; i < n_specs; i++) {
    GParamSpec *spec = specs[i];
    GValue value = G_VALUE_INIT;
    const gchar *mutable;
    Node *p;

    if (spec->owner_type != type)
      continue;
    if (props == NULL)
      props = obj_set (node, "properties", obj_new ());
    p = obj_set (props, spec->name, obj_new ());

    g_value_init (&value, spec->value_type);
    if (object && (spec->flags & G_PARAM_READABLE)
        && !(spec->flags & GST_PARAM_DOC_SHOW_DEFAULT))
      g_object_get_property (object, spec->name, &value);
    else
      g_param_value_set_default (spec, &value);

    if (spec->flags & GST_PARAM_MUTABLE_PLAYING)
      mutable = "playing";
    else if (spec->flags & GST_PARAM_MUTABLE_PAUSED)
      mutable = "paused";
    else if (spec->flags & GST_PARAM_MUTABLE_READY)
      mutable = "ready";
    else
      mutable = "null";

    obj_set (p, "blurb", doc_text_node (g_param_spec_get_blurb (spec)));
    obj_set (p, "conditionally-available",
        bool_new (spec->flags & GST_PARAM_CONDITIONALLY_AVAILABLE));
    obj_set (p, "construct", bool_new (spec->flags & G_PARAM_CONSTRUCT));
    obj_set (p, "construct-only", bool_new (spec->flags & G_PARAM_CONSTRUCT_ONLY));
    obj_set (p, "controllable", bool_new (spec->flags & GST_PARAM_CONTROLLABLE));
    obj_set (p, "mutable", str_new (mutable));
    obj_set (p, "readable", bool_new (spec->flags & G_PARAM_READABLE));
    obj_set (p, "type", str_new (g_type_name (spec->value_type)));
    obj_set (p, "writable", bool_new (spec->flags & G_PARAM_WRITABLE));
    describe_value (p, spec, &value);
    g_value_unset (&value);

    if (G_IS_PARAM_SPEC_ENUM (spec) || G_IS_PARAM_SPEC_FLAGS (spec)
        || G_IS_PARAM_SPEC_OBJECT (spec))
      note_type (scan, spec->value_type, spec->value_type);
    /* as the scanner, other-types has only plugin API: a library's enum
     * (GstVideoFormat) is documented there; the plugin's own must be marked */
    if ((G_IS_PARAM_SPEC_ENUM (spec) || G_IS_PARAM_SPEC_FLAGS (spec))
        && !gst_type_is_plugin_api (spec->value_type, NULL))
      g_printerr ("note: %s (the type of %s:%s) is not marked as plugin API, so it is "
          "not in other-types; if it is the plugin's own, call gst_type_mark_as_plugin_api\n",
          g_type_name (spec->value_type), g_type_name (type), spec->name);
  }
  g_free (specs);
}

/* the signals @type itself defines; action signals carry "action": true */
static void
describe_signals (Scan * scan, Node * node, GType type)
{
  guint *ids, n_ids, i, j;
  Node *signals = NULL;

  if (!G_TYPE_IS_INSTANTIATABLE (type) && !G_TYPE_IS_INTERFACE (type))
    return;
  ids = g_signal_list_ids (type, &n_ids);
  for (i = 0; i < n_ids; i++) {
    GSignalQuery q;
    Node *s, *args;

    g_signal_query (ids[i], &q);
    if (signals == NULL)
      signals = obj_set (node, "signals", obj_new ());
    s = obj_set (signals, q.signal_name, obj_new ());
    args = obj_set (s, "args", arr_new ());
    for (j = 0; j < q.n_params; j++) {
      GType t = q.param_types[j] & ~G_SIGNAL_TYPE_STATIC_SCOPE;
      Node *a = arr_add (args, obj_new ());

      obj_set (a, "name", str_take (g_strdup_printf ("arg%u", j)));
      obj_set (a, "type", str_new (g_type_name (t)));
      note_type (scan, t, t);
    }
    note_type (scan, q.return_type & ~G_SIGNAL_TYPE_STATIC_SCOPE,
        q.return_type & ~G_SIGNAL_TYPE_STATIC_SCOPE);
    obj_set (s, "return-type", str_new (g_type_name (q.return_type & ~G_SIGNAL_TYPE_STATIC_SCOPE)));
    if (q.signal_flags & G_SIGNAL_RUN_FIRST)
      obj_set (s, "when", str_new ("first"));
    else if (q.signal_flags & G_SIGNAL_RUN_LAST)
      obj_set (s, "when", str_new ("last"));
    else if (q.signal_flags & G_SIGNAL_RUN_CLEANUP)
      obj_set (s, "when", str_new ("cleanup"));
    if (q.signal_flags & G_SIGNAL_NO_RECURSE)
      obj_set (s, "no-recurse", bool_new (TRUE));
    if (q.signal_flags & G_SIGNAL_DETAILED)
      obj_set (s, "detailed", bool_new (TRUE));
    if (q.signal_flags & G_SIGNAL_ACTION)
      obj_set (s, "action", bool_new (TRUE));
    if (q.signal_flags & G_SIGNAL_NO_HOOKS)
      obj_set (s, "no-hooks", bool_new (TRUE));
  }
  g_free (ids);
}

/* "hierarchy", "interfaces", "properties", "signals" of @type, @object
 * being an instance of it or of a subclass */
static void
describe_object (Scan * scan, Node * node, GObject * object, GType type, GType inst_type)
{
  Node *hierarchy = obj_set (node, "hierarchy", arr_new ());
  GType *ifaces, t;
  guint n_ifaces, i;

  for (t = type;; t = g_type_parent (t)) {
    arr_add (hierarchy, str_new (g_type_name (t)));
    note_type (scan, t, inst_type);
    if (t == G_TYPE_OBJECT || t == G_TYPE_INTERFACE || g_type_parent (t) == 0)
      break;
  }

  ifaces = g_type_interfaces (type, &n_ifaces);
  if (n_ifaces > 0) {
    Node *list = obj_set (node, "interfaces", arr_new ());

    for (i = 0; i < n_ifaces; i++) {
      arr_add (list, str_new (g_type_name (ifaces[i])));
      note_type (scan, ifaces[i], inst_type);
    }
  }
  g_free (ifaces);

  describe_properties (scan, node, object, type, inst_type);
  describe_signals (scan, node, type);
}

/* what the scanner writes for caps: each structure's name (with its caps
 * features unless system memory) and its fields, names right-aligned to 15
 * columns, values serialized, "(string)" dropped from format and rate */
static gchar *
caps_text (const GstCaps * caps)
{
  GString *out;
  guint i, j;

  if (gst_caps_is_any (caps))
    return g_strdup ("ANY");
  if (gst_caps_is_empty (caps))
    return g_strdup ("EMPTY");

  out = g_string_new (NULL);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && (gst_caps_features_is_any (f)
            || !gst_caps_features_is_equal (f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))) {
      gchar *fs = gst_caps_features_to_string (f);

      /* (the scanner separates structures by a blank line only here) */
      g_string_append_printf (out, "%s%s(%s):\n", i ? "\n" : "", gst_structure_get_name (s), fs);
      g_free (fs);
    } else {
      g_string_append_printf (out, "%s:\n", gst_structure_get_name (s));
    }
    for (j = 0; j < (guint) gst_structure_n_fields (s); j++) {
      const gchar *field = gst_structure_nth_field_name (s, j);
      gchar *v = gst_value_serialize (gst_structure_get_value (s, field));

      if (v == NULL)
        v = g_strdup ("NULL");
      if (strcmp (field, "format") == 0 || strcmp (field, "rate") == 0) {
        GString *clean = g_string_new (NULL);
        const gchar *p = v;

        while (*p) {
          if (g_str_has_prefix (p, "(string)"))
            p += strlen ("(string)");
          else if (g_str_has_prefix (p, "(rate)"))
            p += strlen ("(rate)");
          else
            g_string_append_c (clean, *p++);
        }
        g_free (v);
        v = g_string_free (clean, FALSE);
      }
      g_string_append_printf (out, "%15s: %s\n", field, v);
      g_free (v);
    }
  }
  return g_string_free (out, FALSE);
}

static gchar *
rank_text (gint rank)
{
  static const gint ranks[] = { GST_RANK_NONE, GST_RANK_MARGINAL, GST_RANK_SECONDARY,
    GST_RANK_PRIMARY
  };
  static const gchar *names[] = { "none", "marginal", "secondary", "primary" };
  guint i, best = 0;

  for (i = 0; i < G_N_ELEMENTS (ranks); i++) {
    if (rank == ranks[i])
      return g_strdup (names[i]);
    if (ABS (rank - ranks[i]) < ABS (rank - ranks[best]))
      best = i;
  }
  return g_strdup_printf ("%s %c %d", names[best], rank > ranks[best] ? '+' : '-',
      ABS (ranks[best] - rank));
}

static void
describe_element (Scan * scan, Node * elements, GstElementFactory * factory)
{
  const gchar *name = GST_OBJECT_NAME (factory);
  GstElement *element = gst_element_factory_create (factory, NULL);
  Node *node;
  gchar **keys, **k;
  const GList *l;
  Node *templates = NULL;

  if (element == NULL) {
    g_printerr ("could not create element %s\n", name);
    exit (1);
  }
  gst_object_ref_sink (element);
  node = obj_set (elements, name, obj_new ());
  obj_set (node, "rank", str_take (rank_text (gst_plugin_feature_get_rank (GST_PLUGIN_FEATURE
                  (factory)))));

  /* author, description, klass, long-name and any other metadata */
  keys = gst_element_factory_get_metadata_keys (factory);
  for (k = keys; k && *k; k++)
    obj_set (node, *k, doc_text_node (gst_element_factory_get_metadata (factory, *k)));
  g_strfreev (keys);

  describe_object (scan, node, G_OBJECT (element), G_OBJECT_TYPE (element),
      G_OBJECT_TYPE (element));

  for (l = gst_element_factory_get_static_pad_templates (factory); l; l = l->next) {
    GstStaticPadTemplate *st = l->data;
    GstPadTemplate *tmpl =
        gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (element), st->name_template);
    GstCaps *caps;
    gchar *text;
    Node *t;
    GType pad_type;

    if (tmpl == NULL)
      continue;
    if (templates == NULL)
      templates = obj_set (node, "pad-templates", obj_new ());
    text = doc_text (st->name_template);
    t = obj_set (templates, text, obj_new ());
    g_free (text);
    caps = gst_pad_template_get_documentation_caps (tmpl);
    text = caps_text (caps);
    obj_set (t, "caps", doc_text_node (text));
    g_free (text);
    gst_caps_unref (caps);
    obj_set (t, "direction", str_new (st->direction == GST_PAD_SRC ? "src" :
            st->direction == GST_PAD_SINK ? "sink" : "unknown"));
    obj_set (t, "presence", str_new (st->presence == GST_PAD_ALWAYS ? "always" :
            st->presence == GST_PAD_SOMETIMES ? "sometimes" :
            st->presence == GST_PAD_REQUEST ? "request" : "unknown"));
    pad_type = GST_PAD_TEMPLATE_GTYPE (tmpl);
    if (pad_type != G_TYPE_NONE && pad_type != GST_TYPE_PAD) {
      obj_set (t, "type", str_new (g_type_name (pad_type)));
      note_type (scan, pad_type, pad_type);
    }
  }

  gst_object_unref (element);
}

static gint
compare_features (gconstpointer a, gconstpointer b)
{
  return strcmp (GST_OBJECT_NAME (a), GST_OBJECT_NAME (b));
}

/* the package as gst-plugins-doc-cache-generator.py stores it */
static gchar *
package_text (const gchar * package)
{
  static const gchar *suffixes[] = { " git", " source release", " prerelease" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (package, suffixes[i]))
      return g_strndup (package, strlen (package) - strlen (suffixes[i]));
  return g_strdup (package);
}

static Node *
describe_plugin (GstPlugin * plugin, const gchar * filename, const gchar * url)
{
  Node *root = obj_new ();
  Node *node = obj_set (root, gst_plugin_get_name (plugin), obj_new ());
  Node *elements, *tracers;
  gchar *base = g_path_get_basename (filename), *dot;
  GList *features, *l;
  Scan scan;

  /* libgstfoo.so -> gstfoo */
  if ((dot = strchr (base, '.')))
    *dot = '\0';
  obj_set (node, "description", str_new (gst_plugin_get_description (plugin)));
  obj_set (node, "filename", str_new (g_str_has_prefix (base, "lib") ? base + 3 : base));
  obj_set (node, "source", str_new (gst_plugin_get_source (plugin)));
  obj_set (node, "package", str_take (package_text (gst_plugin_get_package (plugin))));
  obj_set (node, "license", str_new (gst_plugin_get_license (plugin)));
  obj_set (node, "url", str_new (url ? url : gst_plugin_get_origin (plugin)));
  g_free (base);

  elements = obj_set (node, "elements", obj_new ());
  tracers = obj_set (node, "tracers", obj_new ());
  scan.other_types = obj_set (node, "other-types", obj_new ());
  scan.seen = g_hash_table_new (g_str_hash, g_str_equal);

  /* by name, so that the instance a base class's defaults are read from
   * (that of the first element derived from it) does not depend on the
   * registry's order */
  features = gst_registry_get_feature_list_by_plugin (gst_registry_get (),
      gst_plugin_get_name (plugin));
  features = g_list_sort (features, compare_features);
  for (l = features; l; l = l->next) {
    GstPluginFeature *feature = l->data;

    if (GST_IS_ELEMENT_FACTORY (feature)) {
      GstPluginFeature *loaded = gst_plugin_feature_load (feature);

      if (loaded == NULL) {
        g_printerr ("could not load %s\n", GST_OBJECT_NAME (feature));
        exit (1);
      }
      if (!gst_element_factory_get_skip_documentation (GST_ELEMENT_FACTORY (loaded)))
        describe_element (&scan, elements, GST_ELEMENT_FACTORY (loaded));
      gst_object_unref (loaded);
    } else if (GST_IS_TRACER_FACTORY (feature)) {
      obj_set (tracers, GST_OBJECT_NAME (feature), obj_new ());
    }
  }
  gst_plugin_feature_list_free (features);
  g_hash_table_unref (scan.seen);
  return root;
}

/* ---------------------------------------------------------------------------
 * Comparing with the committed cache
 * ------------------------------------------------------------------------- */

/* Prints the differences of @a and @b (lines) as a unified diff of at most
 * @max_lines lines: common head and tail trimmed, the rest aligned by a
 * longest common subsequence when that is small enough, else shown whole. */
static void
print_diff (gchar ** a, guint na, gchar ** b, guint nb, guint max_lines)
{
  const guint context = 3;
  guint head = 0, tail = 0, n, m, i, j, shown = 0, last_shown = 0;
  guint16 *lcs = NULL;
  GArray *ops;                  /* per output line: ' ', '-' or '+', at lines ai of a, bi of b */
  typedef struct
  {
    gchar op;
    guint ai, bi;
  } Op;

  while (head < na && head < nb && strcmp (a[head], b[head]) == 0)
    head++;
  while (tail < na - head && tail < nb - head && strcmp (a[na - 1 - tail], b[nb - 1 - tail]) == 0)
    tail++;
  n = na - head - tail;
  m = nb - head - tail;

  if (n < G_MAXUINT16 && m < G_MAXUINT16 && (guint64) (n + 1) * (m + 1) <= 16 * 1024 * 1024) {
    lcs = g_new0 (guint16, (gsize) (n + 1) * (m + 1));
#define LCS(x, y) lcs[(gsize) (x) * (m + 1) + (y)]
    for (i = n; i-- > 0;)
      for (j = m; j-- > 0;)
        LCS (i, j) = strcmp (a[head + i], b[head + j]) == 0 ? LCS (i + 1, j + 1) + 1 :
            MAX (LCS (i + 1, j), LCS (i, j + 1));
  }

  ops = g_array_new (FALSE, FALSE, sizeof (Op));
  for (i = head > context ? head - context : 0; i < head; i++) {
    Op op = { ' ', i, i };
    g_array_append_val (ops, op);
  }
  i = j = 0;
  while (i < n || j < m) {
    Op op;

    if (lcs && i < n && j < m && strcmp (a[head + i], b[head + j]) == 0) {
      op.op = ' ';
      op.ai = head + i++;
      op.bi = head + j++;
    } else if (i < n && (j == m || (lcs ? LCS (i + 1, j) >= LCS (i, j + 1) : TRUE))) {
      op.op = '-';
      op.ai = head + i++;
      op.bi = head + j;
    } else {
      op.op = '+';
      op.ai = head + i;
      op.bi = head + j++;
    }
    g_array_append_val (ops, op);
  }
#undef LCS
  for (i = 0; i < context && i < tail; i++) {
    Op op = { ' ', na - tail + i, nb - tail + i };
    g_array_append_val (ops, op);
  }

  /* the changed lines with up to @context unchanged lines around them */
  for (i = 0; i < ops->len && shown < max_lines; i++) {
    Op *op = &g_array_index (ops, Op, i);
    gboolean near = op->op != ' ';

    for (j = i > context ? i - context : 0; !near && j <= i + context && j < ops->len; j++)
      near = g_array_index (ops, Op, j).op != ' ';
    if (!near)
      continue;
    if (shown == 0 || i > last_shown + 1)
      g_print ("@@ line %u of committed, %u of generated @@\n", op->ai + 1, op->bi + 1);
    if (op->op == '+')
      g_print ("+%s\n", b[op->bi]);
    else
      g_print ("%c%s\n", op->op, a[op->ai]);
    last_shown = i;
    shown++;
  }
  if (shown == max_lines)
    g_print ("... (diff cut at %u lines)\n", max_lines);
  g_array_unref (ops);
  g_free (lcs);
}

static gboolean
check (const gchar * generated, const gchar * reference, const gchar * generated_path,
    const gchar * update_command)
{
  gchar *ref = NULL, **a, **b;
  GError *error = NULL;

  if (!g_file_get_contents (reference, &ref, NULL, &error)) {
    g_print ("cannot read %s: %s\n", reference, error->message);
    g_clear_error (&error);
    ref = g_strdup ("");
  }
  if (strcmp (ref, generated) == 0) {
    g_print ("%s is up to date\n", reference);
    g_free (ref);
    return TRUE;
  }

  a = g_strsplit (ref, "\n", -1);
  b = g_strsplit (generated, "\n", -1);
  g_print ("%s is out of date: the plugin as built differs from it.\n", reference);
  if (generated_path)
    g_print ("The plugin as built is described in %s.\n", generated_path);
  g_print ("--- committed\n+++ generated\n");
  print_diff (a, g_strv_length (a), b, g_strv_length (b), 60);
  g_print ("\nIf the change is intended, regenerate the committed file with:\n  %s\n",
      update_command ? update_command : "meson compile -C <builddir> update-plugins-cache");
  g_strfreev (a);
  g_strfreev (b);
  g_free (ref);
  return FALSE;
}

int
main (int argc, char **argv)
{
  gchar *output = NULL, *reference = NULL, *registry = NULL, *update_command = NULL;
  gchar *url = NULL, *release = NULL, *running;
  gboolean force = FALSE;
  gchar **files = NULL;
  GOptionEntry entries[] = {
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the cache to FILE "
          "(default: standard output, unless --check)", "FILE"},
    {"check", 'c', 0, G_OPTION_ARG_FILENAME, &reference, "Compare with REFERENCE: "
          "exit 1 and show the first differences when they differ, 77 in a build "
          "without gstreamer-cuda-1.0", "REFERENCE"},
    {"registry", 0, 0, G_OPTION_ARG_FILENAME, &registry, "The private GStreamer "
          "registry file (default: beside the plugin)", "FILE"},
    {"url", 0, 0, G_OPTION_ARG_STRING, &url, "The \"url\" to write instead of the "
          "plugin's origin (which a distribution sets)", "URL"},
    {"release", 0, 0, G_OPTION_ARG_STRING, &release, "The GStreamer release (X.Y) the "
          "committed cache was made with: another one skips --check and refuses writing", "X.Y"},
    {"update-command", 0, 0, G_OPTION_ARG_STRING, &update_command, "The command "
          "that regenerates the reference, shown by --check", "CMD"},
    {"force", 0, 0, G_OPTION_ARG_NONE, &force, "Write even from a build without "
          "gstreamer-cuda-1.0 (its cuda* pad templates lack memory:CUDAMemory) or with "
          "another release than --release", NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "PLUGIN_FILE"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("PLUGIN_FILE - write the plugin's hotdoc cache");
  GError *error = NULL;
  GstPlugin *plugin;
  Node *root;
  GString *json;
  gchar *dir, *plugin_file;
  gint ret = 0;

  /* messages in the user's language and charset; numbers as in C */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (files == NULL || files[0] == NULL || files[1] != NULL) {
    g_printerr ("usage: %s [--output FILE] [--check REFERENCE] PLUGIN_FILE\n", g_get_prgname ());
    return 2;
  }
  plugin_file = files[0];

#if !GCV_HAVE_GST_CUDA
  if (reference) {
    g_print ("SKIP: this build has no gstreamer-cuda-1.0 (gst-cuda disabled or not found), "
        "so the cuda* elements' pad templates lack video/x-raw(memory:CUDAMemory); "
        "the committed %s describes the full build\n", reference);
    return EXIT_SKIP;
  }
  if (!force) {
    g_printerr ("this build has no gstreamer-cuda-1.0: its cuda* pad templates lack "
        "memory:CUDAMemory, and the committed cache describes the full build "
        "(configure with -Dgst-cuda=enabled, or pass --force)\n");
    return 1;
  }
#else
  (void) force;
#endif

  /* only this plugin, and a registry of our own */
  dir = g_path_get_dirname (plugin_file);
  if (registry == NULL)
    registry = g_build_filename (dir, "gst-registry-plugins-cache.bin", NULL);
  g_setenv ("GST_REGISTRY_1_0", registry, TRUE);
  g_setenv ("GST_REGISTRY", registry, TRUE);
  g_setenv ("GST_PLUGIN_PATH_1_0", "", TRUE);
  g_setenv ("GST_PLUGIN_PATH", "", TRUE);
  g_setenv ("GST_PLUGIN_SYSTEM_PATH_1_0", "", TRUE);
  g_setenv ("GST_PLUGIN_SYSTEM_PATH", "", TRUE);
  g_unsetenv ("GST_REGISTRY_UPDATE");
  g_free (dir);

  gst_init (NULL, NULL);
  {
    guint major, minor, micro, nano;
    gst_version (&major, &minor, &micro, &nano);
    running = g_strdup_printf ("%u.%u", major, minor);
  }
  if (release && strcmp (release, running) != 0) {
    if (reference) {
      g_print ("SKIP: this build runs with GStreamer %s, and the committed %s was made with "
          "GStreamer %s: the cache's fields differ between releases, so they are compared only "
          "there\n", running, reference, release);
      return EXIT_SKIP;
    }
    if (!force) {
      g_printerr ("not writing the cache: this build runs with GStreamer %s, the committed one was "
          "made with %s (pass --force to write it anyway)\n", running, release);
      return 1;
    }
  }
  g_free (running);
  plugin = gst_plugin_load_file (plugin_file, &error);
  if (plugin == NULL) {
    g_printerr ("%s could not be loaded as a GStreamer plugin: %s\n", plugin_file,
        error ? error->message : "no reason given");
    return 1;
  }

  root = describe_plugin (plugin, plugin_file, url);
  json = g_string_new (NULL);
  write_node (json, root, 0);
  g_string_append_c (json, '\n');
  node_free (root);

  if (output) {
    if (!g_file_set_contents (output, json->str, json->len, &error)) {
      g_printerr ("cannot write %s: %s\n", output, error->message);
      return 1;
    }
  } else if (reference == NULL) {
    fwrite (json->str, 1, json->len, stdout);
  }
  if (reference && !check (json->str, reference, output, update_command))
    ret = 1;

  g_string_free (json, TRUE);
  gst_object_unref (plugin);
  return ret;
}
