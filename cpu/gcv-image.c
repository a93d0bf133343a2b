/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gcv-image.h"

#include <stdarg.h>
#include <stdio.h>

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
