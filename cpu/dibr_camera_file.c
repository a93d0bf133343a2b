/* gst-cuda-video: the DIBR full mode's camera file (format in dibr.h).
 *
 * json-glib builds the tree and the camera format is read from it; before
 * that, one pass over the text checks that it is strict JSON (RFC 8259)
 * within the limits, because json-glib 1.6 (Debian 12) is lenient where a
 * camera file must not be: it takes comments, single-quoted strings, hex
 * and octal numbers (01000 is 512), control characters and unknown escapes
 * in strings, several top-level values, and the last of duplicate keys;
 * it turns an integer beyond 64 bits into -1 (400 nines, 2^64) and 1e400
 * into infinity, recurses without a depth limit (200000 '[' overflow the
 * stack), and its syntax errors point at the token before the mistake.
 *
 * The check keeps no tree: a stack of the open objects and arrays (at most
 * GCV_DIBR_CAMERA_FILE_MAX_DEPTH), the path of the value it is in
 * ("source.intrinsics[4]") for its messages, and the byte offset where
 * every value and every key starts, in file order.  json-glib's objects
 * keep their members in that order (json_object_iter_init_ordered), so
 * one walk of its tree gives every JsonNode its offset: the messages about
 * values name their line and column too.  Only the first error is
 * reported: "<name>:<line>:<column>: <what was expected> in <where>".
 *
 * Numbers: the JSON grammar is checked here, and the integers json-glib
 * holds in 64 bits must fit there; the values are json-glib's: integers by
 * g_ascii_strtoull, the others by g_strtod, which reads a JSON number as
 * g_ascii_strtod does whatever the locale (the C library's strtod stops at
 * a '.' that is not the locale's decimal point, and g_strtod then takes
 * g_ascii_strtod's reading).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "dibr.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-glib/json-glib.h>

/* An open object or array of the check. */
typedef struct {
  gboolean object;
  int n;                        /* members or elements completed */
  size_t path_len;              /* the length of the container's own path */
  GHashTable *keys;             /* an object's keys so far, decoded */
  char key[48];                 /* an object's current key, as messages show it */
} Level;

typedef struct {
  const char *text;
  size_t len;
  size_t pos;
  const char *name;
  int n_values;
  GcvError *err;
  GcvStatus status;             /* GCV_OK until the first error */
  char path[256];               /* where the check is: "source.intrinsics[4]" */
  GArray *values;               /* size_t: where each value starts, in file order */
  GArray *keys;                 /* size_t: where each key starts, in file order */
  GHashTable *where;            /* JsonNode -> its index in values (+ 1) */
  GHashTable *key_where;        /* a member's JsonNode -> its index in keys (+ 1) */
} Reader;

/* ---- messages ------------------------------------------------------------ */

/* Records the first error: "<name>:<line>:<col>: <message>". */
static void
fail_at (Reader * r, GcvStatus status, size_t off, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__ ((format (printf, 4, 5)))
#endif
    ;

static void
fail_at (Reader * r, GcvStatus status, size_t off, const char *fmt, ...)
{
  char msg[400];
  va_list ap;
  int line, col;

  if (r->status != GCV_OK)
    return;
  r->status = status;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof (msg), fmt, ap);
  va_end (ap);
  gcv_text_position (r->text, r->len, off, &line, &col);
  gcv_error_set (r->err, status, "%s:%d:%d: %s", r->name, line, col, msg);
}

/* A key for a message: at most 40 bytes, bytes other than printable ASCII
 * as '?' (the message must stay one readable line). */
static const char *
key_show (const char *key, size_t key_len, char *buf, size_t size)
{
  size_t i, n = key_len < size - 4 ? key_len : size - 4;

  if (n > 40)
    n = 40;
  for (i = 0; i < n; i++)
    buf[i] = (key[i] >= 0x20 && key[i] < 0x7f) ? key[i] : '?';
  if (n < key_len)
    memcpy (buf + n, "...", 3), n += 3;
  buf[n] = '\0';
  return buf;
}

/* " in <path>" or "" at the top level. */
static const char *
where (const char *path, char *buf, size_t size)
{
  if (path[0] == '\0')
    return "";
  snprintf (buf, size, " in %s", path);
  return buf;
}

/* What is at offset off, for "got ...": "the end of the file", 'x',
 * 'NaN' (a run of letters, digits and signs, as a bare word) or a byte. */
