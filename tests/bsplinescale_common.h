/* gst-cuda-video: what the B-spline scaler's algorithm test
 * (bsplinescale_algo_test.c) and CUDA test (bsplinescale_cuda_test.c)
 * share: names for messages, parameter and geometry constructors, typed
 * samples, garbage-filled planes, the photos of tests/data and the SciPy
 * fixtures (tests/fixtures/scipy-bspline/, tests/gen_scipy_fixtures.py).
 *
 * The names are the short ones both tests used before they were shared.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_BSPLINESCALE_COMMON_H
#define GCV_BSPLINESCALE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "bsplinescale.h"
#include "gcv-test.h"

/* The largest error against SciPy, F32, of the data range: the issue's
 * requirement. */
#define SCIPY_TOL_F32 1e-4

/* indexed by GcvScaleMethod and GcvSampleType */
extern const char *const method_names[4];
extern const char *const type_names[3];

GcvScaleParams params_make (GcvScaleMethod m, int aa);
GcvScaleGeometry geom_make (GcvSampleType type, int channels, int iw, int ih, int ow, int oh);

/* typed samples: gcv_test_sample_get / _put (gcv-test.h) */

/* Fills every byte of a plane of `channels` samples of type t per pixel,
 * padding included, with pseudo-random garbage drawn from *state; for F32
 * the padding words then become NaN and FLT_MAX, which would show if they
 * leaked into an output. */
void garbage_fill (GcvPlane * p, GcvSampleType t, int channels, uint32_t * state);

/* The photos of tests/data (gcv_test_photos), loaded by photos_load (which
 * exits 1 when one is missing). */
extern GcvTestImage photos[4];
void photos_load (void);
void photos_free (void);
/* Channel c of photo ph at (x, y), coordinates wrapping around the photo;
 * gray photos give their value for every c, colour ones channel c % 3. */
int photo_sample (int ph, int x, int y, int c);

/* n little-endian floats, the whole of file `rel` under the tests/
 * directory; exits 1 when the file is missing or of another size. */
float *read_f32 (const char *rel, size_t n);

/* One line of tests/fixtures/scipy-bspline/manifest.txt with its data:
 * scipy.ndimage.map_coordinates(order=3, mode='reflect') of the iw x ih
 * image `in` at the ow x oh output positions gives `out`.  kind "u8": the
 * input holds integers 0..255. */
#define SCIPY_MANIFEST "fixtures/scipy-bspline/manifest.txt"
typedef struct {
  char in_name[256], out_name[256], kind[16];
  int iw, ih, ow, oh;
  float *in, *out;
} ScipyCase;

/* Every case of the manifest, in its order.  A line that does not parse is a
 * failed check ("scipy manifest: bad line: ...") and is skipped; a missing
 * data file ends the program (read_f32).  Returns NULL after a failed check
 * when the manifest cannot be opened. */
ScipyCase *scipy_cases_load (int *n_cases);
void scipy_cases_free (ScipyCase * cases, int n_cases);

#endif /* GCV_BSPLINESCALE_COMMON_H */
