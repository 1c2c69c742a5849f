// Probes of TMA behaviour the documentation leaves open: elementStrides[0]
// on a tiled map, and the im2col mode's traversal (corners, offsets, element
// strides, wrap to the next row and image). Each element of the global
// tensor holds 1 + its coordinates packed as n*1000000 + d2*10000 + d1*100 +
// c, so 0 in shared memory is the out-of-bounds fill.
//
//   nvcc -arch=sm_90a -o tma_probe tma_probe.cu -lcuda && ./tma_probe
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      printf("cuda error %s at %d\n", cudaGetErrorString(e), __LINE__);        \
      return 1;                                                                \
    }                                                                          \
  } while (0)

// Waits for phase 0 of the barrier, giving up after a bound (a probe whose
// transaction count is wrong must not hang): false on time-out.
__device__ __forceinline__ bool waitBar(uint64_t *bar) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(bar);
  for (int i = 0; i < 2000000; ++i) {
    uint32_t done;
    asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                 " selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(a));
    if (done)
      return true;
  }
  return false;
}

struct Args {
  int c[5];
  unsigned short off[3];
  int rank;
  int tiled;
  unsigned bytes;
};

__global__ void probe(const __grid_constant__ CUtensorMap map, Args a,
                      uint32_t *out) {
  __shared__ alignas(1024) uint32_t smem[4096];
  __shared__ uint64_t bar;
  __shared__ int timedOut;
  for (int i = threadIdx.x; i < 4096; i += blockDim.x)
    smem[i] = 0xDEADBEEF;
  if (threadIdx.x == 0) {
    uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar);
    uint32_t d = (uint32_t)__cvta_generic_to_shared(smem);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b),
                 "r"(a.bytes));
    if (a.tiled) {
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3}], [%4];" ::"r"(d),
                   "l"(&map), "r"(a.c[0]), "r"(a.c[1]), "r"(b)
                   : "memory");
    } else if (a.rank == 3) {
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4}], [%5], {%6};" ::"r"(d),
                   "l"(&map), "r"(a.c[0]), "r"(a.c[1]), "r"(a.c[2]), "r"(b),
                   "h"(a.off[0])
                   : "memory");
    } else if (a.rank == 4) {
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" ::"r"(d),
                   "l"(&map), "r"(a.c[0]), "r"(a.c[1]), "r"(a.c[2]),
                   "r"(a.c[3]), "r"(b), "h"(a.off[0]), "h"(a.off[1])
                   : "memory");
    } else {
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};" ::"r"(d),
                   "l"(&map), "r"(a.c[0]), "r"(a.c[1]), "r"(a.c[2]),
                   "r"(a.c[3]), "r"(a.c[4]), "r"(b), "h"(a.off[0]),
                   "h"(a.off[1]), "h"(a.off[2])
                   : "memory");
    }
    timedOut = !waitBar(&bar);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 4096; i += blockDim.x)
    out[i] = smem[i];
  if (threadIdx.x == 0)
    out[4096] = timedOut;
}

typedef CUresult (*EncodeIm2colFn)(CUtensorMap *, CUtensorMapDataType,
                                   cuuint32_t, void *, const cuuint64_t *,
                                   const cuuint64_t *, const int *, const int *,
                                   cuuint32_t, cuuint32_t, const cuuint32_t *,
                                   CUtensorMapInterleave, CUtensorMapSwizzle,
                                   CUtensorMapL2promotion,
                                   CUtensorMapFloatOOBfill);
typedef CUresult (*EncodeTiledFn)(CUtensorMap *, CUtensorMapDataType,
                                  cuuint32_t, void *, const cuuint64_t *,
                                  const cuuint64_t *, const cuuint32_t *,
                                  const cuuint32_t *, CUtensorMapInterleave,
                                  CUtensorMapSwizzle, CUtensorMapL2promotion,
                                  CUtensorMapFloatOOBfill);
static EncodeIm2colFn encodeIm2col;
static EncodeTiledFn encodeTiled;

static void decode(uint32_t v, char *buf) {
  if (v == 0xDEADBEEF) {
    strcpy(buf, "----");
  } else if (v == 0) {
    strcpy(buf, "oob");
  } else {
    v -= 1;
    snprintf(buf, 32, "n%u,%u,%u,c%u", v / 1000000, v / 10000 % 100,
             v / 100 % 100, v % 100);
  }
}