static const char *
got_show (Reader * r, size_t off, char *buf, size_t size)
{
  const char *t = r->text;
  size_t n = 0;

  if (off >= r->len)
    return "the end of the file";
  while (off + n < r->len && n < 24 && (g_ascii_isalnum (t[off + n]) || t[off + n] == '_' || t[off + n] == '+'
          || t[off + n] == '-' || t[off + n] == '.'))
    n++;
  if (n > 1) {
    snprintf (buf, size, "'%.*s'", (int) n, t + off);
    return buf;
  }
  if (t[off] == '\'')
    snprintf (buf, size, "\"'\"");
  else if (t[off] >= 0x20 && t[off] < 0x7f)
    snprintf (buf, size, "'%c'", t[off]);
  else
    snprintf (buf, size, "byte 0x%02x", (unsigned char) t[off]);
  return buf;
}

/* For a "got" of NaN, Infinity, inf ...: why JSON refuses it. */
static const char *
nan_hint (const char *got)
{
  if (strstr (got, "NaN") || strstr (got, "nan") || strstr (got, "NAN") || strstr (got, "Inf")
      || strstr (got, "inf") || strstr (got, "INF"))
    return " (JSON has no NaN or Infinity: every number must be finite)";
  return "";
}

/* ---- the strict check: tokens ----------------------------------------------- */

static void
skip_ws (Reader * r)
{
  while (r->pos < r->len) {
    char c = r->text[r->pos];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
      break;
    r->pos++;
  }
}

static int
peek (Reader * r)
{
  return r->pos < r->len ? (unsigned char) r->text[r->pos] : -1;
}

static int
hex4 (const char *s, unsigned *out)
{
  unsigned v = 0;
  int i;

  for (i = 0; i < 4; i++) {
    if (!g_ascii_isxdigit (s[i]))
      return 0;
    v = (v << 4) | (unsigned) g_ascii_xdigit_value (s[i]);
  }
  *out = v;
  return 1;
}

/* The length of the well-formed UTF-8 sequence at s (at most avail bytes;
 * no overlong forms, no surrogates, at most U+10FFFF), 0 when ill-formed. */
