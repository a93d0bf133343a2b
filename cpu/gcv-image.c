/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gcv-image.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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