// One im2col probe: tensor dims innermost first (C, W, H[, D], N).
static int runIm2col(const char *name, std::vector<cuuint64_t> dims,
                     std::vector<int> lo, std::vector<int> hi, unsigned cpp,
                     unsigned ppc, std::vector<uint32_t> es,
                     std::vector<int> coords, std::vector<unsigned short> offs) {
  int rank = dims.size();
  uint64_t total = 1;
  for (auto d : dims)
    total *= d;
  std::vector<uint32_t> host(total);
  for (uint64_t i = 0; i < total; ++i) {
    uint64_t r = i;
    uint32_t idx[5] = {0, 0, 0, 0, 0};
    for (int d = 0; d < rank; ++d) {
      idx[d] = r % dims[d];
      r /= dims[d];
    }
    uint32_t n = idx[rank - 1];
    uint32_t s2 = rank >= 4 ? idx[2] : 0;
    host[i] = 1 + n * 1000000 + s2 * 10000 + idx[1] * 100 + idx[0];
  }
  uint32_t *dev, *out;
  CK(cudaMalloc(&dev, total * 4));
  CK(cudaMalloc(&out, 4097 * 4));
  CK(cudaMemcpy(dev, host.data(), total * 4, cudaMemcpyHostToDevice));
  cuuint64_t strides[4];
  uint64_t s = 4;
  for (int d = 0; d < rank - 1; ++d) {
    s *= dims[d];
    strides[d] = s;
  }
  CUtensorMap map;
  CUresult r = encodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, rank, dev,
                            dims.data(), strides, lo.data(), hi.data(), cpp,
                            ppc, es.data(), CU_TENSOR_MAP_INTERLEAVE_NONE,
                            CU_TENSOR_MAP_SWIZZLE_NONE,
                            CU_TENSOR_MAP_L2_PROMOTION_NONE,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  printf("== %s: encode -> %d\n", name, (int)r);
  if (r != CUDA_SUCCESS) {
    cudaFree(dev);
    cudaFree(out);
    return 0;
  }
  Args a{};
  for (int i = 0; i < rank; ++i)
    a.c[i] = coords[i];
  for (size_t i = 0; i < offs.size(); ++i)
    a.off[i] = offs[i];
  a.rank = rank;
  a.tiled = 0;
  a.bytes = cpp * ppc * 4;
  probe<<<1, 128>>>(map, a, out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("   launch error %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<uint32_t> got(4097);
  CK(cudaMemcpy(got.data(), out, 4097 * 4, cudaMemcpyDeviceToHost));
  if (got[4096])
    printf("   barrier timed out (transaction count differs)\n");
  for (unsigned p = 0; p < ppc + 1 && p < 40; ++p) {
    char b0[32], b1[32];
    decode(got[p * cpp], b0);
    decode(got[p * cpp + cpp - 1], b1);
    printf("   pixel %2u: %s .. %s\n", p, b0, b1);
  }
  cudaFree(dev);
  cudaFree(out);
  return 0;
}

static int runTiledElementStride(unsigned es0, unsigned es1) {
  // 2D u32 tensor 64 x 16 (dims innermost first: 64, 16).
  cuuint64_t dims[2] = {64, 16};
  std::vector<uint32_t> host(64 * 16);
  for (int i = 0; i < 64 * 16; ++i)
    host[i] = 1 + (i / 64) * 100 + (i % 64);
  uint32_t *dev, *out;
  CK(cudaMalloc(&dev, host.size() * 4));
  CK(cudaMalloc(&out, 4097 * 4));
  CK(cudaMemcpy(dev, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
  cuuint64_t strides[1] = {64 * 4};
  uint32_t box[2] = {16, 4};
  uint32_t es[2] = {es0, es1};
  CUtensorMap map;
  CUresult r = encodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, dev, dims,
                           strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                           CU_TENSOR_MAP_SWIZZLE_NONE,
                           CU_TENSOR_MAP_L2_PROMOTION_NONE,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  printf("== tiled box [16,4] elementStrides [%u,%u]: encode -> %d\n", es0, es1,
         (int)r);
  if (r != CUDA_SUCCESS)
    return 0;
  Args a{};
  a.tiled = 1;
  a.c[0] = 0;
  a.c[1] = 0;
  unsigned n0 = (16 + es0 - 1) / es0, n1 = (4 + es1 - 1) / es1;
  // Try the full box bytes first; report what the barrier needed.
  a.bytes = 16 * n1 * 4;
  (void)n0;
  probe<<<1, 128>>>(map, a, out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("   launch error %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<uint32_t> got(4097);
  CK(cudaMemcpy(got.data(), out, 4097 * 4, cudaMemcpyDeviceToHost));
  if (got[4096])
    printf("   barrier timed out (transaction count differs)\n");
  for (int row = 0; row < 5; ++row) {
    printf("   row %d:", row);
    for (int i = 0; i < 16; ++i) {
      uint32_t v = got[row * 16 + i];
      if (v == 0xDEADBEEF)
        printf(" --");
      else
        printf(" %u", v - 1);
    }
    printf("\n");
  }
  return 0;
}

// One case per process (a trapping case leaves the context unusable):
//   ./tma_probe            lists the cases; ./tma_probe NAME runs one.
struct Case {
  const char *name;
  int (*run)();
};
static std::vector<cuuint64_t> d4 = {8, 5, 5, 2};
static const Case kCases[] = {
    {"tiled-es0-2", [] { return runTiledElementStride(2, 1); }},
    {"tiled-es1-2", [] { return runTiledElementStride(1, 2); }},
    {"3x3-pad1-s1", [] {
       return runIm2col("3x3 pad1 s1 start(-1,-1) off(0,0)", d4, {-1, -1},
                        {-1, -1}, 8, 30, {1, 1, 1, 1}, {0, -1, -1, 0}, {0, 0});
     }},
    {"3x3-pad1-s1-off21", [] {
       return runIm2col("3x3 pad1 s1 start(-1,-1) off(2,1)", d4, {-1, -1},
                        {-1, -1}, 8, 30, {1, 1, 1, 1}, {0, -1, -1, 0}, {2, 1});
     }},
    {"3x3-pad1-s2-off12", [] {
       return runIm2col("3x3 pad1 s2 start(1,-1) off(1,2)", d4, {-1, -1},
                        {-1, -1}, 8, 12, {1, 2, 2, 1}, {0, 1, -1, 0}, {1, 2});
     }},
    {"off-257", [] {
       return runIm2col("rank4 off(257,0)", d4, {-1, -1}, {-1, -1}, 8, 6,
                        {1, 1, 1, 1}, {0, -1, 0, 0}, {257, 0});
     }},
    {"off-3", [] {
       return runIm2col("rank4 off(3,0) beyond the filter", d4, {-1, -1},
                        {-1, -1}, 8, 6, {1, 1, 1, 1}, {0, -1, 0, 0}, {3, 0});
     }},
    {"es-c-2", [] {
       return runIm2col("es on C=2", d4, {-1, -1}, {-1, -1}, 8, 8,
                        {2, 1, 1, 1}, {0, -1, -1, 0}, {0, 0});
     }},
    {"es-n-2", [] {
       return runIm2col("es on N=2", d4, {-1, -1}, {-1, -1}, 8, 30,
                        {1, 1, 1, 2}, {0, 2, 3, 0}, {1, 1});
     }},
    {"rank3", [] {
       return runIm2col("rank3 k3 pad1 s1", {4, 6, 2}, {-1}, {-1}, 4, 14,
                        {1, 1, 1}, {0, -1, 0}, {2});
     }},
    {"rank5", [] {
       return runIm2col("rank5 k3 pad1 s1 D=3", {4, 3, 3, 3, 1}, {-1, -1, -1},
                        {-1, -1, -1}, 4, 12, {1, 1, 1, 1, 1},
                        {0, -1, -1, -1, 0}, {1, 1, 1});
     }},
    {"rank5-off-33", [] {
       return runIm2col("rank5 off(33,0,0): 5 bits keep 1", {4, 3, 3, 3, 1},
                        {-1, -1, -1}, {-1, -1, -1}, 4, 6, {1, 1, 1, 1, 1},
                        {0, -1, 0, 0, 0}, {33, 0, 0});
     }},
    {"rank5-off-1", [] {
       return runIm2col("rank5 off(1,0,0)", {4, 3, 3, 3, 1}, {-1, -1, -1},
                        {-1, -1, -1}, 4, 6, {1, 1, 1, 1, 1}, {0, -1, 0, 0, 0},
                        {1, 0, 0});
     }},
    {"rank3-off-300", [] {
       return runIm2col("rank3 off(300): 16 bits keep 300 (outside)", {4, 6, 2},
                        {-1}, {-1}, 4, 4, {1, 1, 1}, {0, -1, 0}, {300});
     }},
    {"start-below-lo", [] {
       return runIm2col("start h=-3 below lo=-1", d4, {-1, -1}, {-1, -1}, 8, 8,
                        {1, 1, 1, 1}, {0, 0, -3, 0}, {0, 0});
     }},
    {"start-above-hi", [] {
       return runIm2col("start w=4 above hi (3)", d4, {-1, -1}, {-1, -1}, 8, 8,
                        {1, 1, 1, 1}, {0, 4, 0, 0}, {0, 0});
     }},
    {"start-c-negative", [] {
       return runIm2col("start c=-4", d4, {-1, -1}, {-1, -1}, 8, 4,
                        {1, 1, 1, 1}, {-4, 0, 0, 0}, {0, 0});
     }},
    {"start-n-beyond", [] {
       return runIm2col("start n=2 (N=2)", d4, {-1, -1}, {-1, -1}, 8, 4,
                        {1, 1, 1, 1}, {0, 0, 0, 2}, {0, 0});
     }},
    {"enc-lo-129", [] {
       return runIm2col("rank4 lo=-129", d4, {-129, -1}, {-1, -1}, 8, 4,
                        {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0});
     }},
    {"enc-lo-128", [] {
       return runIm2col("rank4 lo=-128", d4, {-128, -1}, {-1, -1}, 8, 4,
                        {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0});
     }},
    {"enc-hi-128", [] {
       return runIm2col("rank4 hi=128", d4, {-1, -1}, {128, -1}, 8, 4,
                        {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0});
     }},
    {"enc-empty-box", [] {
       return runIm2col("rank4 lo=3 hi=-3 (W=5: empty)", d4, {3, -1}, {-3, -1},
                        8, 4, {1, 1, 1, 1}, {0, 3, 0, 0}, {0, 0});
     }},
    {"enc-cpp-260", [] {
       return runIm2col("cpp=260", {260, 2, 2, 1}, {0, 0}, {0, 0}, 260, 1,
                        {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0});
     }},
    {"enc-cpp-6", [] {
       return runIm2col("cpp=6 (24 bytes)", d4, {0, 0}, {0, 0}, 6, 4,
                        {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0});
     }},
    {"enc-ppc-1025", [] {
       return runIm2col("ppc=1025", d4, {0, 0}, {0, 0}, 4, 1025, {1, 1, 1, 1},
                        {0, 0, 0, 0}, {0, 0});
     }},
    {"enc-ppc-1024", [] {
       return runIm2col("ppc=1024 cpp=4", d4, {0, 0}, {0, 0}, 4, 1024,
                        {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0});
     }},
    {"enc-ppc-257", [] {
       return runIm2col("ppc=257 cpp=4", d4, {0, 0}, {0, 0}, 4, 257,
                        {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0});
     }},
    {"enc-es-9", [] {
       return runIm2col("es 9", d4, {0, 0}, {0, 0}, 8, 4, {1, 9, 1, 1},
                        {0, 0, 0, 0}, {0, 0});
     }},
};

int main(int argc, char **argv) {
  if (argc < 2) {
    for (const Case &c : kCases)
      printf("%s\n", c.name);
    return 0;
  }
  cudaFree(0);
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPoint("cuTensorMapEncodeIm2col", (void **)&encodeIm2col,
                             cudaEnableDefault, &q));
  CK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", (void **)&encodeTiled,
                             cudaEnableDefault, &q));
  for (const Case &c : kCases)
    if (!strcmp(c.name, argv[1]))
      return c.run();
  printf("unknown case %s\n", argv[1]);
  return 2;
}