static int
utf8_len (const unsigned char *s, size_t avail)
{
  unsigned c = s[0];
  int n, i;
  unsigned cp, min;

  if (c < 0x80)
    return 1;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2, cp = c & 0x1f, min = 0x80;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, cp = c & 0x0f, min = 0x800;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, cp = c & 0x07, min = 0x10000;
  else
    return 0;
  if ((size_t) n > avail)
    return 0;
  for (i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

/* A string at r->pos (the opening quote); with out, decoded into a
 * g_malloc'd NUL-terminated buffer (a key).  \u0000 is refused: json-glib
 * keeps strings NUL-terminated, so "a\u0000b" would be read as "a". */
static int
check_string (Reader * r, char **out)
{
  const char *t = r->text;
  size_t start = r->pos, i = r->pos + 1;
  GString *buf = out ? g_string_new (NULL) : NULL;
  char wb[300];

  while (i < r->len && t[i] != '"') {
    unsigned char c = (unsigned char) t[i];
    if (c < 0x20) {
      fail_at (r, GCV_ERROR_INVALID, i, "control character (byte 0x%02x) in a string%s: write it as \\u%04x",
          c, where (r->path, wb, sizeof (wb)), c);
      goto error;
    } else if (c == '\\') {
      char e = i + 1 < r->len ? t[i + 1] : '\0';
      const char *plain = strchr ("\"\\/bfnrt", e);
      unsigned cp;
      if (e != '\0' && plain != NULL) {
        if (buf)
          g_string_append_c (buf, "\"\\/\b\f\n\r\t"[plain - "\"\\/bfnrt"]);
        i += 2;
        continue;
      }
      if (e != 'u') {
        if (i + 1 >= r->len)
          break;                /* unterminated, below */
        fail_at (r, GCV_ERROR_INVALID, i, "invalid escape '\\%c' in a string%s (JSON has \\\" \\\\ \\/ \\b \\f "
            "\\n \\r \\t \\uXXXX)", (e >= 0x20 && e < 0x7f) ? e : '?', where (r->path, wb, sizeof (wb)));
        goto error;
      }
      if (i + 6 > r->len || !hex4 (t + i + 2, &cp)) {
        fail_at (r, GCV_ERROR_INVALID, i, "expected 4 hex digits after \\u%s", where (r->path, wb, sizeof (wb)));
        goto error;
      }
      if (cp >= 0xd800 && cp <= 0xdbff) {
        unsigned lo;
        if (i + 12 > r->len || t[i + 6] != '\\' || t[i + 7] != 'u' || !hex4 (t + i + 8, &lo) || lo < 0xdc00
            || lo > 0xdfff) {
          fail_at (r, GCV_ERROR_INVALID, i, "unpaired UTF-16 surrogate \\u%04x%s", cp,
              where (r->path, wb, sizeof (wb)));
          goto error;
        }
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i += 6;
      } else if (cp >= 0xdc00 && cp <= 0xdfff) {
        fail_at (r, GCV_ERROR_INVALID, i, "unpaired UTF-16 surrogate \\u%04x%s", cp, where (r->path, wb, sizeof (wb)));
        goto error;
      } else if (cp == 0) {
        fail_at (r, GCV_ERROR_INVALID, i, "\\u0000 (a NUL character) in a string%s", where (r->path, wb, sizeof (wb)));
        goto error;
      }
      if (buf)
        g_string_append_unichar (buf, cp);
      i += 6;
    } else {
      int n = utf8_len ((const unsigned char *) t + i, r->len - i);
      if (n == 0) {
        fail_at (r, GCV_ERROR_INVALID, i, "invalid UTF-8 (byte 0x%02x) in a string%s", c,
            where (r->path, wb, sizeof (wb)));
        goto error;
      }
      if (buf)
        g_string_append_len (buf, t + i, n);
      i += (size_t) n;
    }
  }
  if (i >= r->len || t[i] != '"') {
    fail_at (r, GCV_ERROR_INVALID, start, "unterminated string (no closing '\"')%s", where (r->path, wb, sizeof (wb)));
    goto error;
  }
  r->pos = i + 1;
  if (out)
    *out = g_string_free (buf, FALSE);
  return 1;

error:
  if (buf)
    g_string_free (buf, TRUE);
  return 0;
}

/* A number at r->pos: the JSON grammar -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?,
 * finite as a double, and an integer (no fraction, no exponent) within
 * json-glib's 64 bits. */
static int
check_number (Reader * r)
{
  const char *t = r->text;
  size_t start = r->pos, i = r->pos, n;
  gboolean integer = TRUE;
  char wb[300], gb[64], small[128], *buf, *end;
  double v;
  int range;

  if (i < r->len && t[i] == '-')
    i++;
  if (i < r->len && t[i] == '0') {
    i++;
    if (i < r->len && g_ascii_isdigit (t[i])) {
      fail_at (r, GCV_ERROR_INVALID, start, "leading zeros are not allowed in a JSON number%s",
          where (r->path, wb, sizeof (wb)));
      return 0;
    }
  } else if (i < r->len && g_ascii_isdigit (t[i])) {
    while (i < r->len && g_ascii_isdigit (t[i]))
      i++;
  } else {
    const char *got = got_show (r, i, gb, sizeof (gb));
    fail_at (r, GCV_ERROR_INVALID, i, "expected a digit after '-'%s, got %s%s", where (r->path, wb, sizeof (wb)),
        got, nan_hint (got));
    return 0;
  }
  if (i < r->len && t[i] == '.') {
    i++;
    integer = FALSE;
    if (!(i < r->len && g_ascii_isdigit (t[i]))) {
      fail_at (r, GCV_ERROR_INVALID, i, "expected a digit after the decimal point%s, got %s",
          where (r->path, wb, sizeof (wb)), got_show (r, i, gb, sizeof (gb)));
      return 0;
    }
    while (i < r->len && g_ascii_isdigit (t[i]))
      i++;
  }
  if (i < r->len && (t[i] == 'e' || t[i] == 'E')) {
    i++;
    integer = FALSE;
    if (i < r->len && (t[i] == '+' || t[i] == '-'))
      i++;
    if (!(i < r->len && g_ascii_isdigit (t[i]))) {
      fail_at (r, GCV_ERROR_INVALID, i, "expected a digit in the exponent%s, got %s",
          where (r->path, wb, sizeof (wb)), got_show (r, i, gb, sizeof (gb)));
      return 0;
    }
    while (i < r->len && g_ascii_isdigit (t[i]))
      i++;
  }
  /* a NUL-terminated copy: the text need not end after the number */
  n = i - start;
  buf = n < sizeof (small) ? small : g_malloc (n + 1);
  memcpy (buf, t + start, n);
  buf[n] = '\0';
  errno = 0;
  if (integer) {
    /* json-glib reads an integer as the 64-bit magnitude, then the sign */
    guint64 m = g_ascii_strtoull (buf + (buf[0] == '-'), &end, 10);
    range = errno != ERANGE && m <= (guint64) G_MAXINT64;
    v = 0.0;
  } else {
    v = g_ascii_strtod (buf, &end);
    range = isfinite (v);
  }
  if (buf != small)
    g_free (buf);
  if (!range) {
    fail_at (r, GCV_ERROR_INVALID, start, "number %.*s%s is out of range%s %s", (int) (n < 40 ? n : 40), t + start,
        n > 40 ? "..." : "", where (r->path, wb, sizeof (wb)), integer ? "(an integer without a fraction or "
        "exponent must fit in 64 bits: write a larger one as 1e20)" : "(a double holds at most about 1.8e308)");
    return 0;
  }
  r->pos = i;
  return 1;
}

static int
literal (Reader * r, const char *word)
{
  size_t n = strlen (word);

  return r->len - r->pos >= n && memcmp (r->text + r->pos, word, n) == 0;
}

/* ---- the strict check: structure -------------------------------------------- */

/* A value starts at r->pos (its depth: 1 at the top level): the limits,
 * then its offset is recorded. */
static int
value_begins (Reader * r, int depth)
{
  char wb[300];

  if (depth > GCV_DIBR_CAMERA_FILE_MAX_DEPTH) {
    fail_at (r, GCV_ERROR_INVALID, r->pos, "nesting deeper than %d levels%s", GCV_DIBR_CAMERA_FILE_MAX_DEPTH,
        where (r->path, wb, sizeof (wb)));
    return 0;
  }
  if (++r->n_values > GCV_DIBR_CAMERA_FILE_MAX_VALUES) {
    fail_at (r, GCV_ERROR_INVALID, r->pos, "more than %d values in the file (a camera file has about 60)",
        GCV_DIBR_CAMERA_FILE_MAX_VALUES);
    return 0;
  }
  g_array_append_val (r->values, r->pos);
  return 1;
}

/* A scalar value at r->pos (its start recorded). */
static int
check_scalar (Reader * r)
{
  char wb[300], gb[64];
  int c = peek (r);

  if (c == '"')
    return check_string (r, NULL);
  if (c == '-' || g_ascii_isdigit (c))
    return check_number (r);
  if (literal (r, "true") || literal (r, "null")) {
    r->pos += 4;
    return 1;
  }
  if (literal (r, "false")) {
    r->pos += 5;
    return 1;
  }
  {
    const char *got = got_show (r, r->pos, gb, sizeof (gb));
    fail_at (r, GCV_ERROR_INVALID, r->pos, "expected a value (number, string, object, array, true, false or "
        "null)%s, got %s%s", where (r->path, wb, sizeof (wb)), got,
        c == '\'' ? " (JSON strings take double quotes)" : nan_hint (got));
  }
  return 0;
}

typedef enum {
  WANT_VALUE,
  WANT_ELEMENT_OR_END,          /* after '[' */
  WANT_KEY_OR_END,              /* after '{' */
  WANT_KEY,                     /* after ',' in an object */
  WANT_COLON,
  WANT_SEPARATOR,               /* after a member or an element */
  WANT_NOTHING,                 /* after the top-level value */
} Want;

/* The whole text: one strict JSON value and white space, without
 * recursion (the depth of the stack is the limit). */
static int
check_text (Reader * r)
{
  Level stack[GCV_DIBR_CAMERA_FILE_MAX_DEPTH];
  int top = 0, ok = 0;
  Want want = WANT_VALUE;
  char wb[300], gb[64];

  /* a UTF-8 byte-order mark, as some editors write */
  if (r->len >= 3 && memcmp (r->text, "\xef\xbb\xbf", 3) == 0)
    r->pos = 3;
  skip_ws (r);
  if (r->pos >= r->len) {
    fail_at (r, GCV_ERROR_INVALID, r->pos, "the file is empty (expected a JSON object with \"source\" and "
        "\"virtual\")");
    return 0;
  }
  for (;;) {
    Level *l = top > 0 ? &stack[top - 1] : NULL;
    /* what ended at this step: a scalar, or the container on top */
    enum { NOTHING, SCALAR, CONTAINER } ended = NOTHING;
    int c;

    skip_ws (r);
    c = peek (r);
    switch (want) {
      case WANT_ELEMENT_OR_END:
        if (c == ']') {
          r->pos++;
          ended = CONTAINER;
          break;
        }
        /* fall through */
      case WANT_VALUE:
        if (l && !l->object) {
          snprintf (r->path + l->path_len, sizeof (r->path) - l->path_len, "[%d]", l->n);
          if (c == ']') {
            fail_at (r, GCV_ERROR_INVALID, r->pos, "expected a value%s, got ']' (a trailing comma?)",
                where (r->path, wb, sizeof (wb)));
            goto out;
          }
        }
        if (!value_begins (r, top + 1))
          goto out;
        if (c == '{' || c == '[') {
          Level *n = &stack[top++];     /* the depth check keeps top <= MAX_DEPTH */
          n->object = c == '{';
          n->n = 0;
          n->path_len = strlen (r->path);
          n->keys = n->object ? g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) : NULL;
          n->key[0] = '\0';
          r->pos++;
          want = n->object ? WANT_KEY_OR_END : WANT_ELEMENT_OR_END;
        } else if (check_scalar (r)) {
          ended = SCALAR;
        } else {
          goto out;
        }
        break;
      case WANT_KEY_OR_END:
      case WANT_KEY:{
        size_t key_off = r->pos;
        char *key;
        if (c == '}' && want == WANT_KEY_OR_END) {
          r->pos++;
          ended = CONTAINER;
          break;
        }
        if (c != '"') {
          fail_at (r, GCV_ERROR_INVALID, r->pos, "expected a key in double quotes%s, got %s%s",
              where (r->path, wb, sizeof (wb)), got_show (r, r->pos, gb, sizeof (gb)),
              c == '}' ? " (a trailing comma?)" : "");
          goto out;
        }
        if (!check_string (r, &key))
          goto out;
        key_show (key, strlen (key), l->key, sizeof (l->key));
        if (!g_hash_table_add (l->keys, key)) {
          fail_at (r, GCV_ERROR_INVALID, key_off, "duplicate key \"%s\"%s", l->key, where (r->path, wb, sizeof (wb)));
          goto out;
        }
        g_array_append_val (r->keys, key_off);
        want = WANT_COLON;
        break;
      }
      case WANT_COLON:
        if (c != ':') {
          fail_at (r, GCV_ERROR_INVALID, r->pos, "expected ':' after the key \"%s\"%s, got %s", l->key,
              where (r->path, wb, sizeof (wb)), got_show (r, r->pos, gb, sizeof (gb)));
          goto out;
        }
        r->pos++;
        snprintf (r->path + l->path_len, sizeof (r->path) - l->path_len, "%s%s", l->path_len > 0 ? "." : "",
            l->key);
        want = WANT_VALUE;
        break;
      case WANT_SEPARATOR:
        if (c == ',') {
          r->pos++;
          want = l->object ? WANT_KEY : WANT_VALUE;
        } else if (c == (l->object ? '}' : ']')) {
          r->pos++;
          ended = CONTAINER;
        } else if (l->object) {
          fail_at (r, GCV_ERROR_INVALID, r->pos, "expected ',' or '}' after the value of \"%s\"%s, got %s", l->key,
              where (r->path, wb, sizeof (wb)), got_show (r, r->pos, gb, sizeof (gb)));
          goto out;
        } else {
          fail_at (r, GCV_ERROR_INVALID, r->pos, "expected ',' or ']' after an element of the array%s, got %s",
              where (r->path, wb, sizeof (wb)), got_show (r, r->pos, gb, sizeof (gb)));
          goto out;
        }
        break;
      case WANT_NOTHING:
        if (r->pos < r->len) {
          fail_at (r, GCV_ERROR_INVALID, r->pos, "unexpected %s after the end of the JSON value (only white space "
              "may follow it)", got_show (r, r->pos, gb, sizeof (gb)));
          goto out;
        }
        ok = 1;
        goto out;
    }
    if (ended == NOTHING)
      continue;
    if (ended == CONTAINER) {
      top--;
      if (stack[top].keys)
        g_hash_table_destroy (stack[top].keys);
    }
    if (top == 0) {
      want = WANT_NOTHING;
    } else {
      stack[top - 1].n++;
      r->path[stack[top - 1].path_len] = '\0';
      want = WANT_SEPARATOR;
    }
  }

out:
  while (top > 0) {
    top--;
    if (stack[top].keys)
      g_hash_table_destroy (stack[top].keys);
  }
  return ok;
}

/* ---- json-glib's tree and where its nodes are --------------------------------- */

/* Gives @node (and what it holds) its place in the file: the next value
 * (and @key, the index of its key, + 1, for a member). */
static void
place (Reader * r, JsonNode * node, guint key, guint * n_values, guint * n_keys)
{
  if (*n_values >= r->values->len)
    return;                     /* json-glib read more values: refused by the caller */
  g_hash_table_insert (r->where, node, GUINT_TO_POINTER (++*n_values));
  if (key > 0)
    g_hash_table_insert (r->key_where, node, GUINT_TO_POINTER (key));
  if (JSON_NODE_HOLDS_OBJECT (node)) {
    JsonObjectIter iter;
    const char *name;           /* json-glib 1.6 writes it whether asked or not */
    JsonNode *member;

    json_object_iter_init_ordered (&iter, json_node_get_object (node));
    while (json_object_iter_next_ordered (&iter, &name, &member))
      place (r, member, ++*n_keys, n_values, n_keys);
  } else if (JSON_NODE_HOLDS_ARRAY (node)) {
    JsonArray *a = json_node_get_array (node);
    guint i;

    for (i = 0; i < json_array_get_length (a); i++)
      place (r, json_array_get_element (a, i), 0, n_values, n_keys);
  }
}

/* Where @node starts in the text (its key with @key). */
static size_t
offset_of (Reader * r, JsonNode * node, gboolean key)
{
  guint i = GPOINTER_TO_UINT (g_hash_table_lookup (key ? r->key_where : r->where, node));

  if (i == 0)
    return 0;
  return g_array_index (key ? r->keys : r->values, size_t, i - 1);
}

/* ---- the camera format ---------------------------------------------------- */

static const char *
type_show (JsonNode * n)
{
  switch (json_node_get_node_type (n)) {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
      break;
  }
  switch (json_node_get_value_type (n)) {
    case G_TYPE_BOOLEAN:
      return "a boolean";
    case G_TYPE_STRING:
      return "a string";
    default:
      return "a number";
  }
}

static gboolean
is_number (JsonNode * n)
{
  return JSON_NODE_HOLDS_VALUE (n) && (json_node_get_value_type (n) == G_TYPE_INT64
      || json_node_get_value_type (n) == G_TYPE_DOUBLE);
}

/* Unknown keys of obj (at path, "the top level" when empty): an error
 * naming the expected ones. */
static int
check_keys (Reader * r, JsonNode * obj, const char *path, const char *const *keys, const char *expected)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *m;
  char kb[48];

  json_object_iter_init_ordered (&iter, json_node_get_object (obj));
  while (json_object_iter_next_ordered (&iter, &name, &m)) {
    int i, known = 0;
    for (i = 0; keys[i] != NULL; i++)
      known |= strcmp (name, keys[i]) == 0;
    if (!known) {
      fail_at (r, GCV_ERROR_INVALID, offset_of (r, m, TRUE), "unknown key \"%s\" %s%s (expected %s)",
          key_show (name, strlen (name), kb, sizeof (kb)), path[0] ? "in " : "at the top level", path, expected);
      return 0;
    }
  }
  return 1;
}

