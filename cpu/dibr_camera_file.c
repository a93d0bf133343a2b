/* gst-cuda-video: the DIBR full mode's camera file (format in dibr.h).
 *
 * A small strict JSON reader (RFC 8259: objects, arrays, numbers with
 * exponents, strings with escapes and UTF-8, true / false / null) builds a
 * tree of the file; a second pass checks the tree against the camera
 * format.  Every node keeps the byte offset of its first character, so both
 * passes can name the line and column of what is wrong; the parser also
 * keeps the path of the value it is in ("source.intrinsics[4]") for its
 * syntax errors.  Only the first error is reported.  No library: the
 * project has no JSON dependency and a camera file is a few hundred bytes.
 *
 * Numbers: the grammar is checked here, the conversion is strtod's (glibc
 * rounds correctly, so "1000.5" lands in the camera exactly as the double
 * nearest to it), with the '.' replaced by the locale's decimal point so a
 * program that called setlocale() (GStreamer applications do) reads the
 * same values.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "dibr.h"

#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef enum {
  J_NULL,
  J_BOOL,
  J_NUMBER,
  J_STRING,
  J_ARRAY,
  J_OBJECT,
} JType;

typedef struct JNode JNode;
struct JNode {
  JType type;
  size_t offset;                /* byte offset of the value's first character */
  double number;                /* J_NUMBER (finite) */
  int boolean;                  /* J_BOOL */
  char *str;                    /* J_STRING: decoded, NUL-terminated (may hold NULs: str_len) */
  size_t str_len;
  /* a member of an object: its key (decoded like a string) and the offset
   * of the key's opening quote */
  char *key;
  size_t key_len;
  size_t key_offset;
  JNode *first, *last, *next;   /* children in file order; next sibling */
  int n_children;
};

typedef struct {
  const char *text;
  size_t len;
  size_t pos;
  const char *name;
  int n_values;
  GcvError *err;
  GcvStatus status;             /* GCV_OK until the first error */
  char path[256];               /* where the parser is: "source.intrinsics[4]" */
} JParser;

/* ---- messages ------------------------------------------------------------ */

/* Line and column (from 1; columns in characters: UTF-8 continuation bytes
 * do not count) of byte offset off. */
static void
line_col (const char *text, size_t len, size_t off, int *line, int *col)
{
  size_t i;
  int l = 1, c = 1;

  if (off > len)
    off = len;
  for (i = 0; i < off; i++) {
    unsigned char b = (unsigned char) text[i];
    if (b == '\n') {
      l++;
      c = 1;
    } else if ((b & 0xc0) != 0x80) {
      c++;
    }
  }
  *line = l;
  *col = c;
}

