// OpenBLAS's CBLAS interface (Debian: the serial build, libopenblas-serial-dev, so that
// the classifier never starts threads of its own; callers parallelize across images).
#include <cblas.h>
