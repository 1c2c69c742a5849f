/* Host-overhead loop for the bandwidth benchmark: calls a compiled entry
 * `void entry(void *in, void *out, void *stream)` (the _mlir_ciface_ form,
 * memref descriptors by pointer) n times and returns the host nanoseconds per
 * call, measured with CLOCK_MONOTONIC around the loop. The launches are
 * asynchronous; the caller synchronises the stream afterwards. Built with the
 * benchmark's artifacts (bench/Bandwidth/build.sh) so the overhead is measured
 * without Python's call cost. */
#include <stdint.h>
#include <time.h>

typedef void (*Entry)(void *, void *, void *);

double tile_bench_host_loop(void *fn, void *in, void *out, void *stream,
                            int n) {
  Entry entry = (Entry)fn;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (int i = 0; i < n; ++i)
    entry(in, out, stream);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double ns = (b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
  return ns / n;
}
