// Tesseract's plain C API (capi.h) and Leptonica's pixel containers.
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>

// Debian's Tesseract is built with OpenMP (libgomp): each LSTM step opens a parallel region of four threads. On a
// two-core machine already busy with decoding and detection those threads wait on each other, and one small digit
// line costs about five times what a single thread takes. The reader calls this OpenMP runtime function (libgomp's
// ABI, declared here because Swift's clang does not see GCC's omp.h) with 0, so that every parallel region runs on
// the calling thread.
void omp_set_max_active_levels(int max_levels);
int omp_get_max_active_levels(void);