static JsonNode *
member (JsonNode * obj, const char *key)
{
  return json_object_get_member (json_node_get_object (obj), key);
}

static int
number_of (Reader * r, JsonNode * n, const char *path, double *out)
{
  if (!is_number (n)) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, n, FALSE), "expected a number in %s, got %s%s", path,
        type_show (n), JSON_NODE_HOLDS_ARRAY (n) ? " (write the matrix as one flat list, row-major)" : "");
    return 0;
  }
  *out = json_node_get_double (n);
  return 1;
}

/* An array of exactly count numbers into v. */
static int
numbers_of (Reader * r, JsonNode * a, const char *path, int count, const char *form, double *v)
{
  char eb[300];
  int i, n;

  if (!JSON_NODE_HOLDS_ARRAY (a)) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, a, FALSE), "expected an array of %d numbers %s in %s, got %s",
        count, form, path, type_show (a));
    return 0;
  }
  n = (int) json_array_get_length (json_node_get_array (a));
  if (n != count) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, a, FALSE), "%s must have %d numbers, got %d %s", path, count, n,
        form);
    return 0;
  }
  for (i = 0; i < count; i++) {
    snprintf (eb, sizeof (eb), "%s[%d]", path, i);
    if (!number_of (r, json_array_get_element (json_node_get_array (a), i), eb, &v[i]))
      return 0;
  }
  return 1;
}

