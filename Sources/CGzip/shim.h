// zlib (apt: zlib1g-dev, which the build needs already), for gzip answers in transit-serve.
#include <zlib.h>