/* Records the first error: "<name>:<line>:<col>: <message>". */
static void
fail_at (JParser * p, GcvStatus status, size_t off, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__ ((format (printf, 4, 5)))
#endif
    ;

static void
fail_at (JParser * p, GcvStatus status, size_t off, const char *fmt, ...)
{
  char msg[400];
  va_list ap;
  int line, col;

  if (p->status != GCV_OK)
    return;
  p->status = status;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof (msg), fmt, ap);
  va_end (ap);
  line_col (p->text, p->len, off, &line, &col);
  gcv_error_set (p->err, status, "%s:%d:%d: %s", p->name, line, col, msg);
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
got_show (JParser * p, size_t off, char *buf, size_t size)
{
  const char *t = p->text;
  size_t n = 0;

  if (off >= p->len)
    return "the end of the file";
  while (off + n < p->len && n < 24 && ((t[off + n] >= 'a' && t[off + n] <= 'z')
          || (t[off + n] >= 'A' && t[off + n] <= 'Z') || (t[off + n] >= '0' && t[off + n] <= '9')
          || t[off + n] == '_' || t[off + n] == '+' || t[off + n] == '-' || t[off + n] == '.'))
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

static const char *
type_show (JType t)
{
  switch (t) {
    case J_NULL:
      return "null";
    case J_BOOL:
      return "a boolean";
    case J_NUMBER:
      return "a number";
    case J_STRING:
      return "a string";
    case J_ARRAY:
      return "an array";
    case J_OBJECT:
      return "an object";
  }
  return "?";
}

/* ---- the JSON reader ------------------------------------------------------ */

static void
node_free (JNode * n)
{
  while (n != NULL) {
    JNode *next = n->next;
    node_free (n->first);       /* depth is limited: the recursion is short */
    free (n->str);
    free (n->key);
    free (n);
    n = next;
  }
}

static void
skip_ws (JParser * p)
{
  while (p->pos < p->len) {
    char c = p->text[p->pos];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
      break;
    p->pos++;
  }
}

static int
peek (JParser * p)
{
  return p->pos < p->len ? (unsigned char) p->text[p->pos] : -1;
}

static JNode *
node_new (JParser * p, JType type)
{
  JNode *n = calloc (1, sizeof (JNode));

  if (n == NULL) {
    fail_at (p, GCV_ERROR_NO_MEMORY, p->pos, "out of memory");
    return NULL;
  }
  n->type = type;
  n->offset = p->pos;
  return n;
}

static void
node_append (JNode * parent, JNode * child)
{
  if (parent->last != NULL)
    parent->last->next = child;
  else
    parent->first = child;
  parent->last = child;
  parent->n_children++;
}

static int
hex4 (const char *s, unsigned *out)
{
  unsigned v = 0;
  int i;

  for (i = 0; i < 4; i++) {
    char c = s[i];
    v <<= 4;
    if (c >= '0' && c <= '9')
      v |= (unsigned) (c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= (unsigned) (c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= (unsigned) (c - 'A' + 10);
    else
      return 0;
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

static size_t
utf8_put (char *o, unsigned cp)
{
  if (cp < 0x80) {
    o[0] = (char) cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char) (0xc0 | (cp >> 6));
    o[1] = (char) (0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char) (0xe0 | (cp >> 12));
    o[1] = (char) (0x80 | ((cp >> 6) & 0x3f));
    o[2] = (char) (0x80 | (cp & 0x3f));
    return 3;
  }
  o[0] = (char) (0xf0 | (cp >> 18));
  o[1] = (char) (0x80 | ((cp >> 12) & 0x3f));
  o[2] = (char) (0x80 | ((cp >> 6) & 0x3f));
  o[3] = (char) (0x80 | (cp & 0x3f));
  return 4;
}

/* A string at p->pos (the opening quote), decoded into a malloc'd buffer.
 * The raw text is first scanned to its closing quote, so the buffer has
 * the raw length (an escape never decodes to more bytes than it takes). */
static int
parse_string (JParser * p, char **out, size_t *out_len)
{
  const char *t = p->text;
  size_t start = p->pos, i = p->pos + 1, o = 0;
  char *buf, wb[300];

  while (i < p->len && t[i] != '"') {
    if (t[i] == '\\' && i + 1 < p->len)
      i++;
    i++;
  }
  if (i >= p->len) {
    fail_at (p, GCV_ERROR_INVALID, start, "unterminated string (no closing '\"')%s",
        where (p->path, wb, sizeof (wb)));
    return 0;
  }
  buf = malloc (i - start);
  if (buf == NULL) {
    fail_at (p, GCV_ERROR_NO_MEMORY, start, "out of memory");
    return 0;
  }
  i = start + 1;
  while (t[i] != '"') {
    unsigned char c = (unsigned char) t[i];
    if (c < 0x20) {
      fail_at (p, GCV_ERROR_INVALID, i, "control character (byte 0x%02x) in a string%s: write it as \\u%04x",
          c, where (p->path, wb, sizeof (wb)), c);
      goto error;
    } else if (c == '\\') {
      char e = t[i + 1];
      unsigned cp;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          buf[o++] = e;
          break;
        case 'b':
          buf[o++] = '\b';
          break;
        case 'f':
          buf[o++] = '\f';
          break;
        case 'n':
          buf[o++] = '\n';
          break;
        case 'r':
          buf[o++] = '\r';
          break;
        case 't':
          buf[o++] = '\t';
          break;
        case 'u':
          /* the scan above stopped at the closing quote: 4 hex digits
           * cannot run past the end unnoticed, the quote is no hex digit */
          if (!hex4 (t + i + 2, &cp)) {
            fail_at (p, GCV_ERROR_INVALID, i, "expected 4 hex digits after \\u%s", where (p->path, wb, sizeof (wb)));
            goto error;
          }
          if (cp >= 0xd800 && cp <= 0xdbff) {
            unsigned lo;
            if (t[i + 6] != '\\' || t[i + 7] != 'u' || !hex4 (t + i + 8, &lo) || lo < 0xdc00 || lo > 0xdfff) {
              fail_at (p, GCV_ERROR_INVALID, i, "unpaired UTF-16 surrogate \\u%04x%s", cp,
                  where (p->path, wb, sizeof (wb)));
              goto error;
            }
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            i += 6;
          } else if (cp >= 0xdc00 && cp <= 0xdfff) {
            fail_at (p, GCV_ERROR_INVALID, i, "unpaired UTF-16 surrogate \\u%04x%s", cp,
                where (p->path, wb, sizeof (wb)));
            goto error;
          }
          o += utf8_put (buf + o, cp);
          i += 4;
          break;
        default:
          fail_at (p, GCV_ERROR_INVALID, i, "invalid escape '\\%c' in a string%s (JSON has \\\" \\\\ \\/ \\b \\f "
              "\\n \\r \\t \\uXXXX)", (e >= 0x20 && e < 0x7f) ? e : '?', where (p->path, wb, sizeof (wb)));
          goto error;
      }
      i += 2;
    } else if (c < 0x80) {
      buf[o++] = (char) c;
      i++;
    } else {
      int n = utf8_len ((const unsigned char *) t + i, p->len - i);
      if (n == 0) {
        fail_at (p, GCV_ERROR_INVALID, i, "invalid UTF-8 (byte 0x%02x) in a string%s", c,
            where (p->path, wb, sizeof (wb)));
        goto error;
      }
      memcpy (buf + o, t + i, (size_t) n);
      o += (size_t) n;
      i += (size_t) n;
    }
  }
  buf[o] = '\0';
  p->pos = i + 1;
  *out = buf;
  *out_len = o;
  return 1;

error:
  free (buf);
  return 0;
}

static int
is_digit (int c)
{
  return c >= '0' && c <= '9';
}

/* A number at p->pos: the JSON grammar -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
 * checked here, the value by strtod; it must be finite. */
static int
parse_number (JParser * p, double *out)
{
  const char *t = p->text;
  size_t start = p->pos, i = p->pos, n, k;
  char wb[300], gb[64], small[128], *buf;
  const char *dp = localeconv ()->decimal_point;
  size_t dpl = (dp != NULL && dp[0] != '\0') ? strlen (dp) : 0;
  char *end;
  double v;

  if (dpl == 0)
    dp = ".", dpl = 1;
  if (i < p->len && t[i] == '-')
    i++;
  if (i < p->len && t[i] == '0') {
    i++;
    if (i < p->len && is_digit (t[i])) {
      fail_at (p, GCV_ERROR_INVALID, start, "leading zeros are not allowed in a JSON number%s",
          where (p->path, wb, sizeof (wb)));
      return 0;
    }
  } else if (i < p->len && is_digit (t[i])) {
    while (i < p->len && is_digit (t[i]))
      i++;
  } else {
    const char *got = got_show (p, i, gb, sizeof (gb));
    fail_at (p, GCV_ERROR_INVALID, i, "expected a digit after '-'%s, got %s%s", where (p->path, wb, sizeof (wb)),
        got, nan_hint (got));
    return 0;
  }
  if (i < p->len && t[i] == '.') {
    i++;
    if (!(i < p->len && is_digit (t[i]))) {
      fail_at (p, GCV_ERROR_INVALID, i, "expected a digit after the decimal point%s, got %s",
          where (p->path, wb, sizeof (wb)), got_show (p, i, gb, sizeof (gb)));
      return 0;
    }
    while (i < p->len && is_digit (t[i]))
      i++;
  }
  if (i < p->len && (t[i] == 'e' || t[i] == 'E')) {
    i++;
    if (i < p->len && (t[i] == '+' || t[i] == '-'))
      i++;
    if (!(i < p->len && is_digit (t[i]))) {
      fail_at (p, GCV_ERROR_INVALID, i, "expected a digit in the exponent%s, got %s",
          where (p->path, wb, sizeof (wb)), got_show (p, i, gb, sizeof (gb)));
      return 0;
    }
    while (i < p->len && is_digit (t[i]))
      i++;
  }
  /* a copy for strtod: NUL-terminated, the locale's decimal point */
  n = i - start;
  buf = n + dpl < sizeof (small) ? small : malloc (n + dpl);
  if (buf == NULL) {
    fail_at (p, GCV_ERROR_NO_MEMORY, start, "out of memory");
    return 0;
  }
  for (k = 0; start + k < i && t[start + k] != '.'; k++)
    buf[k] = t[start + k];
  if (start + k < i) {
    size_t rest = i - (start + k + 1);
    memcpy (buf + k, dp, dpl);
    memcpy (buf + k + dpl, t + start + k + 1, rest);
    buf[k + dpl + rest] = '\0';
  } else {
    buf[k] = '\0';
  }
  errno = 0;
  v = strtod (buf, &end);
  k = (size_t) (end - buf);
  n = strlen (buf);
  if (buf != small)
    free (buf);
  if (k != n) {
    fail_at (p, GCV_ERROR_INVALID, start, "cannot convert the number %.*s%s", (int) (i - start < 40 ? i - start : 40),
        t + start, where (p->path, wb, sizeof (wb)));
    return 0;
  }
  if (!isfinite (v)) {
    fail_at (p, GCV_ERROR_INVALID, start, "number %.*s%s is out of range%s (a double holds at most about "
        "1.8e308)", (int) (i - start < 40 ? i - start : 40), t + start, i - start > 40 ? "..." : "",
        where (p->path, wb, sizeof (wb)));
    return 0;
  }
  p->pos = i;
  *out = v;
  return 1;
}

static JNode *parse_value (JParser * p, int depth);

static JNode *
parse_array (JParser * p, int depth)
{
  JNode *a = node_new (p, J_ARRAY);
  size_t saved = strlen (p->path);
  char wb[300], gb[64];

  if (a == NULL)
    return NULL;
  p->pos++;
  skip_ws (p);
  if (peek (p) == ']') {
    p->pos++;
    return a;
  }
  for (;;) {
    JNode *v;
    snprintf (p->path + saved, sizeof (p->path) - saved, "[%d]", a->n_children);
    skip_ws (p);
    if (peek (p) == ']') {
      fail_at (p, GCV_ERROR_INVALID, p->pos, "expected a value%s, got ']' (a trailing comma?)",
          where (p->path, wb, sizeof (wb)));
      goto error;
    }
    v = parse_value (p, depth + 1);
    if (v == NULL)
      goto error;
    node_append (a, v);
    p->path[saved] = '\0';
    skip_ws (p);
    if (peek (p) == ',') {
      p->pos++;
    } else if (peek (p) == ']') {
      p->pos++;
      return a;
    } else {
      fail_at (p, GCV_ERROR_INVALID, p->pos, "expected ',' or ']' after an element of the array%s, got %s",
          where (p->path, wb, sizeof (wb)), got_show (p, p->pos, gb, sizeof (gb)));
      goto error;
    }
  }

error:
  p->path[saved] = '\0';
  node_free (a);
  return NULL;
}

static JNode *
parse_object (JParser * p, int depth)
{
  JNode *o = node_new (p, J_OBJECT);
  size_t saved = strlen (p->path);
  char wb[300], gb[64], kb[48];

  if (o == NULL)
    return NULL;
  p->pos++;
  skip_ws (p);
  if (peek (p) == '}') {
    p->pos++;
    return o;
  }
  for (;;) {
    JNode *v, *m;
    char *key = NULL;
    size_t key_len, key_off;

    skip_ws (p);
    key_off = p->pos;
    if (peek (p) != '"') {
      fail_at (p, GCV_ERROR_INVALID, p->pos, "expected a key in double quotes%s, got %s%s",
          where (p->path, wb, sizeof (wb)), got_show (p, p->pos, gb, sizeof (gb)),
          peek (p) == '}' ? " (a trailing comma?)" : "");
      goto error;
    }
    if (!parse_string (p, &key, &key_len))
      goto error;
    for (m = o->first; m != NULL; m = m->next)
      if (m->key_len == key_len && memcmp (m->key, key, key_len) == 0)
        break;
    if (m != NULL) {
      fail_at (p, GCV_ERROR_INVALID, key_off, "duplicate key \"%s\"%s", key_show (key, key_len, kb, sizeof (kb)),
          where (p->path, wb, sizeof (wb)));
      free (key);
      goto error;
    }
    skip_ws (p);
    if (peek (p) != ':') {
      fail_at (p, GCV_ERROR_INVALID, p->pos, "expected ':' after the key \"%s\"%s, got %s",
          key_show (key, key_len, kb, sizeof (kb)), where (p->path, wb, sizeof (wb)),
          got_show (p, p->pos, gb, sizeof (gb)));
      free (key);
      goto error;
    }
    p->pos++;
    skip_ws (p);
    snprintf (p->path + saved, sizeof (p->path) - saved, "%s%s", saved > 0 ? "." : "",
        key_show (key, key_len, kb, sizeof (kb)));
    v = parse_value (p, depth + 1);
    p->path[saved] = '\0';
    if (v == NULL) {
      free (key);
      goto error;
    }
    v->key = key;
    v->key_len = key_len;
    v->key_offset = key_off;
    node_append (o, v);
    skip_ws (p);
    if (peek (p) == ',') {
      p->pos++;
    } else if (peek (p) == '}') {
      p->pos++;
      return o;
    } else {
      fail_at (p, GCV_ERROR_INVALID, p->pos, "expected ',' or '}' after the value of \"%s\"%s, got %s",
          key_show (key, key_len, kb, sizeof (kb)), where (p->path, wb, sizeof (wb)),
          got_show (p, p->pos, gb, sizeof (gb)));
      goto error;
    }
  }

error:
  p->path[saved] = '\0';
  node_free (o);
  return NULL;
}

static int
literal (JParser * p, const char *word)
{
  size_t n = strlen (word);

  return p->len - p->pos >= n && memcmp (p->text + p->pos, word, n) == 0;
}

static JNode *
parse_value (JParser * p, int depth)
{
  char wb[300], gb[64];
  int c = peek (p);
  JNode *n;

  if (depth > GCV_DIBR_CAMERA_FILE_MAX_DEPTH) {
    fail_at (p, GCV_ERROR_INVALID, p->pos, "nesting deeper than %d levels%s", GCV_DIBR_CAMERA_FILE_MAX_DEPTH,
        where (p->path, wb, sizeof (wb)));
    return NULL;
  }
  if (++p->n_values > GCV_DIBR_CAMERA_FILE_MAX_VALUES) {
    fail_at (p, GCV_ERROR_INVALID, p->pos, "more than %d values in the file (a camera file has about 60)",
        GCV_DIBR_CAMERA_FILE_MAX_VALUES);
    return NULL;
  }
  if (c == '{')
    return parse_object (p, depth);
  if (c == '[')
    return parse_array (p, depth);
  if (c == '"') {
    n = node_new (p, J_STRING);
    if (n != NULL && !parse_string (p, &n->str, &n->str_len)) {
      node_free (n);
      n = NULL;
    }
    return n;
  }
  if (c == '-' || is_digit (c)) {
    n = node_new (p, J_NUMBER);
    if (n != NULL && !parse_number (p, &n->number)) {
      node_free (n);
      n = NULL;
    }
    return n;
  }
  if (literal (p, "true") || literal (p, "false") || literal (p, "null")) {
    n = node_new (p, c == 'n' ? J_NULL : J_BOOL);
    if (n != NULL) {
      n->boolean = c == 't';
      p->pos += c == 'f' ? 5 : 4;
    }
    return n;
  }
  {
    const char *got = got_show (p, p->pos, gb, sizeof (gb));
    fail_at (p, GCV_ERROR_INVALID, p->pos, "expected a value (number, string, object, array, true, false or "
        "null)%s, got %s%s", where (p->path, wb, sizeof (wb)), got,
        c == '\'' ? " (JSON strings take double quotes)" : nan_hint (got));
  }
  return NULL;
}

/* ---- the camera format ---------------------------------------------------- */

static JNode *
member (JNode * obj, const char *key)
{
  JNode *m;
  size_t n = strlen (key);

  for (m = obj->first; m != NULL; m = m->next)
    if (m->key_len == n && memcmp (m->key, key, n) == 0)
      return m;
  return NULL;
}

/* Unknown keys of obj (at path, "the top level" when empty): an error
 * naming the expected ones. */
static int
check_keys (JParser * p, JNode * obj, const char *path, const char *const *keys, const char *expected)
{
  JNode *m;
  char kb[48];

  for (m = obj->first; m != NULL; m = m->next) {
    int i, known = 0;
    for (i = 0; keys[i] != NULL; i++)
      if (m->key_len == strlen (keys[i]) && memcmp (m->key, keys[i], m->key_len) == 0)
        known = 1;
    if (!known) {
      fail_at (p, GCV_ERROR_INVALID, m->key_offset, "unknown key \"%s\" %s%s (expected %s)",
          key_show (m->key, m->key_len, kb, sizeof (kb)), path[0] ? "in " : "at the top level", path, expected);
      return 0;
    }
  }
  return 1;
}

static int
number_of (JParser * p, JNode * n, const char *path, double *out)
{
  if (n->type != J_NUMBER) {
    fail_at (p, GCV_ERROR_INVALID, n->offset, "expected a number in %s, got %s%s", path, type_show (n->type),
        n->type == J_ARRAY ? " (write the matrix as one flat list, row-major)" : "");
    return 0;
  }
  *out = n->number;
  return 1;
}

/* An array of exactly count numbers into v. */
static int
numbers_of (JParser * p, JNode * a, const char *path, int count, const char *form, double *v)
{
  JNode *m;
  int i;
  char eb[300];

  if (a->type != J_ARRAY) {
    fail_at (p, GCV_ERROR_INVALID, a->offset, "expected an array of %d numbers %s in %s, got %s", count, form,
        path, type_show (a->type));
    return 0;
  }
  if (a->n_children != count) {
    fail_at (p, GCV_ERROR_INVALID, a->offset, "%s must have %d numbers, got %d %s", path, count, a->n_children,
        form);
    return 0;
  }
  for (m = a->first, i = 0; m != NULL; m = m->next, i++) {
    snprintf (eb, sizeof (eb), "%s[%d]", path, i);
    if (!number_of (p, m, eb, &v[i]))
      return 0;
  }
  return 1;
}

static JNode *
child_at (JNode * a, int i)
{
  JNode *m = a->first;

  while (i-- > 0)
    m = m->next;
  return m;
}

/* A focal length (fx or fy) in pixels the renderer can use: K stays well
 * conditioned. */
static int
focal_ok (double f)
{
  return f >= GCV_DIBR_MIN_FOCAL && f <= GCV_DIBR_MAX_FOCAL;
}

static int
parse_intrinsics (JParser * p, JNode * n, const char *cam, double *K)
{
  static const char *const keys[] = { "fx", "fy", "cx", "cy", "skew", NULL };
  const char *form = "([fx, s, cx, 0, fy, cy, 0, 0, 1])";
  char path[64], eb[96];
  int i;

  snprintf (path, sizeof (path), "%s.intrinsics", cam);
  if (n->type == J_OBJECT) {
    double v[5] = { 0, 0, 0, 0, 0 };
    JNode *m;

    if (!check_keys (p, n, path, keys, "fx, fy, cx, cy, skew"))
      return 0;
    for (i = 0; i < 5; i++) {
      m = member (n, keys[i]);
      if (m == NULL) {
        if (i == 4)
          continue;             /* skew: 0 */
        fail_at (p, GCV_ERROR_INVALID, n->offset, "missing \"%s\" in %s (fx, fy, cx, cy are required)", keys[i],
            path);
        return 0;
      }
      snprintf (eb, sizeof (eb), "%s.%s", path, keys[i]);
      if (!number_of (p, m, eb, &v[i]))
        return 0;
      if (i < 2 && !focal_ok (v[i])) {
        fail_at (p, GCV_ERROR_INVALID, m->offset, "%s must be %g .. %g pixels, got %g", eb, GCV_DIBR_MIN_FOCAL,
            GCV_DIBR_MAX_FOCAL, v[i]);
        return 0;
      }
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
  if (n->type != J_ARRAY) {
    fail_at (p, GCV_ERROR_INVALID, n->offset, "expected an array of 9 numbers %s or an object with fx, fy, cx, cy "
        "in %s, got %s", form, path, type_show (n->type));
    return 0;
  }
  if (!numbers_of (p, n, path, 9, form, K))
    return 0;
  if (K[3] != 0.0) {
    fail_at (p, GCV_ERROR_INVALID, child_at (n, 3)->offset, "%s[3] must be 0 %s, got %g", path, form, K[3]);
    return 0;
  }
  if (K[6] != 0.0 || K[7] != 0.0 || K[8] != 1.0) {
    fail_at (p, GCV_ERROR_INVALID, child_at (n, 6)->offset, "%s: the last row must be 0 0 1, got %g %g %g",
        path, K[6], K[7], K[8]);
    return 0;
  }
  if (!focal_ok (K[0])) {
    fail_at (p, GCV_ERROR_INVALID, child_at (n, 0)->offset, "%s: fx (%s[0]) must be %g .. %g pixels, got %g",
        path, path, GCV_DIBR_MIN_FOCAL, GCV_DIBR_MAX_FOCAL, K[0]);
    return 0;
  }
  if (!focal_ok (K[4])) {
    fail_at (p, GCV_ERROR_INVALID, child_at (n, 4)->offset, "%s: fy (%s[4]) must be %g .. %g pixels, got %g",
        path, path, GCV_DIBR_MIN_FOCAL, GCV_DIBR_MAX_FOCAL, K[4]);
    return 0;
  }
  return 1;
}

static int
parse_extrinsics (JParser * p, JNode * n, const char *cam, double *E)
{
  char path[64];
  double det;

  snprintf (path, sizeof (path), "%s.extrinsics", cam);
  if (!numbers_of (p, n, path, 16, "(a 4x4 matrix, row-major, world -> camera)", E))
    return 0;
  if (E[12] != 0.0 || E[13] != 0.0 || E[14] != 0.0 || E[15] != 1.0) {
    fail_at (p, GCV_ERROR_INVALID, child_at (n, 12)->offset, "%s: the last row must be 0 0 0 1, got %g %g %g %g",
        path, E[12], E[13], E[14], E[15]);
    return 0;
  }
  det = E[0] * (E[5] * E[10] - E[6] * E[9]) + E[1] * (E[6] * E[8] - E[4] * E[10])
      + E[2] * (E[4] * E[9] - E[5] * E[8]);
  if (!(fabs (det) > 1e-12) || !isfinite (det)) {
    fail_at (p, GCV_ERROR_INVALID, n->offset, "%s: the 3x3 part must be invertible (|det| > 1e-12, finite), "
        "got det %g", path, det);
    return 0;
  }
  return 1;
}

static int
parse_camera (JParser * p, JNode * n, const char *cam, GcvDibrCamera * c)
{
  static const char *const keys[] = { "intrinsics", "extrinsics", NULL };
  JNode *m;
  int i;

  if (n->type != J_OBJECT) {
    fail_at (p, GCV_ERROR_INVALID, n->offset, "expected an object { \"intrinsics\": ..., \"extrinsics\": ... } "
        "in %s, got %s", cam, type_show (n->type));
    return 0;
  }
  if (!check_keys (p, n, cam, keys, "intrinsics, extrinsics"))
    return 0;
  m = member (n, "intrinsics");
  if (m == NULL) {
    fail_at (p, GCV_ERROR_INVALID, n->offset, "missing \"intrinsics\" in %s", cam);
    return 0;
  }
  if (!parse_intrinsics (p, m, cam, c->K))
    return 0;
  m = member (n, "extrinsics");
  if (m == NULL) {
    for (i = 0; i < 16; i++)
      c->E[i] = (i % 5 == 0) ? 1.0 : 0.0;
    return 1;
  }
  return parse_extrinsics (p, m, cam, c->E);
}

GcvStatus
gcv_dibr_camera_file_parse (const char *text, size_t len, const char *name_for_messages, GcvDibrCamera * source,
    GcvDibrCamera * virt, GcvError * err)
{
  static const char *const keys[] = { "source", "virtual", NULL };
  JParser p;
  JNode *root = NULL, *m;
  GcvDibrCamera cams[2];
  char gb[64];
  int i;

  memset (&p, 0, sizeof (p));
  p.text = text;
  p.len = text != NULL ? len : 0;
  p.name = name_for_messages != NULL ? name_for_messages : "camera file";
  p.err = err;
  p.status = GCV_OK;
  memset (cams, 0, sizeof (cams));

  /* a UTF-8 byte-order mark, as some editors write */
  if (p.len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    p.pos = 3;
  skip_ws (&p);
  if (p.pos >= p.len) {
    fail_at (&p, GCV_ERROR_INVALID, p.pos, "the file is empty (expected a JSON object with \"source\" and "
        "\"virtual\")");
    return p.status;
  }
  root = parse_value (&p, 1);
  if (root == NULL)
    return p.status;
  skip_ws (&p);
  if (p.pos < p.len) {
    fail_at (&p, GCV_ERROR_INVALID, p.pos, "unexpected %s after the end of the JSON value (only white space may "
        "follow it)", got_show (&p, p.pos, gb, sizeof (gb)));
    goto out;
  }

  if (root->type != J_OBJECT) {
    fail_at (&p, GCV_ERROR_INVALID, root->offset, "expected a JSON object with \"source\" and \"virtual\" at the "
        "top level, got %s", type_show (root->type));
    goto out;
  }
  if (!check_keys (&p, root, "", keys, "source, virtual"))
    goto out;
  for (i = 0; i < 2; i++) {
    m = member (root, keys[i]);
    if (m == NULL) {
      fail_at (&p, GCV_ERROR_INVALID, root->offset, "missing \"%s\" (the %s camera) in the top-level object",
          keys[i], keys[i]);
      goto out;
    }
    if (!parse_camera (&p, m, keys[i], &cams[i]))
      goto out;
  }
  if (source != NULL)
    *source = cams[0];
  if (virt != NULL)
    *virt = cams[1];

out:
  node_free (root);
  return p.status;
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