static JsonNode *
element (JsonNode * a, int i)
{
  return json_array_get_element (json_node_get_array (a), i);
}

/* A focal length (fx or fy) in pixels the renderer can use: K stays well
 * conditioned. */
static int
focal_ok (double f)
{
  return f >= GCV_DIBR_MIN_FOCAL && f <= GCV_DIBR_MAX_FOCAL;
}

/* |v| <= bound (the bounds of dibr.h keep every warp finite), else an
 * error at @n: "<what> must be -bound .. bound<unit>, got v". */
static int
bounded (Reader * r, JsonNode * n, double v, double bound, const char *what, const char *unit)
{
  if (fabs (v) <= bound)
    return 1;
  fail_at (r, GCV_ERROR_INVALID, offset_of (r, n, FALSE), "%s must be %g .. %g%s, got %g", what, -bound, bound,
      unit, v);
  return 0;
}

static int
parse_intrinsics (Reader * r, JsonNode * n, const char *cam, double *K)
{
  static const char *const keys[] = { "fx", "fy", "cx", "cy", "skew", NULL };
  const char *form = "([fx, s, cx, 0, fy, cy, 0, 0, 1])";
  char path[64], eb[160];
  int i;

  snprintf (path, sizeof (path), "%s.intrinsics", cam);
  if (JSON_NODE_HOLDS_OBJECT (n)) {
    double v[5] = { 0, 0, 0, 0, 0 };
    JsonNode *m;

    if (!check_keys (r, n, path, keys, "fx, fy, cx, cy, skew"))
      return 0;
    for (i = 0; i < 5; i++) {
      m = member (n, keys[i]);
      if (m == NULL) {
        if (i == 4)
          continue;             /* skew: 0 */
        fail_at (r, GCV_ERROR_INVALID, offset_of (r, n, FALSE), "missing \"%s\" in %s (fx, fy, cx, cy are required)",
            keys[i], path);
        return 0;
      }
      snprintf (eb, sizeof (eb), "%s.%s", path, keys[i]);
      if (!number_of (r, m, eb, &v[i]))
        return 0;
      if (i < 2 && !focal_ok (v[i])) {
        fail_at (r, GCV_ERROR_INVALID, offset_of (r, m, FALSE), "%s must be %g .. %g pixels, got %g", eb,
            GCV_DIBR_MIN_FOCAL, GCV_DIBR_MAX_FOCAL, v[i]);
        return 0;
      }
      if (i >= 2 && !bounded (r, m, v[i], GCV_DIBR_MAX_PRINCIPAL, eb, " pixels"))
        return 0;
    }
    K[0] = v[0];
    K[1] = v[4];
    K[2] = v[2];
    K[3] = 0.0;
    K[4] = v[1];
    K[5] = v[3];
    K[6] = 0.0;
    K[7] = 0.0;
    K[8] = 1.0;
    return 1;
  }
  if (!JSON_NODE_HOLDS_ARRAY (n)) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, n, FALSE), "expected an array of 9 numbers %s or an object with "
        "fx, fy, cx, cy in %s, got %s", form, path, type_show (n));
    return 0;
  }
  if (!numbers_of (r, n, path, 9, form, K))
    return 0;
  if (K[3] != 0.0) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, element (n, 3), FALSE), "%s[3] must be 0 %s, got %g", path, form,
        K[3]);
    return 0;
  }
  if (K[6] != 0.0 || K[7] != 0.0 || K[8] != 1.0) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, element (n, 6), FALSE), "%s: the last row must be 0 0 1, got %g "
        "%g %g", path, K[6], K[7], K[8]);
    return 0;
  }
  for (i = 0; i < 5; i += 4) {
    if (!focal_ok (K[i])) {
      fail_at (r, GCV_ERROR_INVALID, offset_of (r, element (n, i), FALSE), "%s: %s (%s[%d]) must be %g .. %g "
          "pixels, got %g", path, i ? "fy" : "fx", path, i, GCV_DIBR_MIN_FOCAL, GCV_DIBR_MAX_FOCAL, K[i]);
      return 0;
    }
  }
  for (i = 1; i < 6; i++) {
    const char *name = i == 1 ? "skew" : i == 2 ? "cx" : i == 5 ? "cy" : NULL;
    if (name != NULL) {
      snprintf (eb, sizeof (eb), "%s: %s (%s[%d])", path, name, path, i);
      if (!bounded (r, element (n, i), K[i], GCV_DIBR_MAX_PRINCIPAL, eb, " pixels"))
        return 0;
    }
  }
  return 1;
}

