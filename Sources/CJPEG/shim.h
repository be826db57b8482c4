// libjpeg's headers need stdio.h and stddef.h first.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
