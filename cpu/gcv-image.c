/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gcv-image.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void
gcv_error_set (GcvError * err, GcvStatus status, const char *fmt, ...)
{
  va_list ap;

  if (err == NULL)
    return;
  err->status = status;
  va_start (ap, fmt);
  vsnprintf (err->message, sizeof (err->message), fmt, ap);
  va_end (ap);
}

void
gcv_cancel_request (GcvCancel * cancel)
{
  __atomic_store_n (&cancel->requested, 1, __ATOMIC_RELEASE);
}

void
gcv_cancel_clear (GcvCancel * cancel)
{
  __atomic_store_n (&cancel->requested, 0, __ATOMIC_RELEASE);
}

GcvStatus
gcv_cancel_check (const GcvCancel * cancel, const char *what, GcvError * err)
{
  if (!gcv_cancel_requested (cancel))
    return GCV_OK;
  gcv_error_set (err, GCV_ERROR_CANCELLED, "%s: stopped on request", what);
  return GCV_ERROR_CANCELLED;
}

#ifdef _OPENMP
#include <omp.h>
#endif

int
gcv_thread_index (void)
{
#ifdef _OPENMP
  return omp_get_thread_num ();
#else
  return 0;
#endif
}

double
gcv_now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int
gcv_ensure_capacity (void **ptr, size_t * cap, size_t n, size_t sz)
{
  void *p;

  if (n <= *cap && *ptr)
    return 1;
  if (n == 0)
    n = 1;
  p = malloc (n * sz);
  if (!p)
    return 0;
  free (*ptr);
  *ptr = p;
  *cap = n;
  return 1;
}

void
gcv_text_position (const char *text, size_t len, size_t off, int *line, int *col)
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

GcvStatus
gcv_read_settings_file (const char *path, size_t max_bytes, const char *what, char **text, size_t * len,
    GcvError * err)
{
  struct stat st;
  char *buf;
  size_t n = 0;
  int fd;

  *text = NULL;
  *len = 0;
  if (path == NULL || path[0] == '\0') {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s: no file name given", what);
    return GCV_ERROR_INVALID;
  }
  /* O_NONBLOCK: opening a FIFO nobody writes to must not block */
  fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s \"%s\": cannot open: %s", what, path, strerror (errno));
    return GCV_ERROR_INVALID;
  }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)) {
    close (fd);
    gcv_error_set (err, GCV_ERROR_INVALID, "%s \"%s\": not a regular file (a FIFO or a device would block "
        "or never end)", what, path);
    return GCV_ERROR_INVALID;
  }
  if ((size_t) st.st_size > max_bytes) {
    close (fd);
    gcv_error_set (err, GCV_ERROR_INVALID, "%s \"%s\": too large (%lld bytes, at most %zu)", what, path,
        (long long) st.st_size, max_bytes);
    return GCV_ERROR_INVALID;
  }
  buf = malloc ((size_t) st.st_size + 1);
  if (buf == NULL) {
    close (fd);
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "%s \"%s\": out of memory", what, path);
    return GCV_ERROR_NO_MEMORY;
  }
  /* at most the size fstat gave (a file growing meanwhile is cut there) */
  while (n < (size_t) st.st_size) {
    ssize_t got = read (fd, buf + n, (size_t) st.st_size - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      int e = errno;
      close (fd);
      free (buf);
      gcv_error_set (err, GCV_ERROR_INVALID, "%s \"%s\": cannot read: %s", what, path, strerror (e));
      return GCV_ERROR_INVALID;
    }
    if (got == 0)
      break;
    n += (size_t) got;
  }
  close (fd);
  {
    const char *nul = memchr (buf, '\0', n);
    if (nul != NULL) {
      int line, col;
      gcv_text_position (buf, n, (size_t) (nul - buf), &line, &col);
      free (buf);
      gcv_error_set (err, GCV_ERROR_INVALID, "%s \"%s\": a NUL byte at line %d, column %d (not a text file)", what,
          path, line, col);
      return GCV_ERROR_INVALID;
    }
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return GCV_OK;
}