static int
parse_extrinsics (Reader * r, JsonNode * n, const char *cam, double *E)
{
  char path[64], eb[96];
  double det;
  int i;

  snprintf (path, sizeof (path), "%s.extrinsics", cam);
  if (!numbers_of (r, n, path, 16, "(a 4x4 matrix, row-major, world -> camera)", E))
    return 0;
  if (E[12] != 0.0 || E[13] != 0.0 || E[14] != 0.0 || E[15] != 1.0) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, element (n, 12), FALSE), "%s: the last row must be 0 0 0 1, got "
        "%g %g %g %g", path, E[12], E[13], E[14], E[15]);
    return 0;
  }
  for (i = 0; i < 12; i++) {
    gboolean translation = i % 4 == 3;
    snprintf (eb, sizeof (eb), "%s[%d] (%s)", path, i, translation ? "a translation" : "in the 3x3 part");
    if (!bounded (r, element (n, i), E[i], translation ? GCV_DIBR_MAX_TRANSLATION : GCV_DIBR_MAX_LINEAR, eb,
            translation ? " z units" : ""))
      return 0;
  }
  det = E[0] * (E[5] * E[10] - E[6] * E[9]) + E[1] * (E[6] * E[8] - E[4] * E[10])
      + E[2] * (E[4] * E[9] - E[5] * E[8]);
  if (!(fabs (det) > 1e-12) || !isfinite (det)) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, n, FALSE), "%s: the 3x3 part must be invertible (|det| > 1e-12, "
        "finite), got det %g", path, det);
    return 0;
  }
  return 1;
}

static int
parse_camera (Reader * r, JsonNode * n, const char *cam, GcvDibrCamera * c)
{
  static const char *const keys[] = { "intrinsics", "extrinsics", NULL };
  JsonNode *m;
  int i;

  if (!JSON_NODE_HOLDS_OBJECT (n)) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, n, FALSE), "expected an object { \"intrinsics\": ..., "
        "\"extrinsics\": ... } in %s, got %s", cam, type_show (n));
    return 0;
  }
  if (!check_keys (r, n, cam, keys, "intrinsics, extrinsics"))
    return 0;
  m = member (n, "intrinsics");
  if (m == NULL) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, n, FALSE), "missing \"intrinsics\" in %s", cam);
    return 0;
  }
  if (!parse_intrinsics (r, m, cam, c->K))
    return 0;
  m = member (n, "extrinsics");
  if (m == NULL) {
    for (i = 0; i < 16; i++)
      c->E[i] = (i % 5 == 0) ? 1.0 : 0.0;
    return 1;
  }
  return parse_extrinsics (r, m, cam, c->E);
}

/* The cameras from json-glib's tree of the checked text. */
static int
read_cameras (Reader * r, GcvDibrCamera * cams)
{
  static const char *const keys[] = { "source", "virtual", NULL };
  JsonParser *parser = json_parser_new ();
  GError *gerr = NULL;
  JsonNode *root, *m;
  guint n_values = 0, n_keys = 0;
  int i, ok = 0;

  if (!json_parser_load_from_data (parser, r->text, (gssize) r->len, &gerr)) {
    /* the check passed: json-glib should read the text too */
    fail_at (r, GCV_ERROR_INVALID, 0, "json-glib cannot read it: %s", gerr->message);
    g_error_free (gerr);
    goto out;
  }
  root = json_parser_get_root (parser);
  r->where = g_hash_table_new (NULL, NULL);
  r->key_where = g_hash_table_new (NULL, NULL);
  place (r, root, 0, &n_values, &n_keys);
  if (n_values != r->values->len || n_keys != r->keys->len || g_hash_table_size (r->where) != n_values) {
    fail_at (r, GCV_ERROR_INVALID, 0, "json-glib read %u values and %u keys where the check found %u and %u",
        n_values, n_keys, r->values->len, r->keys->len);
    goto out;
  }

  if (!JSON_NODE_HOLDS_OBJECT (root)) {
    fail_at (r, GCV_ERROR_INVALID, offset_of (r, root, FALSE), "expected a JSON object with \"source\" and "
        "\"virtual\" at the top level, got %s", type_show (root));
    goto out;
  }
  if (!check_keys (r, root, "", keys, "source, virtual"))
    goto out;
  for (i = 0; i < 2; i++) {
    m = member (root, keys[i]);
    if (m == NULL) {
      fail_at (r, GCV_ERROR_INVALID, offset_of (r, root, FALSE), "missing \"%s\" (the %s camera) in the "
          "top-level object", keys[i], keys[i]);
      goto out;
    }
    if (!parse_camera (r, m, keys[i], &cams[i]))
      goto out;
  }
  ok = 1;

out:
  g_object_unref (parser);
  return ok;
}

GcvStatus
gcv_dibr_camera_file_parse (const char *text, size_t len, const char *name_for_messages, GcvDibrCamera * source,
    GcvDibrCamera * virt, GcvError * err)
{
  Reader r;
  GcvDibrCamera cams[2];

  memset (&r, 0, sizeof (r));
  r.text = text != NULL ? text : "";
  r.len = text != NULL ? len : 0;
  r.name = name_for_messages != NULL ? name_for_messages : "camera file";
  r.err = err;
  r.status = GCV_OK;
  r.values = g_array_new (FALSE, FALSE, sizeof (size_t));
  r.keys = g_array_new (FALSE, FALSE, sizeof (size_t));
  memset (cams, 0, sizeof (cams));

  if (check_text (&r) && read_cameras (&r, cams)) {
    if (source != NULL)
      *source = cams[0];
    if (virt != NULL)
      *virt = cams[1];
  }
  g_array_free (r.values, TRUE);
  g_array_free (r.keys, TRUE);
  if (r.where)
    g_hash_table_destroy (r.where);
  if (r.key_where)
    g_hash_table_destroy (r.key_where);
  return r.status;
}

GcvStatus
gcv_dibr_camera_file_load (const char *path, GcvDibrCamera * source, GcvDibrCamera * virt, GcvError * err)
{
  char *buf;
  size_t n;
  GcvStatus status = gcv_read_settings_file (path, GCV_DIBR_CAMERA_FILE_MAX_BYTES, "camera file", &buf, &n, err);

  if (status != GCV_OK)
    return status;
  status = gcv_dibr_camera_file_parse (buf, n, path, source, virt, err);
  free (buf);
  return status;
}
